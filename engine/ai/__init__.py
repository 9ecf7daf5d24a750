"""AI passengers: policies that decide from one seat's view (``engine.view``) and the legal
actions only, never from the game state.

``AiPolicy`` plays to win; ``ExpertPolicy`` plays the same with a look-ahead over worlds
sampled from its beliefs (``engine.ai.expert``); ``BaselinePolicy`` is the benchmark's random
opponent. All have ``choose(view, legal, rng) -> Action``; ``SeatPolicy`` adapts them to the
simulator, which holds the state, by building the seat's view first; ``asked`` is what a
passenger at the bot's table is asked (a Priest holder's window question before its support).
They are the only place here that builds a view from the state.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from engine.actions import Action
from engine.ai.baseline import BaselinePolicy
from engine.ai.expert import ExpertPolicy
from engine.ai.policy import AiPolicy
from engine.api import legal_actions
from engine.rng import Rng
from engine.state import State
from engine.view_types import DecisionData, SeatView
from engine.views import view


class ViewPolicy(Protocol):
    def choose(self, view: SeatView, legal: list[Action], rng: Rng) -> Action: ...


class SeatPolicy:
    """A view-based policy seated at a table whose state the caller holds."""

    __slots__ = ("inner",)

    def __init__(self, inner: ViewPolicy) -> None:
        self.inner = inner

    def choose(self, st: State, seat: int, legal: Sequence[Action], rng: Rng) -> Action:
        return self.inner.choose(view(st, seat), list(legal), rng)


def ai_seat() -> SeatPolicy:
    return SeatPolicy(AiPolicy())


def expert_seat() -> SeatPolicy:
    return SeatPolicy(ExpertPolicy())


def baseline_seat() -> SeatPolicy:
    return SeatPolicy(BaselinePolicy())


__all__ = [
    "AiPolicy",
    "BaselinePolicy",
    "ExpertPolicy",
    "SeatPolicy",
    "ViewPolicy",
    "ai_seat",
    "asked",
    "baseline_seat",
    "expert_seat",
]


def asked(st: State, seat: int) -> tuple[SeatView, list[Action]]:
    """``seat``'s view and legal actions on the pending decision. A supporter holding the Priest,
    asked before its turn (R-A3), is asked the window's question now (use it or pass: its view
    shows the window's decision with the fight's sides) and its support when its turn comes."""
    seen, legal = view(st, seat), legal_actions(st, seat)
    own, p = seen["decision"], st.pending
    if p is not None and p.window and own and own["data"].get("turn") not in (None, seat):
        data: DecisionData = {
            "attacker": own["data"]["attacker"],
            "defender": own["data"]["defender"],
        }
        seen = {**seen, "decision": {**own, "kind": p.kind, "data": data}}
        legal = [a for a in legal if a.kind in ("use", "pass")]
    return seen, legal
