"""The next turn chosen ahead (issue 9, pace): while one player's turn is played, the next player
in seat order may already choose their own action, as a premove.

*Decision (issue 9):* the choice is kept from everyone and may be changed until the next turn
starts; then it is played at once if it is still legal (it is checked as a press would be), and
dropped otherwise, the player told why and the turn then asked as usual. The choice belongs to the
next turn, not to the turn being played: a free use that reopens the current turn (a Diplomat's
demand, a Clairvoyant) leaves it kept (issue 25). A turn played at once ends with its action when
the occupation is face down (R-D1), which gives up a ready Diplomat or Clairvoyant for that turn;
its holder may ask to keep it (``keep_use``): the turn is then asked as usual, the choice ready as
one tap (to the table, a turn like any other). Only a turn's action can be chosen ahead (pass,
trade, attack, a declaration of victory); free uses wait for the turn. It may be chosen from the
moment the turn starts, and is paused (the choice kept, not changeable) while a window is open,
while a fight is fought (until its result is known or the Priest stopped it), and while the pending
decision asks the next player something; never offered to a player marked away. When it is open
depends on public information only: a window's actors are secret (R-D1), and a choice made during a
Doctor window by everyone but a Doctor holder (who is asked in it) would tell the table who holds
none, by a turn played at once as the window closes. Only that player sees the question (their own
private prompt), and nothing the table sees changes with it: no wait, no deadline, no message;
their choice reaches the table only as their turn's action.
"""

from __future__ import annotations

from typing import Any

from engine.actions import Action, Illegal
from engine.frames import TurnFrame, innermost_fight
from engine.kinds import ActionKind, DecisionKind
from engine.state import Pending, State
from engine.turn import ahead_actions, allowed, face_down_uses

KEEP_USE = (
    ActionKind.KEEP_USE
)  # choice "on" / "off": ask first, the free use kept (a face-down holder)

STOPPED = ("priest_tribute", "end")  # a fight the Priest stopped (R-A2)


def current_turn(st: State) -> TurnFrame | None:
    """The turn being played (the outermost frame)."""
    if not st.frames:
        return None
    f = st.frames[0]
    return f if f["kind"] == "turn" else None


def owner(st: State) -> int | None:
    """The seat whose next turn may be chosen ahead during this turn (open or paused): the next
    player in seat order, while the game runs and they are not marked away."""
    turn = current_turn(st)
    if st.pending is None or st.result is not None or turn is None:
        return None
    nxt = (turn["seat"] + 1) % st.n
    return None if st.players[nxt].away else nxt


def seat(st: State) -> int | None:
    """The seat that may choose its next turn now, if any (the owner, unless paused)."""
    nxt = owner(st)
    p = st.pending
    if nxt is None or p is None or p.window:
        return None  # who is asked in a window is secret (R-D1): being offered would tell
    fight = innermost_fight(st.frames)
    if fight is not None and "winner" not in fight and fight["stage"] not in STOPPED:
        return None  # supports and boosts first: the fight is still being fought
    return None if nxt in p.actors else nxt


def legal(st: State, who: int) -> list[Action]:
    """The actions ``who`` may choose ahead: its turn's action as the cards lie now (under the
    pending decision's id, which every press names)."""
    p = st.pending
    assert p is not None
    ahead = Pending(p.id, DecisionKind.TURN, [who], "turn", False, [], {"acted": False})
    acts = ahead_actions(st, ahead, who)
    if face_down_uses(st, who):
        acts.append(Action(KEEP_USE, who, p.id, choice="off" if keeps(st) else "on"))
    return acts


def validate(st: State, action: Action) -> None:
    assert action.seat is not None
    if not allowed(action, legal(st, action.seat), st.n):
        raise Illegal(f"{action.kind} cannot be chosen ahead now")


def hold(st: State, action: Action) -> None:
    """Keep ``action`` as the seat's choice for its next turn (replacing an earlier one)."""
    turn = current_turn(st)
    assert turn is not None
    if action.kind == KEEP_USE:
        turn["premove_keep"] = action.choice == "on"
        return
    turn["premove"] = action.to_dict()


def keeps(st: State) -> bool:
    """The next seat asked to keep its face-down free use (ask it first, the choice ready)."""
    turn = current_turn(st)
    return bool(turn is not None and turn.get("premove_keep"))


def held(st: State, who: int) -> dict[str, Any] | None:
    """The action ``who`` chose ahead and that is still kept (its own view only)."""
    turn = current_turn(st)
    if turn is None:
        return None
    kept = turn.get("premove")
    return kept if kept is not None and kept["seat"] == who else None
