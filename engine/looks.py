"""Looking at another player's association (Monocle R-T8, fight reward R-A9).

With the advanced 3-player option the looker picks one of the three face-down positions and sees
that card only (§7).
"""

from __future__ import annotations

from engine.actions import Action
from engine.core import Ctx, Kind
from engine.kinds import ActionKind, DecisionKind
from engine.rng import Rng
from engine.state import Pending, State


def look_at_association(ctx: Ctx, viewer: int, about: int, how: str, *, occupation: bool) -> None:
    st = ctx.state
    target = st.players[about]
    if len(target.assoc) == 3:
        ctx.open("look_pos", [viewer], "choice", about=about, how=how, occupation=occupation)
        return
    _show(ctx, viewer, about, how, position=None, occupation=occupation)


def _show(
    ctx: Ctx, viewer: int, about: int, how: str, *, position: int | None, occupation: bool
) -> None:
    target = ctx.state.players[about]
    card = target.assoc[position if position is not None else 0]
    ctx.private((viewer,), "association_seen", about=about, assoc=card, position=position, how=how)
    ctx.note(viewer, "saw_association", about=about, assoc=card, position=position, how=how)
    if occupation:
        ctx.private(
            (viewer,), "occupation_seen", about=about, occupation=target.occupation, how=how
        )
        ctx.note(viewer, "saw_occupation", about=about, occupation=target.occupation, how=how)


def _legal(st: State, p: Pending, seat: int) -> list[Action]:
    return [Action(ActionKind.LOOK, seat, p.id, choice=str(i)) for i in range(3)]


def _handle(ctx: Ctx, p: Pending, a: Action) -> None:
    ctx.close()
    assert a.choice is not None
    d = p.data
    _show(
        ctx, p.actors[0], d["about"], d["how"], position=int(a.choice), occupation=d["occupation"]
    )


def _default(st: State, p: Pending, seat: int, rng: Rng) -> Action:
    return Action(ActionKind.LOOK, seat, p.id, choice="0")


KINDS = {DecisionKind.LOOK_POS: Kind(_legal, _handle, _default)}
