"""The application service: a Telegram command in, a committed game and its messages out.

Each command runs as: one read of the game (with the acknowledgements of what was already sent,
``handlers.transaction``), the change (engine ``apply`` plus the defaults that are due), one
transactional write holding the version-checked game, the update marker and the outbox; then the
callback answer; then the sends, each acknowledged as soon as Telegram took it
(``handlers.delivery``), and what the delivery found out recorded in the game (``handlers.holds``).
A version conflict reruns the whole command on a fresh read. Direct replies (no game behind them)
go through ``handlers.update_replies``; keys and time to live are ``handlers.store_keys``'.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

from handlers import holds, transaction
from handlers.delivery import Delivery, RateLimiter
from handlers.transaction import MAX_ATTEMPTS, Txn, invocation
from handlers.update_replies import UpdateReplies
from infra import metrics
from infra.ports import (
    Clock,
    DocumentStore,
    DuplicateUpdate,
    Messenger,
    TimerRequest,
    Timers,
    VersionConflict,
)

log = logging.getLogger("coachride")


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
        self.messenger = messenger
        self.timers = timers
        self.clock = clock
        self.delivery = Delivery(store, messenger, timers, clock, limiter=limiter, sleep=sleep)
        self.replies = UpdateReplies(self)

    # the delivery's store, rate limiter and sleep, settable as before (tests, the pace command)
    @property
    def store(self) -> DocumentStore:
        return self.delivery.store

    @store.setter
    def store(self, store: DocumentStore) -> None:
        self.delivery.store = store

    @property
    def limiter(self) -> RateLimiter | None:
        return self.delivery.limiter

    @limiter.setter
    def limiter(self, limiter: RateLimiter | None) -> None:
        self.delivery.limiter = limiter

    @property
    def sleep(self) -> Callable[[float], None]:
        return self.delivery.sleep

    @sleep.setter
    def sleep(self, sleep: Callable[[float], None]) -> None:
        self.delivery.sleep = sleep

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
            txn = transaction.load(self.store, self.clock, key, create)
            if txn is None:
                return None
            change(txn)
            if transaction.unchanged(txn):
                if query is not None:
                    self.replies.answer(query, *(txn.toast or (None, False)))
                return txn
            writes = transaction.writes(txn)
            if holds.hold_new_decision(txn.doc, txn.now):
                self.delivery.schedule_flush(key, txn)
            self._schedule(key, txn.doc)
            self.delivery.schedule_flush(key, txn)
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

    def _deliver(self, key: str, txn: Txn) -> None:
        """Send what this invocation owns; then record in the game what the sends found out:
        prompts shown late, a group that refused the bot, chats flood control holds."""
        delivered = self.delivery.deliver(key, txn)
        if delivered.late:
            self.run(key, lambda t: holds.stretch(t, delivered.late), None)
        if delivered.muted:
            self.run(key, holds.tell_muted, None)
        if delivered.holds:
            self.run(key, lambda t: holds.hold(t, delivered.holds), None)

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
