"""The application service: a Telegram command in, a committed game and its messages out.

Each command runs as: one read of the game (with the acknowledgements of what was already sent),
the change (engine ``apply`` plus the defaults that are due), one transactional write holding the
version-checked game, the update marker and the outbox; then the sends, then their
acknowledgement. A version conflict reruns the whole command on a fresh read.
"""

from __future__ import annotations

import json
import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from handlers.messenger import Messenger, Rows, entry
from infra.ports import (
    Clock,
    DocumentStore,
    DuplicateUpdate,
    Put,
    TimerRequest,
    Timers,
    VersionConflict,
)

log = logging.getLogger("coachride")

GAME_TTL_SECONDS = 14 * 24 * 3600
RESEND_AFTER_SECONDS = 20.0  # unsent outbox entries older than this were left by a dead process
MAX_ATTEMPTS = 12
FLUSH = -1  # the decision id of a timer that only finishes sends a dead process left behind


def game_key(gid: str) -> str:
    return f"GAME#{gid}"


def chat_key(chat_id: int) -> str:
    return f"CHAT#{chat_id}"


def user_key(uid: int) -> str:
    return f"USER#{uid}"


def new_game_id() -> str:
    return secrets.token_urlsafe(6).replace("-", "x").replace("_", "y")


@dataclass
class Txn:
    """One attempt at a command against one game document (and whatever else it touches)."""

    doc: dict[str, Any]
    version: int | None
    now: float
    extra: dict[str, tuple[dict[str, Any], int | None]] = field(default_factory=dict)
    new_entries: list[dict[str, Any]] = field(default_factory=list)
    stale_entries: list[dict[str, Any]] = field(default_factory=list)
    changed: bool = False
    toast: tuple[str, bool] | None = None  # the callback answer: text, as an alert
    acks: dict[int, int] = field(default_factory=dict)  # outbox seq -> message id (-1 unreachable)
    ack_version: int | None = None

    def send(self, chat: int, text: str, rows: Rows | None = None, tag: str = "") -> None:
        self._add("send", chat, text, rows, None, tag)

    def edit(self, chat: int, msg: int, text: str, rows: Rows | None = None, tag: str = "") -> None:
        self._add("edit", chat, text, rows, msg, tag)

    def _add(
        self, op: str, chat: int, text: str, rows: Rows | None, msg: int | None, tag: str
    ) -> None:
        self.doc["seq"] = self.doc.get("seq", 0) + 1
        e = entry(self.doc["seq"], self.now, op, chat, text, rows, msg, tag)
        self.doc.setdefault("outbox", []).append(e)
        self.new_entries.append(e)
        self.changed = True

    def put(self, key: str, doc: dict[str, Any], version: int | None) -> None:
        self.extra[key] = (doc, version)
        self.changed = True


