"""In-process DocumentStore with the same semantics as the real ones, for tests and benchmarks."""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from infra import doc_bytes
from infra.ports import (
    UPDATE_MARKER_TTL_SECONDS,
    Clock,
    Delete,
    DuplicateUpdate,
    Put,
    StoreStats,
    VersionConflict,
    Versioned,
    check_writes,
    expires_at,
    is_live,
)
from infra.timers import SystemClock

CommitHook = Callable[[Sequence[Put | Delete], int | None], None]


@dataclass(frozen=True, slots=True)
class _Item:
    version: int
    body: bytes  # codec bytes, so callers never share mutable state with the store
    expires_at: int | None


class MemoryStore:
    """``before_commit`` runs after the caller's reads and before the version check (inject a
    second writer or a crash there); ``after_commit`` runs once the batch is stored (a crash
    there models a process dying between the write and the sends)."""

    def __init__(
        self,
        clock: Clock | None = None,
        before_commit: CommitHook | None = None,
        after_commit: CommitHook | None = None,
    ) -> None:
        self.stats = StoreStats()
        self.clock: Clock = clock or SystemClock()
        self.before_commit = before_commit
        self.after_commit = after_commit
        self._items: dict[str, _Item] = {}
        self._updates: dict[int, int] = {}  # update_id -> expires_at
        self._lock = threading.Lock()

    def get(self, key: str) -> Versioned | None:
        with self._lock:
            self.stats.reads += 1
            item = self._live(key)
        return None if item is None else Versioned(key, item.version, doc_bytes.decode(item.body))

    def get_many(self, keys: Sequence[str]) -> dict[str, Versioned]:
        with self._lock:
            self.stats.reads += 1
            found = {key: item for key in set(keys) if (item := self._live(key)) is not None}
        return {k: Versioned(k, i.version, doc_bytes.decode(i.body)) for k, i in found.items()}

    def seen_update(self, update_id: int) -> bool:
        with self._lock:
            self.stats.reads += 1
            return self._seen(update_id)

    def commit(
        self, writes: Sequence[Put | Delete], update_id: int | None = None
    ) -> dict[str, int]:
        check_writes(writes)
        if not writes and update_id is None:
            return {}
        bodies = {w.key: doc_bytes.encode(w.doc) for w in writes if isinstance(w, Put)}
        if self.before_commit is not None:
            self.before_commit(writes, update_id)
        with self._lock:
            self.stats.writes += 1
            now = self.clock.now()
            if update_id is not None and self._seen(update_id):
                raise DuplicateUpdate(update_id)
            for write in writes:
                item = self._live(write.key)
                current = None if item is None else item.version
                if current != write.expected_version:
                    raise VersionConflict(write.key)
            versions: dict[str, int] = {}
            for write in writes:
                if isinstance(write, Delete):
                    del self._items[write.key]
                    continue
                version = (write.expected_version or 0) + 1
                expiry = None if write.ttl_seconds is None else expires_at(now, write.ttl_seconds)
                self._items[write.key] = _Item(version, bodies[write.key], expiry)
                versions[write.key] = version
                self.stats.count("bytes_written", len(bodies[write.key]))
            if update_id is not None:
                self._updates[update_id] = expires_at(now, UPDATE_MARKER_TTL_SECONDS)
        if self.after_commit is not None:
            self.after_commit(writes, update_id)
        return versions

    def stored_size(self, key: str) -> int | None:
        """Bytes the document's body takes in storage (what DynamoDB would bill for)."""
        with self._lock:
            item = self._live(key)
        return None if item is None else len(item.body)

    def _live(self, key: str) -> _Item | None:
        item = self._items.get(key)
        if item is None or is_live(item.expires_at, self.clock.now()):
            return item
        del self._items[key]
        return None

    def _seen(self, update_id: int) -> bool:
        expiry = self._updates.get(update_id)
        if expiry is None:
            return False
        if is_live(expiry, self.clock.now()):
            return True
        del self._updates[update_id]
        return False
