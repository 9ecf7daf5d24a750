"""The AI passenger: decides every pending decision from its seat's view and the legal actions.

It never sees the game state. Its beliefs and item tracking are recomputed from the view (the
notebook and the public history); the only thing kept between calls is a cache of that work,
keyed by how far the notebook and the history have grown, so a policy rebuilt from scratch
decides exactly the same.
"""

from __future__ import annotations

from collections.abc import Callable

import engine.ai.fights as fights
import engine.ai.trades as trades
import engine.ai.turns as turns
from engine.actions import Action
from engine.ai.beliefs import Beliefs, believe
from engine.ai.holdings import Holdings, track
from engine.ai.mind import Mind
from engine.ai.seat_facts import SeatFacts
from engine.ai.style import AI_STYLE, Style
from engine.cards import CLAIRVOYANT, DIPLOMAT, DUELIST, POISON_MIXER, PRIEST
from engine.kinds import DecisionKind
from engine.rng import Rng
from engine.view_types import SeatView

Decide = Callable[[Mind, list[Action], Rng], Action]


def _tome(m: Mind, legal: list[Action], rng: Rng) -> Action:
    """Swap occupations when mine is spent: theirs comes back usable."""
    return _first(legal, "swap" if m.t.occ_spent else "skip")


# Occupations by how much they help this policy, best first.
_OCCUPATION_RANK = (
    DIPLOMAT,
    CLAIRVOYANT,
    "thug",
    "bodyguard",
    "hypnotist",
    PRIEST,
    DUELIST,
    POISON_MIXER,
    "grand_master",
    "doctor",
)


def _coat(m: Mind, legal: list[Action], rng: Rng) -> Action:
    t = m.t
    mine = 99 if t.occ_spent else _OCCUPATION_RANK.index(t.occupation)
    best = min(
        (a for a in legal if a.kind == "take" and a.card in _OCCUPATION_RANK),
        key=lambda a: _OCCUPATION_RANK.index(a.card or ""),
        default=None,
    )
    if best is not None and _OCCUPATION_RANK.index(best.card or "") < mine:
        return best
    return _first(legal, "skip")


def _look_position(m: Mind, legal: list[Action], rng: Rng) -> Action:
    """Advanced three players: a position of that row I have not seen yet."""
    about = m.t.decision["about"]
    seen = {
        str(n.get("position"))
        for n in m.t.notes
        if n["k"] == "saw_association" and n["about"] == about
    }
    fresh = [a for a in legal if a.choice not in seen]
    return (fresh or legal)[0]


def _first(legal: list[Action], kind: str) -> Action:
    return next((a for a in legal if a.kind == kind), legal[0])


def _plain(fn: Callable[[Mind, list[Action]], Action]) -> Decide:
    return lambda m, legal, rng: fn(m, legal)


DECIDE: dict[DecisionKind, Decide] = {
    DecisionKind.TURN: turns.turn,
    DecisionKind.DIPLOMAT_GIVE: _plain(trades.diplomat_give),
    DecisionKind.CLAIRVOYANT: _plain(trades.clairvoyant_order),
    DecisionKind.TRADE_ANSWER: _plain(trades.answer),
    DecisionKind.SMUGGLE: lambda m, legal, rng: _first(legal, "use"),
    DecisionKind.TOME: _tome,
    DecisionKind.COAT: _coat,
    DecisionKind.SEXTANT_DIR: _plain(trades.sextant_direction),
    DecisionKind.SEXTANT_PASS: _plain(trades.sextant_pass),
    DecisionKind.LOOK_POS: _look_position,
    DecisionKind.PRIEST: _plain(fights.priest),
    DecisionKind.PRIEST_TRIBUTE: _plain(fights.give_back),
    DecisionKind.SUPPORT: _plain(fights.support),
    DecisionKind.HYPNOTIST: _plain(fights.hypnotist),
    DecisionKind.BOOST: _plain(fights.boost),
    DecisionKind.DOCTOR: _plain(fights.doctor),
    DecisionKind.REWARD: _plain(fights.reward),
    DecisionKind.REWARD_TAKE: _plain(fights.take),
    DecisionKind.GIVEBACK: _plain(fights.give_back),
    DecisionKind.GIFT: _plain(trades.gift),
}


class AiPolicy:
    """``choose(view, legal, rng)``: one of ``legal`` (a claim with its allies filled in),
    weighed by ``style``."""

    __slots__ = ("_cache", "style")

    def __init__(self, style: Style = AI_STYLE) -> None:
        self.style = style
        self._cache: tuple[tuple[object, ...], Holdings, Beliefs] | None = None

    def choose(self, view: SeatView, legal: list[Action], rng: Rng) -> Action:
        if len(legal) == 1:
            return legal[0]
        mind = self.mind(view)
        kind = mind.t.decision_kind
        if kind is None:
            return legal[0]
        return DECIDE[kind](mind, legal, rng)

    def mind(self, view: SeatView) -> Mind:
        t = SeatFacts.read(view)
        cache = self._cache
        key = _fingerprint(t)
        if cache is None or cache[0] != key:
            holdings = track(t)
            cache = self._cache = (key, holdings, believe(t, holdings))
        return Mind(t, cache[2], cache[1], self.style)


def _fingerprint(t: SeatFacts) -> tuple[object, ...]:
    """What the cached work depends on, distinct across seats and games (one policy object may
    serve many): the seat's first and latest notes, the latest public record, the hands."""
    last_record = t.history[-1] if t.history else None
    return (
        t.seat,
        len(t.notes),
        len(t.history),
        repr(t.notes[0]) if t.notes else None,
        repr(t.notes[-1]) if t.notes else None,
        repr(last_record),
        t.items,
        t.counts,
        t.pile,
    )
