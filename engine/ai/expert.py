"""The expert AI passenger: the ``ai`` passenger's heuristic in the expert's style
(``engine.ai.style.EXPERT_STYLE``: weights tuned in games against the ``ai``), checked by looking
ahead.

At a turn decision before the action (where the game is decided: trades, attacks, the Diplomat)
it takes the heuristic's few best candidates of each kind and plays each of them forward in the
same worlds sampled from its beliefs (determinization, ``engine.ai.worlds``), one round with the
fast rollout policy (``engine.ai.rollout``), and picks the candidate with the best mean result;
the heuristic's own choice stays unless another is clearly better. Declarations of victory and
every other decision are the heuristic's, in the expert's style.

The time per decision is bounded by a budget in CPU milliseconds, spent as a number of engine
steps derived from it (the engine has no clock, and the same seed must play the same game).
"""

from __future__ import annotations

from itertools import combinations

import engine.ai.turns as turns
from engine.actions import Action
from engine.ai.claims import best_claim
from engine.ai.mind import Mind
from engine.ai.policy import AiPolicy
from engine.ai.rollout import play_out, value
from engine.ai.style import EXPERT_STYLE
from engine.ai.worlds import can_sample, sample
from engine.api import apply
from engine.kinds import ActionKind
from engine.rng import Rng, seed_state
from engine.victory import CLAIM_NEEDS, claim_tally
from engine.view_types import SeatView

# CPU milliseconds per searched decision. A timer batch settles one AI turn (and the windows
# around it) well inside the 30 s Lambda even at 256 MB, about a seventh of a core.
DEFAULT_BUDGET_MS = 100
MAX_CANDIDATES = 4
MIN_WORLDS = 4  # below this a comparison is noise: keep the heuristic's choice
MAX_WORLDS = 64
# The budget is spent in engine steps (deterministic, unlike a clock): one step of a rollout
# (the engine and the rollout policy) costs about 0.06 ms of CPU on one core of a busy machine
# (measured: 16 steps per ms gave a p99 of 144 CPU ms against 100), building or copying a sampled
# world about as much as WORLD_STEPS steps; the rest of the decision (reading the view, the
# beliefs, the heuristic) needs a few ms of its own.
STEPS_PER_MS = 10
WORLD_STEPS = 4
# Heuristic score units per unit of mean rollout result (-1..1), and by how much a candidate must
# beat the heuristic's choice to replace it.
SEARCH_WEIGHT = 4.0
MARGIN = 0.2
SURE_Z = 2.5
TIMELY_CLAIM_AT = 0.9  # the least sure claim made when waiting looks worse
# A declaration is also checked in sampled worlds, where the goal items nobody has seen lie
# where they are likely to (the heuristic counts only the ones seen): made when it holds in
# this share of them.
CLAIM_WORLDS = 48
WORLD_CLAIM_AT = 0.9
_CLAIM_CANDIDATES = 5


class ExpertPolicy:
    """``choose(view, legal, rng)``, like ``AiPolicy``, with ``budget_ms`` per decision."""

    __slots__ = ("ai", "budget_ms")

    def __init__(self, budget_ms: int = DEFAULT_BUDGET_MS) -> None:
        self.ai = AiPolicy(EXPERT_STYLE)
        self.budget_ms = budget_ms

    def choose(self, view: SeatView, legal: list[Action], rng: Rng) -> Action:
        if len(legal) == 1:
            return legal[0]
        m = self.ai.mind(view)
        if not can_sample(m):
            return self.ai.choose(view, legal, rng)
        decided = turns.decisive(m, legal)
        if decided is not None:
            return decided
        claim = world_claim(m, legal, rng.below(1 << 62))
        if claim is not None:
            return claim
        score = turns.scores(m, legal)
        heuristic = turns.best_scored(legal, rng, score)
        candidates = _candidates(heuristic, score)
        if len(candidates) < 2:
            return heuristic
        results, _ = search(m, candidates, budget_steps(self.budget_ms), rng.below(1 << 62))
        if not results:
            return heuristic
        means = [sum(r) / len(r) for r in results]
        claim = _timely_claim(m, legal, max(means))
        if claim is not None:
            return claim
        # The rollouts judge what a move does to the cards; what it teaches (a look, the
        # Monocle) only the heuristic sees, as every player in a sampled world sees everything.
        # So the look-ahead corrects the heuristic's scores, and only where it is sure: the
        # candidate must beat the heuristic's choice world by world, not by the luck of a few.
        best, best_total = 0, score[heuristic]
        for i in range(1, len(candidates)):
            diffs = [a - b for a, b in zip(results[i], results[0], strict=True)]
            gain = sum(diffs) / len(diffs)
            total = score[candidates[i]] + SEARCH_WEIGHT * gain
            if total > best_total + MARGIN and _sure(diffs):
                best, best_total = i, total
        return candidates[best]


