"""§4 Attack (R-A1…R-A10): the Priest, support, Hypnotist, boost and Doctor windows, strength,
ties and both rewards."""

from __future__ import annotations

import pytest

import engine
from engine import Illegal
from tests.unit.engine_helpers import BRO, ORD, Game

A, D, N = "attacker", "defender", "neutral"


def result(g: Game) -> dict[str, object]:
    return g.of("fight_result")[-1].data


# -- R-A1 --------------------------------------------------------------------------------------
def test_R_A1_attack_names_another_player_publicly() -> None:
    g = Game.make(4, hands={0: ["dagger"]})
    assert {a.target for a in g.legal(0) if a.kind == "attack"} == {1, 2, 3}
    with pytest.raises(Illegal):
        g.act(0, "attack", target=0)
    with pytest.raises(Illegal):
        g.act(0, "attack", target=4)
    g.act(0, "attack", target=2)
    ev = g.of("attack", g.last)[0]
    assert ev.public and ev.data == {"seat": 0, "target": 2}


# -- R-A2 --------------------------------------------------------------------------------------
def test_R_A2_priest_window_comes_before_any_support() -> None:
    g = Game.make(4, occ={3: "priest"})
    g.act(0, "attack", target=1)
    assert g.kind == "priest" and g.pending.window and g.holders == [3]
    assert not g.of("support")
    # issue 9: every supporter is asked meanwhile; told only when the window closes
    assert g.legal_kinds(2) == {"support"}
    g.act(2, "support", choice=A)
    assert not g.of("support") and g.kind == "priest"
    g.close()
    assert [e.data for e in g.of("support", g.last)] == [{"seat": 2, "side": A}]
    assert g.kind == "support" and g.pending.actors == [3]


def test_R_A2_the_attacker_and_spent_priests_are_not_asked() -> None:
    g = Game.make(4, occ={0: "priest"})
    g.act(0, "attack", target=1)
    assert g.kind == "priest" and g.holders == []
    g2 = Game.make(4, occ={2: "priest"}, occ_up={2: True}, occ_spent={2: True})
    g2.act(0, "attack", target=1)
    assert g2.kind == "support"  # R-D1: the face-up spent Priest shows nobody can act


def test_R_A2_defender_may_be_the_priest() -> None:
    g = Game.make(4, occ={1: "priest"})
    g.act(0, "attack", target=1)
    assert g.holders == [1]


def test_R_A2_priest_stops_the_fight_and_takes_a_tribute() -> None:
    g = Game.make(4, hands={0: ["dagger", "key1"], 3: ["whip"]}, occ={3: "priest"})
    g.act(0, "attack", target=1).act(3, "use")
    assert g.of("priest_stopped", g.last)[0].public
    assert g.player(3).occ_up and g.player(3).occ_spent
    assert g.kind == "priest_tribute" and g.pending.actors == [0]
    assert {a.card for a in g.legal(0)} == {"dagger", "key1"}
    g.act(0, "give", card="key1")
    assert sorted(g.items(3)) == ["key1", "whip"] and g.items(0) == ["dagger"]
    assert not g.of("support") and not g.of("fight_result")
    assert g.of("gift", g.last)[0].data["reason"] == "priest"
    assert g.kind == "turn" and g.pending.actors == [1]  # R-A10


def test_R_A2_priest_gets_nothing_from_a_one_item_attacker() -> None:
    g = Game.make(4, hands={0: ["dagger"]}, occ={2: "priest"})
    g.act(0, "attack", target=1).act(2, "use")
    assert g.items(0) == ["dagger"]
    assert g.kind == "turn" and g.pending.actors == [1]


def test_R_A2_the_attacker_who_gives_nothing_is_told_so_alone() -> None:
    """Issue 25 (polish): with fewer than two items the attacker is asked nothing; they alone are
    told (an event addressed to them) that the Priest stopped them and they give nothing. With
    two or more, the tribute's decision tells them, and no such event comes."""
    g = Game.make(4, hands={0: ["dagger"]}, occ={2: "priest"})
    g.act(0, "attack", target=1).act(2, "use")
    told = g.of("priest_no_tribute", g.last)
    assert [(e.to, e.data) for e in told] == [((0,), {"seat": 2, "attacker": 0})]
    g2 = Game.make(4, hands={0: ["dagger", "key1"]}, occ={2: "priest"})
    g2.act(0, "attack", target=1).act(2, "use")
    assert g2.kind == "priest_tribute" and not g2.of("priest_no_tribute")


