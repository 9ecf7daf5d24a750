"""Issue 23, dealing: the engine's generator (engine.rng). A game dealt now draws from a stream
keyed by its whole seed (at least 128 bits count, none is cut away), resumes exactly from the
number of words drawn stored in the state, and keeps apart the streams of the other uses of the
seed (AI passengers, their seats); a game stored by the code before (a 64-bit SplitMix64 state)
loads and plays on with SplitMix64."""

from __future__ import annotations

import copy
import json
from collections import Counter
from pathlib import Path

import pytest

import engine
from engine import State, upgrade_stored_state
from engine.ai import AiPolicy
from engine.ai.worlds import can_sample, sample
from engine.core import Ctx
from engine.rng import (
    DEAL,
    KEYED,
    PASSENGERS,
    SEATING,
    SPLITMIX,
    KeyedRng,
    Rng,
    deal_key,
    for_game,
    next_u64,
    stream,
)
from tests.unit.engine_helpers import NAMES

STORED = json.loads(
    (Path(__file__).parent / "data" / "game_docs_before_the_record.json").read_text()
)["playing"]["engine"]  # a game in play, stored by the code before the keyed stream

BIG = 0xC0FFEE << 200  # a seed whose bits lie far above the low 64


def deal(st: State) -> tuple[object, ...]:
    """Every card whose place is hidden information, and who starts."""
    return (
        [(p.assoc, p.occupation, p.items) for p in st.players],
        st.pile,
        st.occ_deck,
        st.boxed_assoc,
        st.first,
    )


def play_out(st: State, seed: int = 1, limit: int = 20_000) -> State:
    """Random legal decisions until the game ends; one in three runs out (its default, such as
    "a random item", is drawn from the game's generator)."""
    pick = Rng(seed)
    for _ in range(limit):
        aw = engine.awaiting(st)
        if aw is None:
            return st
        seat = aw.seats[pick.below(len(aw.seats))] if aw.seats else None
        legal = engine.legal_actions(st, seat) if seat is not None else []
        if legal and pick.below(3):
            action = legal[pick.below(len(legal))]
        else:
            action = engine.timeout_action(st)
        st, _ = engine.apply(st, action)
    raise AssertionError("the game did not end")


def test_the_whole_seed_keys_the_deal_not_its_low_64_bits() -> None:
    """Seeds that agree in their low 64 bits deal differently: SplitMix64's 64-bit state kept
    only those bits, so a 256-bit seed from the bot gave no more than 64 bits of deal."""
    names = NAMES[:6]
    for low in range(8):
        a, _ = engine.new_game(names, BIG + low)
        b, _ = engine.new_game(names, (BIG << 1) + low)
        assert deal(a) != deal(b)
    assert deal_key(BIG) != deal_key(BIG ^ (1 << 255))
    assert len(deal_key(BIG)) * 8 == 256


def test_a_game_dealt_now_is_marked_as_keyed_and_replays_from_its_seed() -> None:
    a, events_a = engine.new_game(NAMES[:5], BIG)
    b, events_b = engine.new_game(NAMES[:5], BIG)
    assert a.rng_kind == KEYED and a.to_dict()["rng_kind"] == KEYED
    assert a.to_dict() == b.to_dict() and events_a == events_b
    assert play_out(a).to_dict() == play_out(b).to_dict()


def test_the_stream_resumes_from_the_words_drawn_as_if_never_stopped() -> None:
    """Every ``apply`` builds the generator again from ``state.rng``: stopping anywhere, even
    inside one hashed block of eight words, changes nothing."""
    key = deal_key(BIG)
    whole = KeyedRng(key)
    expected = [whole.next_u64() for _ in range(40)]
    assert whole.state == 40
    got: list[int] = []
    drawn = 0
    for stop in (3, 1, 8, 5, 11, 12):
        part = KeyedRng(key, drawn)
        got += [part.next_u64() for _ in range(stop)]
        drawn = part.state
    assert got == expected
    assert len(set(expected)) == 40


def test_keyed_draws_are_uniform_shuffles_over_every_order() -> None:
    rng = KeyedRng(deal_key(5))
    orders: Counter[tuple[int, ...]] = Counter()
    for _ in range(6000):
        items = [0, 1, 2]
        rng.shuffle(items)
        orders[tuple(items)] += 1
    assert len(orders) == 6
    assert all(800 < c < 1200 for c in orders.values()), orders
    with pytest.raises(ValueError):
        rng.below(0)
    with pytest.raises(ValueError):
        KeyedRng(b"short key")


def test_the_other_uses_of_the_seed_have_streams_of_their_own() -> None:
    """AI passengers (per step and seat) and their seating are keyed from the seed in domains
    of their own: none of them repeats the deal's words, nor each other's."""
    deal_stream = for_game(KEYED, BIG, 0)
    deal_words = [deal_stream.next_u64() for _ in range(64)]
    firsts = {
        "seating": stream(BIG, SEATING).next_u64(),
        "ai 3/0": stream(BIG, PASSENGERS, 3, 0).next_u64(),
        "ai 3/1": stream(BIG, PASSENGERS, 3, 1).next_u64(),
        "ai 4/0": stream(BIG, PASSENGERS, 4, 0).next_u64(),
        "ai, other seed": stream(BIG + 1, PASSENGERS, 3, 0).next_u64(),
    }
    assert len(set(firsts.values())) == len(firsts)
    assert not set(firsts.values()) & set(deal_words)
    assert stream(BIG, PASSENGERS, 3, 0).next_u64() == firsts["ai 3/0"]  # deterministic
    with pytest.raises(ValueError):
        stream(BIG, DEAL)


def test_a_game_stored_before_the_keyed_stream_loads_and_plays_on_with_splitmix() -> None:
    """The stored state has a 64-bit ``seed`` and a SplitMix64 state in ``rng`` and no
    ``rng_kind``: it is read as SplitMix64's, its next draw is SplitMix64's next word, and it is
    written back marked so (upgrade_stored_state: loading alone is no change)."""
    assert "rng_kind" not in STORED
    st = State.from_dict(copy.deepcopy(STORED))
    assert st.rng_kind == SPLITMIX and st.rng == STORED["rng"]
    ctx = Ctx(st.clone())
    assert type(ctx.rng) is Rng
    assert ctx.rng.next_u64() == next_u64(STORED["rng"])[1]
    upgraded = upgrade_stored_state(STORED)
    assert upgraded["rng_kind"] == SPLITMIX and upgraded == st.to_dict()
    assert upgrade_stored_state(upgraded) is upgraded
    for seed, (rng, steps) in BEFORE.items():
        end = play_out(State.from_dict(copy.deepcopy(STORED)), seed)
        assert end.over and end.rng_kind == SPLITMIX
        assert (end.rng, end.step) == (rng, steps), "not as the code before played it"


# The same play-outs of the stored game on the code before the keyed stream (commit 4b1e240):
# the SplitMix64 state at the end and the steps taken. The defaults drew from the generator.
BEFORE = {
    1: (11231505420674332461, 195),
    2: (9568163545186994884, 92),
    3: (2522134290800641753, 132),
}


def test_an_imagined_world_of_an_ai_uses_the_fast_generator() -> None:
    """The worlds an AI passenger samples are not the game: they carry no secret and draw with
    SplitMix64 (engine.ai.worlds), so the keyed stream does not slow its search."""
    st, _ = engine.new_game(NAMES[:5], BIG)
    m = AiPolicy().mind(engine.view(st, st.turn))
    assert can_sample(m)
    world = sample(m, Rng(7))
    assert world.rng_kind == SPLITMIX and world.seed == 0
