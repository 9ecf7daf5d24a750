"""What an event tells, typed: the data of every event kind as a TypedDict (``SHAPES``), and
the typed ways to read it: ``data_of`` (``None`` for an event of another kind), ``data_as``
(the shape a renderer reads, checked against the event's kind) and ``seat_of``/``target_of``.

``Event.data`` is built by the engine's emitters (``Ctx.public``/``Ctx.private``) from keyword
arguments; these shapes are what those emitters write, and a test plays games and checks every
event against its kind's shape, strictly: no key missing, none more, none of another type
(``tests/unit/test_event_data.py``).
"""

from __future__ import annotations

from typing import Literal, TypeAlias, TypeVar, cast, get_type_hints, overload

from engine.actions import Event
from engine.event_shapes import (
    AssociationSeenData,
    CardsData,
    ClaimCountData,
    ClaimData,
    DeadlineData,
    DealtData,
    DiplomatData,
    DrawEmptyData,
    DrewCardData,
    DrewData,
    EffectsData,
    Empty,
    FightResultData,
    GameOverData,
    GameStartedData,
    GiftData,
    ItemLostData,
    ItemsSeenData,
    OccupationData,
    OccupationReceivedData,
    OccupationSeenData,
    OfferedData,
    PairData,
    PlayedData,
    PremoveData,
    PremoveDroppedData,
    PriestStoppedData,
    ReceivedData,
    RevealedData,
    RewardData,
    SeatData,
    SextantData,
    SextantPassedData,
    SupportData,
    TradeDoneData,
    TurnData,
)
from engine.kinds import EventKind

EventData: TypeAlias = (
    Empty
    | SeatData
    | PairData
    | TurnData
    | TradeDoneData
    | EffectsData
    | DrawEmptyData
    | DrewData
    | SextantData
    | SextantPassedData
    | OccupationData
    | DiplomatData
    | PriestStoppedData
    | GiftData
    | PlayedData
    | SupportData
    | FightResultData
    | RewardData
    | ClaimData
    | ClaimCountData
    | RevealedData
    | GameOverData
    | GameStartedData
    | DeadlineData
    | DealtData
    | OfferedData
    | ReceivedData
    | ItemLostData
    | ItemsSeenData
    | DrewCardData
    | CardsData
    | OccupationReceivedData
    | AssociationSeenData
    | OccupationSeenData
    | PremoveData
    | PremoveDroppedData
)

K = EventKind
# The shape of every kind's data (checked against played games by the test above, and complete:
# a kind added to EventKind without its shape fails there).
SHAPES: dict[EventKind, type[EventData]] = {
    K.BAGS_TURNED: Empty,
    **dict.fromkeys(
        (
            K.AWAY,
            K.BACK,
            K.PASSED,
            K.PILE_ARRANGED,
            K.COAT_KEPT,
            K.COAT_SWAPPED,
            K.COAT_EMPTY,
            K.DOCTOR_CANCELLED,
            K.CLAIM_SOLO,
        ),
        SeatData,
    ),
    **dict.fromkeys(
        (
            K.ATTACK,
            K.FIGHT_OVER,
            K.HYPNOTIZED,
            K.ITEM_TAKEN,
            K.DIPLOMAT_MISSED,
            K.TRADE_OFFERED,
            K.TRADE_ACCEPTED,
            K.TRADE_REFUSED,
            K.TOME_KEPT,
            K.TOME_SWAPPED,
        ),
        PairData,
    ),
    K.TURN: TurnData,
    K.TRADE_DONE: TradeDoneData,
    K.EFFECTS: EffectsData,
    K.DRAW_EMPTY: DrawEmptyData,
    K.DREW: DrewData,
    K.SEXTANT: SextantData,
    K.SEXTANT_PASSED: SextantPassedData,
    K.OCCUPATION_USED: OccupationData,
    K.OCCUPATION_TAKEN: OccupationData,
    K.DIPLOMAT: DiplomatData,
    K.PRIEST_STOPPED: PriestStoppedData,
    K.PRIEST_NO_TRIBUTE: PriestStoppedData,
    K.GIFT: GiftData,
    K.PLAYED: PlayedData,
    K.SUPPORT: SupportData,
    K.FIGHT_RESULT: FightResultData,
    K.REWARD: RewardData,
    K.CLAIM: ClaimData,
    K.CLAIM_OTHER: ClaimData,
    K.CLAIM_COUNT: ClaimCountData,
    K.REVEALED: RevealedData,
    K.GAME_OVER: GameOverData,
    K.GAME_STARTED: GameStartedData,
    K.DEADLINE: DeadlineData,
    K.DEALT: DealtData,
    K.OFFERED: OfferedData,
    K.RECEIVED: ReceivedData,
    K.ITEM_LOST: ItemLostData,
    K.ITEMS_SEEN: ItemsSeenData,
    K.DREW_CARD: DrewCardData,
    K.DECK_SEEN: CardsData,
    K.PILE_SEEN: CardsData,
    K.OCCUPATION_RECEIVED: OccupationReceivedData,
    K.ASSOCIATION_SEEN: AssociationSeenData,
    K.OCCUPATION_SEEN: OccupationSeenData,
    K.PREMOVE_PLAYED: PremoveData,
    K.PREMOVE_KEPT: PremoveData,
    K.PREMOVE_DROPPED: PremoveDroppedData,
}