def test_R_A2_priest_tribute_then_hand_limit_for_the_priest() -> None:
    five = ["key1", "key2", "goblet1", "goblet2", "whip"]
    g = Game.make(5, hands={0: ["dagger", "gloves"], 2: five}, occ={2: "priest"})
    g.act(0, "attack", target=1).act(2, "use").act(0, "give", card="gloves")
    assert g.kind == "gift" and g.pending.actors == [2]


def test_R_A2_priest_passing_leaves_the_fight_on() -> None:
    g = Game.make(4, occ={3: "priest"})
    g.act(0, "attack", target=1).act(3, "pass")
    assert g.kind == "priest"  # R-D1: the window lasts until its end
    g.close()
    assert g.kind == "support"


# -- R-A3 --------------------------------------------------------------------------------------
def test_R_A3_supports_in_order_from_the_attackers_left() -> None:
    g = Game.make(6, turn=2)
    g.act(2, "attack", target=4).close()
    order = []
    while g.kind == "support":
        seat = g.pending.actors[0]
        order.append(seat)
        assert g.legal_kinds(seat) == {"support"}
        g.act(seat, "support", choice=A)
    assert order == [3, 5, 0, 1]
    assert [e.data["seat"] for e in g.of("support")] == [3, 5, 0, 1]
    assert all(e.public for e in g.of("support"))


def test_R_A3_support_decision_is_public_and_supports_count() -> None:
    g = Game.make(5)
    g.act(0, "attack", target=1).close()
    pub = engine.public_view(g.st)["pending"]
    assert pub["kind"] == "support" and pub["seats"] == [2]
    g.supports({2: A, 3: D, 4: A}).close().close()
    assert result(g)["attack"] == 3 and result(g)["defence"] == 2
    assert engine.public_view(g.st)["fight"]["supports"] == {"2": A, "3": D, "4": A}


def test_R_A3_support_timeout_is_neutral() -> None:
    g = Game.make(4)
    g.act(0, "attack", target=1).close().timeout()
    assert g.of("support", g.last)[0].data["side"] == N


# -- R-A3 with every supporter asked at once (issue 9, Decision in docs/rules.md) ----------------
def _supports_told(g: Game) -> list[tuple[int, str]]:
    return [(e.data["seat"], e.data["side"]) for e in g.of("support")]


def test_R_A3_every_supporter_is_asked_at_once_and_only_the_turn_is_waited_for() -> None:
    g = Game.make(6, turn=2)
    g.act(2, "attack", target=4).close()
    assert g.kind == "support" and g.pending.actors == [3, 5, 0, 1]
    aw = engine.awaiting(g.st)
    assert aw is not None and aw.seats == (3,) and aw.ahead == (5, 0, 1)
    assert all(g.legal_kinds(s) == {"support"} for s in (3, 5, 0, 1))
    assert engine.public_view(g.st)["pending"]["seats"] == [3]  # whose turn it is: public
    assert engine.view(g.st, 0)["decision"]["data"]["before"] == [3, 5]


def test_R_A3_a_declaration_ahead_is_kept_from_everyone_and_told_in_its_order() -> None:
    g = Game.make(6, turn=2)
    g.act(2, "attack", target=4).close()
    before = engine.public_view(g.st)
    g.act(0, "support", choice=A)  # ahead of 3 and 5
    assert g.last == [] and engine.public_view(g.st) == before
    assert engine.view(g.st, 0)["decision"]["data"]["declared"] == A
    assert engine.view(g.st, 5)["decision"]["data"]["declared"] is None  # nobody else's
    g.act(3, "support", choice=D)
    assert _supports_told(g) == [(3, D)]  # 5 has not declared: 0 waits
    g.act(5, "support", choice=N)
    assert _supports_told(g) == [(3, D), (5, N), (0, A)]  # told in one step, in order
    aw = engine.awaiting(g.st)
    assert aw is not None and aw.seats == (1,) and aw.ahead == ()


