"""The bot's global message rate, shared by every concurrent function through the store.

Telegram allows a bot about 30 messages a second across all chats. Each Lambda sees only its
own sends, so the budget lives in one document: a GCRA (virtual scheduling) cell holding the
*theoretical arrival time* ``tat`` of the next message. A sender books its whole batch with one
version-checked write — ``tat`` moves ``count / rate`` seconds on — and sends message ``i`` at
``max(now, base + i / rate)``. Up to ``burst`` messages may go at once after a quiet spell; over
any span ``T`` no more than ``burst + rate * T`` go out, however many functions run — with the
defaults at most 30 in any second, Telegram's limit.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from infra.ports import DocumentStore, Put, VersionConflict

RATE_KEY = "RATE#bot"


class SharedRateLimiter:
    """``rate`` messages per second with bursts of ``burst`` (25 + 5: never more than Telegram's
    30 in a second); conflicting bookings retry on a fresh read, a few times, then give up."""

    def __init__(
        self,
        store: DocumentStore,
        *,
        rate: float = 25.0,
        burst: int = 5,
        attempts: int = 16,
        sleep: Callable[[float], None] = time.sleep,
        key: str = RATE_KEY,
    ) -> None:
        self.store = store
        self.rate = rate
        self.burst = burst
        self.attempts = attempts
        self.sleep = sleep
        self.key = key
        self.conflicts = 0

    def reserve(self, count: int, now: float, latest: float) -> list[float]:
        """Book up to ``count`` slots that start no later than ``latest``; their times."""
        if count <= 0:
            return []
        step = 1.0 / self.rate
        for attempt in range(self.attempts):
            found = self.store.get(self.key)
            tat = float(found.doc["tat"]) if found else 0.0
            base = max(tat, now - max(0, self.burst - 1) * step)
            fits = min(count, max(0, int((latest - base) / step) + 1))
            if fits == 0:
                return []
            try:
                self.store.commit(
                    [Put(self.key, {"tat": base + fits * step}, found.version if found else None)]
                )
            except VersionConflict:
                self.conflicts += 1
                self.sleep(random.uniform(0, min(0.2, 0.005 * 2**attempt)))
                continue
            return [max(now, base + i * step) for i in range(fits)]
        raise VersionConflict(self.key)
