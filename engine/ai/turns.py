"""The turn (§4): declare victory when the count is sure enough, else the action worth most —
a trade, an attack or a pass — and the free uses of the Diplomat and the Clairvoyant."""

from __future__ import annotations

import math

from engine.actions import Action
from engine.ai import fights, trades
from engine.ai.claims import best_claim, best_fortune
from engine.ai.mind import Mind, stacked_top, urgency
from engine.cards import BAGS, GOAL_KIND, item_kind
from engine.rng import Rng

CLAIM_AT = 0.9  # how sure a claim must be (early on; a long game makes one bolder)
FORTUNE_AT = 0.92  # R-W7 counts no Drink, and every name rests on beliefs about an enemy
_TURN_WORTH = 2.0  # what an ordinary action is worth, lost when the Diplomat misses before it
_DIPLOMAT_SPENT = 1.0
_IDLE = 0.05  # passing beats a move that changes nothing (two players trading one card around)


def turn(m: Mind, legal: list[Action], rng: Rng) -> Action:
    t = m.t
    kinds = {a.kind for a in legal}
    d = legal[0].decision
    if "claim" in kinds:
        claim = best_claim(t, m.beliefs, m.holdings)
        if claim.chance >= CLAIM_AT - 0.1 * urgency(t.round):
            return Action("claim", t.seat, d, seats=claim.seats)
    if "solo" in kinds:
        return next(a for a in legal if a.kind == "solo")
    if "claim_other" in kinds:
        fortune = best_fortune(t, m.beliefs, m.holdings)
        if fortune.chance >= FORTUNE_AT:
            return Action("claim_other", t.seat, d, seats=fortune.seats)
    pearl_away = _pearl_before_claim(m, legal)
    if pearl_away is not None:
        return pearl_away
    acted = bool(t.decision.get("acted"))
    score: dict[Action, float] = {}
    for a in legal:
        if a.kind in ("pass", "end"):
            score[a] = _IDLE
        elif a.kind == "trade" and a.card is not None and a.target is not None:
            score[a] = trades.offer_value(m, a.card, a.target)
        elif a.kind == "attack" and a.target is not None:
            score[a] = fights.attack_value(m, a.target)
        elif a.kind == "diplomat" and a.target is not None and a.card is not None:
            score[a] = diplomat_value(m, a.target, a.card, acted=acted)
        elif a.kind == "clairvoyant":
            score[a] = clairvoyant_value(m, acted=acted)
    return best_scored(legal, rng, score)


def _pearl_before_claim(m: Mind, legal: list[Action]) -> Action | None:
    """Only the Black Pearl stands between me and a sure claim: hand it to my likeliest ally.
    An enemy would hand it straight back before my next turn; an ally will not."""
    t = m.t
    if "black_pearl" not in t.items or t.my_goal_count() < 1:
        return None
    if best_claim(t, m.beliefs, m.holdings).chance < CLAIM_AT:
        return None
    offers = [a for a in legal if a.kind == "trade" and a.card == "black_pearl"]
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
