"""The expert AI passenger: the ``ai`` passenger's judgement, checked by looking ahead.

At a turn decision before the action (where the game is decided: trades, attacks, the Diplomat)
it takes the heuristic's few best candidates of each kind and plays each of them forward in the
same worlds sampled from its beliefs (determinization, ``engine.ai.worlds``), one round with the
fast rollout policy (``engine.ai.rollout``), and picks the candidate with the best mean result;
the heuristic's own choice stays unless another is clearly better. Declarations of victory and
every other decision are the ``ai`` passenger's.

The time per decision is bounded by a budget in milliseconds, spent as a number of rollouts
derived from it (the engine has no clock, and the same seed must play the same game): a rollout
of one round at a table of ``n`` costs about ``ROLLOUT_MS(n)`` on one core of the Lambda.
"""

from __future__ import annotations

from typing import Any

from engine.actions import Action
from engine.ai import turns
from engine.ai.mind import Mind
from engine.ai.policy import AiPolicy
from engine.ai.rollout import play_out, value
from engine.ai.worlds import can_sample, sample
from engine.api import apply
from engine.rng import Rng, seed_state

# CPU milliseconds per searched decision. A timer batch settles one AI turn (and the windows
# around it) well inside the 30 s Lambda even at 256 MB, about a seventh of a core.
DEFAULT_BUDGET_MS = 100
MAX_CANDIDATES = 5
MIN_WORLDS = 2  # below this a comparison is noise: keep the heuristic's choice
# The mean result (-1..1) by which a candidate must beat the heuristic's choice to replace it.
MARGIN = 0.03


def rollout_ms(n: int) -> float:
    """Cost of one rollout (one round) at a table of ``n`` players, in CPU ms (measured
    0.1 + 0.26 n on one core; rounded up)."""
    return 0.3 + 0.3 * n


class ExpertPolicy:
    """``choose(view, legal, rng)``, like ``AiPolicy``, with ``budget_ms`` per decision."""

    __slots__ = ("ai", "budget_ms")

    def __init__(self, budget_ms: int = DEFAULT_BUDGET_MS) -> None:
        self.ai = AiPolicy()
        self.budget_ms = budget_ms

    def choose(self, view: dict[str, Any], legal: list[Action], rng: Rng) -> Action:
        if len(legal) == 1:
            return legal[0]
        m = self.ai.mind(view)
        if not can_sample(m):
            return self.ai.choose(view, legal, rng)
        decided = turns.decisive(m, legal)
        if decided is not None:
            return decided
        score = turns.scores(m, legal)
        heuristic = turns.best_scored(legal, rng, score)
        candidates = _candidates(heuristic, score)
        rollouts = int(self.budget_ms / rollout_ms(m.t.n))
        worlds = rollouts // len(candidates)
        if len(candidates) < 2 or worlds < MIN_WORLDS:
            return heuristic
        means = search(m, candidates, worlds, rng.below(1 << 62))
        best = max(range(len(candidates)), key=lambda i: (means[i], -i))
        return candidates[best] if means[best] - means[0] > MARGIN else heuristic


def _candidates(heuristic: Action, score: dict[Action, float]) -> list[Action]:
    """The heuristic's choice first, then the best of each kind and the next best overall."""
    ranked = sorted(score, key=lambda a: -score[a])
    out = [heuristic]
    for kind in ("pass", "attack", "trade", "diplomat"):
        best = next((a for a in ranked if a.kind == kind), None)
        if best is not None and best not in out:
            out.append(best)
    for a in ranked:
        if len(out) >= MAX_CANDIDATES:
            break
        if a not in out:
            out.append(a)
    return out[:MAX_CANDIDATES]


def search(m: Mind, candidates: list[Action], worlds: int, seed: int) -> list[float]:
    """Mean result of each candidate over the same ``worlds`` sampled worlds (and the same
    rollout randomness in each, so the candidates are compared on equal terms)."""
    t = m.t
    totals = [0.0] * len(candidates)
    for w in range(worlds):
        rng = Rng(seed_state(seed + w))
        world = sample(m, rng)
        roll_seed = rng.below(1 << 62)
        for i, action in enumerate(candidates):
            st = world.clone()
            st, _ = apply(st, action, inplace=True)
            st = play_out(st, t.n, Rng(roll_seed))
            totals[i] += value(st, t.association, t.seat)
    return [x / worlds for x in totals]
