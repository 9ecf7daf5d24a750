"""The application service: a Telegram command in, a committed game and its messages out.

Each command runs as: one read of the game (with the acknowledgements of what was already sent),
the change (engine ``apply`` plus the defaults that are due), one transactional write holding the
version-checked game, the update marker and the outbox; then the callback answer; then the sends,
each acknowledged as soon as Telegram took it. A version conflict reruns the whole command on a
fresh read.

Delivery holds on Telegram's bad days:
- every outbox entry carries a lease (``until``): the end of the invocation that committed or
  claimed it. Only that invocation sends it, and never after its lease; once the lease is over,
  the next process claims the entry with a version-checked write (the fencing), so a slow but
  live sender is never doubled and a dead one is always replaced;
- acknowledgements merge monotonically: nobody drops an ack for an entry it did not know;
- flood-control waits fit the invocation's remaining time; what does not fit stays in the
  outbox for its flush timer; permanent refusals are dropped. An entry leaves the outbox only
  when it was sent (or its outcome is uncertain, below), refused for good, or when its game
  ended (or it is a direct reply) and ``STALE_OUTBOX_SECONDS`` passed since it was queued;
- a chat held by flood control longer than the invocation may wait is recorded in the game
  (``hold``): nothing is sent to it until the hold ends, the game's deadlines move on by the
  time held (nobody is timed out for a prompt that could not be shown), and a hold longer than
  ``LONG_HOLD_SECONDS`` is told to the group once;
- with a ``RateLimiter`` the whole bot stays under Telegram's global message rate.

Telegram has no idempotency key, so a send whose outcome is unknown is never sent again blindly
(issue 24). Before a ``send`` goes out its acknowledgement says ``ACK_SENDING``; a lost answer
(a read timeout) makes it ``ACK_UNCERTAIN``, and so does a sender whose lease ended with its
send still under way (killed after the request, before the ack). Such an entry leaves the
outbox *uncertain*, and each kind has its rule (``settle_uncertain``), chosen so that the player
sees what they need without a duplicate:
- a decision prompt is shown again only by its reminder (which then carries the prompt and its
  buttons) or by an edit of a message known to exist;
- a story message's lines are merged into the next story message;
- the living status is sent anew with its next change (it cannot be edited while its id is
  unknown);
- anything else (private news, a reminder, a reply, the final dossier) counts as delivered:
  at most once.
Edits and pins are idempotent: they are retried as before.
"""

from __future__ import annotations

import json
import logging
import math
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Protocol

from handlers.i18n import t
from handlers.outbox import entry
from infra import metrics
from infra.ports import (
    Clock,
    DocumentStore,
    DuplicateUpdate,
    FloodWait,
    Messenger,
    OutOfTime,
    Put,
    Rows,
    Sent,
    TimerRequest,
    Timers,
    VersionConflict,
    time_left,
)

log = logging.getLogger("coachride")

GAME_TTL_SECONDS = 14 * 24 * 3600  # games and their acknowledgements; chats and users stay
DEFAULT_BUDGET_SECONDS = 25.0  # an invocation with no deadline of its own (local runner, tests)
LEGACY_LEASE_SECONDS = 20.0  # entries written before leases existed: ``at`` + this
MIN_SEND_SECONDS = 6.0  # no send starts with less of the invocation left (a request's timeout)
STALE_OUTBOX_SECONDS = 3600.0  # after its game ended, an entry still unsent is dropped
LONG_HOLD_SECONDS = 60.0  # a flood-control hold this long is told to the group, once
MAX_OUTBOX = 150  # entries; the oldest beyond go (a game makes a few dozen per round)
MAX_ATTEMPTS = 12
BOOK_AHEAD = 4  # rate-limit slots booked at a time while the sends keep up with them
MAX_REBOOKS = 3  # bookings tried for one message whose slots keep slipping by
FALLBACK_SPACING_SECONDS = 0.25  # between messages when the shared rate limiter cannot book
# Under pressure (issue 27): when the shared budget is booked this far ahead, the group's story and
# status wait for the flush timer, so the decision prompts in private chats go first.
BEHIND_SECONDS = 2.0
LOW_PRIORITY_KINDS = ("story", "status", "status_pin")
# A decision prompt shown this much later than its decision was committed (the shared budget's
# queue, a flush) stretches the decision's deadline by its delay: nobody loses time to the bot.
STRETCH_AFTER_SECONDS = 1.0
REPLY_PREFIX = "REPLY#"
FLUSH = -1  # the decision id of a timer that only finishes sends a dead process left behind
ACK_DROPPED = -2  # acknowledgement of an entry Telegram refused for good
ACK_UNREACHABLE = -1
ACK_UNCERTAIN = -3  # a send whose answer was lost: shown or not, it is never sent again
ACK_SENDING = -4  # a send under way; uncertain once its sender's lease is over
UNCERTAIN_SENDS = "UncertainSends"
# sends that ask or count down: none arrives after the game's end (``_drop_live_sends``)
LIVE_KINDS = ("prompt", "ahead", "reminder", "turn_reminder", "away", "hold", "status")


