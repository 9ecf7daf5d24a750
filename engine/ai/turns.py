"""The turn (§4): declare victory when the count is sure enough, else the action worth most —
a trade, an attack or a pass — and the free uses of the Diplomat and the Clairvoyant."""

from __future__ import annotations

import math

import engine.ai.fights as fights
import engine.ai.trades as trades
from engine.actions import Action
from engine.ai.claims import best_claim, best_fortune
from engine.ai.mind import Mind, stacked_top, urgency
from engine.ai.seat_facts import SeatFacts
from engine.cards import BAGS, BLACK_PEARL, GOAL_KIND, item_kind
from engine.kinds import ActionKind
from engine.rng import Rng

CLAIM_AT = 0.95  # how sure a claim must be (early on; a long game makes one bolder)
FORTUNE_AT = 0.95  # R-W7: as sure as a claim for my own association
_TURN_WORTH = 2.0  # what an ordinary action is worth, lost when the Diplomat misses before it
_DIPLOMAT_SPENT = 1.0
_REPEAT_ATTACK_COST = 1.5
# A table where nothing happens (everyone passing, every offer refused) round after round: each
# such round beyond the second makes passing look worse, until a fight or a trade moves a card.
_IDLE_ROUND_COST = 0.5
_IDLE_GRACE = 2
_MOVES = frozenset({"trade_done", "attack", "item_taken", "gift", "drew", "sextant_passed"})
# A long game nobody can end calls for moves: passing loses this much of its appeal by round 20.
_STALL_COST = 1.0  # passing beats a move that changes nothing (two players trading one card around)


def turn(m: Mind, legal: list[Action], rng: Rng) -> Action:
    decided = decisive(m, legal)
    if decided is not None:
        return decided
    return best_scored(legal, rng, scores(m, legal))


def decisive(m: Mind, legal: list[Action]) -> Action | None:
    """A declaration of victory sure enough to make, or the Black Pearl to pass on first."""
    t = m.t
    kinds = {a.kind for a in legal}
    d = legal[0].decision
    late = stalled(t.round)
    if "claim" in kinds:
        claim = best_claim(t, m.beliefs, m.holdings)
        if claim.chance >= CLAIM_AT - 0.1 * urgency(t.round) - late:
            return Action(ActionKind.CLAIM, t.seat, d, seats=claim.seats)
    if "solo" in kinds:
        return next(a for a in legal if a.kind == "solo")
    if "claim_other" in kinds:
        fortune = best_fortune(t, m.beliefs, m.holdings)
        if fortune.chance >= FORTUNE_AT - 0.1 * urgency(t.round) - late:
            return Action(ActionKind.CLAIM_OTHER, t.seat, d, seats=fortune.seats)
    return _pearl_before_claim(m, legal)


def scores(m: Mind, legal: list[Action]) -> dict[Action, float]:
    """What each ordinary action (no declaration) is worth to my association."""
    t = m.t
    acted = bool(t.decision.get("acted"))
    score: dict[Action, float] = {}
    for a in legal:
        if a.kind == "pass":
            score[a] = (
                m.style.idle - _STALL_COST * urgency(t.round) - _IDLE_ROUND_COST * idle_rounds(t)
            )
        elif a.kind == "end":
            score[a] = m.style.idle
        elif a.kind == "trade" and a.card is not None and a.target is not None:
            score[a] = trades.offer_value(m, a.card, a.target) - trades.repeat_cost(
                t, a.card, a.target
            )
        elif a.kind == "attack" and a.target is not None:
            score[a] = fights.attack_value(m, a.target) - repeat_attack_cost(t, a.target)
        elif a.kind == "diplomat" and a.target is not None and a.card is not None:
            score[a] = diplomat_value(m, a.target, a.card, acted=acted)
        elif a.kind == "clairvoyant":
            score[a] = clairvoyant_value(m, acted=acted)
    return score


def idle_rounds(t: SeatFacts) -> int:
    """Whole rounds beyond ``_IDLE_GRACE`` since a card last changed hands or a fight began
    (counted once the game is long: early on, waiting is a plan)."""
    if urgency(t.round) <= 0:
        return 0
    last = next((r["turn"] for r in reversed(t.history) if r["k"] in _MOVES), 0)
    now = (t.round - 1) * t.n + 1
    return max(0, (now - last) // t.n - _IDLE_GRACE)


def stalled(round_: int) -> float:
    """0 until round 25, then up to 0.6 by round 45: a game nobody can win by a sure claim is
    better ended by a likely one than by the round cap (which nobody wins)."""
    return min(0.6, max(0.0, (round_ - 25) * 0.03))


def repeat_attack_cost(t: SeatFacts, target: int) -> float:
    """Two players attacking each other turn after turn, taking the same cards back and forth,
    get nowhere: each attack of mine on ``target`` in the last three rounds weighs against one
    more, so the plan changes (a look, a trade, another target)."""
    if t.round < 6 or not t.history:
        return 0.0
    since = t.history[-1]["turn"] - 3 * t.n
    return _REPEAT_ATTACK_COST * sum(
        1
        for r in t.history
        if r["k"] == "attack" and r["turn"] > since and (r["seat"], r["target"]) == (t.seat, target)
    )


def _pearl_before_claim(m: Mind, legal: list[Action]) -> Action | None:
    """Only the Black Pearl stands between me and a sure claim: hand it to my likeliest ally.
    An enemy would hand it straight back before my next turn; an ally will not."""
    t = m.t
    if BLACK_PEARL not in t.items or t.my_goal_count() < 1:
        return None
    if best_claim(t, m.beliefs, m.holdings).chance < CLAIM_AT:
        return None
    offers = [a for a in legal if a.kind == "trade" and a.card == BLACK_PEARL]
    return max(offers, key=lambda a: m.ally(a.target or 0), default=None)


def diplomat_value(m: Mind, target: int, name: str, *, acted: bool) -> float:
    """Naming my goal item at ``target``: they must hand it over, or show me all their items."""
    t = m.t
    if name != GOAL_KIND[t.association]:
        return -1.0
    known = m.holdings.known[target]
    miss = 1.0
    gain = 0.0
    for card, p in known.items():
        if t.mine(card):
            miss *= 1.0 - p
            gain = max(gain, m.gain(card, target))
    unseen = max(0.0, m.holdings.sizes[target] - sum(known.values()))
    miss *= (1.0 - m.unseen_goal_chance()) ** unseen
    hit = 1.0 - miss
    gain = gain or m.gain(name + "1", target)
    if acted:
        return hit * gain + miss * 1.0 - _DIPLOMAT_SPENT
    return hit * gain - miss * _TURN_WORTH - _DIPLOMAT_SPENT - (0.0 if hit > 0.9 else 5.0)


def clairvoyant_value(m: Mind, *, acted: bool) -> float:
    """Worth using now when I can draw the card I put on top this very turn (a Bag to trade)."""
    t = m.t
    if acted or not t.pile or stacked_top(t) is not None:
        return -1.0
    if any(item_kind(c) in BAGS and not t.bags_are_goals for c in t.items):
        return 3.0
    return -1.0


def best_scored(legal: list[Action], rng: Rng, score: dict[Action, float]) -> Action:
    """The best-scored action, ties broken by ``rng``."""
    top = max(score.values())
    best = [a for a in legal if score.get(a, -math.inf) >= top - 1e-9]
    return best[rng.below(len(best))] if len(best) > 1 else best[0]
