"""The machinery every mechanic shares: the apply context, decisions, notes and the step loop.

A mechanic module describes, per pending-decision kind, a ``Kind`` (legal actions for a seat, how
an action is handled, the default on timeout, and for windows how they close) and, per frame type,
a ``Step``, in its ``KINDS`` and ``STEPS`` tables; ``engine.mechanics`` puts them together.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.actions import Action, Event
from engine.cards import BAGS, GOAL_KIND, hand_limit, item_kind
from engine.frames import Frame
from engine.kinds import DecisionKind, EventKind
from engine.rng import Rng, for_game
from engine.state import Json, Pending, State

# Public events kept in ``State.history``, with the fields kept of each: who did what to whom,
# never a card (R-V1 makes the rest public too, but the record needs no more).
HISTORY_FIELDS: dict[str, tuple[str, ...]] = {
    "attack": ("seat", "target"),
    "priest_stopped": ("seat", "attacker"),
    "support": ("seat", "side"),
    "hypnotized": ("seat", "target"),
    "fight_result": ("seat", "target", "winner"),
    "doctor_cancelled": ("seat",),
    "reward": ("seat", "target", "choice"),
    "item_taken": ("seat", "target"),
    "trade_offered": ("seat", "target"),
    "trade_refused": ("seat", "target"),
    "trade_done": ("seat", "target", "forced"),
    "gift": ("seat", "target"),
    "diplomat_missed": ("seat", "target"),
    "sextant_passed": ("direction",),
    "drew": ("seat", "reason"),
}


class Ctx:
    """One ``apply`` call: the state being changed, the events it emits and the generator."""

    __slots__ = ("events", "rng", "state")

    def __init__(self, state: State) -> None:
        self.state = state
        self.events: list[Event] = []
        self.rng = for_game(state.rng_kind, state.seed, state.rng)

    # -- events and notes ------------------------------------------------------------------
    def public(self, kind: EventKind | str, **data: Any) -> None:
        kind = EventKind(kind)  # checked
        self.events.append(Event(kind, None, data))
        fields = HISTORY_FIELDS.get(kind)
        if fields is not None:
            st = self.state
            record: Json = {"k": kind.value, "turn": st.turn_no}
            record.update((f, data[f]) for f in fields)
            st.history.append(record)

    def private(
        self, seats: tuple[int, ...] | list[int], kind: EventKind | str, **data: Any
    ) -> None:
        self.events.append(Event(EventKind(kind), tuple(seats), data))

    def note(self, seat: int, kind: str, **data: Any) -> None:
        """Record in ``seat``'s notebook what they just learned, with when they learned it: the
        turn, and ``h``, the length of the public history then (to order notes among its events)."""
        st = self.state
        self.state.players[seat].notes.append(
            {"k": kind, "turn": st.turn_no, "round": st.round, "h": len(st.history), **data}
        )

    # -- decisions -------------------------------------------------------------------------
    def open(
        self,
        kind: DecisionKind | str,
        actors: list[int],
        deadline: str,
        *,
        window: bool = False,
        **data: Any,
    ) -> Pending:
        st = self.state
        # checked; a member, stored as its string
        p = Pending(st.next_id, DecisionKind(kind), list(actors), deadline, window, [], dict(data))
        st.next_id += 1
        st.pending = p
        return p

    def close(self) -> None:
        self.state.pending = None

    # -- cards -----------------------------------------------------------------------------
    def draw(self, seat: int, reason: str) -> str | None:
        """The top card of the pile into ``seat``'s hand (R-T8 Bag, R-A7 tie); None if empty."""
        st = self.state
        if not st.pile:
            self.public("draw_empty", seat=seat, reason=reason)
            return None
        card = st.pile.pop()
        st.players[seat].items.append(card)
        self.public("drew", seat=seat, reason=reason, pile=len(st.pile))
        self.private((seat,), "drew_card", seat=seat, card=card)
        self.note(seat, "drew", card=card)
        if not st.pile:
            self.public("bags_turned")  # R-W2: from now on the Bags are goal items
        return card

    def hand_over(self, card: str, giver: int, receiver: int, how: str, reason: str = "") -> None:
        """A gift that fires nothing (hand limit, Priest, give-back): the table learns who gave
        to whom (``reason``, default ``how``), only the two of them what (R-V1)."""
        self.move_item(card, giver, receiver)
        self.public("gift", seat=giver, target=receiver, reason=reason or how)
        self.private((receiver,), "received", seat=receiver, source=giver, card=card, how=how)
        self.note(receiver, "got_item", about=giver, card=card, how=how)
        self.note(giver, "gave_item", about=receiver, card=card, how=how)

    def move_item(self, card: str, src: int, dst: int) -> None:
        self.state.players[src].items.remove(card)
        self.state.players[dst].items.append(card)


@dataclass(frozen=True, slots=True)
class Kind:
    legal: Callable[[State, Pending, int], list[Action]]
    handle: Callable[[Ctx, Pending, Action], None]
    default: Callable[[State, Pending, int, Rng], Action]
    finish: Callable[[Ctx, Pending], None] | None = None  # windows: what closing does


Step = Callable[[Ctx, Frame], None]  # runs the top frame of its kind until a decision or its end
Default = Callable[[State, Pending, int, Rng], Action]


def open_gift_if_needed(ctx: Ctx) -> bool:
    """R-H1: a player over the hand limit gives items away at once, one decision per item."""
    st = ctx.state
    n = len(st.players)
    limit = hand_limit(n)
    if all(len(p.items) <= limit for p in st.players):
        return False
    for offset in range(n):
        seat = (st.turn + offset) % n
        if len(st.players[seat].items) > limit:
            ctx.open("gift", [seat], "choice", excess=len(st.players[seat].items) - limit)
            return True
    return False


def random_of(legal: Callable[[State, Pending, int], list[Action]]) -> Default:
    """The §8 default "a random item" (or any random legal answer) for a seat."""

    def default(st: State, p: Pending, seat: int, rng: Rng) -> Action:
        options = legal(st, p, seat)
        return options[rng.below(len(options))]

    return default


# -- shared rule helpers ---------------------------------------------------------------------
def bags_are_goals(st: State) -> bool:
    """R-W2: a Secret Bag is its goal item once the draw pile is empty."""
    return not st.pile


def goal_count(st: State, items: list[str], assoc: str) -> int:
    goal = GOAL_KIND[assoc]
    count = 0
    for card in items:
        kind_ = item_kind(card)
        if kind_ == goal or (kind_ in BAGS and bags_are_goals(st) and card == f"bag_{goal}"):
            count += 1
    return count


def next_seat(st: State, seat: int, direction: int = 1) -> int:
    return (seat + direction) % st.n


def seats_from(st: State, start: int) -> list[int]:
    """All seats clockwise beginning at ``start``."""
    return [(start + i) % st.n for i in range(st.n)]


def option(st: State, name: str) -> Any:
    return st.options.get(name)


def occupation_ready(st: State, seat: int, occ: str) -> bool:
    """The seat holds ``occ`` and may use it now (a once-occupation not spent)."""
    p = st.players[seat]
    return p.occupation == occ and not p.occ_spent


def use_occupation(ctx: Ctx, seat: int, *, once: bool) -> None:
    p = ctx.state.players[seat]
    p.occ_up = True
    if once:
        p.occ_spent = True
    ctx.public("occupation_used", seat=seat, occupation=p.occupation)