def game_key(gid: str) -> str:
    return f"GAME#{gid}"


def chat_key(chat_id: int) -> str:
    return f"CHAT#{chat_id}"


def user_key(uid: int) -> str:
    return f"USER#{uid}"


def ttl_for(key: str) -> int | None:
    """Games expire; a group's scores and settings and a user's language do not."""
    return GAME_TTL_SECONDS if key.startswith(("GAME#", "ACK#", REPLY_PREFIX)) else None


def new_game_id() -> str:
    return secrets.token_urlsafe(6).replace("-", "x").replace("_", "y")


class RateLimiter(Protocol):
    tolerance: float  # a message sent later than this after its slot books a new one

    def reserve(self, count: int, now: float, latest: float) -> list[float]:
        """Book up to ``count`` message slots no later than ``latest``; their start times."""
        ...

    def backlog(self, now: float) -> float:
        """How far ahead of ``now`` the budget is booked: 0 when a slot is free at once."""
        ...


# -- the Telegram update being handled --------------------------------------------------------
@dataclass
class Invocation:
    """What this process knows about the update it handles: whether it holds the update's
    marker (committed it) or found it taken (a redelivery), and the queries it answered."""

    update_id: int | None
    claimed: bool = False
    duplicate: bool = False
    answered: set[str] = field(default_factory=set)


_local = threading.local()


@contextmanager
def handling(update_id: int | None) -> Iterator[Invocation]:
    outer = getattr(_local, "invocation", None)
    _local.invocation = current = Invocation(update_id)
    try:
        yield current
    finally:
        _local.invocation = outer


def invocation() -> Invocation | None:
    inv: Invocation | None = getattr(_local, "invocation", None)
    return inv


class UpdateReplies:
    """The Messenger for direct replies (no game change behind them): the first reply to an
    update claims its marker, so a redelivered update never speaks twice; a callback query is
    answered at most once.

    A reply is committed to its chat's outbox (``reply_key``) together with the marker and
    sent from there like a game's messages, under the shared rate limit: a process killed
    between the claim and the send leaves the reply to the flush timer, never loses it."""

    def __init__(self, pipeline: Pipeline) -> None:
        self.pipeline = pipeline

    @property
    def messenger(self) -> Messenger:
        return self.pipeline.messenger

    @property
    def store(self) -> DocumentStore:
        return self.pipeline.store

    def claim(self) -> bool:
        inv = invocation()
        if inv is None or inv.update_id is None or inv.claimed:
            return True
        if inv.duplicate:
            return False
        try:
            self.store.commit([], inv.update_id)
        except DuplicateUpdate:
            inv.duplicate = True
            return False
        inv.claimed = True
        return True

    def send(self, chat_id: int, text: str, rows: Rows | None = None) -> Sent:
        return self._reply(chat_id, lambda txn: txn.send(chat_id, text, rows, tag="reply"))

    def edit(self, chat_id: int, message_id: int, text: str, rows: Rows | None = None) -> Sent:
        return self._reply(
            chat_id, lambda txn: txn.edit(chat_id, message_id, text, rows, tag="reply")
        )

    def _reply(self, chat_id: int, add: Callable[[Txn], None]) -> Sent:
        inv = invocation()
        if inv is not None and inv.duplicate:
            return Sent(False)
        update_id = inv.update_id if inv is not None else None
        done = self.pipeline.run(reply_key(chat_id), add, update_id, create={"seq": 0})
        return Sent(done is not None)

    def answer(self, query_id: str, text: str | None = None, alert: bool = False) -> None:
        inv = invocation()
        if inv is not None and query_id in inv.answered:
            return
        if not self.claim():
            return
        if inv is not None:
            inv.answered.add(query_id)
        try:
            self.messenger.answer(query_id, text, alert)
        except Exception:  # the spinner stops by itself; the change is committed either way
            log.warning("could not answer callback query %s", query_id, exc_info=True)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.messenger, name)


