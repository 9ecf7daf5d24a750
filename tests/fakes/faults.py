"""Telegram's worst days (issue 24), on top of the fake Bot API (``devtools.botapi``).

Self-contained: each fault wraps a ``RecordingRequest``'s ``handle`` (what every transport of it
calls), so it needs nothing of the fake but that one method.

- :class:`AfterDelivery`: Telegram carried a message call out, then the answer was lost (a read
  timeout, ``TimeoutError`` from the transport) or the function died before it could write the
  acknowledgement (:class:`~devtools.botapi.faults.Killed`).
- :class:`LongFlood`: every message call answers 429 for a while, ``retry_after`` the seconds
  still to go (up to the whole wait), the way Telegram holds a bot that overdid it.

Both record what Telegram delivered (``delivered``: method and parameters of every message call
answered 200), so a test can tell which decision prompts a player was actually shown.
"""

from __future__ import annotations

import json
import math
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from devtools.botapi.emulator import Call
from devtools.botapi.faults import Killed
from devtools.botapi.recording import RecordingRequest

MESSAGE_METHODS = ("sendMessage", "editMessageText")
Handle = Callable[[str, dict[str, Any]], tuple[int, bytes]]


@dataclass
class AfterDelivery:
    """Lost answers (``lost``) and deaths after a send (``kill``), as chances per message call
    that Telegram answered 200, drawn from ``rng``."""

    rng: random.Random
    lost: float = 0.0
    kill: float = 0.0
    counts: Counter[str] = field(default_factory=Counter)
    delivered: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    active: bool = True
    chats: set[int] | None = None  # only calls to these chats (None: any)
    methods: tuple[str, ...] = MESSAGE_METHODS

    def install(self, api: RecordingRequest) -> None:
        inner: Handle = api.handle

        def handle(method: str, params: dict[str, Any]) -> tuple[int, bytes]:
            status, body = inner(method, params)
            if status != 200 or method not in MESSAGE_METHODS:
                return status, body
            self.delivered.append((method, params))
            chat = params.get("chat_id")
            if not self.active or method not in self.methods:
                return status, body
            if self.chats is not None and chat not in self.chats:
                return status, body
            draw = self.rng.random()
            if draw < self.lost:
                self.counts["lost answer"] += 1
                raise TimeoutError("read timed out")  # the transport's read timeout
            if draw < self.lost + self.kill:
                self.counts["killed after send"] += 1
                raise Killed(f"killed after {method}")
            return status, body

        api.handle = handle  # type: ignore[method-assign]


@dataclass
class LongFlood:
    """From ``start`` on ``clock``, every message call answers 429 for ``seconds``; with
    ``start`` None, from the first message call after it is installed (the flood then meets
    the bot's next call whatever the game was doing: no idle stretch eats into it)."""

    clock: Callable[[], float]
    start: float | None
    seconds: float = 1200.0
    refused: int = 0
    longest_retry_after: int = 0

    @property
    def end(self) -> float:
        return (self.start if self.start is not None else self.clock()) + self.seconds

    def install(self, api: RecordingRequest) -> None:
        inner: Handle = api.handle

        def handle(method: str, params: dict[str, Any]) -> tuple[int, bytes]:
            now = self.clock()
            if method in MESSAGE_METHODS and self.start is None:
                self.start = now
            if (
                method in MESSAGE_METHODS
                and self.start is not None
                and self.start <= now < self.end
            ):
                wait = max(1, math.ceil(self.end - now))
                self.refused += 1
                self.longest_retry_after = max(self.longest_retry_after, wait)
                body = {
                    "ok": False,
                    "error_code": 429,
                    "description": f"Too Many Requests: retry after {wait}",
                    "parameters": {"retry_after": wait},
                }
                api.calls.append(Call(method, params))
                return 429, json.dumps(body).encode()
            return inner(method, params)

        api.handle = handle  # type: ignore[method-assign]


def shown_decisions(delivered: list[tuple[str, dict[str, Any]]], gid: str) -> set[tuple[int, int]]:
    """(chat, decision id) of every message Telegram showed with a button of that decision."""
    shown = set()
    for _, params in delivered:
        markup = params.get("reply_markup") or {}
        for row in markup.get("inline_keyboard", []):
            for button in row:
                data = str(button.get("callback_data") or "")
                parts = data.split(":", 2)
                if len(parts) == 3 and parts[0] == gid and parts[1].isdigit():
                    shown.add((int(params["chat_id"]), int(parts[1])))
    return shown
