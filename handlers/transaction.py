"""One attempt of a command against one document: ``Txn`` (the document as loaded, what the
command queues to send, the other records it writes) and what a load does before the command sees
the document: fold in what earlier processes sent (their acknowledgements), claim what a dead one
left behind, settle sends whose outcome is unknown; and before the commit: bound the outbox, drop
what must not arrive after the game's end.

Every outbox entry carries a lease (``until``): the end of the invocation that committed or
claimed it. Only that invocation sends it, and never after its lease; once the lease is over,
the next process claims the entry with a version-checked write (the fencing), so a slow but
live sender is never doubled and a dead one is always replaced. An entry leaves the outbox only
when it was sent (or its outcome is uncertain), refused for good, or when its game ended (or it
is a direct reply) and ``STALE_OUTBOX_SECONDS`` passed since it was queued.
"""

from __future__ import annotations

import json
import logging
import math
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from handlers.game_record import GameRecord
from handlers.message_tags import Kind, Tag, TaggedEntry, tag_of
from handlers.outbox import entry
from handlers.store_keys import ack_key, ttl_for
from infra import metrics
from infra.ports import Clock, DocumentStore, Put, Rows, TimerRequest, Timers, time_left

log = logging.getLogger("coachride")

DEFAULT_BUDGET_SECONDS = 25.0  # an invocation with no deadline of its own (local runner, tests)
LEGACY_LEASE_SECONDS = 20.0  # entries written before leases existed: ``at`` + this
STALE_OUTBOX_SECONDS = 3600.0  # after its game ended, an entry still unsent is dropped
MAX_OUTBOX = 150  # entries; the oldest beyond go (a game makes a few dozen per round)
MAX_ATTEMPTS = 12
ACK_DROPPED = -2  # acknowledgement of an entry Telegram refused for good
ACK_UNREACHABLE = -1  # a send to a chat the bot cannot write to
ACK_UNCERTAIN = -3  # a send whose answer was lost: shown or not, it is never sent again
ACK_SENDING = -4  # a send under way; uncertain once its sender's lease is over
UNCERTAIN_SENDS = "UncertainSends"  # the metric of sends whose outcome is unknown
# sends that ask or count down: none arrives after the game's end (``_drop_live_sends``)
LIVE_KINDS = (
    Kind.PROMPT,
    Kind.AHEAD,
    Kind.REMINDER,
    Kind.TURN_REMINDER,
    Kind.AWAY,
    Kind.HOLD,
    Kind.STATUS,
)


# -- the Telegram update being handled --------------------------------------------------------
@dataclass
class Invocation:
    """What this process knows about the update it handles: whether it holds the update's
    marker (committed it) or found it taken (a redelivery), and the queries it answered."""

    update_id: int | None
    user_id: int | None = None  # who sent it (a group's replies: ``handlers.reply_budget``)
    claimed: bool = False
    duplicate: bool = False
    answered: set[str] = field(default_factory=set)


_local = threading.local()


@contextmanager
def handling(update_id: int | None, user_id: int | None = None) -> Iterator[Invocation]:
    outer = getattr(_local, "invocation", None)
    _local.invocation = current = Invocation(update_id, user_id)
    try:
        yield current
    finally:
        _local.invocation = outer


def invocation() -> Invocation | None:
    inv: Invocation | None = getattr(_local, "invocation", None)
    return inv