@dataclass
class Txn:
    """One attempt at a command against one game document (and whatever else it touches)."""

    doc: dict[str, Any]
    version: int | None
    now: float
    until: float = 0.0  # the lease of what this invocation sends: the end of its time
    extra: dict[str, tuple[dict[str, Any], int | None]] = field(default_factory=dict)
    new_entries: list[dict[str, Any]] = field(default_factory=list)
    stale_entries: list[dict[str, Any]] = field(default_factory=list)
    settled: int = 0  # uncertain sends that left the outbox on this load
    changed: bool = False
    toast: tuple[str, bool] | None = None  # the callback answer: text, as an alert
    acks: dict[int, int] = field(default_factory=dict)  # outbox seq -> message id (-1 unreachable)
    ack_version: int | None = None
    key: str = ""  # the document's key in the store

    @property
    def seq(self) -> int:
        """The number of the newest message queued in the document's outbox."""
        return int(self.doc.get("seq", 0))

    def send(self, chat: int, text: str, rows: Rows | None = None, tag: str = "") -> None:
        self._add("send", chat, text, rows, None, tag)

    def edit(
        self,
        chat: int,
        msg: int,
        text: str,
        rows: Rows | None = None,
        tag: str = "",
        *,
        after: float | None = None,
    ) -> None:
        """``after``: not sent before then (a throttled edit, issue 27). Its lease ends then, so
        whoever runs first after it (its flush timer) sends it; until then a newer edit of the
        same message replaces it."""
        self._add("edit", chat, text, rows, msg, tag)
        if after is not None and after > self.now:
            e = self.new_entries[-1]
            e["after"] = e["until"] = after

    def pin(self, chat: int, msg: int, pinned: bool = True, tag: str = "") -> None:
        self._add("pin" if pinned else "unpin", chat, "", None, msg, tag)

    def _add(
        self, op: str, chat: int, text: str, rows: Rows | None, msg: int | None, tag: str
    ) -> None:
        if op == "edit":
            self._supersede(chat, msg)
        self.doc["seq"] = self.doc.get("seq", 0) + 1
        e = entry(self.doc["seq"], self.now, op, chat, text, rows, msg, tag)
        e["until"] = self.until
        self.doc.setdefault("outbox", []).append(e)
        self.new_entries.append(e)
        self.changed = True

    def _supersede(self, chat: int, msg: int | None) -> None:
        """An edit replaces a message's whole text and buttons, so an earlier edit of the same
        message that nobody is sending (queued by this invocation, left behind and claimed by
        it, or held back until a time still to come) is not sent at all: the message shows the
        newest state with one call (issue 27)."""
        mine = {e["seq"] for e in self.new_entries + self.stale_entries}
        gone = {
            e["seq"]
            for e in self.doc.get("outbox", [])
            if (e["seq"] in mine or _deferred(e, self.now))
            and e["op"] == "edit"
            and e["chat"] == chat
            and e["msg"] == msg
        }
        if not gone:
            return
        self.doc["outbox"] = [e for e in self.doc["outbox"] if e["seq"] not in gone]
        self.new_entries = [e for e in self.new_entries if e["seq"] not in gone]
        self.stale_entries = [e for e in self.stale_entries if e["seq"] not in gone]

    def put(self, key: str, doc: dict[str, Any], version: int | None) -> None:
        self.extra[key] = (doc, version)
        self.changed = True


