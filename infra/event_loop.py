"""The process's one asyncio event loop, and :class:`LoopRunner`, which runs
python-telegram-bot's coroutines (long polling, ``setWebhook``) on it."""

from __future__ import annotations

from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")

_LOOP: Any = None  # the process's asyncio event loop


def process_loop() -> Any:
    """The process's one event loop, created on first use (and again only if closed)."""
    import asyncio

    global _LOOP
    if _LOOP is None or _LOOP.is_closed():
        _LOOP = asyncio.new_event_loop()
        asyncio.set_event_loop(_LOOP)
    return _LOOP


class LoopRunner:
    """Runs coroutines to completion on the process's single event loop.

    A long-lived process keeps the loop, so python-telegram-bot's pooled HTTP connections stay
    usable across calls; ``asyncio.run`` per call would close the loop under them.
    """

    def run(self, coroutine: Coroutine[Any, Any, T]) -> T:
        loop = process_loop()
        if loop.is_running():
            coroutine.close()
            raise RuntimeError("LoopRunner.run called from inside the running event loop")
        result: T = loop.run_until_complete(coroutine)
        return result