@dataclass(frozen=True)
class PageTurn:
    """A press's page turn (``handlers.page_turn``): the pressed prompt's message (``chat``,
    ``msg``) at another page; ``dec``: the pending decision whose deadline a wait for it moves on
    (None: none, as for "your turn is next", which nobody waits for); ``pressed``: when."""

    chat: int
    msg: int
    text: str
    rows: Rows | None
    dec: int | None
    pressed: float


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
    page: PageTurn | None = None  # the pressed prompt's next page, sent after the answer
    acks: dict[int, int] = field(default_factory=dict)  # outbox seq -> message id (-1 unreachable)
    ack_version: int | None = None
    key: str = ""  # the document's key in the store
    taken_back: dict[int, float] = field(default_factory=dict)  # chat -> since (``take_back``)

    @property
    def seq(self) -> int:
        """The number of the newest message queued in the document's outbox."""
        return int(self.doc.get("seq", 0))

    def send(self, chat: int, text: str, rows: Rows | None = None, tag: Tag | str = "") -> None:
        self._add("send", chat, text, rows, None, tag)

    def edit(
        self,
        chat: int,
        msg: int,
        text: str,
        rows: Rows | None = None,
        tag: Tag | str = "",
        *,
        after: float | None = None,
        answer: str | None = None,
    ) -> None:
        """``after``: not sent before then (a throttled edit, issue 27). Its lease ends then, so
        whoever runs first after it (its flush timer) sends it; until then a newer edit of the
        same message replaces it. ``answer``: what the press's callback answer says when this
        edit (the pressed prompt's answer) waits under pressure (``handlers.pressure``)."""
        self._add("edit", chat, text, rows, msg, tag)
        if answer:
            self.new_entries[-1]["answer"] = answer
        if after is not None and after > self.now:
            e = self.new_entries[-1]
            e["after"] = e["until"] = after

    def drop_held(self, chat: int, msg: int) -> None:
        """An edit of message ``msg`` held back until a time still to come (``after``) is not
        sent: the message already shows something newer (a page its player opened,
        ``handlers.game_room``), which that edit would turn back."""
        gone = {
            e["seq"]
            for e in self.doc.get("outbox", [])
            if deferred(e, self.now) and e["op"] == "edit" and e["chat"] == chat and e["msg"] == msg
        }
        _drop_unsent(self, gone, "overtaken")

    def pin(self, chat: int, msg: int, pinned: bool = True, tag: Tag | str = "") -> None:
        self._add("pin" if pinned else "unpin", chat, "", None, msg, tag)

    def _add(
        self, op: str, chat: int, text: str, rows: Rows | None, msg: int | None, tag: Tag | str
    ) -> None:
        # a send queued again with more in it keeps the wait of the one taken back
        born = self._supersede(chat, msg) if op == "edit" else self.taken_back.pop(chat, None)
        self.doc["seq"] = self.doc.get("seq", 0) + 1
        e = entry(self.doc["seq"], self.now, op, chat, text, rows, msg, str(tag))
        if born is not None:
            e["born"] = born  # how long the message has waited for its newest text
        e["until"] = self.until
        self.doc.setdefault("outbox", []).append(e)
        self.new_entries.append(e)
        self.changed = True

    def _supersede(self, chat: int, msg: int | None) -> float | None:
        """An edit replaces a message's whole text and buttons, so an earlier edit of the same
        message that nobody is sending (queued by this invocation, left behind and claimed by
        it, or held back until a time still to come) is not sent at all: the message shows the
        newest state with one call (issue 27). Returns when the oldest edit it replaced was
        queued (None when none): the newest takes over its wait (``handlers.pressure``)."""
        mine = {e["seq"] for e in self.new_entries + self.stale_entries}
        gone = {
            e["seq"]
            for e in self.doc.get("outbox", [])
            if (e["seq"] in mine or deferred(e, self.now))
            and e["op"] == "edit"
            and e["chat"] == chat
            and e["msg"] == msg
        }
        if not gone:
            return None
        born = min(born_at(e) for e in self.doc["outbox"] if e["seq"] in gone)
        self.doc["outbox"] = [e for e in self.doc["outbox"] if e["seq"] not in gone]
        self.new_entries = [e for e in self.new_entries if e["seq"] not in gone]
        self.stale_entries = [e for e in self.stale_entries if e["seq"] not in gone]
        return born

    def take_back(self, seq: object) -> dict[str, Any] | None:
        """The entry ``seq`` if nobody is sending it (this invocation queued or claimed it, or
        it is held back until a time still to come), taken out of the outbox to be queued again
        with more in it (issue 27: the group's story held back under pressure grows into one
        message, not one send a line); None when another process holds it, or it went."""
        mine = {e["seq"] for e in self.new_entries + self.stale_entries}
        own = [
            e
            for e in self.doc.get("outbox", [])
            if e["seq"] == seq and (e["seq"] in mine or deferred(e, self.now))
        ]
        if not own:
            return None
        _drop_unsent(self, {own[0]["seq"]}, "merged")
        self.taken_back[own[0]["chat"]] = born_at(own[0])  # the next send there waits on from it
        return own[0]

    def put(self, key: str, doc: dict[str, Any], version: int | None) -> None:
        self.extra[key] = (doc, version)
        self.changed = True