class Pipeline:
    """Load → change → commit → answer → deliver and acknowledge, with retries on conflicts."""

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
        self.replies = UpdateReplies(self)

    def run(
        self,
        key: str,
        change: Callable[[Txn], None],
        update_id: int | None,
        *,
        create: dict[str, Any] | None = None,
        query: str | None = None,
    ) -> Txn | None:
        """Run ``change`` on the document at ``key`` (or on ``create`` if it does not exist).

        ``query``: the callback query to answer (with ``txn.toast``) right after the commit,
        before any message goes out. None when the update was already applied (a redelivery)
        or the document does not exist."""
        inv = invocation()
        if inv is not None and inv.duplicate:
            return None
        if inv is not None and inv.claimed:
            update_id = None  # this process already holds the update's marker
        for _ in range(MAX_ATTEMPTS):
            found = self.store.get_many([key, ack_key(key)])
            loaded, ack_doc = found.get(key), found.get(ack_key(key))
            if loaded is None and create is None:
                return None
            doc = loaded.doc if loaded else _copy(create)  # a store returns a fresh document
            now = self.clock.now()
            version = loaded.version if loaded else None
            txn = Txn(doc, version, now, until=now + _budget(), key=key)
            txn.acks = {int(k): v for k, v in ack_doc.doc["acks"].items()} if ack_doc else {}
            txn.ack_version = ack_doc.version if ack_doc else None
            _absorb_acks(txn)
            change(txn)
            if not txn.changed and not txn.stale_entries and not txn.settled:
                if query is not None:
                    self.replies.answer(query, *(txn.toast or (None, False)))
                return txn
            _bound_outbox(txn)
            _drop_live_sends(txn)
            if _hold_new_decision(doc, now):
                self._schedule_flush(key, txn)
            writes = [Put(key, doc, txn.version, ttl_seconds=ttl_for(key))]
            writes += [Put(k, d, v, ttl_seconds=ttl_for(k)) for k, (d, v) in txn.extra.items()]
            self._schedule(key, doc)
            self._schedule_flush(key, txn)
            try:
                self.store.commit(writes, update_id)
            except VersionConflict:
                continue
            except DuplicateUpdate:
                if inv is not None:
                    inv.duplicate = True
                return None
            if inv is not None and update_id is not None:
                inv.claimed = True
            if query is not None:
                self.replies.answer(query, *(txn.toast or (None, False)))
            self._deliver(key, txn)
            return txn
        metrics.count(metrics.GAVE_UPS)
        log.warning("gave up after %d version conflicts", MAX_ATTEMPTS, extra={"key": key})
        return None

    # -- outbox ----------------------------------------------------------------------------
    def _deliver(self, key: str, txn: Txn) -> None:
        """Send what this invocation owns, in the order it was queued; a chat that failed is
        left alone for this invocation so its messages keep their order (and a stuck chat
        never holds up another's).

        Private chats go first: the decision prompts are there, the group's story and status
        can wait (each chat keeps its order). When the shared budget is booked more than
        ``BEHIND_SECONDS`` ahead, the group's story and status are left to the flush timer; a
        newer edit of the same message replaces them meanwhile (``Txn._supersede``)."""
        group = txn.doc.get("chat") if key.startswith("GAME#") else None
        entries = sorted(
            txn.new_entries + txn.stale_entries,
            key=lambda e: (e["chat"] == group, int(e["seq"])),
        )
        if not entries:
            return
        behind: bool | None = None  # whether the shared budget is behind, once asked
        late: dict[int, float] = {}  # decision -> the longest its prompt waited for delivery
        acks = _AckWriter(self.store, key, txn)
        booked = _Booked()
        held: set[int] = set()
        muted: set[int] = set()
        retry_at = 0.0
        holding = _holds(txn.doc, txn.now)
        holds: dict[int, float] = {}
        for i, e in enumerate(entries):
            if e["chat"] in held or _deferred(e, txn.now):
                continue  # a deferred edit is its flush timer's (``Txn.edit``)
            if e["chat"] in holding:  # flood control holds the chat: not even a try
                held.add(e["chat"])
                retry_at = max(retry_at, holding[e["chat"]])
                continue
            if e["chat"] == group and _low_priority(e):
                if behind is None:
                    behind = self._behind()
                if behind:
                    held.add(e["chat"])
                    continue
            if not self._take_slot(booked, len(entries) - i, txn):
                held.update(x["chat"] for x in entries[i:])  # out of time: the flush timer's
                break
            sending = e["op"] == "send"
            if sending:  # a process killed from here to the ack leaves it uncertain
                acks.write(e["seq"], ACK_SENDING)
            try:
                if sending:
                    sent = self.messenger.send(e["chat"], e["text"], e["rows"])
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
                held.update(x["chat"] for x in entries[i:])
                if sending:
                    acks.forget(e["seq"])
                break
            except Exception:  # transient; the entry stays for the next claim
                log.exception("send failed")
                held.add(e["chat"])
                if sending:
                    acks.forget(e["seq"])
                continue
            acks.write(e["seq"], _ack_value(e, sent))
            if sent.muted:
                muted.add(e["chat"])
            dec = _prompt_decision(e)
            waited = self.clock.now() - float(e.get("at", self.clock.now()))
            if sent.ok and dec is not None and waited > STRETCH_AFTER_SECONDS:
                late[dec] = max(late.get(dec, 0.0), waited)
        if late and key.startswith("GAME#"):
            self._stretch(key, late)
        if muted and key.startswith("GAME#"):
            self._tell_muted(key)
        if holds and key.startswith("GAME#"):
            self._hold(key, holds)
        if held:
            at = max(txn.until, retry_at) + 1
            self.timers.schedule(TimerRequest(key, FLUSH, at))

    def _behind(self) -> bool:
        """Whether the shared budget is booked more than ``BEHIND_SECONDS`` ahead."""
        if self.limiter is None:
            return False
        try:
            return self.limiter.backlog(self.clock.now()) > BEHIND_SECONDS
        except Exception:  # unavailable: the slots will tell
            log.warning(json.dumps({"event": "rate_limiter_unavailable"}), exc_info=True)
            return False

    def _slots(self, count: int, txn: Txn) -> list[float]:
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

    def _tell_muted(self, key: str) -> None:
        """The bot may not write in the game's group: its creator is told privately, once per
        game (the group cannot be told; the rest of the game's group messages are dropped)."""

        def change(txn: Txn) -> None:
            doc = txn.doc
            if doc.get("muted_told") or "creator" not in doc:
                return
            doc["muted_told"] = True
            creator = doc["creator"]
            langs = [p.get("lang") for p in doc.get("players", []) if p.get("uid") == creator]
            lang = langs[0] if langs and langs[0] else doc.get("settings", {}).get("language")
            txn.send(creator, t(lang or "en", "bot.muted_in_group"), tag="muted")

        self.run(key, change, None)

    def _hold(self, key: str, holds: dict[int, float]) -> None:
        """Flood control holds these chats until the given times: the game records it, its
        deadlines move on by the time held, and a long hold is told to the group once."""

        def change(txn: Txn) -> None:
            doc = txn.doc
            extended = hold_game(doc, holds, txn.now)
            if extended:
                txn.changed = True
                log.warning(json.dumps({"event": "deadlines_extended", "s": round(extended, 1)}))
            hold = doc.get("hold") or {}
            end = max(_holds(doc, txn.now).values(), default=txn.now)
            if (
                doc.get("phase") == "playing"
                and not hold.get("told")
                and end - txn.now >= LONG_HOLD_SECONDS
                and "chat" in doc
            ):
                hold["told"] = True
                lang = doc.get("settings", {}).get("language") or "en"
                minutes = max(1, math.ceil((end - txn.now) / 60))
                txn.send(doc["chat"], t(lang, "bot.flood_hold", minutes=minutes), tag="hold")

        self.run(key, change, None)

    def _stretch(self, key: str, late: dict[int, float]) -> None:
        """Decision prompts that reached their chats late: the decision's deadline moves on by
        the longest delay (once per decision, by the longest delay seen)."""

        def change(txn: Txn) -> None:
            dec = txn.doc.get("dec") or {}
            waited = late.get(int(dec.get("id", -1)), 0.0)
            extended = stretch_deadline(txn.doc, waited)
            if extended:
                txn.changed = True
                log.warning(json.dumps({"event": "deadline_stretched", "s": round(extended, 1)}))

        self.run(key, change, None)

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
                booked.slots.extend(self._slots(min(remaining, booked.ahead), txn))
                if not booked.slots:
                    return False
                booked.at = self.clock.now()
            slot = booked.slots.popleft()
            if not self._wait_for(slot, txn):
                return False
            # a slot already due when its booking came back is on time: the booking's own
            # round trip delays every function alike
            due = max(slot, booked.at)
            if self.limiter is None or self.clock.now() <= due + self.limiter.tolerance:
                return True
            booked.slots.clear()
            booked.ahead = 1
        return True  # a starved process: go on; a 429 would be waited out like any other

    def _wait_for(self, slot: float, txn: Txn) -> bool:
        """Sleep until ``slot``; False when the lease or the invocation ends first."""
        wait = slot - self.clock.now()
        if slot > txn.until - MIN_SEND_SECONDS or wait > time_left() - MIN_SEND_SECONDS:
            return False
        if wait > 0:
            self.sleep(wait)
        return self.clock.now() < txn.until - MIN_SEND_SECONDS / 2

    def _schedule_flush(self, key: str, txn: Txn) -> None:
        """If this process dies before sending, someone must come back once its lease is over.
        The game's next deadline will if it falls just after; otherwise a flush timer."""
        if not txn.new_entries and not txn.stale_entries:
            return
        for at in sorted({float(e["after"]) for e in txn.new_entries if _deferred(e, txn.now)}):
            self.timers.schedule(TimerRequest(key, FLUSH, at))
        due = txn.doc.get("due")
        if due is None or not txn.until < due["at"] <= txn.until + 30:
            self.timers.schedule(TimerRequest(key, FLUSH, txn.until + 1))

    def _schedule(self, key: str, doc: dict[str, Any]) -> None:
        """Timers go out before the commit: a spurious one is harmless, a lost one is not."""
        due = doc.get("due")
        if not due:
            return
        marker = [due["dec"], due["at"]]
        if doc.get("timer") == marker:
            return
        doc["timer"] = marker
        self.timers.schedule(TimerRequest(key, due["dec"], due["at"]))