def test_R_A3_a_declaration_ahead_may_change_until_it_is_told() -> None:
    g = Game.make(5)
    g.act(0, "attack", target=1).close()
    g.act(4, "support", choice=A).act(4, "support", choice=D)
    g.act(2, "support", choice=N).act(3, "support", choice=N)
    assert _supports_told(g) == [(2, N), (3, N), (4, D)]
    assert g.kind in ("hypnotist", "boost")


def test_R_A3_declarations_made_in_the_priest_window_are_told_in_order_when_it_closes() -> None:
    g = Game.make(5, occ={1: "priest"})
    g.act(0, "attack", target=1)
    assert g.kind == "priest" and g.holders == [1]
    g.act(3, "support", choice=D)  # ahead of 2
    g.close()
    assert _supports_told(g) == [] and g.kind == "support"  # 2 has not declared yet
    g.act(4, "support", choice=A).act(2, "support", choice=A)
    assert _supports_told(g) == [(2, A), (3, D), (4, A)]


def test_R_A3_the_priest_stopping_the_fight_drops_every_declaration() -> None:
    g = Game.make(5, occ={1: "priest"}, hands={0: ["dagger", "whip"]})
    g.act(0, "attack", target=1)
    g.act(2, "support", choice=A).act(4, "support", choice=D)
    g.act(1, "use")
    assert g.of("priest_stopped") and not g.of("support")
    assert g.st.frames[-1].get("held_supports", {}) == {}


def test_R_A3_a_timeout_defaults_only_the_turn_to_neutral_and_tells_what_follows() -> None:
    g = Game.make(6, turn=2)
    g.act(2, "attack", target=4).close()
    g.act(5, "support", choice=A).act(1, "support", choice=D)
    part = engine.awaiting(g.st).part  # type: ignore[union-attr]
    g.timeout()  # 3 runs out
    assert _supports_told(g) == [(3, N), (5, A)]
    aw = engine.awaiting(g.st)
    assert aw is not None and aw.seats == (0,) and aw.part != part  # 0's deadline starts now
    with pytest.raises(engine.NotYourTurn):
        g.timeout(1)  # ahead of its turn: no default yet
    g.timeout()
    assert _supports_told(g) == [(3, N), (5, A), (0, N), (1, D)]


# -- R-A4 --------------------------------------------------------------------------------------
def test_R_A4_hypnotist_voids_one_support() -> None:
    g = Game.make(5, occ={0: "hypnotist"})
    g.act(0, "attack", target=1).close().supports({2: D, 3: D, 4: A})
    assert g.kind == "hypnotist" and g.pending.actors == [0]
    assert {a.target for a in g.legal(0) if a.kind == "hypnotize"} == {2, 3, 4}
    g.act(0, "hypnotize", target=2)
    assert g.of("hypnotized", g.last)[0].data == {"seat": 0, "target": 2}
    assert g.kind == "boost" and 2 not in g.pending.actors
    g.close()
    assert (result(g)["attack"], result(g)["defence"]) == (2, 2)


def test_R_A4_hypnotized_player_may_not_play() -> None:
    g = Game.make(4, hands={0: ["dagger"], 2: ["whip"]}, occ={0: "hypnotist", 2: "bodyguard"})
    g.act(0, "attack", target=1).close().supports({2: D})
    g.act(0, "hypnotize", target=2)
    assert g.legal(2) == []
    with pytest.raises(engine.NotYourTurn):
        g.act(2, "play", card="whip")
    # a play re-asks everyone but never the hypnotized player
    g.act(0, "play", card="dagger")
    assert sorted(g.pending.actors) == [0, 1, 3]
    g.close()
    assert (result(g)["attack"], result(g)["defence"]) == (2, 1)


def test_R_A4_only_an_attacking_hypnotist_is_asked() -> None:
    g = Game.make(4, occ={2: "hypnotist"})
    g.act(0, "attack", target=1).close().supports()
    assert g.kind == "hypnotist" and g.pending.actors == []
    g2 = Game.make(4, occ={1: "hypnotist"})
    g2.act(0, "attack", target=1).close().supports()
    assert g2.pending.actors == []


def test_R_A4_hypnotist_void_support_carries_no_bodyguard_bonus() -> None:
    g = Game.make(4, occ={0: "hypnotist", 2: "bodyguard"}, occ_up={2: True})
    g.act(0, "attack", target=1).close().supports({2: D, 3: A})
    g.act(0, "hypnotize", target=2).close()
    assert (result(g)["attack"], result(g)["defence"]) == (2, 1)


