"""Issue 28: an event's kind is an ``EventKind`` and the data of every kind has the shape
``engine.events`` gives it (what ``data_of`` and ``data_as`` hand the presenter, the group board,
the story and the message of a turn chosen ahead). Games are played to their end with random
legal actions, deadlines run out and players marked away and back, and the kinds they seldom
meet are scripted; every event is validated strictly against its kind's TypedDict (a key
missing, one more, or one of another type fails). The engine uses only
the standard library, so its TypedDicts are ``typing``'s, which pydantic refuses before Python
3.12: ``conforms`` checks them from their type hints."""

from __future__ import annotations

import random
import types
from collections import Counter
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints, is_typeddict

import pytest

import engine
from engine import EventKind
from engine.events import (
    SHAPES,
    PairData,
    PlayedData,
    SeatData,
    TurnData,
    data_as,
    data_of,
    seat_of,
    target_of,
)
from tests.unit.engine_helpers import BRO, ORD, Game


def _games(seeds: range) -> list[engine.Event]:
    events: list[engine.Event] = []
    for seed in seeds:
        rnd = random.Random(seed)
        n = 3 + seed % 8
        options = {
            "smuggling": True,
            "fortune_telling": seed % 3 == 0,
            "advanced_three": seed % 2 == 0,
            "personal_scores": seed % 4 == 0,
        }
        st, got = engine.new_game([f"p{i}" for i in range(n)], seed, options)
        events += got
        for _ in range(3000):
            aw = engine.awaiting(st)
            if aw is None:
                break
            roll = rnd.random()
            if roll < 0.05:
                events += engine.mark_away(st, rnd.randrange(n))
                continue
            if roll < 0.1:
                events += engine.come_back(st, rnd.randrange(n))
                continue
            if roll < 0.2 or aw.closable:
                action = engine.timeout_action(st)
            else:
                seat = rnd.choice(aw.seats)
                action = rnd.choice(engine.legal_actions(st, seat))
            st, got = engine.apply(st, action)
            events += got
    return events


def conforms(value: Any, tp: Any) -> bool:
    """``value`` is of type ``tp`` (the types these shapes use), strictly: no ``True`` for an
    int, no ``"0"`` for a seat."""
    origin, args = get_origin(tp), get_args(tp)
    if tp is None or tp is type(None):
        return value is None
    if origin in (Union, types.UnionType):
        return any(conforms(value, a) for a in args)
    if origin is Literal:
        return value in args
    if is_typeddict(tp):
        hints = get_type_hints(tp)
        return (
            isinstance(value, dict)
            and tp.__required_keys__ <= value.keys() <= hints.keys()
            and all(conforms(v, hints[k]) for k, v in value.items())
        )
    if origin is list:
        return isinstance(value, list) and all(conforms(v, args[0]) for v in value)
    if tp in (int, bool):
        return type(value) is tp
    return isinstance(value, tp)


def _scripted() -> list[engine.Event]:
    """The kinds a random table seldom meets: an empty occupation deck at the Coat, a solo win
    (R-W5), and a turn chosen ahead played, dropped and kept (engine.premove)."""
    g = Game.make(4, hands={0: ["coat"], 1: ["whip"]})
    g.st.occ_deck = []
    g.act(0, "trade", target=1, card="coat").act(1, "accept", card="whip")
    events = list(g.events)
    g = Game.make(
        4, hands={1: ["coat_of_arms", "key1", "goblet1", "goblet2"]}, assoc=[ORD, BRO] * 2, turn=1
    )
    events += g.act(1, "solo").events
    g = Game.make(4, hands={0: ["dagger"], 1: ["gloves"], 2: ["whip"]})
    g.act(0, "trade", target=2, card="dagger").act(1, "attack", target=3)
    events += g.act(2, "refuse").end_turn().events
    g = Game.make(4, hands={0: ["dagger", "key1"], 1: ["gloves", "whip"]})
    g.attack(0, 1, {2: "attacker", 3: "attacker"}).close().act(0, "take").close()
    g.act(1, "trade", target=2, card="gloves")
    events += g.act(0, "take", card="gloves").end_turn().events
    g = Game.make(4, hands={0: ["dagger"], 1: ["gloves"], 2: ["whip"]}, occ={1: "diplomat"})
    g.act(1, "attack", target=3).act(1, "keep_use", choice="on")
    return events + g.act(0, "pass").end_turn().events


def test_every_kind_has_a_shape() -> None:
    assert set(SHAPES) == set(EventKind)


def test_every_event_has_its_kinds_shape() -> None:
    """Every event of random games and of the scripted ones, strictly; every kind is met."""
    events = _games(range(40)) + _scripted()
    assert all(isinstance(e.kind, EventKind) for e in events)
    seen: Counter[EventKind] = Counter()
    for e in events:
        seen[e.kind] += 1
        assert conforms(e.data, SHAPES[e.kind]), e
    assert set(seen) == set(EventKind), set(EventKind) - set(seen)


def test_data_as_reads_an_event_as_a_shape_its_kind_has() -> None:
    """A renderer reads a ``fight_result`` as a pair of seats, never a ``turn`` as one."""
    result = engine.Event(
        EventKind.FIGHT_RESULT,
        None,
        {"seat": 1, "target": 2, "attack": 3, "defence": 1, "winner": 1, "how": "strength"},
    )
    turn = engine.Event(EventKind.TURN, None, {"seat": 2, "round": 1})
    assert data_as(result, PairData) == {**result.data}
    assert data_as(turn, TurnData)["round"] == 1
    assert data_as(turn, SeatData)["seat"] == 2
    with pytest.raises(TypeError, match="turn"):
        data_as(turn, PairData)
    assert (seat_of(result), target_of(result)) == (1, 2)
    assert (seat_of(turn), target_of(turn)) == (2, None)
    assert seat_of(engine.Event(EventKind.BAGS_TURNED, None, {})) is None


def test_a_shape_refuses_data_it_does_not_describe() -> None:
    assert conforms({"seat": 0, "card": "dagger", "choice": None}, PlayedData)
    assert not conforms({"seat": "0", "card": "dagger", "choice": None}, PlayedData)
    assert not conforms({"seat": 0, "card": "dagger"}, PlayedData)
    assert not conforms({"seat": True, "card": "dagger", "choice": None}, PlayedData)


def test_data_of_reads_only_its_kind() -> None:
    played = engine.Event(EventKind.PLAYED, None, {"seat": 1, "card": "dagger", "choice": None})
    assert data_of(played, EventKind.SUPPORT) is None
    got = data_of(played, EventKind.PLAYED)
    assert got is not None and got["card"] == "dagger"
