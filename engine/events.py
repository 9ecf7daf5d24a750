"""What an event tells, typed: the data of the event kinds the table reads, as TypedDicts, and
``data_of``, the typed way to read it (``None`` for an event of another kind).

``Event.data`` is built by the engine's emitters (``Ctx.public``/``Ctx.private``) from keyword
arguments; these shapes are what those emitters write, and a test plays games and checks every
event of these kinds against them (``tests/unit/test_event_data.py``).
"""

from __future__ import annotations

from typing import Literal, TypeAlias, TypedDict, cast, overload

from engine.actions import Event
from engine.kinds import EventKind
from engine.view_types import ActionDict


class SeatData(TypedDict):
    """``away``, ``back``: the seat marked away, or back (R-D2)."""

    seat: int


class PlayedData(TypedDict):
    """``played``: a boost card played in a fight's window."""

    seat: int
    card: str
    choice: str | None


class SupportData(TypedDict):
    """``support``: a seat's support told (R-A3)."""

    seat: int
    side: Literal["attacker", "defender", "neutral"]


class TradeData(TypedDict):
    """``trade_refused``: the trader and the partner."""

    seat: int
    target: int


class TradeDoneData(TypedDict):
    """``trade_done``: the trader, the partner, and whether a Diplomat forced it."""

    seat: int
    target: int
    forced: bool


class ReceivedData(TypedDict):
    """``received`` (told to the receiver only): the card, from whom, and how."""

    seat: int
    source: int
    card: str
    how: str


class DeadlineData(TypedDict):
    """``deadline``: a decision ran out."""

    decision: int
    decision_kind: str
    window: bool


class PremoveData(TypedDict):
    """``premove_played``, ``premove_kept`` (told to the seat only): its turn chosen ahead."""

    seat: int
    action: ActionDict


class PremoveDroppedData(PremoveData):
    """``premove_dropped``: ... and why it could not be played."""

    why: str


EventData: TypeAlias = (
    SeatData
    | PlayedData
    | SupportData
    | TradeData
    | TradeDoneData
    | ReceivedData
    | DeadlineData
    | PremoveData
    | PremoveDroppedData
)

# The shape of each typed kind's data (checked against played games by the test above).
SHAPES: dict[EventKind, type[EventData]] = {
    EventKind.AWAY: SeatData,
    EventKind.BACK: SeatData,
    EventKind.PLAYED: PlayedData,
    EventKind.SUPPORT: SupportData,
    EventKind.TRADE_REFUSED: TradeData,
    EventKind.TRADE_DONE: TradeDoneData,
    EventKind.RECEIVED: ReceivedData,
    EventKind.DEADLINE: DeadlineData,
    EventKind.PREMOVE_PLAYED: PremoveData,
    EventKind.PREMOVE_KEPT: PremoveData,
    EventKind.PREMOVE_DROPPED: PremoveDroppedData,
}


@overload
def data_of(e: Event, kind: Literal[EventKind.AWAY, EventKind.BACK]) -> SeatData | None: ...
@overload
def data_of(e: Event, kind: Literal[EventKind.PLAYED]) -> PlayedData | None: ...
@overload
def data_of(e: Event, kind: Literal[EventKind.SUPPORT]) -> SupportData | None: ...
@overload
def data_of(e: Event, kind: Literal[EventKind.TRADE_REFUSED]) -> TradeData | None: ...
@overload
def data_of(e: Event, kind: Literal[EventKind.TRADE_DONE]) -> TradeDoneData | None: ...
@overload
def data_of(e: Event, kind: Literal[EventKind.RECEIVED]) -> ReceivedData | None: ...
@overload
def data_of(e: Event, kind: Literal[EventKind.DEADLINE]) -> DeadlineData | None: ...
@overload
def data_of(
    e: Event, kind: Literal[EventKind.PREMOVE_PLAYED, EventKind.PREMOVE_KEPT]
) -> PremoveData | None: ...
@overload
def data_of(e: Event, kind: Literal[EventKind.PREMOVE_DROPPED]) -> PremoveDroppedData | None: ...
def data_of(e: Event, kind: EventKind) -> EventData | None:
    """``e``'s data typed as its kind's (``SHAPES``), or None when ``e`` is of another kind."""
    if e.kind != kind:
        return None
    return cast(EventData, e.data)
