"""Store and messenger wrappers that add their time and failures to the current tally."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from infra.metrics import CONFLICTS, SEND_FAILURES, count, timing
from infra.ports import (
    Delete,
    DocumentStore,
    Messenger,
    Put,
    Rows,
    Sent,
    VersionConflict,
    Versioned,
)


class TimedStore:
    """A DocumentStore that adds its time and its version conflicts to the current tally."""

    def __init__(self, store: DocumentStore) -> None:
        self.inner = store

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def get(self, key: str) -> Versioned | None:
        with timing("store"):
            return self.inner.get(key)

    def get_many(self, keys: Sequence[str]) -> dict[str, Versioned]:
        with timing("store"):
            return self.inner.get_many(keys)

    def seen_update(self, update_id: int) -> bool:
        with timing("store"):
            return self.inner.seen_update(update_id)

    def commit(
        self, writes: Sequence[Put | Delete], update_id: int | None = None
    ) -> dict[str, int]:
        with timing("store"):
            try:
                return self.inner.commit(writes, update_id)
            except VersionConflict:
                count(CONFLICTS)
                raise


class TimedMessenger:
    """A Messenger that adds its time and its failed sends to the current tally."""

    def __init__(self, messenger: Messenger) -> None:
        self.inner = messenger

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def send(
        self, chat_id: int, text: str, rows: Rows | None = None, reply_to: int | None = None
    ) -> Sent:
        with timing("telegram"), _failures():
            return self.inner.send(chat_id, text, rows, reply_to)

    def edit(self, chat_id: int, message_id: int, text: str, rows: Rows | None = None) -> Sent:
        with timing("telegram"), _failures():
            return self.inner.edit(chat_id, message_id, text, rows)

    def answer(self, query_id: str, text: str | None = None, alert: bool = False) -> None:
        with timing("telegram"):
            self.inner.answer(query_id, text, alert)

    def pin(self, chat_id: int, message_id: int, pinned: bool = True) -> Sent:
        with timing("telegram"):
            return self.inner.pin(chat_id, message_id, pinned)


@contextmanager
def _failures() -> Iterator[None]:
    try:
        yield
    except Exception:
        count(SEND_FAILURES)
        raise