def _sure(diffs: list[float]) -> bool:
    """The mean of the paired differences is above zero by ``SURE_Z`` standard errors."""
    k = len(diffs)
    mean = sum(diffs) / k
    var = sum((d - mean) ** 2 for d in diffs) / (k - 1)
    return mean > 0 and mean * mean * k > SURE_Z * SURE_Z * max(var, 1e-12)


def _timely_claim(m: Mind, legal: list[Action], waiting: float) -> Action | None:
    """A claim not quite sure enough for the heuristic, made when waiting looks worse: the
    rollouts show the other side likely to declare first."""
    if not any(a.kind == "claim" for a in legal):
        return None
    claim = best_claim(m.t, m.beliefs, m.holdings)
    if claim.chance < TIMELY_CLAIM_AT or 2 * claim.chance - 1 <= waiting:
        return None
    return Action(ActionKind.CLAIM, m.t.seat, legal[0].decision, seats=claim.seats)


def world_claim(m: Mind, legal: list[Action], seed: int) -> Action | None:
    """The declaration naming the allies with whom it holds in most sampled worlds, if it holds
    in ``WORLD_CLAIM_AT`` of them. The Drink counts only as far as the association cards seen
    tell my side is the smaller one (soft evidence can be sure of a side and wrong)."""
    if not any(a.kind == "claim" for a in legal):
        return None
    t, b = m.t, m.beliefs
    mine = t.association
    likely = sorted((s for s in t.others if m.ally(s) > 0.3), key=lambda s: (-m.ally(s), s))
    likely = likely[:_CLAIM_CANDIDATES]
    sets = [c for k in range(min(3, len(likely)) + 1) for c in combinations(likely, k)]
    plain = [0] * len(sets)
    by_drink = [0] * len(sets)
    for w in range(CLAIM_WORLDS):
        world = sample(m, Rng(seed_state(seed + w)))
        for i, named in enumerate(sets):
            tally = claim_tally(world, t.seat, list(named), mine, own_drink=True)
            if not tally["held"]:
                continue
            if tally["drink"] and tally["total"] - 1 < CLAIM_NEEDS:
                by_drink[i] += 1
            else:
                plain[i] += 1
    discount = min(1.0, b.minority_seen / b.minority) if b.minority > 0 else 0.0
    chance = [(p + discount * d) / CLAIM_WORLDS for p, d in zip(plain, by_drink, strict=True)]
    best = max(range(len(sets)), key=lambda i: (chance[i], -len(sets[i])))
    if chance[best] < WORLD_CLAIM_AT:
        return None
    return Action(ActionKind.CLAIM, t.seat, legal[0].decision, seats=tuple(sorted(sets[best])))


def budget_steps(budget_ms: int) -> int:
    return int(budget_ms * STEPS_PER_MS)


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


def search(
    m: Mind, candidates: list[Action], budget: int, seed: int
) -> tuple[list[list[float]], int]:
    """The result of each candidate in each of the same sampled worlds (with the same rollout
    randomness in each, so the candidates are compared on equal terms), as many worlds as
    ``budget`` engine steps allow (empty when not even ``MIN_WORLDS`` fit), and the steps spent.
    A world is started only when the costliest world so far would still fit."""
    t = m.t
    results: list[list[float]] = [[] for _ in candidates]
    spent = worlds = 0
    costliest = len(candidates) * (WORLD_STEPS + t.n * 3)  # a first guess: a quiet round
    while worlds < MAX_WORLDS and spent + costliest <= budget:
        start = spent
        rng = Rng(seed_state(seed + worlds))
        world = sample(m, rng)
        roll_seed = rng.below(1 << 62)
        spent += WORLD_STEPS
        for i, action in enumerate(candidates):
            st = world.clone()
            before = st.step
            st, _ = apply(st, action, inplace=True)
            st = play_out(st, t.n, Rng(roll_seed))
            spent += st.step - before + WORLD_STEPS
            results[i].append(value(st, t.association, t.seat))
        worlds += 1
        costliest = max(costliest, spent - start)
    return (results if worlds >= MIN_WORLDS else []), spent
