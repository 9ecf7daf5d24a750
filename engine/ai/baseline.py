"""The benchmark's opponent: random legal moves, but a claim only when its own hand proves it
(three goal items of its association, or the Coat of Arms solo) — so a policy that beats it wins
games, rather than waiting for blunders."""

from __future__ import annotations

from engine.actions import Action
from engine.ai.seat_facts import SeatFacts
from engine.rng import Rng
from engine.view_types import SeatView

_CLAIMS = ("claim", "claim_other", "solo")


class BaselinePolicy:
    __slots__ = ()

    def choose(self, view: SeatView, legal: list[Action], rng: Rng) -> Action:
        if len(legal) == 1:
            return legal[0]
        kinds = {a.kind for a in legal}
        if "solo" in kinds:
            return next(a for a in legal if a.kind == "solo")
        if "claim" in kinds and SeatFacts.read(view).my_goal_count() >= 3:
            return next(a for a in legal if a.kind == "claim")
        moves = [a for a in legal if a.kind not in _CLAIMS]
        return moves[rng.below(len(moves))]
