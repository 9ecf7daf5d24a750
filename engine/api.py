"""The engine's contract (after OpenSpiel's ``State``): new_game, awaiting, legal_actions, apply,
view, public_view, timeout_action, default_action.

``apply`` validates first and changes nothing when it rejects. It works on a copy unless the
caller passes ``inplace=True`` (the simulator and the service, which own their state object).
"""

from __future__ import annotations

from dataclasses import dataclass

import engine.premove as premove
from engine.actions import TIMEOUT, Action, Event, GameOver, Illegal, NotYourTurn, Stale
from engine.core import Ctx
from engine.fight import awaited, riders, support_turn
from engine.frames import fight_on_top
from engine.kinds import ActionKind, DecisionKind
from engine.mechanics import KINDS, advance
from engine.rng import for_game
from engine.setup import new_game as _setup
from engine.state import State
from engine.turn import allowed

# R-T2 with R-D1 (issue 8): a timed-out trade answer accepts a Black Pearl or Broken Mirror and
# refuses anything else, so "time is up" there would tell the table what was offered. The answer
# is announced as any answer is, and the deadline itself is not.
SILENT_DEADLINES = frozenset({"trade_answer"})


@dataclass(frozen=True, slots=True)
class Awaiting:
    """What the game waits for now. ``seats`` are those it waits for (private for windows): their
    deadline runs and their default is taken at it. ``ahead`` are asked too but not waited for:
    supporters asked before their turn in the order (R-A3, issue 9), who may declare now (kept
    and open to change until told) and are waited for when their turn comes. When a window has
    nobody left to wait for, ``closable`` is set and only its end is awaited. ``part`` changes
    when a new seat's turn starts inside the same decision (its deadline counts from then).
    ``premove`` is the next player, when they may choose their turn's action ahead
    (``engine.premove``): asked, never waited for, under the same decision id."""

    decision: int
    kind: DecisionKind
    seats: tuple[int, ...]
    deadline: str
    window: bool
    closable: bool
    ahead: tuple[int, ...] = ()
    part: int = 0
    premove: int | None = None


def new_game(
    names: list[str], seed: int, options: dict[str, object] | None = None
) -> tuple[State, list[Event]]:
    st, events = _setup(names, seed, options)
    ctx = Ctx(st)
    ctx.events = events
    advance(ctx)
    st.rng = ctx.rng.state
    return st, ctx.events


def awaiting(st: State) -> Awaiting | None:
    p = st.pending
    if p is None or st.result is not None:
        return None
    seats = awaited(st)
    ahead = tuple(s for s in p.actors if s not in seats)
    part = fight_on_top(st.frames)["supports_told"] if support_turn(st) is not None else 0
    return Awaiting(
        p.id,
        p.kind,
        tuple(seats),
        p.deadline,
        p.window,
        p.window and not seats,
        ahead,
        part,
        premove.seat(st),
    )


def asked(st: State) -> list[int]:
    """Every seat with a question now: the pending decision's actors and the next player
    choosing their turn ahead (``engine.premove``)."""
    p = st.pending
    if p is None or st.result is not None:
        return []
    ahead = premove.seat(st)
    return [*p.actors, ahead] if ahead is not None else list(p.actors)


def legal_actions(st: State, seat: int) -> list[Action]:
    """Every action ``seat`` may take now. A team claim is listed once; its allies are any set of
    distinct other seats, given in ``Action.seats``."""
    p = st.pending
    if p is None or st.result is not None:
        return []
    if seat not in p.actors:
        return premove.legal(st, seat) if seat == premove.seat(st) else []
    return KINDS[p.kind].legal(st, p, seat)


def timeout_action(st: State) -> Action:
    """The deadline passed: everyone still asked takes their default, a window closes."""
    if st.pending is None:
        raise GameOver("the game is over")
    return Action(TIMEOUT, None, st.pending.id)


def default_action(st: State, seat: int) -> Action:
    """What ``seat`` does by default on the pending decision (§8), e.g. for an away player."""
    p = st.pending
    if p is None:
        raise GameOver("the game is over")
    if seat not in p.actors:
        raise NotYourTurn(f"seat {seat} is not asked")
    return KINDS[p.kind].default(st, p, seat, for_game(st.rng_kind, st.seed, st.rng))


_ACTION_KINDS = frozenset(ActionKind)


