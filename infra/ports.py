"""Small ports the service depends on; adapters live beside this module.

Every stored thing is a *document*: a JSON-serializable dict under a string key with an integer
version. A write names the version it read (``None`` = must not exist yet) and the whole batch
commits atomically or not at all, together with the marker of the Telegram update it applies.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Protocol

UPDATE_MARKER_PREFIX = "UPDATE#"
# Telegram keeps redelivering an unacknowledged update for up to 24 h; keep markers longer.
UPDATE_MARKER_TTL_SECONDS = 48 * 3600


class VersionConflict(Exception):
    """Another writer changed a document since it was read; reload and retry the command."""


class DuplicateUpdate(Exception):
    """The Telegram update was already applied; nothing must change and nothing be sent."""


@dataclass(frozen=True, slots=True)
class Versioned:
    key: str
    version: int
    doc: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Put:
    key: str
    doc: dict[str, Any]
    expected_version: int | None  # the version read; None when the document must be new
    ttl_seconds: int | None = None  # expire the document this long after the write


@dataclass(frozen=True, slots=True)
class Delete:
    key: str
    expected_version: int


@dataclass(slots=True)
class StoreStats:
    reads: int = 0  # read requests (a batch read counts once)
    writes: int = 0  # commit requests, successful or not
    extra: dict[str, int] = field(default_factory=dict)

    def count(self, name: str, amount: int = 1) -> None:
        self.extra[name] = self.extra.get(name, 0) + amount


def check_writes(writes: Sequence[Put | Delete]) -> None:
    """Reject batches every store would reject: one key twice, or a key in the marker space."""
    seen: set[str] = set()
    for write in writes:
        if write.key in seen:
            raise ValueError(f"key {write.key!r} written twice in one commit")
        if write.key.startswith(UPDATE_MARKER_PREFIX):
            raise ValueError(f"key {write.key!r} is reserved for update markers")
        seen.add(write.key)


def expires_at(now: float, ttl_seconds: int) -> int:
    """Whole epoch seconds (DynamoDB's TTL unit), never earlier than asked for."""
    return math.ceil(now + ttl_seconds)


def is_live(expiry: float | None, now: float) -> bool:
    return expiry is None or expiry > now


class DocumentStore(Protocol):
    stats: StoreStats

    def get(self, key: str) -> Versioned | None: ...

    def get_many(self, keys: Sequence[str]) -> dict[str, Versioned]: ...

    def seen_update(self, update_id: int) -> bool: ...

    def commit(
        self, writes: Sequence[Put | Delete], update_id: int | None = None
    ) -> dict[str, int]:
        """Apply all writes atomically; returns the new version per written key.

        Raises VersionConflict if any expected version does not match, DuplicateUpdate if
        ``update_id`` was already committed (the marker lives at least 24 h).
        """
        ...


@dataclass(frozen=True, slots=True)
class TimerRequest:
    game_key: str
    decision: int
    due_at: float  # unix seconds


class Timers(Protocol):
    def schedule(self, request: TimerRequest) -> None: ...


class Clock(Protocol):
    def now(self) -> float: ...


# A button row for the Messenger: [[label, "d", callback_data] or [label, "u", url], ...]
Rows = list[list[list[str]]]


@dataclass(frozen=True, slots=True)
class Sent:
    ok: bool
    message_id: int | None = None
    unreachable: bool = False  # the user blocked the bot or never opened it
    dropped: bool = False  # Telegram refused it for good (e.g. the bot may not write there)
    muted: bool = False  # dropped because the bot may not write in that group
    uncertain: bool = False  # the answer was lost: Telegram may or may not have shown it
    moved_to: int | None = None  # refused: the group became this supergroup (not sent there)
    reply_gone: bool = False  # refused: the message it replies to is gone (deleted, cleared)


class FloodWait(Exception):
    """Telegram asked to wait longer than this invocation may: hand the rest back."""

    def __init__(self, retry_after: float) -> None:
        super().__init__(f"flood control: retry after {retry_after:.0f} s")
        self.retry_after = retry_after


class OutOfTime(Exception):
    """Too little of the invocation's time is left to start another Telegram request."""


# -- the invocation's time budget ---------------------------------------------------------------
# A Lambda is killed at its timeout; everything that may wait (flood control, retries, the
# shared rate limit) asks how much of the current invocation is left. Per thread, because the
# local runner and the tests run several invocations at once.
_budget = threading.local()


@contextmanager
def deadline_scope(deadline: float, clock: Clock) -> Iterator[None]:
    """Within the block, ``time_left()`` counts down to ``deadline`` on ``clock``."""
    outer = getattr(_budget, "scope", None)
    _budget.scope = (deadline, clock)
    try:
        yield
    finally:
        _budget.scope = outer


def time_left() -> float:
    """Seconds left in the current invocation; infinite outside any ``deadline_scope``."""
    scope = getattr(_budget, "scope", None)
    if scope is None:
        return math.inf
    deadline, clock = scope
    return float(deadline - clock.now())


class Messenger(Protocol):
    """What the service needs from Telegram, synchronously."""

    def send(
        self, chat_id: int, text: str, rows: Rows | None = None, reply_to: int | None = None
    ) -> Sent:
        """``reply_to``: the message this one replies to (quoted; never sent without it: a
        reply to a message gone is refused, ``Sent.reply_gone``)."""
        ...

    def edit(self, chat_id: int, message_id: int, text: str, rows: Rows | None = None) -> Sent: ...

    def answer(self, query_id: str, text: str | None = None, alert: bool = False) -> None: ...

    def pin(self, chat_id: int, message_id: int, pinned: bool = True) -> Sent:
        """Pin a message quietly (or unpin it); not ok when the bot may not pin there."""
        ...
