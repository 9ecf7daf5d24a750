"""The shapes of what leaves the engine (R-V1…R-V3): the public view, a seat's view, its decision
and its notebook. Each is a ``TypedDict``: plain JSON dicts at run time (built by
``engine.views``, deep-copied and stored as they are), checked by mypy at every access in the
renderers and the AI. Nothing here reads a ``State``: the renderers may import it.

JSON arrays whose positions have types (a card played: seat, card, choice) are typed as tuples:
read, indexed and unpacked alike, they stay lists at run time.

Keys a shape has only sometimes (a decision's data, by kind; a note's, by what was learned) are
``NotRequired`` / ``total=False``.
"""

from typing import Literal, NotRequired, TypedDict

from engine.kinds import DecisionKind

Played = list[tuple[int, str, str | None]]  # a fight's cards played: [seat, card, choice]
Fire = list[tuple[str, int]]  # a trade's items whose effect fires: [card, receiver]

# A decision's data, by the kinds that carry each key (engine.*'s ``ctx.open``), with what
# engine.views adds for the asked seat alone.


class DecisionData(TypedDict, total=False):
    attacker: int  # fight decisions: priest, support, hypnotist, boost, doctor
    defender: int
    priest: int  # priest_tribute: the seat whose Priest stopped the fight
    loser: int  # reward, reward_take, giveback
    seat: int  # trade_answer: who offers
    card: str  # trade_answer: the card offered
    partner: int  # tome
    target: int  # diplomat_give
    receive: str  # diplomat_give: the item kind asked for
    direction: str  # sextant_pass
    chosen: dict[str, str]  # sextant_pass: who gave what so far
    skip: list[int]  # smuggle: who skipped
    fire: Fire  # smuggle (the seat's own view): [card, receiver] it gave
    excess: int  # gift: cards over the hand limit
    about: int  # look_pos
    how: str
    occupation: bool  # look_pos: the occupation is seen too
    acted: bool  # turn: the seat already acted (only "end" is left)
    kept: "ActionDict"  # turn: chosen ahead, the free use kept (one tap)
    ahead: int  # turn chosen ahead: whose turn it is now
    held: "ActionDict | None"  # turn chosen ahead: what is kept
    keep_use: bool  # turn chosen ahead: ask to keep a face-down free use first
    early: bool  # asked its own decision while a window is open (engine.fight)
    turn: int  # support: whose turn it is in the order (R-A3)
    before: list[int]  # support: those still to be told before this seat
    declared: str | None  # support: this seat's declaration kept till told
    pile: list[str]  # clairvoyant: the pile, top first
    hand: list[str]  # reward_take: the loser's hand


class ActionDict(TypedDict):
    """``engine.Action.to_dict``: an action as a view (a turn chosen ahead) holds it."""

    kind: str
    seat: int | None
    decision: int
    target: NotRequired[int]
    card: NotRequired[str]
    choice: NotRequired[str]
    cards: NotRequired[list[str]]
    seats: NotRequired[list[int]]


class PublicPending(TypedDict):
    """The decision the game waits for, as the table sees it (R-D1: a window's actors hidden;
    the smuggling window is told as the trade settling, R-T9)."""

    id: int
    kind: DecisionKind | Literal["trade_settling"]
    deadline: str
    window: bool
    seats: NotRequired[list[int]]  # not for a window
    data: DecisionData


class OwnDecision(TypedDict):
    """A seat's own pending decision, with everything it alone may see."""

    id: int
    kind: DecisionKind
    deadline: str
    data: DecisionData


class PublicPlayer(TypedDict):
    seat: int
    name: str
    items: int  # how many
    drink: bool
    occupation: str | None  # face up only
    spent: bool | None  # face up only
    away: bool


class FightView(TypedDict):
    """The fight being resolved as the table sees it (R-V1), with its strengths (R-A6)."""

    attacker: int
    defender: int
    supports: dict[str, str]  # seat (as str) → side, told in order
    hypnotized: int | None
    played: Played  # [seat, card, choice]
    strength: list[int] | None  # [attacker, defender]
    decided: bool
    winner: int | None
    how: str | None  # "win", "tie", "ring", "mixer"


class HistoryEntry(TypedDict, total=False):
    """A public event kept in the record (``engine.core.HISTORY_FIELDS``)."""

    k: str
    turn: int
    seat: int
    target: int
    attacker: int
    side: str
    winner: int | None
    choice: str
    forced: bool
    direction: str
    reason: str


class Result(TypedDict):
    how: str
    declarer: int | None
    named: list[int]
    side: str | None
    winners: list[int]
    round: int
    scores: NotRequired[list[int]]


class FinalResult(Result):
    """The end as a final text tells it: the result, and the association cards nobody held."""

    boxed_assoc: NotRequired[list[str]]


class Reveal(TypedDict):
    seat: int
    assoc: list[str]
    occupation: str
    items: list[str]


class PublicView(TypedDict):
    """``engine.public_view``: what the whole table may know."""

    players: list[PublicPlayer]
    turn: int
    first: int
    round: int
    pile: int
    hand_limit: int
    bags_are_goals: bool
    removed: list[str]
    options: dict[str, object]
    pending: PublicPending | None
    fight: FightView | None
    over: bool
    history: list[HistoryEntry]
    result: NotRequired[Result]  # once the game is over
    reveal: NotRequired[list[Reveal]]
    boxed_assoc: NotRequired[list[str]]


class Me(TypedDict):
    name: str
    assoc: list[str]
    association: str
    occupation: str
    occ_up: bool
    occ_spent: bool
    items: list[str]
    drink: bool
    goals: dict[str, int]  # R-W3/R-W5: goal items of each association this hand counts


class Note(TypedDict, total=False):
    """What a seat learned (``engine.core.Ctx.note``): ``k`` says what, ``turn``/``round``/``h``
    when; the rest by kind."""

    k: str
    turn: int
    round: int
    h: int  # the length of the public history then
    about: int
    card: str
    cards: list[str]
    how: str
    occupation: str
    assoc: str | list[str]  # one card seen (saw_association), or a whole hand (dealt, revealed)
    position: int | None  # saw_association, advanced three players: which of the three
    items: list[str]
    pile: int
    removed: list[str]


class NextTurn(TypedDict):
    now: int
    held: ActionDict | None
    open: bool


class SeatView(TypedDict):
    """``engine.view``: what one seat may see now."""

    seat: int
    table: PublicView
    me: Me
    decision: OwnDecision | None
    notes: list[Note]
    next_turn: NextTurn | None


def seen_card(n: Note) -> str:
    """The association card a ``saw_association`` note tells."""
    card = n["assoc"]
    assert isinstance(card, str), n["k"]
    return card


def seen_hand(n: Note) -> list[str]:
    """The association cards a ``dealt`` or ``revealed`` note tells."""
    cards = n["assoc"]
    assert isinstance(cards, list), n["k"]
    return cards
