"""How an AI passenger weighs its choices, as a few numbers the levels differ in.

The ``ai`` level keeps its hand-set values. The ``expert`` level's were tuned in seed-paired
games against the ``ai`` (each deal played twice, each policy on each association in turn, so
only the policy's difference decides): it backs a side in a fight on any lean, worries less
about what a card gives the other side but more about keeping its goal items from it, acts
rather than passes, and accepts more offers.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Style:
    # What an enemy gains from a card, against what we gain from it: keeping a card from them
    # only lasts until they take it back, while ours bring a claim nearer.
    enemy_weight: float = 0.5
    # How much likelier one side of a fight must be mine before I declare for it.
    support_lean: float = 0.2
    # How much an accepted offer must be worth before I accept rather than refuse.
    accept_margin: float = 0.1
    # What passing (or ending the turn after a free use) is worth against the actions.
    idle: float = 0.05
    # What one of the other side's goal items is worth in a hand of ours (kept out of theirs).
    their_goal: float = 4.0


AI_STYLE = Style()
EXPERT_STYLE = Style(
    enemy_weight=0.25, support_lean=0.0, accept_margin=-0.5, idle=-1.0, their_goal=7.0
)