@overload
def data_of(e: Event, kind: Literal[EventKind.AWAY, EventKind.BACK]) -> SeatData | None: ...
@overload
def data_of(e: Event, kind: Literal[EventKind.PLAYED]) -> PlayedData | None: ...
@overload
def data_of(e: Event, kind: Literal[EventKind.SUPPORT]) -> SupportData | None: ...
@overload
def data_of(e: Event, kind: Literal[EventKind.TRADE_REFUSED]) -> PairData | None: ...
@overload
def data_of(e: Event, kind: Literal[EventKind.TRADE_DONE]) -> TradeDoneData | None: ...
@overload
def data_of(e: Event, kind: Literal[EventKind.RECEIVED]) -> ReceivedData | None: ...
@overload
def data_of(e: Event, kind: Literal[EventKind.DEADLINE]) -> DeadlineData | None: ...
@overload
def data_of(e: Event, kind: Literal[EventKind.ITEMS_SEEN]) -> ItemsSeenData | None: ...
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


D = TypeVar("D")


_READS: dict[tuple[EventKind, object], bool] = {}


def reads_as(kind: EventKind, shape: object) -> bool:
    """Data of ``kind`` may be read as ``shape``: every key ``shape`` has, ``kind``'s shape has,
    of the same type (``PairData`` reads a ``fight_result``; ``TurnData`` does not)."""
    got = _READS.get((kind, shape))
    if got is None:
        have = get_type_hints(SHAPES[kind])
        got = all(have.get(key) == tp for key, tp in get_type_hints(shape).items())
        _READS[kind, shape] = got
    return got


def data_as(e: Event, shape: type[D]) -> D:
    """``e``'s data read as ``shape``, which its kind's shape must have (``reads_as``): a
    renderer that reads an event as another kind's fails here, naming both, not at a key."""
    if not reads_as(e.kind, shape):
        name = getattr(shape, "__name__", shape)
        raise TypeError(f"a {e.kind} event's data ({SHAPES[e.kind].__name__}) is no {name}")
    return cast(D, e.data)


def seat_of(e: Event) -> int | None:
    """The seat the event names as its actor (``seat``), for the kinds whose shape has one."""
    return data_as(e, SeatData)["seat"] if reads_as(e.kind, SeatData) else None


def target_of(e: Event) -> int | None:
    """The seat the event names as its target (``target``), for the kinds whose shape has one."""
    return data_as(e, PairData)["target"] if reads_as(e.kind, PairData) else None