class Pipeline:
    """Load → change → commit → deliver → acknowledge, with retries on version conflicts."""

    def __init__(
        self, store: DocumentStore, messenger: Messenger, timers: Timers, clock: Clock
    ) -> None:
        self.store = store
        self.messenger = messenger
        self.timers = timers
        self.clock = clock

    def run(
        self,
        key: str,
        change: Callable[[Txn], None],
        update_id: int | None,
        *,
        create: dict[str, Any] | None = None,
    ) -> Txn | None:
        """Run ``change`` on the document at ``key`` (or on ``create`` if it does not exist)."""
        for _ in range(MAX_ATTEMPTS):
            found = self.store.get_many([key, ack_key(key)])
            loaded, ack_doc = found.get(key), found.get(ack_key(key))
            if loaded is None and create is None:
                return None
            doc = loaded.doc if loaded else _copy(create)  # a store returns a fresh document
            txn = Txn(doc, loaded.version if loaded else None, self.clock.now())
            txn.acks = {int(k): v for k, v in ack_doc.doc["acks"].items()} if ack_doc else {}
            txn.ack_version = ack_doc.version if ack_doc else None
            _absorb_acks(txn)
            change(txn)
            if not txn.changed:
                self._deliver(key, txn, txn.stale_entries)
                return txn
            writes = [Put(key, doc, txn.version, ttl_seconds=GAME_TTL_SECONDS)]
            writes += [
                Put(k, d, v, ttl_seconds=GAME_TTL_SECONDS) for k, (d, v) in txn.extra.items()
            ]
            self._schedule(key, doc)
            self._schedule_flush(key, txn)
            try:
                self.store.commit(writes, update_id)
            except VersionConflict:
                continue
            except DuplicateUpdate:
                return None
            self._deliver(key, txn, txn.stale_entries + txn.new_entries)
            return txn
        log.warning(json.dumps({"event": "gave_up", "key": key}))
        return None

    # -- outbox ----------------------------------------------------------------------------
    def _deliver(self, key: str, txn: Txn, entries: list[dict[str, Any]]) -> None:
        if not entries:
            return
        acks: dict[int, int] = {}
        for e in entries:
            try:
                if e["op"] == "send":
                    sent = self.messenger.send(e["chat"], e["text"], e["rows"])
                else:
                    sent = self.messenger.edit(e["chat"], e["msg"], e["text"], e["rows"])
            except Exception:  # logged; a later process resends what stays unacknowledged
                log.exception("send failed")
                continue
            acks[e["seq"]] = -1 if sent.unreachable else (sent.message_id or 0)
        if acks:
            self._write_acks(key, txn, acks, {e["seq"] for e in txn.doc.get("outbox", [])})

    def _write_acks(self, key: str, txn: Txn, acks: dict[int, int], live: set[int]) -> None:
        """Merge into the acknowledgement document, keeping only entries still in the outbox.
        The first try reuses the version read with the game; a conflict rereads it."""
        akey = ack_key(key)
        known, version = dict(txn.acks), txn.ack_version
        for _ in range(MAX_ATTEMPTS):
            known.update(acks)
            keep = {str(k): v for k, v in known.items() if k in live}
            try:
                self.store.commit(
                    [Put(akey, {"acks": keep}, version, ttl_seconds=GAME_TTL_SECONDS)]
                )
                return
            except VersionConflict:
                current = self.store.get(akey)
                known = {int(k): v for k, v in current.doc["acks"].items()} if current else {}
                version = current.version if current else None

    def _schedule_flush(self, key: str, txn: Txn) -> None:
        """If this process dies before sending, someone must come back for the outbox. The
        game's next deadline will; when that is far off, a flush timer comes sooner."""
        if not txn.new_entries:
            return
        due = txn.doc.get("due")
        soon = txn.now + RESEND_AFTER_SECONDS + 1
        if due is None or due["at"] > soon + 5:
            self.timers.schedule(TimerRequest(key, FLUSH, soon))

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


def _copy(doc: dict[str, Any] | None) -> dict[str, Any]:
    return json.loads(json.dumps(doc))


def _absorb_acks(txn: Txn) -> None:
    """Fold what earlier processes sent into the document and pick up what a dead one left.
    Folding alone is not worth a write: it rides along with the next change."""
    doc = txn.doc
    keep = []
    for e in doc.get("outbox", []):
        if e["seq"] in txn.acks:
            record_message_id(doc, e, txn.acks[e["seq"]])
        else:
            keep.append(e)
            if txn.now - e["at"] > RESEND_AFTER_SECONDS:
                e["at"] = txn.now
                txn.stale_entries.append(e)
    if "outbox" in doc:
        doc["outbox"] = keep


def ack_key(key: str) -> str:
    return "ACK#" + key


def record_message_id(doc: dict[str, Any], e: dict[str, Any], message_id: int) -> None:
    """Remember ids of messages the bot will edit later (prompts, the story, the lobby)."""
    tag = e.get("tag") or ""
    if message_id == -1:
        doc.setdefault("unreachable", [])
        if e["chat"] not in doc["unreachable"]:
            doc["unreachable"].append(e["chat"])
        return
    if not message_id:
        return
    kind, _, rest = tag.partition(":")
    if kind == "prompt":
        seat, _, dec = rest.partition(":")
        prompt = doc.get("prompts", {}).get(seat)
        if prompt is not None and str(prompt.get("dec")) == dec and prompt.get("msg") is None:
            prompt["msg"] = message_id
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