# -- R-A5 --------------------------------------------------------------------------------------
def test_R_A5_boost_window_asks_again_after_each_play() -> None:
    g = Game.make(4, hands={0: ["dagger"], 1: ["gloves"]})
    g.attack(0, 1)
    assert sorted(g.pending.actors) == [0, 1, 2, 3]
    g.act(1, "pass").act(2, "pass").act(3, "pass")
    assert g.pending.actors == [0]
    g.act(0, "play", card="dagger")
    assert g.of("played", g.last)[0].public
    assert sorted(g.pending.actors) == [0, 1, 2, 3]  # everyone may answer the Dagger
    assert "dagger" not in {a.card for a in g.legal(0)}  # played once
    g.act(1, "play", card="gloves")
    for seat in range(4):
        g.act(seat, "pass")
    aw = engine.awaiting(g.st)
    assert aw is not None and aw.kind == "boost" and aw.closable  # still needs its end
    g.close()
    assert (result(g)["attack"], result(g)["defence"]) == (2, 2)
    assert g.items(0) == ["dagger"] and g.items(1) == ["gloves"]  # played items stay in hand


def test_R_A5_played_occupations_stay_face_up() -> None:
    g = Game.make(4, occ={0: "thug"})
    g.attack(0, 1).act(0, "play", card="thug").close().close()
    g.timeout()  # reward
    assert g.player(0).occ_up
    assert engine.public_view(g.st)["players"][0]["occupation"] == "thug"


def test_R_A5_boost_timeout_is_everyone_done() -> None:
    g = Game.make(4, hands={0: ["dagger"]})
    g.attack(0, 1).close()
    assert g.kind == "doctor"
    assert not g.of("played")


# -- R-A6 --------------------------------------------------------------------------------------
def test_R_A6_strength_is_one_plus_supporters() -> None:
    g = Game.make(6)
    g.act(0, "attack", target=1).close().supports({2: A, 3: A, 4: D, 5: N}).close().close()
    assert (result(g)["attack"], result(g)["defence"]) == (3, 2)
    assert result(g)["winner"] == 0


@pytest.mark.parametrize(
    ("card", "seat", "sides", "expected"),
    [
        ("dagger", 0, {}, (2, 1)),
        ("gloves", 1, {}, (1, 2)),
        ("casting_knives", 2, {2: A}, (3, 1)),
        ("whip", 2, {2: D}, (1, 3)),
    ],
)
def test_R_A6_fight_item_bonuses(
    card: str, seat: int, sides: dict[int, str], expected: tuple[int, int]
) -> None:
    g = Game.make(4, hands={seat: [card]})
    g.attack(0, 1, sides).act(seat, "play", card=card).close()
    assert (result(g)["attack"], result(g)["defence"]) == expected


@pytest.mark.parametrize(
    ("card", "seat", "sides"),
    [
        ("dagger", 1, {}),  # only the attacker plays the Dagger
        ("dagger", 2, {2: A}),
        ("gloves", 0, {}),  # only the defender plays the Gloves
        ("gloves", 2, {2: D}),
        ("casting_knives", 0, {}),  # only a supporter of the attacker
        ("casting_knives", 2, {2: D}),
        ("casting_knives", 2, {}),
        ("whip", 1, {}),  # only a supporter of the defender
        ("whip", 2, {2: A}),
        ("poison_ring", 2, {2: A}),  # only attacker or defender
    ],
)
def test_R_A6_fight_items_only_for_their_player(
    card: str, seat: int, sides: dict[int, str]
) -> None:
    g = Game.make(4, hands={seat: [card]})
    g.attack(0, 1, sides)
    assert card not in {a.card for a in g.legal(seat)}
    with pytest.raises(Illegal):
        g.act(seat, "play", card=card)


def test_R_A6_occupation_bonuses_when_played() -> None:
    g = Game.make(5, occ={0: "thug", 1: "grand_master", 2: "bodyguard"})
    g.attack(0, 1, {2: A})
    plays = {a.card for s in range(5) for a in g.legal(s) if a.kind == "play"}
    assert {"thug", "grand_master", "bodyguard"} <= plays
    g.act(0, "play", card="thug").act(1, "play", card="grand_master")
    g.act(2, "play", card="bodyguard").close()
    assert (result(g)["attack"], result(g)["defence"]) == (4, 2)
    assert all(g.player(s).occ_up and not g.player(s).occ_spent for s in (0, 1, 2))


