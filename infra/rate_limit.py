"""The bot's global message rate, shared by every concurrent function through the store.

Telegram allows a bot about 30 messages a second across all chats. Each Lambda sees only its
own sends, so the budget lives in one document: a GCRA (virtual scheduling) cell holding the
*theoretical arrival time* ``tat`` of the next message. A sender books a few slots with one
version-checked write — ``tat`` moves ``count / rate`` seconds on — and sends message ``i`` at
``max(now, base + i / rate)``. A limiter assumes its own last write is still current, so a lone
sender books with one request; a stale guess fails the version check and is read again. Up to
``burst`` messages may go at once after a quiet spell.

A slot only bounds the rate if the message goes out at its slot: a sender whose earlier sends
took longer than the spacing would otherwise send the rest late, on top of the slots other
functions booked after it. So a message more than ``tolerance`` seconds past its slot is not
sent on it; the sender books again (``handlers.pipeline.Pipeline``). Over any closed span ``T``
at most ``burst + rate * (T + tolerance) + 1`` messages go out, however many functions run:
with the defaults 2 + 24 × 1.1 + 1 ≈ 29 in any second, under Telegram's 30 with room for the
jitter between checking the clock and Telegram receiving the request.

The cell tolerates any value (issue 24): a writer whose clock runs fast would otherwise store a
``tat`` far ahead and stop every sender until the rest of the world caught up with it. So each
write also stores the writer's own ``at``; a reader trusts only the *lead* ``tat - at`` (which no
clock skew changes), never more than ``MAX_LEAD`` (no booking reaches past one function's time),
and a value without a readable ``at`` (an older cell, a hand edit, garbage) at most ``window``
seconds ahead of its own clock. Unreadable values count as no booking.
"""

from __future__ import annotations

import logging
import math
import random
import time
from collections.abc import Callable
from typing import Any

from infra.ports import DocumentStore, Put, VersionConflict

RATE_KEY = "RATE#bot"
WINDOW_SECONDS = 1.0  # a cell value of unknown origin never holds sends back longer than this
MAX_LEAD = 30.0  # seconds: no booking reaches past one function's time
log = logging.getLogger("coachride")


def _finite(value: Any) -> float | None:
    try:
        number = float(value)
    except (TypeError, ValueError, OverflowError):
        return None
    return number if math.isfinite(number) else None


def booked_until(doc: dict[str, Any] | None, now: float, window: float = WINDOW_SECONDS) -> float:
    """The theoretical arrival time a cell's document stands for, read on a clock at ``now``:
    the writer's lead (``tat - at``) from now, or at most ``window`` ahead when its own clock
    is unknown; 0 (no booking) for a value that is no number."""
    tat = _finite((doc or {}).get("tat"))
    if tat is None:
        return 0.0
    at = _finite((doc or {}).get("at"))
    lead = window if at is None else min(max(0.0, tat - at), MAX_LEAD)
    if tat > now + lead:
        log.warning("rate cell %.1f s ahead: read as %.1f s", tat - now, lead)
        return now + lead
    return tat


class SharedRateLimiter:
    """``rate`` messages per second with bursts of ``burst``, each sent within ``tolerance``
    seconds of its slot (see above); conflicting bookings retry on a fresh read, a few times,
    then give up."""

    def __init__(
        self,
        store: DocumentStore,
        *,
        rate: float = 24.0,
        burst: int = 2,
        tolerance: float = 0.1,
        attempts: int = 16,
        sleep: Callable[[float], None] = time.sleep,
        key: str = RATE_KEY,
        window: float = WINDOW_SECONDS,
    ) -> None:
        self.store = store
        self.rate = rate
        self.burst = burst
        self.tolerance = tolerance
        self.attempts = attempts
        self.sleep = sleep
        self.key = key
        self.window = window
        self.conflicts = 0
        self._known: tuple[float, int] | None = None  # (tat, version) this limiter last wrote

    def backlog(self, now: float) -> float:
        """How far ahead of ``now`` the budget is booked (one read): 0 when a slot is free."""
        found = self.store.get(self.key)
        return max(0.0, booked_until(found.doc if found else None, now, self.window) - now)

    def reserve(self, count: int, now: float, latest: float) -> list[float]:
        """Book up to ``count`` slots that start no later than ``latest``; their times."""
        if count <= 0:
            return []
        step = 1.0 / self.rate
        for attempt in range(self.attempts):
            cached = self._known is not None
            version: int | None
            if self._known is not None:  # most likely still current: one request, not two
                tat, version = self._known
            else:
                found = self.store.get(self.key)
                tat = booked_until(found.doc if found else None, now, self.window)
                version = found.version if found else None
            base = max(tat, now - max(0, self.burst - 1) * step)
            # floor, not int(): a base less than one step past ``latest`` has no slot that fits
            fits = min(count, max(0, math.floor((latest - base) / step) + 1))
            if fits == 0:
                return []
            new_tat = base + fits * step
            self._known = None
            try:
                versions = self.store.commit([Put(self.key, {"tat": new_tat, "at": now}, version)])
            except VersionConflict:
                self.conflicts += 1
                if not cached:  # a stale guess is just read again; contention backs off
                    self.sleep(random.uniform(0, min(0.2, 0.005 * 2**attempt)))
                continue
            if self.key in versions:
                self._known = (new_tat, versions[self.key])
            return [max(now, base + i * step) for i in range(fits)]
        raise VersionConflict(self.key)
