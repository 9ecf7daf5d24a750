"""The application service: a Telegram command in, a committed game and its messages out.

``Pipeline`` holds what a command runs on: the store, the clock, the timers, the delivery and the
direct replies. Each command runs as a unit of work (``handlers.unit_of_work.Work``): one read of
the game (with the acknowledgements of what was already sent, ``handlers.txn_store``), the
change (engine ``apply`` plus the defaults that are due), one transactional write holding the
version-checked game, the update marker and the outbox; then the delivery: the callback answer
first, then the sends, each acknowledged as soon as Telegram took it (``handlers.delivery``), and
what the delivery found out recorded in the game (``handlers.holds``). A version conflict reruns
the whole command on a fresh read. Direct replies (no game behind them) go through
``handlers.update_replies``; keys and time to live are ``handlers.store_keys``'.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from handlers.delivery import Delivery, RateLimiter
from handlers.transaction import Txn
from handlers.unit_of_work import UnitOfWork, Work
from handlers.update_replies import UpdateReplies
from infra.ports import Clock, DocumentStore, Messenger, Timers


class Pipeline:
    """What a command runs on; ``run``: a change of a document's transaction, in a unit of work."""

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
        # A game whose group Telegram says became a supergroup (a refused send): moves it there
        # (``handlers.chat_moves``; set by the bot, which knows how the group is shown).
        self.follow_moves: Callable[[str, dict[int, int]], None] | None = None

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
        """Run ``change`` on the transaction of the document at ``key`` (or on ``create`` if it
        does not exist) in a unit of work (``handlers.unit_of_work.Work``): None when the update
        was already applied (a redelivery) or the document does not exist."""
        with Work(self, key, update_id, create=create, query=query) as work:
            work.run(_on_txn, change)
        return work.txn


def _on_txn(change: Callable[[Txn], None], work: UnitOfWork) -> None:
    change(work.txn)