def test_R_A6_face_down_occupations_count_nothing_unless_played() -> None:
    g = Game.make(5, occ={0: "thug", 1: "grand_master", 2: "bodyguard"})
    g.attack(0, 1, {2: A}).close()
    assert (result(g)["attack"], result(g)["defence"]) == (2, 1)


def test_R_A6_face_up_always_occupations_apply_by_themselves() -> None:
    g = Game.make(
        5,
        occ={0: "thug", 1: "grand_master", 2: "bodyguard"},
        occ_up={0: True, 1: True, 2: True},
    )
    g.attack(0, 1, {2: D})
    plays = {a.card for s in range(5) for a in g.legal(s) if a.kind == "play"}
    assert not {"thug", "grand_master", "bodyguard"} & plays
    g.close()
    assert (result(g)["attack"], result(g)["defence"]) == (2, 4)


def test_R_A6_thug_and_grand_master_only_on_their_side() -> None:
    g = Game.make(
        4,
        hands={0: ["key1"], 1: ["key2"]},
        occ={0: "grand_master", 1: "thug"},
        occ_up={0: True, 1: True},
    )
    g.attack(0, 1)
    assert not [a for s in (0, 1) for a in g.legal(s) if a.kind == "play"]
    g.close()
    assert (result(g)["attack"], result(g)["defence"]) == (1, 1)


def test_R_A6_bodyguard_neutral_counts_nothing() -> None:
    g = Game.make(4, occ={2: "bodyguard"}, occ_up={2: True})
    g.attack(0, 1, {2: N}).close()
    assert (result(g)["attack"], result(g)["defence"]) == (1, 1)


def test_R_A6_duelist_voids_supports_and_supporter_bonuses() -> None:
    g = Game.make(
        5,
        hands={2: ["casting_knives"], 3: ["whip"]},
        occ={1: "duelist", 4: "bodyguard"},
        occ_up={4: True},
    )
    g.attack(0, 1, {2: A, 3: D, 4: A})
    g.act(2, "play", card="casting_knives").act(3, "play", card="whip")
    g.act(1, "play", card="duelist")
    assert g.player(1).occ_up and g.player(1).occ_spent
    # after the duel the supporters have no side: no more supporter cards
    assert not [a for s in (2, 3, 4) for a in g.legal(s) if a.kind == "play"]
    g.close()
    assert (result(g)["attack"], result(g)["defence"]) == (1, 2)


# -- R-A7 --------------------------------------------------------------------------------------
def test_R_A7_higher_strength_wins() -> None:
    g = Game.make(4)
    g.attack(0, 1, {2: D, 3: D}).close()
    assert result(g)["winner"] == 1 and result(g)["how"] == "strength"


@pytest.mark.parametrize("holder", [0, 1])
def test_R_A7_poison_ring_wins_the_tie_for_its_holder(holder: int) -> None:
    g = Game.make(4, hands={holder: ["poison_ring"]}, pile=["whip"])
    g.attack(0, 1).act(holder, "play", card="poison_ring").close()
    assert result(g)["winner"] == holder and result(g)["how"] == "poison_ring"
    g.close()
    assert g.kind == "reward" and g.pending.actors == [holder]
    assert g.st.pile == ["whip"]  # no tie draw


def test_R_A7_poison_ring_does_nothing_without_a_tie() -> None:
    g = Game.make(4, hands={1: ["poison_ring"]})
    g.attack(0, 1, {2: A}).act(1, "play", card="poison_ring").close()
    assert result(g)["winner"] == 0 and result(g)["how"] == "strength"


def test_R_A7_tie_attacker_draws_and_nobody_wins() -> None:
    g = Game.make(4, hands={0: ["dagger"]}, pile=["whip", "gloves"])
    g.fight(0, 1)
    assert result(g)["winner"] is None and result(g)["how"] == "tie"
    assert g.items(0) == ["dagger", "gloves"] and g.st.pile == ["whip"]
    assert g.of("drew", g.last)[0].data["reason"] == "tie"
    assert g.kind == "turn" and g.pending.actors == [1]


