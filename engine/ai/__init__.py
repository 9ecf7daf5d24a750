"""AI passengers: policies that decide from one seat's view (``engine.view``) and the legal
actions only, never from the game state.

``AiPolicy`` plays to win; ``ExpertPolicy`` plays the same with a look-ahead over worlds
sampled from its beliefs (``engine.ai.expert``); ``BaselinePolicy`` is the benchmark's random
opponent. All have ``choose(view, legal, rng) -> Action``; ``SeatPolicy`` adapts them to the
simulator, which holds the state, by building the seat's view first. ``asked.asked`` is what a
passenger at the bot's table is asked (a Priest holder's window question before its support).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from engine.actions import Action
from engine.ai.baseline import BaselinePolicy
from engine.ai.expert import ExpertPolicy
from engine.ai.policy import AiPolicy
from engine.rng import Rng
from engine.state import State
from engine.views import view


class ViewPolicy(Protocol):
    def choose(self, view: dict[str, Any], legal: list[Action], rng: Rng) -> Action: ...


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
    "baseline_seat",
    "expert_seat",
]