def deferred(e: dict[str, Any], now: float) -> bool:
    """An edit held back until a time still to come: nobody sends it before then."""
    return float(e.get("after", 0.0)) > now


def born_at(e: dict[str, Any]) -> float:
    """When the message of an outbox entry first waited for an edit (``Txn._supersede``)."""
    return float(e.get("born", e["at"]))


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
    version-checked commit of the game. What the sends found out (message ids, sends whose
    outcome is unknown) the game's record takes in (``_record_sends``)."""
    doc = txn.doc
    keep, found = [], []
    for e in doc.get("outbox", []):
        ack = txn.acks.get(e["seq"])
        if ack == ACK_SENDING and txn.now < _lease_end(e):
            keep.append(e)  # its sender is still at it
            continue
        if ack in (ACK_SENDING, ACK_UNCERTAIN):
            log.warning(
                json.dumps({"event": "uncertain", "seq": e["seq"], "tag": e.get("tag") or ""})
            )
            metrics.count(UNCERTAIN_SENDS)
            txn.settled += 1
            ack = ACK_UNCERTAIN
        if ack is not None:
            found.append((TaggedEntry.of(e), ack))
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
    if found and txn.key.startswith("GAME#"):
        _record_sends(txn, found)


def _record_sends(txn: Txn, found: list[tuple[TaggedEntry, int]]) -> None:
    """The game's record takes in what the sends found out, by each entry's typed tag; the
    document is the record's again (a direct reply's document records nothing)."""
    record = GameRecord.from_doc(txn.doc)
    for sent, ack in found:
        if ack == ACK_UNCERTAIN:
            record.settle_uncertain(sent)
        elif ack == ACK_UNREACHABLE:
            record.mark_unreachable(sent.chat)
        else:
            record.record_message_id(sent, ack)
    txn.doc.update(record.to_doc())


def _drop_live_sends(txn: Txn) -> None:
    """Once the game ended (or was cancelled), nothing that asks or counts down arrives: a
    prompt, a reminder, the turn's mention, an away notice or a status still unsent is dropped
    (the ending command's own final status excepted)."""
    doc = txn.doc
    if not txn.key.startswith("GAME#") or doc.get("phase") not in ("over", "cancelled"):
        return
    fresh = {e["seq"] for e in txn.new_entries}

    def live(e: dict[str, Any]) -> bool:
        kind = tag_of(e).kind
        if e["op"] != "send" or kind not in LIVE_KINDS:
            return False
        return not (kind == Kind.STATUS and e["seq"] in fresh)

    _drop_unsent(txn, {e["seq"] for e in doc.get("outbox", []) if live(e)}, "dropped_after_end")


def _drop_muted_sends(txn: Txn) -> None:
    """Nothing goes to a group the bot was removed from (``handlers.holds.mute``): each call
    would only be refused again, until the bot is back and shows the game there anew."""
    doc = txn.doc
    if not txn.key.startswith("GAME#") or not doc.get("muted") or "chat" not in doc:
        return
    _drop_unsent(
        txn, {e["seq"] for e in doc.get("outbox", []) if e["chat"] == doc["chat"]}, "dropped_muted"
    )


