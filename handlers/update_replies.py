"""The update being handled and its direct replies: the first reply to an update claims its
marker (a redelivered update never speaks twice), a callback query is answered at most once, and
a reply goes out through its chat's outbox like a game's messages (``UpdateReplies``)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, Protocol

from handlers import reply_budget
from handlers.store_keys import reply_key
from handlers.transaction import Txn, invocation
from infra.ports import DocumentStore, DuplicateUpdate, Messenger, Rows, Sent

log = logging.getLogger("coachride")


class Service(Protocol):
    """What a reply needs of the service (``handlers.pipeline.Pipeline``)."""

    store: DocumentStore
    messenger: Messenger

    def run(
        self,
        key: str,
        change: Callable[[Txn], None],
        update_id: int | None,
        *,
        create: dict[str, Any] | None = None,
        query: str | None = None,
    ) -> Txn | None: ...


class UpdateReplies:
    """The Messenger for direct replies (no game change behind them): the first reply to an
    update claims its marker, so a redelivered update never speaks twice; a callback query is
    answered at most once.

    A reply is committed to its chat's outbox (``reply_key``) together with the marker and
    sent from there like a game's messages, under the shared rate limit: a process killed
    between the claim and the send leaves the reply to the flush timer, never loses it."""

    def __init__(self, pipeline: Service) -> None:
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

    def send(
        self, chat_id: int, text: str, rows: Rows | None = None, reply_to: int | None = None
    ) -> Sent:
        if reply_to is not None:
            raise ValueError("a direct reply quotes no message")
        inv = invocation()
        asker = inv.user_id if inv is not None else None

        def add(txn: Txn) -> None:  # a group's replies are rationed (``handlers.reply_budget``)
            if reply_budget.admit(txn.doc, chat_id, text, txn.now, bool(rows), asker):
                txn.send(chat_id, text, rows, tag="reply")

        return self._reply(chat_id, add)

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

    def answering(self, query_id: str) -> bool:
        """Whether this invocation answers the callback query now: not answered yet, and the
        update claimed (a redelivery answers nothing); it counts as answered from here."""
        inv = invocation()
        if inv is not None and query_id in inv.answered:
            return False
        if not self.claim():
            return False
        if inv is not None:
            inv.answered.add(query_id)
        return True

    def answer(self, query_id: str, text: str | None = None, alert: bool = False) -> None:
        """A direct answer (no change behind it); a change's answer goes out with its delivery
        (``Delivery.deliver``)."""
        if not self.answering(query_id):
            return
        try:
            self.messenger.answer(query_id, text, alert)
        except Exception:  # the spinner stops by itself; the change is committed either way
            log.warning("could not answer callback query %s", query_id, exc_info=True)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.messenger, name)


def rationed_edit(
    pipeline: Service, chat_id: int, message_id: int, text: str, rows: Rows | None
) -> Sent:
    """A menu's edit in a group whose game is being played: Telegram counts a group's edits in
    its 20 messages a minute, so it is rationed as a reply (``handlers.reply_budget``: a menu,
    counted and never taken for another, at most its asker's share) and dropped over the
    budget: a member pressing /settings over and over made Telegram hold the game's story."""
    inv = invocation()
    asker = inv.user_id if inv is not None else None

    def add(txn: Txn) -> None:
        if reply_budget.admit(txn.doc, chat_id, text, txn.now, True, asker):
            txn.edit(chat_id, message_id, text, rows, tag="reply")

    return UpdateReplies(pipeline)._reply(chat_id, add)
