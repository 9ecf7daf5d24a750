"""The engine's state as the game record stores it: ``EngineDoc``, what ``engine.State.to_dict``
writes, typed at its top level (a seat's and the pending decision's fields too) and checked when
a stored game is loaded (``handlers.game_record``); only the engine reads inside its frames,
notes, history and result, so those are JSON objects not walked on load."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NotRequired, cast

from pydantic import ConfigDict, with_config
from typing_extensions import TypedDict

_KEEP = ConfigDict(extra="allow")  # a stored key this code does not know is kept


Inner = dict[str, object]  # a JSON object only the engine reads inside (not walked on load)


@with_config(_KEEP)
class EnginePlayer(TypedDict):
    """A seat in the engine's stored state (``engine.state.Player.to_dict``)."""

    name: str
    assoc: list[str]
    occupation: str
    items: list[str]
    drink: bool
    occ_up: bool
    occ_spent: bool
    timeouts: int
    away: bool
    notes: list[Inner]


@with_config(_KEEP)
class EnginePending(TypedDict):
    """The decision waited for, in the engine's stored state (``engine.Pending.to_dict``)."""

    id: int
    kind: str
    actors: list[int]
    deadline: str
    window: bool
    done: list[int]
    data: Inner


@with_config(_KEEP)
class EngineDoc(TypedDict):
    """The engine's state as it stores it (``engine.State.to_dict``; read back by
    ``State.from_dict``, which alone reads inside frames, notes, history and the result).
    ``rng_kind`` and ``history`` are missing from games stored before them."""

    options: Inner
    seed: int
    rng: int
    rng_kind: NotRequired[str]
    players: list[EnginePlayer]
    pile: list[str]
    occ_deck: list[str]
    boxed_assoc: list[str]
    removed: list[str]
    turn: int
    first: int
    turn_no: int
    step: int
    next_id: int
    frames: list[Inner]
    pending: EnginePending | None
    result: Inner | None
    history: NotRequired[list[Inner]]


def engine_doc(state: Mapping[str, Any]) -> EngineDoc:
    """The engine's stored state (``State.to_dict``, ``upgrade_stored_state``) as the record
    types it; that it has this shape is tested on played games (tests/unit/test_game_record)
    and checked on every load."""
    return cast(EngineDoc, state)
