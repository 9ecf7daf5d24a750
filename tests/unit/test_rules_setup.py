"""§2 Setup (R-S1…R-S8), the ``items`` option and the advanced 3-player deal, for 3–10 players."""

from __future__ import annotations

from collections import Counter

import pytest

import engine
from engine.cards import (
    ADVANCED_ITEMS,
    ALL_ITEMS,
    BAGS,
    BROTHERHOOD,
    OCCUPATIONS,
    ORDER,
    STARTER_ITEMS,
    hand_limit,
)
from tests.unit.engine_helpers import NAMES, Game, check_cards

COUNTS = range(3, 11)
SPLIT = {3: 2, 4: 2, 5: 3, 6: 3, 7: 4, 8: 4, 9: 5, 10: 5}
LIMIT = {3: 8, 4: 6, 5: 5, 6: 5, 7: 5, 8: 5, 9: 5, 10: 5}


def start(n: int, seed: int = 7, **options: object) -> engine.State:
    st, _ = engine.new_game(NAMES[:n], seed, options or None)
    return st


@pytest.mark.parametrize("n", COUNTS)
def test_R_S1_one_face_down_occupation_each_rest_is_the_deck(n: int) -> None:
    st = start(n)
    held = [p.occupation for p in st.players]
    assert len(set(held)) == n
    assert sorted(held + st.occ_deck) == sorted(OCCUPATIONS)
    assert len(st.occ_deck) == 10 - n
    assert not any(p.occ_up or p.occ_spent for p in st.players)
    assert all(p["occupation"] is None for p in engine.public_view(st)["players"])


@pytest.mark.parametrize("n", COUNTS)
def test_R_S2_association_split_and_the_unseen_card(n: int) -> None:
    st = start(n)
    k = SPLIT[n]
    dealt = [p.assoc for p in st.players]
    assert all(len(a) == 1 for a in dealt)
    cards = Counter([a[0] for a in dealt] + st.boxed_assoc)
    assert cards == Counter({ORDER: k, BROTHERHOOD: k})
    assert len(st.boxed_assoc) == (1 if n % 2 else 0)
    assert "assoc" not in str(engine.public_view(st))


@pytest.mark.parametrize("n", [3, 5, 7, 9])
def test_R_S2_boxed_card_varies_so_the_minority_is_unknown(n: int) -> None:
    boxed = {start(n, seed).boxed_assoc[0] for seed in range(40)}
    assert boxed == {ORDER, BROTHERHOOD}


@pytest.mark.parametrize("n", COUNTS)
def test_R_S3_drink_of_power_at_odd_counts_face_up(n: int) -> None:
    st = start(n)
    assert all(p.drink == (n % 2 == 1) for p in st.players)
    assert all(p["drink"] == (n % 2 == 1) for p in engine.public_view(st)["players"])


@pytest.mark.parametrize("n", COUNTS)
def test_R_S4_removed_items(n: int) -> None:
    st = start(n)
    expected = {3: ["black_pearl"], 10: ["coat"]}.get(n, [])
    assert st.removed == expected
    held = {c for p in st.players for c in p.items}
    assert not set(expected) & (held | set(st.pile))


@pytest.mark.parametrize("n", COUNTS)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_R_S5_starting_items_bags_and_pile(n: int, seed: int) -> None:
    st = start(n, seed)
    check_cards(st)
    per_player = 2 if n == 3 else 1
    assert all(len(p.items) == per_player for p in st.players)
    held = [c for p in st.players for c in p.items]
    assert set(BAGS) <= set(held)  # both Bags are always dealt
    starters = [c for c in held if c not in BAGS]
    assert len(starters) == (4 if n == 3 else n - 2)
    assert all(c in STARTER_ITEMS for c in starters)
    assert len(st.pile) == 21 - len(st.removed) - len(held)
    assert sorted(st.pile) == sorted(c for c in ALL_ITEMS if c not in held and c not in st.removed)


@pytest.mark.parametrize("n", COUNTS)
def test_R_S5_public_counts_at_setup(n: int) -> None:
    st, events = engine.new_game(NAMES[:n], 3)
    started = events[0]
    assert started.kind == "game_started" and started.public
    assert started.data["pile"] == len(st.pile)
    assert started.data["items"] == [len(p.items) for p in st.players]
    dealt = [e for e in events if e.kind == "dealt"]
    assert [e.to for e in dealt] == [(s,) for s in range(n)]  # R-V2: each sees only their own


