"""Delivery: what a committed command queued goes out, in order, under the rate limit, and each
send is acknowledged as soon as Telegram took it.

Delivery holds on Telegram's bad days:
- acknowledgements merge monotonically: nobody drops an ack for an entry it did not know;
- flood-control waits fit the invocation's remaining time; what does not fit stays in the
  outbox for its flush timer; permanent refusals are dropped;
- a chat held by flood control longer than the invocation may wait is recorded in the game
  (``handlers.holds``);
- with a ``RateLimiter`` the whole bot stays under Telegram's global message rate.

Before a ``send`` goes out its acknowledgement says ``ACK_SENDING``; a lost answer (a read
timeout) makes it ``ACK_UNCERTAIN``, and so does a sender whose lease ended with its send still
under way (killed after the request, before the ack): the next load settles it by its kind's rule
(``handlers.message_tags``). Edits and pins are idempotent: they are retried as before.
"""

from __future__ import annotations

import json
import logging
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from handlers import page_turn, reminders
from handlers.acks import ACK_NOT_NEEDED, ACK_SENDING, AckWriter, ack_value
from handlers.holds import (
    MAX_HOLD_SECONDS,
    STRETCH_AFTER_SECONDS,
    awaited_prompt,
    game_waits_until,
    holding_chats,
    owes_no_wait,
)
from handlers.pressure import low_priority, overdue
from handlers.store_keys import FLUSH
from handlers.transaction import Txn, deferred
from infra.ports import (
    Clock,
    DocumentStore,
    FloodWait,
    Messenger,
    OutOfTime,
    Sent,
    TimerRequest,
    Timers,
    time_left,
)

log = logging.getLogger("coachride")

MIN_SEND_SECONDS = 6.0  # no send starts with less of the invocation left (a request's timeout)
BOOK_AHEAD = 4  # rate-limit slots booked at a time while the sends keep up with them
MAX_REBOOKS = 3  # bookings tried for one message whose slots keep slipping by
# A decision prompt Telegram failed to take (a 5xx, the network) holds its chat this long: the
# deadlines move on meanwhile (nobody is timed out for a prompt the bot could not deliver) and the
# flush timer tries again after it.
FAILED_HOLD_SECONDS = 30.0
FALLBACK_SPACING_SECONDS = 0.25  # between messages when the shared rate limiter cannot book
# Under pressure (issue 27): when the shared budget is booked this far ahead, the group's story and
# status wait for the flush timer, so the decision prompts in private chats go first (for at most
# ``MAX_DEFER_SECONDS``: then they go, pressure or not).
BEHIND_SECONDS = 2.0
# ... and when it is booked this far ahead, the edits nobody waits on to decide are held back
# before the commit (``handlers.pressure.defer_under_pressure``).
PRESSURE_SECONDS = 0.5


class RateLimiter(Protocol):
    tolerance: float  # a message sent later than this after its slot books a new one

    def reserve(self, count: int, now: float, latest: float) -> list[float]:
        """Book up to ``count`` message slots no later than ``latest``; their start times."""
        ...

    def backlog(self, now: float) -> float:
        """How far ahead of ``now`` the budget is booked: 0 when a slot is free at once."""
        ...


@dataclass
class Delivered:
    """What a delivery leaves for the game to record: prompts late (decision -> the longest
    wait), the group's refusal of the bot, the chats flood control holds (chat -> until)."""

    late: dict[int, float] = field(default_factory=dict)
    muted: bool = False
    holds: dict[int, float] = field(default_factory=dict)
    moved: dict[int, int] = field(default_factory=dict)  # group -> the supergroup it became
    removed: bool = False  # the group refused as removed (403): nothing more is sent there


