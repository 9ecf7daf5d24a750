"""Declaring victory (R-W3, R-W4, R-W7): which players to name and how sure the claim is.

A claim counts the goal items of the declarer and of the named players, who must each be in the
association and hold at least one. Only goal items this seat has seen (and, through the public
history, knows were not given away since) are counted, so a claim rests on what can be accounted
for; unseen ones would only make it hold more often.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from engine.ai.beliefs import Beliefs
from engine.ai.holdings import Holdings
from engine.ai.seat_facts import SeatFacts

MAX_NAMED = 3
MAX_CANDIDATES = 6


@dataclass(frozen=True, slots=True)
class Claim:
    seats: tuple[int, ...]
    chance: float


def goal_counts(t: SeatFacts, holdings: Holdings, seat: int, association: str) -> list[float]:
    """Distribution of how many goal items of ``association`` ``seat`` holds, of those seen."""
    dist = [1.0]
    for card, p in holdings.known[seat].items():
        if t.goal_of(association, card):
            nxt = [0.0] * (len(dist) + 1)
            for k, q in enumerate(dist):
                nxt[k] += q * (1 - p)
                nxt[k + 1] += q * p
            dist = nxt
    return dist


def _at_least_one_each(dists: list[list[float]]) -> list[float]:
    """Distribution of the total, restricted to outcomes where every one holds at least one."""
    total = [1.0]
    for d in dists:
        nxt = [0.0] * (len(total) + len(d) - 1)
        for i, a in enumerate(total):
            if a == 0.0:
                continue
            for j in range(1, len(d)):
                nxt[i + j] += a * d[j]
        total = nxt
    return total


def _p_reach(total: list[float], need: int) -> float:
    return sum(q for k, q in enumerate(total) if k >= need)


def best_claim(t: SeatFacts, beliefs: Beliefs, holdings: Holdings) -> Claim:
    """The allies to name for the claim most likely to hold, and that likelihood."""
    own = t.my_goal_count()
    drink = t.drink
    dists = {s: goal_counts(t, holdings, s, t.association) for s in t.others}
    candidates = sorted(
        (s for s in t.others if len(dists[s]) > 1 and beliefs.ally[s] > 0.2),
        key=lambda s: -beliefs.ally[s] * (1 - dists[s][0]),
    )[:MAX_CANDIDATES]
    best = Claim((), 0.0)
    for size in range(min(MAX_NAMED, len(candidates)) + 1):
        for named in combinations(candidates, size):
            total = _at_least_one_each([dists[s] for s in named])
            if drink:
                p = beliefs.p_allies(named, minority=True) * _p_reach(total, 2 - own)
                if beliefs.minority > 0:  # the Drink counts as far as the seen cards tell
                    p *= min(1.0, beliefs.minority_seen / beliefs.minority)
                p += beliefs.p_allies(named, minority=False) * _p_reach(total, 3 - own)
            else:
                p = beliefs.p_allies(named) * _p_reach(total, 3 - own)
            if p > best.chance + 1e-9:
                best = Claim(tuple(sorted(named)), p)
    return best


def best_fortune(t: SeatFacts, beliefs: Beliefs, holdings: Holdings) -> Claim:
    """R-W7: the opponents to name for their association's goal items, each one's side as sure
    from the association cards seen as from everything else."""
    theirs = t.enemy_association
    dists = {s: goal_counts(t, holdings, s, theirs) for s in t.others}
    candidates = sorted(
        (s for s in t.others if len(dists[s]) > 1 and beliefs.ally[s] < 0.8),
        key=lambda s: -(1 - beliefs.ally[s]) * (1 - dists[s][0]),
    )[:MAX_CANDIDATES]
    best = Claim((), 0.0)
    for size in range(1, min(MAX_NAMED, len(candidates)) + 1):
        for named in combinations(candidates, size):
            total = _at_least_one_each([dists[s] for s in named])
            sides = min(beliefs.p_enemies(named), beliefs.p_enemies_seen(named))
            p = sides * _p_reach(total, 3)
            if p > best.chance + 1e-9:
                best = Claim(tuple(sorted(named)), p)
    return best