@dataclass
class _Booked:
    """One delivery's rate-limit slots not used yet, and how many to book at a time."""

    slots: deque[float] = field(default_factory=deque)
    ahead: int = BOOK_AHEAD
    at: float = 0.0  # when the last booking came back


class _AckWriter:
    """Writes each acknowledgement as soon as its message went out, so a process killed
    between two sends leaves nothing to resend but what it had not sent. Merges monotonically:
    an ack is dropped only for an entry this process knows has left the outbox."""

    def __init__(self, store: DocumentStore, game: str, txn: Txn) -> None:
        self.store = store
        self.key = ack_key(game)
        self.known = dict(txn.acks)
        self.version = txn.ack_version
        self.live = {e["seq"] for e in txn.doc.get("outbox", [])}
        self.newest = int(txn.doc.get("seq", 0))

    def forget(self, seq: int) -> None:
        """The send did not go out (Telegram said so): no longer under way."""
        self.write(seq, None)

    def write(self, seq: int, value: int | None) -> None:
        for _ in range(MAX_ATTEMPTS):
            if value is None:
                self.known.pop(seq, None)
            else:
                self.known[seq] = value
            keep = {str(k): v for k, v in self.known.items() if k in self.live or k > self.newest}
            try:
                versions = self.store.commit(
                    [Put(self.key, {"acks": keep}, self.version, ttl_seconds=ttl_for(self.key))]
                )
            except VersionConflict:
                current = self.store.get(self.key)
                self.known = {int(k): v for k, v in current.doc["acks"].items()} if current else {}
                self.version = current.version if current else None
                continue
            self.version = versions.get(self.key, (self.version or 0) + 1)
            return
        log.warning(json.dumps({"event": "ack_gave_up", "key": self.key, "seq": seq}))