@pytest.mark.parametrize("n", COUNTS)
def test_R_S6_advanced_items_never_dealt_and_in_the_pile_with_full(n: int) -> None:
    for seed in range(25):
        st = start(n, seed)
        held = {c for p in st.players for c in p.items}
        assert not held & ADVANCED_ITEMS
        assert (ADVANCED_ITEMS - set(st.removed)) <= set(st.pile)
    assert start(n).options["items"] == "full"


@pytest.mark.parametrize("n", COUNTS)
def test_R_S6_beginner_leaves_advanced_items_out(n: int) -> None:
    st = start(n, items="beginner")
    check_cards(st)
    assert set(st.removed) >= ADVANCED_ITEMS
    assert not ADVANCED_ITEMS & set(st.pile)
    expected_removed = len(ADVANCED_ITEMS) + (1 if n == 3 else 0)  # the Coat is advanced anyway
    assert len(st.removed) == expected_removed
    held = sum(len(p.items) for p in st.players)
    assert len(st.pile) == 21 - expected_removed - held


def test_R_S6_items_option_is_checked() -> None:
    with pytest.raises(engine.SetupError):
        start(4, items="expert")
    with pytest.raises(engine.SetupError):
        start(4, colour="blue")


@pytest.mark.parametrize("n", [2, 11])
def test_R_S2_player_count_must_be_3_to_10(n: int) -> None:
    with pytest.raises(engine.SetupError):
        engine.new_game([f"x{i}" for i in range(n)], 1)


@pytest.mark.parametrize("n", COUNTS)
def test_R_S7_hand_limit(n: int) -> None:
    limit = LIMIT[n]
    assert hand_limit(n) == limit
    spare = [c for c in ALL_ITEMS if c not in ("black_pearl", "coat")]
    at_limit = Game.make(n, hands={0: spare[:limit]})
    assert at_limit.kind == "turn"
    over = Game.make(n, hands={0: spare[: limit + 1]})
    assert over.kind == "gift" and over.pending.actors == [0]
    assert over.pending.data["excess"] == 1


@pytest.mark.parametrize("n", COUNTS)
def test_R_S8_first_player_random_and_play_clockwise(n: int) -> None:
    firsts = {start(n, seed).first for seed in range(60)}
    assert len(firsts) >= min(n, 3)
    st = start(n, 5)
    assert st.turn == st.first == start(n, 5).first  # seeded
    seen = []
    for _ in range(n + 1):
        aw = engine.awaiting(st)
        assert aw is not None and aw.kind == "turn"
        seen.append(aw.seats[0])
        st, _ = engine.apply(st, engine.Action("pass", aw.seats[0], aw.decision))
        if st.pending is not None and st.pending.kind == "turn" and st.pending.data["acted"]:
            st, _ = engine.apply(st, engine.Action("end", st.turn, st.pending.id))
    assert seen == [(st.first + i) % n for i in range(n + 1)]


@pytest.mark.parametrize("seed", range(6))
def test_R_S2_advanced_three_players_three_cards_each(seed: int) -> None:
    st = start(3, seed, advanced_three=True)
    assert st.options["advanced_three"] is True
    assert all(len(p.assoc) == 3 for p in st.players)
    assert len(st.boxed_assoc) == 1
    cards = Counter([c for p in st.players for c in p.assoc] + st.boxed_assoc)
    assert cards == Counter({ORDER: 5, BROTHERHOOD: 5})
    for p in st.players:
        assert p.association == (ORDER if p.assoc.count(ORDER) >= 2 else BROTHERHOOD)
    assert all(p.drink for p in st.players)  # still an odd count


def test_R_S2_advanced_three_only_applies_at_three_players() -> None:
    st = start(4, advanced_three=True)
    assert st.options["advanced_three"] is False
    assert all(len(p.assoc) == 1 for p in st.players)


def test_R_S1_options_default_off() -> None:
    opts = start(5).options
    assert opts["items"] == "full"
    for flag in ("smuggling", "fortune_telling", "advanced_three", "personal_scores"):
        assert opts[flag] is False


@pytest.mark.parametrize("n", COUNTS)
def test_R_S5_deal_differs_between_seeds_but_not_for_the_same_seed(n: int) -> None:
    a, b, c = start(n, 11), start(n, 11), start(n, 12)
    assert a.to_dict() == b.to_dict()
    assert a.to_dict() != c.to_dict()