def _well_formed(a: Action) -> bool:
    """Field types as the contract has them (a ``True`` is no seat, a ``"1"`` no player)."""
    return (
        (type(a.kind) is ActionKind or (type(a.kind) is str and a.kind in _ACTION_KINDS))
        and type(a.decision) is int
        and (a.seat is None or type(a.seat) is int)
        and (a.target is None or type(a.target) is int)
        and (a.card is None or type(a.card) is str)
        and (a.choice is None or type(a.choice) is str)
        and type(a.cards) is tuple
        and all(type(c) is str for c in a.cards)
        and type(a.seats) is tuple
        and all(type(s) is int for s in a.seats)
    )


def validate(st: State, action: Action) -> None:
    p = st.pending
    if st.result is not None or p is None:
        raise GameOver("the game is over")
    if not _well_formed(action):
        raise Illegal(f"malformed action {action!r}")
    if action.decision != p.id:
        raise Stale(f"decision {action.decision} is no longer pending (now {p.id})")
    if action.kind == TIMEOUT:
        if action.seat is not None and action.seat not in awaited(st):
            raise NotYourTurn(f"seat {action.seat} is not waited for")
        return
    if action.seat is not None and action.seat == premove.seat(st):  # never one of the actors
        premove.validate(st, action)
        return
    if action.seat is None or action.seat not in p.actors:
        raise NotYourTurn(f"seat {action.seat} may not act on {p.kind}")
    if not allowed(action, KINDS[p.kind].legal(st, p, action.seat), st.n):
        raise Illegal(f"{action.kind} is not a legal answer to {p.kind}")


def apply(
    st: State, action: Action, *, inplace: bool = False, stand_in: bool = False
) -> tuple[State, list[Event]]:
    """``stand_in``: someone else (an AI passenger, R-D2) decides for an away seat, which
    therefore stays away."""
    validate(st, action)
    if not inplace:
        st = st.clone()
    ctx = Ctx(st)
    p = st.pending
    assert p is not None
    if action.kind == TIMEOUT:
        _timeout(ctx, action.seat)
    else:
        assert action.seat is not None
        if not stand_in:
            _came_back(ctx, action.seat)
        if action.seat in p.actors:
            KINDS[p.kind].handle(ctx, p, action)
        else:  # validated: the next player's turn chosen ahead, kept till it starts
            premove.hold(st, action)
    advance(ctx)
    st.rng = ctx.rng.state
    st.step += 1
    return st, ctx.events


def _timeout(ctx: Ctx, seat: int | None) -> None:
    """§8 defaults. Outside windows a timeout counts towards being marked away (R-D2)."""
    st = ctx.state
    p = st.pending
    assert p is not None
    spec = KINDS[p.kind]
    seats = [seat] if seat is not None else awaited(st)
    if seat is None and p.kind not in SILENT_DEADLINES:
        ctx.public("deadline", decision=p.id, decision_kind=p.kind, window=p.window)
    riding = riders(p) if p.window and seat is None else []
    for s in seats:
        if st.pending is not p or s not in p.actors:
            break
        if s in riding:
            continue  # their own decision goes on after the window
        act = spec.default(st, p, s, ctx.rng)
        if not p.window:
            _timed_out(ctx, s)
        spec.handle(ctx, p, act)
    if st.pending is p and p.window and seat is None:
        assert spec.finish is not None
        spec.finish(ctx, p)


def _timed_out(ctx: Ctx, seat: int) -> None:
    pl = ctx.state.players[seat]
    pl.timeouts += 1
    if pl.timeouts >= 3 and not pl.away:
        pl.away = True
        ctx.public("away", seat=seat)


def come_back(st: State, seat: int) -> list[Event]:
    """R-D2: a player marked away says they are back (acting also does it); in place."""
    if st.result is not None:
        raise GameOver("the game is over")
    if not 0 <= seat < st.n:
        raise Illegal(f"no seat {seat}")
    ctx = Ctx(st)
    _came_back(ctx, seat)
    return ctx.events


def mark_away(st: State, seat: int) -> list[Event]:
    """R-D2: a player who left the group is away, as after three timeouts in a row: their
    decisions are defaulted at once until they act again; in place (no event if already away)."""
    if st.result is not None:
        raise GameOver("the game is over")
    if not 0 <= seat < st.n:
        raise Illegal(f"no seat {seat}")
    ctx = Ctx(st)
    pl = st.players[seat]
    if not pl.away:
        pl.away = True
        ctx.public("away", seat=seat)
    return ctx.events


def _came_back(ctx: Ctx, seat: int) -> None:
    pl = ctx.state.players[seat]
    pl.timeouts = 0
    if pl.away:
        pl.away = False
        ctx.public("back", seat=seat)


__all__ = [
    "Awaiting",
    "apply",
    "asked",
    "awaiting",
    "come_back",
    "default_action",
    "legal_actions",
    "mark_away",
    "new_game",
    "timeout_action",
    "validate",
]
