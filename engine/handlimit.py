"""R-H1: over the hand limit, give items of your choice to players of your choice, at once."""

from __future__ import annotations

from engine.actions import Action
from engine.core import Ctx, Kind
from engine.kinds import ActionKind, DecisionKind
from engine.rng import Rng
from engine.state import Pending, State


def _legal(st: State, p: Pending, seat: int) -> list[Action]:
    others = [s for s in range(st.n) if s != seat]
    return [
        Action(ActionKind.GIFT, seat, p.id, card=c, target=t)
        for c in st.players[seat].items
        for t in others
    ]


def _handle(ctx: Ctx, p: Pending, a: Action) -> None:
    ctx.close()
    assert a.card is not None and a.target is not None
    ctx.hand_over(a.card, p.actors[0], a.target, "gift", reason="hand_limit")


def _default(st: State, p: Pending, seat: int, rng: Rng) -> Action:
    """§8: a random item, to a random other player."""
    items = st.players[seat].items
    others = [s for s in range(st.n) if s != seat]
    return Action(
        ActionKind.GIFT,
        seat,
        p.id,
        card=items[rng.below(len(items))],
        target=others[rng.below(len(others))],
    )


KINDS = {DecisionKind.GIFT: Kind(_legal, _handle, _default)}