def _ack_value(e: dict[str, Any], sent: Sent) -> int:
    if sent.uncertain:
        return ACK_UNCERTAIN
    if sent.unreachable:
        return ACK_UNREACHABLE
    if sent.dropped:
        log.warning(json.dumps({"event": "dropped", "chat": e["chat"], "tag": e.get("tag")}))
        return ACK_DROPPED
    return sent.message_id or 0


def _prompt_decision(e: dict[str, Any]) -> int | None:
    """The decision a sent prompt asks (``prompt:<seat>:<decision>``), else None."""
    kind, _, rest = (e.get("tag") or "").partition(":")
    dec = rest.partition(":")[2]
    if kind != "prompt" or e["op"] != "send" or not dec.lstrip("-").isdigit():
        return None
    return int(dec)


def stretch_deadline(doc: dict[str, Any], waited: float) -> float:
    """The pending decision's deadline moves on by ``waited``, the seconds its prompt waited for
    delivery (less what it was already moved for that); the seconds added. A window's deadline is
    left alone: who it asks is secret, and its length must not tell (R-D1)."""
    dec = doc.get("dec")
    if not dec or dec.get("window") or doc.get("phase") != "playing":
        return 0.0
    extra = waited - float(dec.get("stretched", 0.0))
    if extra <= 0:
        return 0.0
    dec["stretched"] = waited
    _shift_deadlines(doc, extra)
    return extra


def _deferred(e: dict[str, Any], now: float) -> bool:
    """An edit held back until a time still to come: nobody sends it before then."""
    return float(e.get("after", 0.0)) > now


def _low_priority(e: dict[str, Any]) -> bool:
    """The group's story and status: what waits when the shared budget runs short."""
    return (e.get("tag") or "").partition(":")[0] in LOW_PRIORITY_KINDS


def _budget() -> float:
    left = time_left()
    return DEFAULT_BUDGET_SECONDS if math.isinf(left) else max(0.0, left)


def _copy(doc: dict[str, Any] | None) -> dict[str, Any]:
    return json.loads(json.dumps(doc))


def _lease_end(e: dict[str, Any]) -> float:
    return float(e["until"]) if "until" in e else float(e["at"]) + LEGACY_LEASE_SECONDS


