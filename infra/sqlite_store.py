"""DocumentStore on a local SQLite file, for running the bot on one machine.

One connection per thread; WAL and a busy timeout let several threads and processes share the
file, and ``BEGIN IMMEDIATE`` takes the write lock before the version check, so check and
write are one atomic step.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

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
)
from infra.timers import SystemClock

_SCHEMA = """
CREATE TABLE IF NOT EXISTS docs (
    key TEXT PRIMARY KEY,
    version INTEGER NOT NULL,
    body BLOB NOT NULL,
    expires_at INTEGER
);
CREATE INDEX IF NOT EXISTS docs_expires_at ON docs (expires_at) WHERE expires_at IS NOT NULL;
CREATE TABLE IF NOT EXISTS updates (
    update_id INTEGER PRIMARY KEY,
    expires_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS updates_expires_at ON updates (expires_at);
"""
_LIVE = "(expires_at IS NULL OR expires_at > ?)"
_CHUNK = 500  # well below SQLite's limit on bound parameters


class SqliteStore:
    """``path`` must name a file: every thread opens its own connection to it."""

    def __init__(
        self, path: str, clock: Clock | None = None, busy_timeout_ms: int = 10_000
    ) -> None:
        self.path = path
        self.stats = StoreStats()
        self.clock: Clock = clock or SystemClock()
        self._busy_timeout_ms = busy_timeout_ms
        self._local = threading.local()
        self._connections: list[sqlite3.Connection] = []
        self._lock = threading.Lock()  # guards stats and the connection list
        self._conn().executescript(_SCHEMA)

    def get(self, key: str) -> Versioned | None:
        self._count_read()
        row = (
            self._conn()
            .execute(
                f"SELECT version, body FROM docs WHERE key = ? AND {_LIVE}", (key, self.clock.now())
            )
            .fetchone()
        )
        return None if row is None else Versioned(key, row[0], doc_bytes.decode(row[1]))

    def get_many(self, keys: Sequence[str]) -> dict[str, Versioned]:
        self._count_read()
        unique = list(dict.fromkeys(keys))
        now = self.clock.now()
        found: dict[str, Versioned] = {}
        with self._transaction(immediate=False) as conn:  # one snapshot for all chunks
            for start in range(0, len(unique), _CHUNK):
                chunk = unique[start : start + _CHUNK]
                marks = ",".join("?" * len(chunk))
                rows = conn.execute(
                    f"SELECT key, version, body FROM docs WHERE key IN ({marks}) AND {_LIVE}",
                    (*chunk, now),
                )
                for key, version, body in rows:
                    found[key] = Versioned(key, version, doc_bytes.decode(body))
        return found

    def keys(self, prefix: str) -> list[str]:
        """Live keys starting with ``prefix`` (the local runner re-arms timers on start)."""
        self._count_read()
        rows = self._conn().execute(
            f"SELECT key FROM docs WHERE key >= ? AND key < ? AND {_LIVE}",
            (prefix, prefix + "\uffff", self.clock.now()),
        )
        return [row[0] for row in rows]

    def seen_update(self, update_id: int) -> bool:
        self._count_read()
        row = (
            self._conn()
            .execute(
                "SELECT 1 FROM updates WHERE update_id = ? AND expires_at > ?",
                (update_id, self.clock.now()),
            )
            .fetchone()
        )
        return row is not None

    def commit(
        self, writes: Sequence[Put | Delete], update_id: int | None = None
    ) -> dict[str, int]:
        check_writes(writes)
        if not writes and update_id is None:
            return {}
        bodies = {w.key: doc_bytes.encode(w.doc) for w in writes if isinstance(w, Put)}
        with self._lock:
            self.stats.writes += 1
        with self._transaction() as conn:
            now = self.clock.now()
            conn.execute("DELETE FROM docs WHERE expires_at <= ?", (now,))
            conn.execute("DELETE FROM updates WHERE expires_at <= ?", (now,))
            if update_id is not None:
                seen = conn.execute("SELECT 1 FROM updates WHERE update_id = ?", (update_id,))
                if seen.fetchone() is not None:
                    raise DuplicateUpdate(update_id)
            for write in writes:
                row = conn.execute("SELECT version FROM docs WHERE key = ?", (write.key,))
                current = row.fetchone()
                if (None if current is None else current[0]) != write.expected_version:
                    raise VersionConflict(write.key)
            versions: dict[str, int] = {}
            for write in writes:
                if isinstance(write, Delete):
                    conn.execute("DELETE FROM docs WHERE key = ?", (write.key,))
                    continue
                version = (write.expected_version or 0) + 1
                expiry = None if write.ttl_seconds is None else expires_at(now, write.ttl_seconds)
                conn.execute(
                    "INSERT OR REPLACE INTO docs (key, version, body, expires_at)"
                    " VALUES (?, ?, ?, ?)",
                    (write.key, version, bodies[write.key], expiry),
                )
                versions[write.key] = version
            if update_id is not None:
                conn.execute(
                    "INSERT INTO updates (update_id, expires_at) VALUES (?, ?)",
                    (update_id, expires_at(now, UPDATE_MARKER_TTL_SECONDS)),
                )
        return versions

    def close(self) -> None:
        with self._lock:
            connections, self._connections = self._connections, []
        for conn in connections:
            conn.close()
        self._local = threading.local()

    def _count_read(self) -> None:
        with self._lock:
            self.stats.reads += 1

    def _conn(self) -> sqlite3.Connection:
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            # Autocommit mode: transactions are opened explicitly in _transaction.
            conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            conn.execute(f"PRAGMA busy_timeout = {int(self._busy_timeout_ms)}")
            conn.execute("PRAGMA journal_mode = WAL")
            conn.execute("PRAGMA synchronous = NORMAL")
            self._local.conn = conn
            with self._lock:
                self._connections.append(conn)
        return conn

    @contextmanager
    def _transaction(self, immediate: bool = True) -> Iterator[sqlite3.Connection]:
        conn = self._conn()
        conn.execute("BEGIN IMMEDIATE" if immediate else "BEGIN")
        try:
            yield conn
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
