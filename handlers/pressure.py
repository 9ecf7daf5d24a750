"""Under pressure (issue 27: the bot's shared budget is booked ahead), what waits: the edits
nobody waits on to decide, held back for their flush timer so prompts and answers go first."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from handlers.message_tags import Kind, tag_of
from handlers.transaction import Txn, born_at, deferred

# What may wait (``defer_under_pressure``), how long at a time and at most in all.
DEFERRABLE = (
    Kind.CLOSED,
    Kind.ANSWERED,
    Kind.RESHOWN,
    Kind.STORY,
    Kind.STATUS,
    Kind.LOBBY_EDIT,
)
PRESSURE_DEFER_SECONDS = 10.0
MAX_DEFER_SECONDS = 60.0


def defer_under_pressure(txn: Txn, behind: Callable[[], bool]) -> None:
    """Under pressure (issue 27: the bot's shared budget is booked ahead, ``behind``), the edits
    nobody waits on to decide (``DEFERRABLE``: a prompt closed by someone else's move or its
    deadline, the pressed prompt's answer, whose choice the press's callback answer then says at
    once, newer facts on a prompt whose buttons are shown, the group's story — its new message
    too, which the next lines then join (``Txn.take_back``) — and status, the lobby's edits,
    whose joining players are told in private at once: one edit for a lobby filling up, where
    games starting at once spent one a player) are held back
    ``PRESSURE_DEFER_SECONDS`` for their flush timer, so the prompts and the answers of presses
    go first. Meanwhile a newer edit of the same message replaces the held one
    (``Txn._supersede``), so a message costs one call however often it changed. None waits
    longer than ``MAX_DEFER_SECONDS`` in all: then it goes, pressure or not. What is held back
    depends on the shared budget only, never on what this game's messages say, and the budget is
    asked on every command of a game, whatever it queued (R-D1: not even a read's time tells the
    group that a secret window's prompt was closed)."""
    if not txn.key.startswith("GAME#") or not behind():
        return
    now = txn.now
    held = [
        e
        for e in txn.new_entries + txn.stale_entries
        if (
            (e["op"] == "edit" and tag_of(e).kind in DEFERRABLE)
            or (e["op"] == "send" and tag_of(e).kind == Kind.STORY)
        )
        and not deferred(e, now)
        and now - born_at(e) < MAX_DEFER_SECONDS
    ]
    if not held:
        return
    mine = {e["seq"] for e in txn.new_entries}
    for e in held:
        e["after"] = e["until"] = min(now + PRESSURE_DEFER_SECONDS, born_at(e) + MAX_DEFER_SECONDS)
        e.setdefault("born", e["at"])
        # the presser learns their choice at once: only from this command's own answer (one
        # left from an earlier press is someone else's, perhaps another player's)
        if e.get("answer") and e["seq"] in mine and txn.toast is None:
            txn.toast = (str(e["answer"]), False)
    txn.changed = True


# What the group may leave waiting when the shared budget runs short (``handlers.delivery``).
LOW_PRIORITY_KINDS = (Kind.STORY, Kind.STATUS, Kind.STATUS_PIN)


def low_priority(e: dict[str, Any]) -> bool:
    """The group's story and status: what waits when the shared budget runs short."""
    return tag_of(e).kind in LOW_PRIORITY_KINDS


def overdue(e: dict[str, Any], now: float) -> bool:
    """Whether an entry's message has waited ``MAX_DEFER_SECONDS`` for it (since the oldest edit
    it replaced was queued): then it goes, however far behind the budget is (sent later, never
    lost to a pressure that lasts)."""
    return now - born_at(e) >= MAX_DEFER_SECONDS
