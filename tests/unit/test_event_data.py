"""Issue 28: an event's kind is an ``EventKind`` and the data of the kinds the table reads has
the shape ``engine.events`` gives it (what ``data_of`` hands the presenter, the group board and
the message of a turn chosen ahead). Games are played to their end with random legal actions,
deadlines run out and players marked away and back; every event of a typed kind is validated
strictly against its TypedDict (a key missing or of another type fails). The engine uses only
the standard library, so its TypedDicts are ``typing``'s, which pydantic refuses before Python
3.12: ``conforms`` checks them from their type hints."""

from __future__ import annotations

import random
import types
from collections import Counter
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints, is_typeddict

import engine
from engine import EventKind
from engine.events import SHAPES, PlayedData, data_of


def _games(seeds: range) -> list[engine.Event]:
    events: list[engine.Event] = []
    for seed in seeds:
        rnd = random.Random(seed)
        n = 3 + seed % 6
        st, got = engine.new_game([f"p{i}" for i in range(n)], seed, {"smuggling": True})
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
            and tp.__required_keys__ <= value.keys()
            and all(conforms(v, hints[k]) for k, v in value.items() if k in hints)
        )
    if origin is list:
        return isinstance(value, list) and all(conforms(v, args[0]) for v in value)
    if tp in (int, bool):
        return type(value) is tp
    return isinstance(value, tp)


def test_every_event_of_a_typed_kind_has_its_shape() -> None:
    events = _games(range(40))
    assert all(isinstance(e.kind, EventKind) for e in events)
    seen: Counter[EventKind] = Counter()
    for e in events:
        if e.kind in SHAPES:
            seen[e.kind] += 1
            assert conforms(e.data, SHAPES[e.kind]), e
    # the kinds a random table meets (a turn chosen ahead needs a player to choose it)
    met = set(SHAPES) - {
        EventKind.PREMOVE_PLAYED,
        EventKind.PREMOVE_KEPT,
        EventKind.PREMOVE_DROPPED,
    }
    assert met <= set(seen), met - set(seen)


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