def _absorb_acks(txn: Txn) -> None:
    """Fold what earlier processes sent into the document and claim what a dead (or out of
    time) one left: an entry whose lease is over becomes this invocation's, fenced by the
    version-checked commit of the game."""
    doc = txn.doc
    keep = []
    for e in doc.get("outbox", []):
        ack = txn.acks.get(e["seq"])
        if ack == ACK_SENDING and txn.now < _lease_end(e):
            keep.append(e)  # its sender is still at it
            continue
        if ack in (ACK_SENDING, ACK_UNCERTAIN):
            settle_uncertain(doc, e)
            txn.settled += 1
            continue
        if ack is not None:
            record_message_id(doc, e, ack)
            continue
        if txn.now >= _lease_end(e):
            if _outlived(doc, e, txn):
                log.warning(json.dumps({"event": "given_up", "chat": e["chat"], "seq": e["seq"]}))
                continue
            e["claims"] = e.get("claims", 0) + 1
            e["until"] = txn.until
            txn.stale_entries.append(e)
        keep.append(e)
    if "outbox" in doc:
        doc["outbox"] = keep


def _drop_live_sends(txn: Txn) -> None:
    """Once the game ended (or was cancelled), nothing that asks or counts down arrives: a
    prompt, a reminder, the turn's mention, an away notice or a status still unsent is dropped
    (the ending command's own final status excepted)."""
    doc = txn.doc
    if not txn.key.startswith("GAME#") or doc.get("phase") not in ("over", "cancelled"):
        return
    fresh = {e["seq"] for e in txn.new_entries}

    def live(e: dict[str, Any]) -> bool:
        kind = (e.get("tag") or "").partition(":")[0]
        if e["op"] != "send" or kind not in LIVE_KINDS:
            return False
        return not (kind == "status" and e["seq"] in fresh)

    gone = {e["seq"] for e in doc.get("outbox", []) if live(e)}
    if not gone:
        return
    log.info(json.dumps({"event": "dropped_after_end", "seqs": sorted(gone)}))
    doc["outbox"] = [e for e in doc["outbox"] if e["seq"] not in gone]
    txn.new_entries = [e for e in txn.new_entries if e["seq"] not in gone]
    txn.stale_entries = [e for e in txn.stale_entries if e["seq"] not in gone]
    txn.changed = True


def _outlived(doc: dict[str, Any], e: dict[str, Any], txn: Txn) -> bool:
    """An entry not sent yet is dropped only once its game ended (a direct reply: at once)
    and ``STALE_OUTBOX_SECONDS`` passed since it was queued."""
    ended = not txn.key.startswith("GAME#") or doc.get("phase") in ("over", "cancelled")
    return ended and txn.now - float(e.get("at", txn.now)) >= STALE_OUTBOX_SECONDS


def _holds(doc: dict[str, Any], now: float) -> dict[int, float]:
    """The game's chats that flood control holds now, and until when."""
    chats = (doc.get("hold") or {}).get("chats") or {}
    return {int(c): float(u) for c, u in chats.items() if float(u) > now}


def _shift_deadlines(doc: dict[str, Any], seconds: float, until: float | None = None) -> None:
    """The pending decision's clock (and the timer's) moves on by ``seconds``; ``until``: the end
    of the flood hold that moved it, when one did."""
    dec = doc.get("dec")
    if dec:
        dec["opened"] = float(dec["opened"]) + seconds
        if dec.get("played") is not None:
            dec["played"] = float(dec["played"]) + seconds
        if until is not None:
            dec["held"] = until
    due = doc.get("due")
    if due:
        due["at"] = float(due["at"]) + seconds
        if due.get("deadline") is not None:
            due["deadline"] = float(due["deadline"]) + seconds


def hold_game(doc: dict[str, Any], holds: dict[int, float], now: float) -> float:
    """Record that flood control holds ``holds`` (chat -> until); the game's deadlines move on
    by the time the game is held beyond what was already recorded. The seconds added."""
    before = max(_holds(doc, now).values(), default=now)
    hold = doc.setdefault("hold", {})
    chats = {str(c): u for c, u in _holds(doc, now).items()}
    for chat, until in holds.items():
        chats[str(chat)] = max(chats.get(str(chat), 0.0), until)
    hold["chats"] = chats
    after = max([float(u) for u in chats.values()], default=now)
    extended = max(0.0, after - before)
    if extended and doc.get("phase") == "playing":
        _shift_deadlines(doc, extended, after)
        hold["extended"] = float(hold.get("extended", 0.0)) + extended
    return extended