def test_R_A7_tie_with_an_empty_pile_draws_nothing() -> None:
    g = Game.make(4, hands={0: ["dagger"]}, pile=[])
    g.fight(0, 1)
    assert g.items(0) == ["dagger"] and g.of("draw_empty", g.last)


def test_R_A8_a_tie_with_an_empty_pile_has_no_doctor_window() -> None:
    # nothing a Doctor could cancel (no reward, no tie draw), as the table sees: R-D1 leaves the
    # window out; with a card left to draw, or a winner, it opens as before
    g = Game.make(4, occ={3: "doctor"}, pile=[])
    g.attack(0, 1).close()  # the boost window
    assert g.kind == "turn" and g.pending.actors == [1] and g.of("draw_empty", g.last)
    drawing = Game.make(4, occ={3: "doctor"}, pile=["whip"])
    drawing.attack(0, 1).close()
    assert drawing.kind == "doctor"
    won = Game.make(4, occ={3: "doctor"}, pile=[])
    won.attack(0, 1, {2: A}).close()
    assert won.kind == "doctor"


# -- R-A8 --------------------------------------------------------------------------------------
def test_R_A8_doctor_cancels_the_reward() -> None:
    g = Game.make(4, occ={3: "doctor"})
    g.attack(0, 1, {2: A}).close()
    assert g.kind == "doctor" and g.holders == [3]
    g.act(3, "use")
    assert g.of("doctor_cancelled", g.last)[0].public
    assert g.player(3).occ_up and g.player(3).occ_spent
    assert not g.of("reward") and g.kind == "turn" and g.pending.actors == [1]


def test_R_A8_doctor_cancels_the_tie_draw() -> None:
    g = Game.make(4, occ={0: "doctor"}, pile=["whip"])
    g.attack(0, 1).close()
    assert g.pending.actors == [0]  # the attacker may be the Doctor
    g.act(0, "use")
    assert g.st.pile == ["whip"] and len(g.items(0)) == 1


def test_R_A8_doctor_window_after_the_result() -> None:
    g = Game.make(4, occ={2: "doctor"})
    g.attack(0, 1, {3: A}).close()
    kinds = g.kinds()
    assert kinds.index("fight_result") < len(kinds)
    assert g.kind == "doctor" and g.of("fight_result")
    g.act(2, "pass")
    assert g.kind == "doctor"
    g.close()
    assert g.kind == "reward"


# -- R-A9 --------------------------------------------------------------------------------------
def test_R_A9_reward_look_at_association_and_occupation() -> None:
    g = Game.make(4, assoc=[ORD, BRO, ORD, BRO], occ={1: "priest"})
    g.fight(0, 1, {2: A})
    assert g.kind == "reward" and g.pending.actors == [0]
    g.act(0, "look")
    assert g.of("reward", g.last)[0].public and g.of("reward", g.last)[0].data["choice"] == "look"
    seen = {e.kind: e for e in g.last if e.to == (0,)}
    assert seen["association_seen"].data["assoc"] == BRO
    assert seen["occupation_seen"].data["occupation"] == "priest"
    assert g.notes(0, "saw_occupation")[0]["about"] == 1


def test_R_A9_reward_look_advanced_three_one_position() -> None:
    g = Game.make(
        3,
        assoc=[[ORD, ORD, BRO], [BRO, BRO, ORD], [ORD, BRO, BRO]],
        options={"advanced_three": True},
    )
    g.fight(0, 1, {2: A}).act(0, "look")
    assert g.kind == "look_pos"
    g.act(0, "look", choice="2")
    assert g.of("association_seen", g.last)[0].data["assoc"] == ORD


def test_R_A9_reward_take_sees_all_items_and_takes_one() -> None:
    g = Game.make(4, hands={0: ["dagger"], 1: ["privilege", "key2"]})
    g.fight(0, 1, {2: A}).act(0, "take")
    seen = g.of("items_seen", g.last)[0]
    assert seen.to == (0,) and sorted(seen.data["cards"]) == ["key2", "privilege"]
    assert g.kind == "reward_take"
    g.act(0, "take", card="privilege")
    assert sorted(g.items(0)) == ["dagger", "privilege"] and g.items(1) == ["key2"]
    taken = g.of("item_taken", g.last)[0]
    assert taken.public and "card" not in taken.data
    assert not g.of("effects", g.last) and not g.of("items_seen", g.last)  # nothing fires
    assert g.kind == "turn" and g.pending.actors == [1]


