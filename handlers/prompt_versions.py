"""What an asked seat's prompt shows besides its decision (``handlers.presenter``): its own
deadline, as a clock time, and its version (re-rendered when it changes); and its buttons. Pure
functions of the engine's state and the decision's timing."""

from __future__ import annotations

from dataclasses import dataclass

import engine
from engine import DecisionKind, State
from engine.kinds import ActionKind
from engine.view_types import SeatView
from handlers import callback_data
from handlers.group_settings import GroupSettings
from infra.ports import Rows


@dataclass(frozen=True)
class Timing:
    """What a seat's deadline is counted from: the pending decision's deadline
    (``GameRunner.deadline_at``), when it was asked, the group's durations and time scale."""

    due: float | None
    opened: float | None
    settings: GroupSettings
    scale: float


def shown_deadline(st: State, seat: int, view: SeatView, timing: Timing) -> float | None:
    """The seat's own deadline. R-A3: none before one's turn, none for a turn chosen ahead
    (engine.premove). One's own decision asked in a window does not have the window's
    (issue 25): a reward asked in the Doctor window shows the one it goes on under once
    the window closes; a support asked in the Priest window, none until its turn."""
    aw = engine.awaiting(st)
    own = view["decision"]
    due = timing.due
    if _first_supporter(aw, view) and own is not None and timing.opened is not None:
        # R-A3: the first supporter's deadline counts from the start of the fight, known and
        # shown from then (issue 27: its prompt was edited as the Priest window closed only to
        # show it, 8.7 times per 5-player game)
        return timing.opened + timing.settings.seconds(own["deadline"]) * timing.scale
    if aw is not None and (seat in aw.ahead or seat == aw.premove):
        return None
    if own is None or not own["data"].get("early"):
        return due
    if own["kind"] != DecisionKind.REWARD or due is None:
        return None
    # counted from when it was asked (``deadline_at``), and not before the window closes
    assert timing.opened is not None  # a decision is pending
    own_due = timing.opened + timing.settings.seconds(own["deadline"]) * timing.scale
    return max(due, own_due)


def _first_supporter(aw: engine.Awaiting | None, view: SeatView) -> bool:
    """R-A3: the seat is the first to declare its support, asked in the Priest window."""
    own = view["decision"]
    if aw is None or aw.kind != DecisionKind.PRIEST or own is None:
        return False
    data = own["data"]
    return own["kind"] == DecisionKind.SUPPORT and bool(data.get("early")) and not data["before"]


def prompt_version(st: State, seat: int, timing: Timing) -> str:
    """What the seat's open prompt shows, beyond its decision: re-rendered when it changes.
    Prompts of the boost window change as cards are played, support prompts when the seat's
    own turn to declare comes (R-A3: with every declaration before it told, and its deadline)
    or it declares ahead of it, and a decision asked during a window goes on under its own
    deadline once the window closes. A decision asked during a window is the seat's own kind
    all along (what it asks and offers), so the window's close alone edits only a prompt that
    gets its deadline then; the others keep their message until their facts change (issue
    27: about 36 edits per 5-player game). A declaration told while the seat's turn has not
    come changes neither its buttons nor what it must do: its prompt stays as it was (true
    when shown), and shows every declaration told when its turn comes (issue 27: 12.5 edits
    per 5-player game)."""
    fight = engine.current_fight(st)
    played = len(fight.get("played", [])) if fight else 0
    view = engine.view(st, seat)
    own = view["decision"]
    kind = own["kind"] if own is not None else ""
    declared = own["data"].get("declared") if own is not None and fight else None
    due = shown_deadline(st, seat, view, timing)
    # a reward asked in the Doctor window, a support asked in the Priest window: edited at its
    # close only if the deadline shown moved (to the second shown: a timer that fires late)
    moves = due is not None and kind in (DecisionKind.REWARD, DecisionKind.SUPPORT)
    timed = int(due) if moves and due is not None else due is not None
    if kind in (DecisionKind.SUPPORT, DecisionKind.REWARD) and _offers_window(st, seat):
        kind = f"{kind}+window"  # its buttons go as the window closes (issue 25)
    return f"{kind}:{played}:{declared}:{timed}"  # timed last: Presenter._open_prompts


def _offers_window(st: State, seat: int) -> bool:
    """The seat's own decision, asked during a Priest or Doctor window, comes with that window's
    occupation to use (R-A2, R-A8): those buttons are taken away when the window closes."""
    return any(a.kind == ActionKind.USE for a in engine.legal_actions(st, seat))


def buttons(gid: str, decision: int, rows: list[list[tuple[str, str]]]) -> Rows:
    """A prompt's (label, payload) rows as inline buttons of the game's decision."""
    return [
        [[label, "d", callback_data.game(gid, decision, payload)] for label, payload in row]
        for row in rows
    ]


def send_order(views: dict[int, SeatView]) -> list[int]:
    """The order the asked seats' prompts are sent in (one call after another): a window's
    riders (asked their own, public decision while it is open) first, in the order they are to
    answer (a supporter's place among those to declare), then the others. No rider's prompt
    waits on a holder's, whose timing would tell that someone holds the window's occupation
    (R-D1)."""

    def place(seat: int) -> tuple[int, int]:
        own = views[seat]["decision"]
        if own is None or not own["data"].get("early"):
            return (1, 0)
        return (0, len(own["data"].get("before") or []))

    return sorted(views, key=place)