def _hold_new_decision(doc: dict[str, Any], now: float) -> bool:
    """A decision that opened while its game is held starts its clock when the hold ends."""
    dec = doc.get("dec")
    holding = _holds(doc, now)
    if not dec or not holding or doc.get("phase") != "playing":
        return False
    end = max(holding.values())
    if dec.get("held") == end or float(dec["opened"]) >= end:
        return False
    seconds = end - float(dec["opened"])
    _shift_deadlines(doc, seconds, end)
    hold = doc.setdefault("hold", {})
    hold["extended"] = float(hold.get("extended", 0.0)) + seconds
    return True


def _bound_outbox(txn: Txn) -> None:
    outbox = txn.doc.get("outbox", [])
    if len(outbox) <= MAX_OUTBOX:
        return
    gone = {e["seq"] for e in outbox[: len(outbox) - MAX_OUTBOX]}
    log.warning(json.dumps({"event": "outbox_full", "dropped": len(gone)}))
    txn.doc["outbox"] = outbox[-MAX_OUTBOX:]
    txn.stale_entries = [e for e in txn.stale_entries if e["seq"] not in gone]
    txn.new_entries = [e for e in txn.new_entries if e["seq"] not in gone]


def reply_key(chat_id: int) -> str:
    """The outbox of a chat's direct replies."""
    return f"{REPLY_PREFIX}{chat_id}"


def ack_key(key: str) -> str:
    return "ACK#" + key


def settle_uncertain(doc: dict[str, Any], e: dict[str, Any]) -> None:
    """A send that Telegram may or may not have shown leaves the outbox; what the game shows
    later makes up for it, by the kind's rule (see the module's docstring)."""
    log.warning(json.dumps({"event": "uncertain", "seq": e["seq"], "tag": e.get("tag") or ""}))
    metrics.count(UNCERTAIN_SENDS)
    kind, _, rest = (e.get("tag") or "").partition(":")
    if kind == "prompt" and e["op"] == "send":
        seat, _, dec = rest.partition(":")
        prompt = doc.get("prompts", {}).get(seat)
        if prompt is not None and str(prompt.get("dec")) == dec and prompt.get("msg") is None:
            prompt["uncertain"] = True  # its reminder shows it again, with its buttons
    elif kind in ("story", "status") and e["op"] == "send":
        shown = doc.get(kind) or {}
        if shown.get("seq") == e["seq"] and shown.get("msg") is None:
            shown["uncertain"] = True  # merged into the next one (the story), sent anew (status)


def record_message_id(doc: dict[str, Any], e: dict[str, Any], message_id: int) -> None:
    """Remember ids of messages the bot will edit later (prompts, the story, the lobby)."""
    tag = e.get("tag") or ""
    if message_id == ACK_UNREACHABLE:
        doc.setdefault("unreachable", [])
        if e["chat"] not in doc["unreachable"]:
            doc["unreachable"].append(e["chat"])
        return
    if tag == "status_pin" and e["op"] == "pin" and message_id <= 0:
        (doc.get("status") or {})["pin_refused"] = True  # the bot may not pin there
    if message_id <= 0:
        return
    kind, _, rest = tag.partition(":")
    if kind == "prompt":
        seat, _, dec = rest.partition(":")
        prompt = doc.get("prompts", {}).get(seat)
        if prompt is not None and str(prompt.get("dec")) == dec and prompt.get("msg") is None:
            prompt["msg"] = message_id
    elif kind == "ahead" and e["op"] == "send":
        ahead = doc.get("ahead") or {}
        if ahead.get("seq") == e["seq"] and ahead.get("msg") is None:
            ahead["msg"] = message_id
    elif kind == "status" and e["op"] == "send":
        status = doc.get("status") or {}
        if status.get("seq") == e["seq"]:
            status["msg"] = message_id
    elif kind == "story" and e["op"] == "send":
        story = doc.setdefault("story", {})
        if story.get("seq") == e["seq"]:
            story["msg"] = message_id
    elif kind == "lobby" and e["op"] == "send":
        doc["lobby_msg"] = message_id
    elif kind == "turn_reminder" and e["op"] == "send":
        mention = doc.get("mention") or {}
        if mention.get("seq") == e["seq"]:
            mention["msg"] = message_id
    elif kind == "away" and e["op"] == "send":
        doc.setdefault("away_notices", {})[rest] = message_id