def test_R_A9_winner_gives_back_when_the_loser_has_nothing_left() -> None:
    # the loser's only item (a public count) is taken at once: no pick with one button (pace)
    g = Game.make(4, hands={0: ["dagger", "whip"], 1: ["key2"]})
    g.fight(0, 1, {2: A}).act(0, "take")
    seen = g.of("items_seen", g.last)[0]
    assert seen.to == (0,) and seen.data["cards"] == ["key2"]
    assert g.of("item_taken", g.last)[0].public
    lost = g.of("item_lost", g.last)[0]
    assert lost.to == (1,) and lost.data["card"] == "key2"
    assert g.kind == "giveback" and g.pending.actors == [0]
    assert {a.card for a in g.legal(0)} == {"dagger", "whip", "key2"}
    g.act(0, "give", card="whip")
    assert g.items(1) == ["whip"] and sorted(g.items(0)) == ["dagger", "key2"]
    assert g.of("gift", g.last)[0].data["reason"] == "giveback"


def test_R_A9_defender_may_win_the_reward() -> None:
    g = Game.make(4, hands={0: ["dagger", "whip"]})
    g.fight(0, 1, {2: D})
    assert g.pending.actors == [1] and g.pending.data["loser"] == 0


def test_R_A9_reward_defaults_look_and_random_item() -> None:
    g = Game.make(4, assoc=[ORD, BRO, ORD, BRO])
    g.fight(0, 1, {2: A}).timeout()
    assert g.of("reward", g.last)[0].data["choice"] == "look"
    g2 = Game.make(4, hands={1: ["whip", "gloves"]})
    g2.fight(0, 1, {2: A}).act(0, "take").timeout()
    assert len(g2.items(1)) == 1 and len(g2.items(0)) == 2


# -- R-A10 -------------------------------------------------------------------------------------
def test_R_A10_attackers_turn_ends() -> None:
    g = Game.make(4, turn=3)
    g.fight(3, 1)
    assert g.of("fight_over")
    assert g.kind == "turn" and g.pending.actors == [0]


def test_R_A7_tie_draw_over_the_hand_limit_gives_at_once_R_H1() -> None:
    five = ["key1", "key2", "goblet1", "goblet2", "dagger"]
    g = Game.make(5, hands={0: five}, pile=["whip"])
    g.fight(0, 1)
    assert g.kind == "gift" and g.pending.actors == [0]


def test_R_A9_take_over_the_hand_limit_gives_after_the_giveback_R_H1() -> None:
    five = ["key1", "key2", "goblet1", "goblet2", "dagger"]
    g = Game.make(5, hands={0: five, 1: ["whip"]})
    g.fight(0, 1, {2: A}).act(0, "take")  # the only item: taken at once
    assert g.kind == "giveback"
    g.act(0, "give", card="dagger")
    assert g.kind == "turn" and g.pending.actors == [1]  # back to 5: no gift
    g2 = Game.make(5, hands={0: list(five), 1: ["whip", "gloves"]})
    g2.fight(0, 1, {2: A}).act(0, "take").act(0, "take", card="whip")
    assert g2.kind == "gift" and g2.pending.actors == [0]


def test_R_A4_hypnotized_poison_mixer_cannot_decide() -> None:
    g = Game.make(4, occ={0: "hypnotist", 2: "poison_mixer"})
    g.act(0, "attack", target=1).close().supports().act(0, "hypnotize", target=2)
    assert g.legal(2) == []


def test_R_A6_duelist_against_a_hypnotized_support_and_a_face_up_grand_master() -> None:
    g = Game.make(
        5, occ={0: "hypnotist", 1: "grand_master", 3: "duelist"}, occ_up={1: True}, turn=3
    )
    # seat 3 attacks the Grand Master: supports all void once the Duelist plays
    g.attack(3, 1, {4: A, 0: D, 2: D})
    g.act(3, "play", card="duelist").close()
    assert (result(g)["attack"], result(g)["defence"]) == (2, 2)
