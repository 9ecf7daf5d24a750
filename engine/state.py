"""The game state: plain, JSON-serializable data (lists, dicts, str, int, bool, None).

``State.to_dict``/``State.from_dict`` round-trip exactly; ``clone`` is the cheap copy used when a
caller wants the old state kept. Seats are the integers 0..n-1 in clockwise order.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.cards import ASSOCIATIONS, BROTHERHOOD, ORDER
from engine.frames import Frame, migrate, stored_before_typed
from engine.kinds import DecisionKind
from engine.rng import KEYED, SPLITMIX

Json = dict[str, Any]


@dataclass(slots=True)
class Player:
    name: str
    assoc: list[str]  # one association card, or three with the advanced 3-player option
    occupation: str
    items: list[str]
    drink: bool = False
    occ_up: bool = False  # face up (revealed) for good, until a Tome or Coat turns it down
    occ_spent: bool = False  # a once-occupation that was used
    timeouts: int = 0  # decisions in a row that ran out (R-D2)
    away: bool = False
    notes: list[Json] = field(default_factory=list)  # what this seat has learned, in order

    @property
    def association(self) -> str:
        if len(self.assoc) == 1:
            return self.assoc[0]
        return ORDER if self.assoc.count(ORDER) >= 2 else BROTHERHOOD

    def to_dict(self) -> Json:
        return {
            "name": self.name,
            "assoc": list(self.assoc),
            "occupation": self.occupation,
            "items": list(self.items),
            "drink": self.drink,
            "occ_up": self.occ_up,
            "occ_spent": self.occ_spent,
            "timeouts": self.timeouts,
            "away": self.away,
            "notes": [dict(n) for n in self.notes],
        }

    @classmethod
    def from_dict(cls, d: Json) -> Player:
        return cls(
            name=d["name"],
            assoc=list(d["assoc"]),
            occupation=d["occupation"],
            items=list(d["items"]),
            drink=d["drink"],
            occ_up=d["occ_up"],
            occ_spent=d["occ_spent"],
            timeouts=d["timeouts"],
            away=d["away"],
            notes=[dict(n) for n in d["notes"]],
        )


@dataclass(slots=True)
class Pending:
    """One decision the game waits for (R-D…): who may act, who passed, how it times out."""

    id: int
    kind: DecisionKind
    actors: list[int]  # who may still act
    deadline: str  # the §8 deadline kind: turn, trade, support, window, boost, choice
    window: bool = False  # R-D1: actors hidden from the public, lasts at least its minimum
    done: list[int] = field(default_factory=list)  # who already acted or passed
    data: Json = field(default_factory=dict)

    def __post_init__(self) -> None:
        if type(self.kind) is not DecisionKind:
            self.kind = DecisionKind(self.kind)  # a plain string given is checked

    def to_dict(self) -> Json:
        return {
            "id": self.id,
            "kind": self.kind,
            "actors": list(self.actors),
            "deadline": self.deadline,
            "window": self.window,
            "done": list(self.done),
            "data": _copy_json(self.data),
        }

    @classmethod
    def from_dict(cls, d: Json) -> Pending:
        return cls(
            id=d["id"],
            kind=DecisionKind(d["kind"]),
            actors=list(d["actors"]),
            deadline=d["deadline"],
            window=d["window"],
            done=list(d["done"]),
            data=_copy_json(d["data"]),
        )


@dataclass(slots=True)
class State:
    options: Json
    # The secret the hidden draws come from (engine.rng): never in a view or an event. A game
    # dealt now draws from the keyed stream of ``seed`` (``rng`` counts the words drawn); a game
    # stored before the keyed stream has no ``rng_kind`` and plays on with SplitMix64.
    seed: int
    rng: int
    players: list[Player]
    pile: list[str]  # the draw pile; the top card is the last element
    occ_deck: list[str]  # face-down occupations nobody holds (the Coat looks here)
    boxed_assoc: list[str]  # association cards nobody holds (odd counts, advanced 3 players)
    removed: list[str]  # item cards out of this game (R-S4, R-S6)
    turn: int  # the seat whose turn it is
    first: int
    rng_kind: str = KEYED  # engine.rng.KINDS
    turn_no: int = 0  # turns started so far; the "when" of every note
    step: int = 0  # actions applied so far
    next_id: int = 1  # id of the next pending decision
    frames: list[Frame] = field(default_factory=list)  # what is being resolved, innermost last
    pending: Pending | None = None
    result: Json | None = None  # set when the game is over
    # The public record of what was done to whom (R-V1), for players who reason over the game so
    # far: fights and supports, trades offered and refused, gifts, draws. See core.HISTORY_FIELDS.
    history: list[Json] = field(default_factory=list)

    @property
    def n(self) -> int:
        return len(self.players)

    @property
    def over(self) -> bool:
        return self.result is not None

    @property
    def round(self) -> int:
        """The round of the turn in progress: turns 1..n are round 1, n+1..2n round 2, …"""
        return (self.turn_no - 1) // self.n + 1 if self.turn_no else 1

    def to_dict(self) -> Json:
        return {
            "options": _copy_json(self.options),
            "seed": self.seed,
            "rng": self.rng,
            "rng_kind": self.rng_kind,
            "players": [p.to_dict() for p in self.players],
            "pile": list(self.pile),
            "occ_deck": list(self.occ_deck),
            "boxed_assoc": list(self.boxed_assoc),
            "removed": list(self.removed),
            "turn": self.turn,
            "first": self.first,
            "turn_no": self.turn_no,
            "step": self.step,
            "next_id": self.next_id,
            "frames": _copy_json(self.frames),
            "pending": self.pending.to_dict() if self.pending else None,
            "result": _copy_json(self.result),
            "history": [dict(h) for h in self.history],
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> State:
        return cls(
            options=_copy_json(d["options"]),
            seed=d["seed"],
            rng=d["rng"],
            rng_kind=d.get("rng_kind", SPLITMIX),  # stored before the keyed stream
            players=[Player.from_dict(p) for p in d["players"]],
            pile=list(d["pile"]),
            occ_deck=list(d["occ_deck"]),
            boxed_assoc=list(d["boxed_assoc"]),
            removed=list(d["removed"]),
            turn=d["turn"],
            first=d["first"],
            turn_no=d["turn_no"],
            step=d["step"],
            next_id=d["next_id"],
            frames=[migrate(_copy_json(f)) for f in d["frames"]],
            pending=Pending.from_dict(d["pending"]) if d["pending"] else None,
            result=_copy_json(d["result"]),
            history=[dict(h) for h in d.get("history", [])],
        )

    def clone(self) -> State:
        return State.from_dict(self.to_dict())


def upgrade_stored_state(d: Mapping[str, Any]) -> Mapping[str, Any]:
    """A stored state as this code stores it: ``d`` itself, or a copy when it holds frames of an
    older shape (migrated as ``State.from_dict`` does), so that a reader comparing what it stores
    with what it loaded does not take the migration for a change. A state stored before the keyed
    stream is marked as SplitMix64's."""
    old_frames = any(stored_before_typed(f) for f in d.get("frames", []))
    if not old_frames and "rng_kind" in d:
        return d
    d = {**d, "rng_kind": d.get("rng_kind", SPLITMIX)}
    if old_frames:
        d["frames"] = [migrate(_copy_json(f)) for f in d["frames"]]
    return d


def _copy_json(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _copy_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy_json(v) for v in value]
    return value


def other_association(assoc: str) -> str:
    return BROTHERHOOD if assoc == ORDER else ORDER


__all__ = [
    "ASSOCIATIONS",
    "Json",
    "Pending",
    "Player",
    "State",
    "other_association",
    "upgrade_stored_state",
]
