"""The data of every event kind, as TypedDicts: what the engine's emitters (``Ctx.public``,
``Ctx.private``) write for each, by kind. ``engine.events`` maps each kind to its shape
(``SHAPES``) and reads an event's data typed."""

from __future__ import annotations

from typing import Literal, TypedDict

from engine.view_types import ActionDict, FinalResult


class Empty(TypedDict):
    """``bags_turned`` (R-W2): nothing but that it happened."""


class SeatData(TypedDict):
    """``away``, ``back`` (R-D2), ``passed``, ``pile_arranged``, ``coat_kept``, ``coat_swapped``,
    ``coat_empty``, ``doctor_cancelled``, ``claim_solo``: the seat that did it."""

    seat: int


class PairData(TypedDict):
    """A seat and the seat it did it to: ``attack``, ``fight_over``, ``hypnotized``,
    ``item_taken``, ``diplomat_missed``, ``trade_offered``, ``trade_accepted``,
    ``trade_refused``, ``tome_kept``, ``tome_swapped``."""

    seat: int
    target: int


class TurnData(TypedDict):
    """``turn``: whose turn begins, in which round."""

    seat: int
    round: int


class TradeDoneData(TypedDict):
    """``trade_done``: the trader, the partner, and whether a Diplomat forced it."""

    seat: int
    target: int
    forced: bool


class Effect(TypedDict):
    giver: int
    receiver: int
    item: str  # the public name: a Bag's kind, not which Bag


class EffectsData(TypedDict):
    """``effects``: the traded items whose effect fires, each with who gave and who got it."""

    items: list[Effect]


class DrawEmptyData(TypedDict):
    """``draw_empty``: a seat should draw but the pile is empty; why it should."""

    seat: int
    reason: str


class DrewData(TypedDict):
    """``drew``: a seat drew (why), and the pile's size left."""

    seat: int
    reason: str
    pile: int


class SextantData(TypedDict):
    """``sextant``: the direction the Sextant's holder chose."""

    seat: int
    direction: str


class SextantPassedData(TypedDict):
    """``sextant_passed``: everyone gave an item that way."""

    direction: str


class OccupationData(TypedDict):
    """``occupation_used`` (public), ``occupation_taken`` (the seat only): a seat's occupation."""

    seat: int
    occupation: str


class DiplomatData(TypedDict):
    """``diplomat``: the Diplomat's holder, the partner, the item kind asked for."""

    seat: int
    target: int
    name: str


class PriestStoppedData(TypedDict):
    """``priest_stopped`` (R-A2): the Priest's holder and the attacker stopped; also
    ``priest_no_tribute``, told to that attacker alone when they hold too few items to give."""

    seat: int
    attacker: int


class GiftData(TypedDict):
    """``gift``: who gave to whom, and why (hand limit, Priest, give-back)."""

    seat: int
    target: int
    reason: str


class PlayedData(TypedDict):
    """``played``: a boost card played in a fight's window."""

    seat: int
    card: str
    choice: str | None


class SupportData(TypedDict):
    """``support``: a seat's support told (R-A3)."""

    seat: int
    side: Literal["attacker", "defender", "neutral"]


class FightResultData(TypedDict):
    """``fight_result``: the strengths, the winner (None on a tie) and how it was decided."""

    seat: int
    target: int
    attack: int
    defence: int
    winner: int | None
    how: str


class RewardData(TypedDict):
    """``reward`` (R-A9): the winner's choice, to look or to take."""

    seat: int
    target: int
    choice: str


class ClaimData(TypedDict):
    """``claim``, ``claim_other``: the declarer and the seats named."""

    seat: int
    named: list[int]


class CountedSeat(TypedDict):
    seat: int
    goal: int
    ally: bool


class ClaimCountData(TypedDict):
    """``claim_count`` (R-W3, R-W4): the tally of a claim, all revealed (``claim_tally``)."""

    seat: int
    side: str
    seats: list[CountedSeat]
    drink: bool | None
    total: int
    needed: int
    held: bool
    why: str | None


class RevealedData(TypedDict):
    """``revealed`` (R-V3): a seat's cards, face up."""

    seat: int
    assoc: list[str]
    association: str
    items: list[str]


class RevealedSeat(TypedDict):
    seat: int
    assoc: list[str]
    association: str
    occupation: str
    items: list[str]
    goal: int


class GameOverData(FinalResult):
    """``game_over``: the result, everyone's cards and the association cards nobody held."""

    reveal: list[RevealedSeat]


class GameStartedData(TypedDict):
    """``game_started``: the seat order, the first seat, each seat's item count, whether Drinks
    are dealt, the pile's size and the item cards out of the game."""

    seats: list[int]
    first: int
    items: list[int]
    drinks: bool
    pile: int
    removed: list[str]


class DeadlineData(TypedDict):
    """``deadline``: a decision ran out."""

    decision: int
    decision_kind: str
    window: bool


# -- told to one seat --------------------------------------------------------------------------
class DealtData(TypedDict):
    """``dealt``: a seat's own cards."""

    seat: int
    assoc: list[str]
    occupation: str
    items: list[str]
    drink: bool


class OfferedData(TypedDict):
    """``offered``: the card a trader offers the partner."""

    seat: int
    target: int
    card: str


class ReceivedData(TypedDict):
    """``received`` (told to the receiver only): the card, from whom, and how."""

    seat: int
    source: int
    card: str
    how: str


class ItemLostData(TypedDict):
    """``item_lost``: the card a seat lost, and to whom."""

    seat: int
    to: int
    card: str


class ItemsSeenData(TypedDict):
    """``items_seen``: another seat's items, seen (how)."""

    about: int
    cards: list[str]
    how: str


class DrewCardData(TypedDict):
    """``drew_card``: the card a seat drew."""

    seat: int
    card: str


class CardsData(TypedDict):
    """``deck_seen`` (the Coat: the occupations nobody holds), ``pile_seen`` (the
    Clairvoyant: the pile, top first)."""

    cards: list[str]


class OccupationReceivedData(TypedDict):
    """``occupation_received``: the occupation a Tome swap gave a seat, and from whom."""

    seat: int
    source: int
    occupation: str


class AssociationSeenData(TypedDict):
    """``association_seen``: another seat's association card, seen (at a position of three
    with the advanced 3-player option)."""

    about: int
    assoc: str
    position: int | None
    how: str


class OccupationSeenData(TypedDict):
    """``occupation_seen``: another seat's occupation, seen."""

    about: int
    occupation: str
    how: str


class PremoveData(TypedDict):
    """``premove_played``, ``premove_kept`` (told to the seat only): its turn chosen ahead."""

    seat: int
    action: ActionDict


class PremoveDroppedData(PremoveData):
    """``premove_dropped``: ... and why it could not be played."""

    why: str
