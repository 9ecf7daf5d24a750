"""One attempt of a command against one document: ``Txn``, the document as loaded (by
``handlers.txn_store``), what the command queues to send, and the other records it writes; and
the update the process is handling (``Invocation``).

An edit replaces its message's whole text and buttons, so an edit nobody is sending yet gives
way to a newer one of the same message (``Txn._supersede``), and an edit held back until a time
still to come (``after``) is sent by whoever runs first after it.
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from handlers.message_tags import Tag
from handlers.outbox import entry
from infra.ports import Rows

log = logging.getLogger("coachride")

DEFAULT_BUDGET_SECONDS = 25.0  # an invocation with no deadline of its own (local runner, tests)
MAX_ATTEMPTS = 12


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
    acks: dict[int, int] = field(default_factory=dict)  # outbox seq -> message id or ACK_* code
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
        self.drop_unsent(gone, "overtaken")

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
        self.drop_unsent({own[0]["seq"]}, "merged")
        self.taken_back[own[0]["chat"]] = born_at(own[0])  # the next send there waits on from it
        return own[0]

    def drop_unsent(self, gone: set[int], why: str) -> None:
        """The outbox entries ``gone`` (not sent yet) leave the outbox and this command's lists."""
        if not gone:
            return
        log.info(json.dumps({"event": why, "seqs": sorted(gone)}))
        self.doc["outbox"] = [e for e in self.doc["outbox"] if e["seq"] not in gone]
        self.new_entries = [e for e in self.new_entries if e["seq"] not in gone]
        self.stale_entries = [e for e in self.stale_entries if e["seq"] not in gone]
        self.changed = True

    def put(self, key: str, doc: dict[str, Any], version: int | None) -> None:
        self.extra[key] = (doc, version)
        self.changed = True


def deferred(e: dict[str, Any], now: float) -> bool:
    """An edit held back until a time still to come: nobody sends it before then."""
    return float(e.get("after", 0.0)) > now


def born_at(e: dict[str, Any]) -> float:
    """When the message of an outbox entry first waited for an edit (``Txn._supersede``)."""
    return float(e.get("born", e["at"]))
