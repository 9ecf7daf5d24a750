"""Every decision kind and frame step of the game in one table, each from the module whose rules
it runs (``KINDS`` and ``STEPS`` there), and ``advance``, which runs frame steps until a decision
is pending or the game is over. Built here, explicitly: a kind no module handles, or two modules
claiming one, fails at import."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypeVar

import engine.fight as fight
import engine.handlimit as handlimit
import engine.looks as looks
import engine.trade as trade
import engine.turn as turn
from engine.core import Ctx, Kind, Step, open_gift_if_needed
from engine.kinds import DecisionKind

K = TypeVar("K", bound=str)
V = TypeVar("V")


def _merge(tables: tuple[Mapping[K, V], ...], what: str) -> dict[K, V]:
    merged: dict[K, V] = {}
    for table in tables:
        for name, value in table.items():
            if name in merged:
                raise ValueError(f"{what} {name} is handled twice")
            merged[name] = value
    return merged


KINDS: dict[DecisionKind, Kind] = _merge(
    (turn.KINDS, trade.KINDS, fight.KINDS, looks.KINDS, handlimit.KINDS), "decision kind"
)
STEPS: dict[str, Step] = _merge((turn.STEPS, trade.STEPS, fight.STEPS), "frame type")

if set(KINDS) != set(DecisionKind):
    raise ValueError(f"decision kinds without rules: {sorted(set(DecisionKind) - set(KINDS))}")


def advance(ctx: Ctx) -> None:
    st = ctx.state
    while st.pending is None and st.result is None:
        if open_gift_if_needed(ctx):
            return
        frame = st.frames[-1]
        STEPS[frame["kind"]](ctx, frame)
