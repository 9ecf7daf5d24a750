"""A page turn: the edit of the prompt a player is looking at, to the page their press asked for
(a navigation button, ``handlers.game_room``). It is the answer to that press, so it goes first
(issue 27): right after the callback answer, before whatever the press's unit of work delivers
from the game's outbox (the group's story and status, other players' prompts), booked in the
bot's shared rate limiter like every call. When the budget is booked ahead, the player waits for
their page: their decision's deadline moves on by that wait (``stretch_for_page``), as it does for
a prompt shown late, so nobody is timed out while the bot makes them wait. A page that finds no
slot in the invocation's time is queued in the game's outbox (``queue``), not dropped: the player
pressed once and gets their page, as soon as the budget allows.

What moves a deadline is the press (an act of the asked player, which the table sees no more of
than their thinking time) and the shared budget, never what anyone holds: a window's deadline,
whose askees are secret, and "your turn is next", which nobody waits for, never move (R-D1)."""

from __future__ import annotations

import json
import logging
from typing import Any, Protocol

from handlers.game_record import Dec
from handlers.holds import STRETCH_AFTER_SECONDS, shift_deadlines
from handlers.message_tags import Kind, Tag
from handlers.transaction import PageTurn, Txn
from infra.ports import Clock, Messenger

log = logging.getLogger("coachride")

# A decision's deadline moves on for its page turns by at most this much in all: a player paging
# on and on while the bot is behind cannot hold the table for longer. It is well above what a
# player looking through their prompt costs at the capacity goal's 100 games (up to 13 pages of
# about 6.5 s each, 85 s, at ``devtools.capacity --quick``: a 60 s cap timed out 9 of them).
MAX_PAGE_STRETCH_SECONDS = 300.0


class Sender(Protocol):
    """What sends a page turn: ``handlers.delivery.Delivery``, whose booking in the shared budget
    and wait for the slot (up to what the invocation's time allows) it shares."""

    @property
    def messenger(self) -> Messenger: ...
    @property
    def clock(self) -> Clock: ...
    def book(self, count: int, txn: Txn) -> list[float]: ...
    def wait_for(self, slot: float, txn: Txn) -> bool: ...


def send_page(sender: Sender, txn: Txn, page: PageTurn) -> float | None:
    """Book a slot for the page turn in the shared budget, wait for it, edit the message; the
    seconds the player waited for it since their press. None: no slot in this invocation's
    time, the page to be queued (``queue``). An edit that fails is logged: the press was
    answered, and the player may press again."""
    slots = sender.book(1, txn)
    if not slots or not sender.wait_for(slots[0], txn):
        log.warning(json.dumps({"event": "page_turn_queued"}))
        return None
    try:
        sender.messenger.edit(page.chat, page.msg, page.text, page.rows)
    except Exception:
        log.warning("page turn failed", exc_info=True)
    return max(0.0, sender.clock.now() - page.pressed)


def stretch_for_page(doc: dict[str, Any], dec: int, waited: float) -> float:
    """The pending decision ``dec`` (still pending, a window's never) moves on by ``waited``, the
    seconds its player waited for a page of its prompt, when that is over
    ``STRETCH_AFTER_SECONDS``; each page turn's wait counts (the player lost each), up to
    ``MAX_PAGE_STRETCH_SECONDS`` in all. The seconds added."""
    pending: Dec | None = doc.get("dec")
    if not pending or pending.get("id") != dec or pending.get("window"):
        return 0.0
    if doc.get("phase") != "playing" or waited <= STRETCH_AFTER_SECONDS:
        return 0.0
    paged = float(pending.get("paged", 0.0))
    extra = min(waited, MAX_PAGE_STRETCH_SECONDS - paged)
    if extra <= 0:
        return 0.0
    pending["paged"] = paged + extra
    shift_deadlines(doc, extra)
    return extra


def stretch(txn: Txn, paged: tuple[int, float]) -> None:
    """The change delivery asks for after a page turn waited (``stretch_for_page``)."""
    if stretch_for_page(txn.doc, *paged):
        txn.changed = True
        log.warning(json.dumps({"event": "deadline_stretched_for_page", "s": round(paged[1], 1)}))


def queue(txn: Txn, page: PageTurn) -> None:
    """A page turn that found no slot in its press's invocation (``send_page``), queued in the
    game's outbox and held back until that invocation's time is over: its flush timer sends it
    then, in the shared budget like any message, and its wait moves the decision's deadline on
    as a prompt's does (``holds.stretch``; a window's never, R-D1). Until then a newer edit of
    the message (another page the player asks for, its closing) replaces it, so it never turns
    the message back. Tagged as the prompt of the decision its buttons carry, or as "your turn
    is next" (``page.dec`` None: nobody waits for it)."""
    players = txn.doc.get("players") or []
    seat = next((i for i, p in enumerate(players) if p.get("uid") == page.chat), None)
    if not _still_open(txn.doc, page, seat):
        return  # answered, closed or over since the press: its buttons would come back dead
    tag = Tag(Kind.AHEAD) if page.dec is None or seat is None else Tag.prompt(seat, page.dec)
    txn.edit(page.chat, page.msg, page.text, page.rows, tag=tag, after=max(txn.until, txn.now))


def _still_open(doc: dict[str, Any], page: PageTurn, seat: int | None) -> bool:
    """Whether the message the page turns still asks what it asked at the press: the game is
    played, and it is still the seat's open prompt of ``page.dec`` (or, ``page.dec`` None, its
    "your turn is next")."""
    if doc.get("phase") != "playing" or seat is None:
        return False
    if page.dec is None:
        ahead = doc.get("ahead") or {}
        return ahead.get("seat") == seat and ahead.get("msg") == page.msg
    prompt = (doc.get("prompts") or {}).get(str(seat)) or {}
    return (
        (doc.get("dec") or {}).get("id") == page.dec
        and prompt.get("dec") == page.dec
        and prompt.get("msg") == page.msg
        and not prompt.get("closed")
    )