def _drop_unsent(txn: Txn, gone: set[int], why: str) -> None:
    """The outbox entries ``gone`` (not sent yet) leave the outbox and this command's lists."""
    if not gone:
        return
    log.info(json.dumps({"event": why, "seqs": sorted(gone)}))
    txn.doc["outbox"] = [e for e in txn.doc["outbox"] if e["seq"] not in gone]
    txn.new_entries = [e for e in txn.new_entries if e["seq"] not in gone]
    txn.stale_entries = [e for e in txn.stale_entries if e["seq"] not in gone]
    txn.changed = True


def _outlived(doc: dict[str, Any], e: dict[str, Any], txn: Txn) -> bool:
    """An entry not sent yet is dropped only once its game ended (a direct reply: at once)
    and ``STALE_OUTBOX_SECONDS`` passed since it was queued."""
    ended = not txn.key.startswith("GAME#") or doc.get("phase") in ("over", "cancelled")
    return ended and txn.now - float(e.get("at", txn.now)) >= STALE_OUTBOX_SECONDS


def _bound_outbox(txn: Txn) -> None:
    outbox = txn.doc.get("outbox", [])
    if len(outbox) <= MAX_OUTBOX:
        return
    gone = {e["seq"] for e in outbox[: len(outbox) - MAX_OUTBOX]}
    log.warning(json.dumps({"event": "outbox_full", "dropped": len(gone)}))
    txn.doc["outbox"] = outbox[-MAX_OUTBOX:]
    txn.stale_entries = [e for e in txn.stale_entries if e["seq"] not in gone]
    txn.new_entries = [e for e in txn.new_entries if e["seq"] not in gone]


def load(store: DocumentStore, clock: Clock, key: str, create: dict[str, Any] | None) -> Txn | None:
    """One attempt's transaction on the document at ``key`` (``create`` when it does not exist;
    None when neither), with what earlier processes sent folded in (``_absorb_acks``)."""
    found = store.get_many([key, ack_key(key)])
    loaded, ack_doc = found.get(key), found.get(ack_key(key))
    if loaded is None and create is None:
        return None
    doc = loaded.doc if loaded else _copy(create)  # a store returns a fresh document
    now = clock.now()
    version = loaded.version if loaded else None
    txn = Txn(doc, version, now, until=now + _budget(), key=key)
    txn.acks = {int(k): v for k, v in ack_doc.doc["acks"].items()} if ack_doc else {}
    txn.ack_version = ack_doc.version if ack_doc else None
    _absorb_acks(txn)
    return txn


def unchanged(txn: Txn) -> bool:
    """Nothing to write: the command changed nothing and the load claimed or settled nothing."""
    return not txn.changed and not txn.stale_entries and not txn.settled


def writes(txn: Txn) -> list[Put]:
    """What the commit writes: the document (its outbox bounded, and, once its game ended,
    without what asks or counts down) and the other records the command changed."""
    _bound_outbox(txn)
    _drop_live_sends(txn)
    _drop_muted_sends(txn)
    key = txn.key
    puts = [Put(key, txn.doc, txn.version, ttl_seconds=ttl_for(key))]
    puts += [Put(k, d, v, ttl_seconds=ttl_for(k)) for k, (d, v) in txn.extra.items()]
    return puts


def arm_timer(timers: Timers, key: str, doc: dict[str, Any]) -> None:
    """The document's next wake-up, armed before the commit: a spurious timer is harmless, a
    lost one is not."""
    due = doc.get("due")
    if not due:
        return
    marker = [due["dec"], due["at"]]
    if doc.get("timer") == marker:
        return
    doc["timer"] = marker
    timers.schedule(TimerRequest(key, due["dec"], due["at"]))