class Delivery:
    """Sends what one invocation owns, acknowledging each send."""

    def __init__(
        self,
        store: DocumentStore,
        messenger: Messenger,
        timers: Timers,
        clock: Clock,
        *,
        limiter: RateLimiter | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.store = store
        self.messenger = messenger
        self.timers = timers
        self.clock = clock
        self.limiter = limiter
        self.sleep = sleep
        # told of each outbox entry Telegram answered, as it is acknowledged (the capacity
        # command counts what fills the shared budget by what it is, ``devtools.capacity``)
        self.answered: Callable[[dict[str, Any]], None] | None = None

    # -- outbox ----------------------------------------------------------------------------
    def deliver(self, key: str, txn: Txn, query: str | None = None) -> Delivered:
        """Send what this invocation owns, in the order it was queued; a chat that failed is
        left alone for this invocation so its messages keep their order (and a stuck chat
        never holds up another's). ``query``: the callback query of the press behind the
        change, answered first (``txn.toast``), and the page it asked for (``txn.page``), before
        any message goes out.

        The group's messages go first (each chat keeps its order): the private prompts sent with
        them are as many as the players asked, which may be secret (who can use a window), and
        the group's message would otherwise come later by one call per prompt (R-D1: the table
        never learns a secret from timing). Under pressure (the shared budget booked more than
        ``BEHIND_SECONDS`` ahead) the decision prompts go first and the group's story and
        status are left to the flush timer; a newer edit of the same message replaces them
        meanwhile (``Txn._supersede``); players then wait on the queue, which hides the count."""
        if query is not None:
            self.answer(query, txn)
        group = txn.doc.get("chat") if key.startswith("GAME#") else None
        pending = txn.new_entries + txn.stale_entries
        delivered = Delivered()
        if not pending:
            return delivered
        # whether the shared budget is behind, asked once and only when the group has messages
        behind: bool | None = None
        if group is not None and any(e["chat"] == group for e in pending):
            behind = self._behind()
        # a deferred edit is its flush timer's (``Txn.edit``, ``defer_under_pressure``): no slot
        entries = sorted(
            (e for e in pending if not deferred(e, txn.now)),
            key=lambda e: ((e["chat"] == group) == bool(behind), int(e["seq"])),
        )
        # a chat's messages keep their order: none goes before a send held back there
        waits_for: dict[int, int] = {}
        for e in txn.doc.get("outbox", []):
            if e["op"] == "send" and deferred(e, txn.now):
                waits_for[e["chat"]] = min(waits_for.get(e["chat"], e["seq"]), e["seq"])
        late: dict[int, float] = {}  # decision -> the longest its prompt waited for delivery
        acks = AckWriter(self.store, key, txn)
        booked = _Booked()
        held: set[int] = set()
        muted: set[int] = set()
        moved: dict[int, int] = {}
        removed = False
        failed: set[int] = set()  # chats where Telegram failed (a 5xx, the network)
        queued: set[int] = set()  # ... or whose messages got no slot in this invocation
        waiting: set[int] = set()  # ... or that flood control holds
        done: set[int] = set()  # the entries Telegram answered
        retry_at = 0.0
        holding = holding_chats(txn.doc, txn.now)
        holds: dict[int, float] = {}
        for i, e in enumerate(entries):
            if e["chat"] in held:
                continue
            if e["seq"] > waits_for.get(e["chat"], e["seq"]):
                held.add(e["chat"])
                continue
            if e["chat"] in holding:  # flood control holds the chat: not even a try
                held.add(e["chat"])
                retry_at = max(retry_at, holding[e["chat"]])
                if holding[e["chat"]] <= game_waits_until(txn.doc, txn.now):
                    waiting.add(e["chat"])  # a hold the game still waits for
                continue
            if e["chat"] == group and low_priority(e):
                if behind is None:
                    behind = self._behind()
                if behind and not overdue(e, txn.now):
                    held.add(e["chat"])
                    continue
            if not reminders.needed(e, acks.known):  # its reminder went: no call, no slot
                if acks.known.get(e["seq"]) != ACK_NOT_NEEDED:  # its sender died
                    acks.write(e["seq"], ACK_NOT_NEEDED)  # it leaves the outbox
                done.add(e["seq"])
                continue
            # slots for what may go: no booking for a chat held or the group left waiting
            remaining = sum(
                1
                for x in entries[i:]
                if x["chat"] not in held
                and x["seq"] <= waits_for.get(x["chat"], x["seq"])
                and (x is e or "if_gone" not in x)  # sent only if a reply before is refused
                and not (
                    behind and x["chat"] == group and low_priority(x) and not overdue(x, txn.now)
                )
            )
            if not self._take_slot(booked, remaining, txn):
                # no slot before the lease ends (the shared budget is booked that far ahead): the
                # flush timer's, and the game waits for it (``queued``)
                queued.update(_queued(entries[i:], held, txn.doc))
                held.update(x["chat"] for x in entries[i:])
                break
            sending = e["op"] == "send"
            if sending:  # a process killed from here to the ack leaves it uncertain
                acks.write(e["seq"], ACK_SENDING)
            try:
                if sending:
                    sent = self.messenger.send(e["chat"], e["text"], e["rows"], e.get("reply"))
                elif e["op"] in ("pin", "unpin"):
                    # A refusal (no right to pin) is an answer: acknowledged, never retried.
                    sent = self.messenger.pin(e["chat"], e["msg"], e["op"] == "pin")
                    sent = Sent(True, sent.message_id if sent.ok else 0)
                else:
                    sent = self.messenger.edit(e["chat"], e["msg"], e["text"], e["rows"])
            except FloodWait as flood:
                log.warning(json.dumps({"event": "flood_wait", "s": flood.retry_after}))
                retry_at = max(retry_at, self.clock.now() + flood.retry_after)
                holds[e["chat"]] = max(holds.get(e["chat"], 0.0), retry_at)
                held.add(e["chat"])
                if sending:
                    acks.forget(e["seq"])
                continue
            except OutOfTime:
                queued.update(_queued(entries[i:], held, txn.doc))
                held.update(x["chat"] for x in entries[i:])
                if sending:
                    acks.forget(e["seq"])
                break
            except Exception:  # transient; the entry stays for the next claim
                log.exception("send failed")
                held.add(e["chat"])
                if sending:
                    acks.forget(e["seq"])
                failed.add(e["chat"])
                continue
            if sent.moved_to is not None:
                # the group became a supergroup: its entries stay for the game (or the chat's
                # direct replies) to move there (``handlers.chat_moves``), not one more call to
                # the old id
                moved[e["chat"]] = sent.moved_to
                held.add(e["chat"])
                if sending:
                    acks.forget(e["seq"])
                continue
            acks.settled(reminders.unneeded(e, entries, sent), ACK_NOT_NEEDED)
            acks.write(e["seq"], ack_value(e, sent))
            done.add(e["seq"])
            if self.answered is not None:
                self.answered(e)
            if sent.muted:
                muted.add(e["chat"])
                if sent.unreachable:  # removed from the group: not one more call there
                    removed = True
                    held.add(e["chat"])
            dec = awaited_prompt(txn.doc, e)
            waited = self.clock.now() - float(e.get("at", self.clock.now()))
            if sent.ok and dec is not None and waited > STRETCH_AFTER_SECONDS:
                late[dec] = max(late.get(dec, 0.0), waited)
        # A decision prompt left behind in a chat where Telegram failed (or flood control holds):
        # the chat is held until the flush timer below tries again (a while after a failure),
        # so an outage's holds leave no gap, and the game's deadlines wait for it meanwhile (for at
        # most ``MAX_HOLD_SECONDS`` in all: past it the deadlines run again, as under a long flood).
        prompted = {
            e["chat"]
            for e in entries
            if e["seq"] not in done and awaited_prompt(txn.doc, e) is not None
        }
        waited = float((txn.doc.get("hold") or {}).get("extended", 0.0))
        # Messages the shared budget left for the flush timer (issue 27: at 200 games a prompt
        # with no slot waited for it while its deadline ran out) hold their chats likewise, whatever
        # they are: the hold depends on the budget alone, never on which prompts were queued
        # (R-D1), and nobody is timed out for a prompt still waiting in the bot's queue.
        if (prompted & (failed | waiting) or queued) and waited < MAX_HOLD_SECONDS:
            if prompted & failed:
                retry_at = max(retry_at, self.clock.now() + FAILED_HOLD_SECONDS)
            at = max(txn.until, retry_at) + 1  # the flush's time
            for chat in prompted & (failed | waiting) | queued:
                holds[chat] = max(holds.get(chat, 0.0), at)
        if key.startswith("GAME#"):
            delivered = Delivered(late, bool(muted), holds, moved, removed)
        elif moved:  # a direct reply refused as upgraded goes to the supergroup
            delivered = Delivered(moved=moved)
        if held:
            at = max(txn.until, retry_at) + 1
            self.timers.schedule(TimerRequest(key, FLUSH, at))
        return delivered

    def answer(self, query: str, txn: Txn) -> float | None:
        """The press's answer: its toast, or nothing (the spinner stops), a failure logged (the
        change is committed either way); then the page it asked for, if any: the seconds waited
        (None: no slot for it in this invocation, ``page_turn.queue``)."""
        text, alert = txn.toast or (None, False)
        try:
            self.messenger.answer(query, text, alert)
        except Exception:
            log.warning("could not answer callback query %s", query, exc_info=True)
        page = txn.page
        return 0.0 if page is None else page_turn.send_page(self, txn, page)

    def pressed(self) -> bool:
        """Whether the shared budget is booked more than ``PRESSURE_SECONDS`` ahead."""
        return self._behind(PRESSURE_SECONDS)

    def _behind(self, seconds: float = BEHIND_SECONDS) -> bool:
        """Whether the shared budget is booked more than ``seconds`` ahead."""
        if self.limiter is None:
            return False
        try:
            return self.limiter.backlog(self.clock.now()) > seconds
        except Exception:  # unavailable: the slots will tell
            log.warning(json.dumps({"event": "rate_limiter_unavailable"}), exc_info=True)
            return False

    def book(self, count: int, txn: Txn) -> list[float]:
        """When each of ``count`` messages may go: at once, or the shared limiter's slots."""
        now = self.clock.now()
        if self.limiter is None:
            return [now] * count
        latest = txn.until - MIN_SEND_SECONDS
        try:
            return self.limiter.reserve(count, now, latest)
        except Exception:  # contended or unavailable: go on at a pace far below the limit
            log.warning(json.dumps({"event": "rate_limiter_unavailable"}), exc_info=True)
            return [now + i * FALLBACK_SPACING_SECONDS for i in range(count)]

    def _take_slot(self, booked: _Booked, remaining: int, txn: Txn) -> bool:
        """Wait for this delivery's next slot (booking more when none is left); False when the
        lease or the invocation ends first.

        A slot missed by more than the limiter's tolerance (the sends before it took longer
        than the spacing, or the process woke late) is not used: sent that late, the message
        would bunch up with the slots other functions booked after ours. The rest of that
        booking is as late, so it is dropped, and from then on this delivery books one slot
        at a time, just before each send, wasting none."""
        for _ in range(MAX_REBOOKS):
            if not booked.slots:
                booked.slots.extend(self.book(min(remaining, booked.ahead), txn))
                if not booked.slots:
                    return False
                booked.at = self.clock.now()
            slot = booked.slots.popleft()
            if not self.wait_for(slot, txn):
                return False
            # a slot already due when its booking came back is on time: the booking's own
            # round trip delays every function alike
            due = max(slot, booked.at)
            if self.limiter is None or self.clock.now() <= due + self.limiter.tolerance:
                return True
            booked.slots.clear()
            booked.ahead = 1
        return True  # a starved process: go on; a 429 would be waited out like any other

    def wait_for(self, slot: float, txn: Txn) -> bool:
        """Sleep until ``slot``; False when the lease or the invocation ends first."""
        wait = slot - self.clock.now()
        if slot > txn.until - MIN_SEND_SECONDS or wait > time_left() - MIN_SEND_SECONDS:
            return False
        if wait > 0:
            self.sleep(wait)
        return self.clock.now() < txn.until - MIN_SEND_SECONDS / 2

    def schedule_flush(self, key: str, txn: Txn) -> None:
        """If this process dies before sending, someone must come back once its lease is over.
        The game's next deadline will if it falls just after; otherwise a flush timer."""
        if not txn.new_entries and not txn.stale_entries:
            return
        pending = txn.new_entries + txn.stale_entries
        for at in sorted({float(e["after"]) for e in pending if deferred(e, txn.now)}):
            self.timers.schedule(TimerRequest(key, FLUSH, at))
        due = txn.doc.get("due")
        if due is None or not txn.until < due["at"] <= txn.until + 30:
            self.timers.schedule(TimerRequest(key, FLUSH, txn.until + 1))


@dataclass
class _Booked:
    """One delivery's rate-limit slots not used yet, and how many to book at a time."""

    slots: deque[float] = field(default_factory=deque)
    ahead: int = BOOK_AHEAD
    at: float = 0.0  # when the last booking came back


def _queued(left: list[dict[str, Any]], held: set[int], doc: dict[str, Any]) -> set[int]:
    """The chats of what got no slot, which the game waits for (``owes_no_wait``: R-D1)."""
    return {x["chat"] for x in left if x["chat"] not in held and not owes_no_wait(doc, x)}
