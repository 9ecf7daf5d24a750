"""Actions players (or the clock) take, events the engine emits, and typed rejections."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.kinds import ActionKind, EventKind
from engine.view_types import ActionDict

# The seat None acts only through TIMEOUT: a deadline passed, or a window nobody can still use
# reached its end. Every other action names the seat taking it.
TIMEOUT = ActionKind.TIMEOUT


@dataclass(frozen=True, slots=True)
class Action:
    # The engine and the payload codec make members; a plain string equal to one is taken too
    # (StrEnum), and ``engine.apply`` rejects any other kind as malformed (Illegal).
    kind: ActionKind
    seat: int | None
    decision: int  # the id of the pending decision this answers; a stale id is rejected
    target: int | None = None  # another seat
    card: str | None = None  # an item card id, an occupation id, or a named item kind
    choice: str | None = None  # a side, a direction, a position, …
    cards: tuple[str, ...] = ()
    seats: tuple[int, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"kind": self.kind, "seat": self.seat, "decision": self.decision}
        if self.target is not None:
            d["target"] = self.target
        if self.card is not None:
            d["card"] = self.card
        if self.choice is not None:
            d["choice"] = self.choice
        if self.cards:
            d["cards"] = list(self.cards)
        if self.seats:
            d["seats"] = list(self.seats)
        return d

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Action:
        return action_of(d)


def action_of(d: ActionDict | Mapping[str, Any]) -> Action:
    """An action from its ``to_dict`` form (``ActionDict``: as a view holds one, e.g. a turn
    chosen ahead)."""
    return Action(
        kind=ActionKind(d["kind"]),
        seat=d["seat"],
        decision=d["decision"],
        target=d.get("target"),
        card=d.get("card"),
        choice=d.get("choice"),
        cards=tuple(d.get("cards", ())),
        seats=tuple(d.get("seats", ())),
    )


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened. ``to`` is None for the whole table, else the seats told."""

    kind: EventKind
    to: tuple[int, ...] | None
    data: dict[str, Any] = field(default_factory=dict)  # typed per kind: ``engine.events``

    @property
    def public(self) -> bool:
        return self.to is None

    def to_dict(self) -> dict[str, Any]:
        to = None if self.to is None else list(self.to)
        return {"kind": str(self.kind), "to": to, **self.data}


class Rejected(Exception):
    """The action was not applied; the state is unchanged."""


class GameOver(Rejected):
    pass


class Stale(Rejected):
    """The action answers a decision that is no longer pending."""


class NotYourTurn(Rejected):
    """The seat is not among those who may act on the pending decision."""


class Illegal(Rejected):
    """The seat may act, but not this way."""
