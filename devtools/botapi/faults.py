"""Telegram's bad days and its rate limits, for the emulator (``devtools.botapi.emulator``).

:class:`Chaos` answers message calls at random (reproducibly) with flood control of 5-40 s that
holds the chat for that long, network timeouts that cost the caller's clock the request timeout,
permanent ``400``s in groups (the bot muted) and :class:`Killed` (the function dies before a send
reaches Telegram).

:class:`RateLimits` answers ``429 Too Many Requests: retry after N`` (with ``retry_after``) the
way Telegram does when a bot goes over its documented limits: about 30 messages a second
overall, about one message a second in a private chat (short bursts allowed) and 20 messages a
minute in a group. It runs on a clock it is given, so a fake clock makes it deterministic (and a
capacity simulation can run it faster than real time).

What counts as a message. Telegram's Bots FAQ ("My bot is hitting limits, how do I avoid this?")
states the three limits for messages and does not list the methods; edits are flood-controlled
as well (``editMessageText`` answers ``429 Too Many Requests: retry after N`` like a send when a
bot edits a group's message too often), and a chat's members see an edit as they see a new
message. So the emulator counts a *message call* — ``sendMessage``, ``editMessageText`` and
``editMessageReplyMarkup`` — against the overall and the group limits alike: a group takes 20
sends and edits a minute. This is also how the bot budgets a group (``handlers.group_board``:
"the group's 20 calls a minute", the status and story edited at most every 30 / 45 s;
``handlers.reply_budget``: the game's busiest minute of sends and edits plus the direct replies
stay within 20; ``devtools.pace``'s goal "group sends and edits in the busiest 60 s <= 20") and
how its shared rate limiter books slots (``infra.rate_limit``: every send and edit, pins too).
In a private chat only sends use the one-a-second allowance: a player turning a prompt's pages
edits it on their own presses, which Telegram answers at the pace they press.
"""

from __future__ import annotations

import math
import random
import time
from collections import Counter, deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, NoReturn

from telegram.error import TimedOut


class Reply(Exception):
    """An error answer of the Bot API: HTTP ``code`` and Telegram's ``description``."""

    def __init__(self, code: int, description: str, parameters: dict[str, Any] | None = None):
        super().__init__(description)
        self.code = code
        self.description = description
        self.parameters = parameters

    def answer(self) -> dict[str, Any]:
        body: dict[str, Any] = {
            "ok": False,
            "error_code": self.code,
            "description": self.description,
        }
        if self.parameters:
            body["parameters"] = self.parameters
        return body


def flood(seconds: float) -> Reply:
    """Telegram's flood-control answer: wait at least ``seconds`` (whole, at least 1)."""
    wait = max(1, math.ceil(seconds))
    return Reply(429, f"Too Many Requests: retry after {wait}", {"retry_after": wait})


# The calls Telegram's message limits count (see above): sends and edits.
MESSAGE_METHODS = ("sendMessage", "editMessageText", "editMessageReplyMarkup")
MUTED = "Bad Request: not enough rights to send text messages to the chat"


class Killed(BaseException):
    """The function dies (a crash, or its timeout) before the request reaches Telegram. A
    ``BaseException``, so no ``except Exception`` in the code under test survives it."""


def _chat_of(params: Mapping[str, Any]) -> int:
    raw = params.get("chat_id")
    return raw if isinstance(raw, int) and not isinstance(raw, bool) else 0


@dataclass
class Chaos:
    """Telegram's bad days on message calls (``sendMessage``, ``editMessageText``), drawn from
    ``rng`` so a run can be repeated. ``advance`` moves the caller's fake clock (a timeout costs
    ``timeout_cost`` seconds of the function's time)."""

    rng: random.Random
    flood: float = 0.0  # chance a call answers 429; the chat then stays flooded that long
    flood_seconds: tuple[int, int] = (5, 40)
    timeout: float = 0.0  # chance of a network timeout (the message does not arrive)
    timeout_cost: float = 5.0
    refuse: float = 0.0  # chance a group send is refused for good (the bot muted)
    kill: float = 0.0  # chance the function dies just before the call
    advance: Callable[[float], None] | None = None
    flooded_until: dict[int, float] = field(default_factory=dict)
    counts: Counter[str] = field(default_factory=Counter)
    refused: list[tuple[int, str]] = field(default_factory=list)  # (chat, text) never shown

    def strike(self, method: str, params: Mapping[str, Any], now: float) -> None:
        """Raise what Telegram (or the function's death) does to this call, if anything."""
        if method not in MESSAGE_METHODS:
            return
        chat = _chat_of(params)
        if self.rng.random() < self.kill:
            self.counts["killed"] += 1
            raise Killed(f"killed before {method} to {chat}")
        held = self.flooded_until.get(chat, 0.0)
        if held > now:
            self.counts["429"] += 1
            raise flood(held - now)
        if self.rng.random() < self.flood:
            wait = self.rng.randint(*self.flood_seconds)
            self.flooded_until[chat] = now + wait
            self.counts["429"] += 1
            raise flood(wait)
        if self.rng.random() < self.timeout:
            self.counts["timeout"] += 1
            if self.advance is not None:
                self.advance(self.timeout_cost)
            raise TimedOut()
        group_send = method == "sendMessage" and chat < 0
        if group_send and self.rng.random() < self.refuse:
            self.counts["refused"] += 1
            self.refused.append((chat, str(params.get("text"))))
            raise Reply(400, MUTED)


@dataclass
class RateLimits:
    """Telegram's limits for one bot, on ``clock`` (or the ``now`` a caller passes):

    - ``overall`` message calls (sends and edits, ``MESSAGE_METHODS``) per second across all
      chats;
    - in a private chat, sends at ``private_per_second`` with bursts of ``private_burst``
      (a token bucket: "avoid more than one message per second in a chat; short bursts are
      allowed");
    - ``group_per_minute`` message calls (sends and edits) per group in any 60 s.

    Beyond them, 429 with the whole seconds until a slot frees (Telegram's ``retry_after``)."""

    overall: int = 30
    group_per_minute: int = 20
    private_per_second: float = 1.0
    # Telegram does not say how long a burst may be; 8 lets a bot answer a press with a few
    # messages at once (the local table's games, which the bot does not pace per chat, play at
    # their normal speed) while a steady stream faster than 1/s is refused.
    private_burst: int = 8
    clock: Callable[[], float] = time.time
    # The local table's (``GAME_TIME_SCALE``): its limits run on the game's time, so at 0.015 a
    # group's minute passes in 0.9 s, as the bot's own pacing shrinks; 1 is Telegram's.
    time_scale: float = 1.0
    limited: int = 0  # 429s answered
    by_reason: Counter[str] = field(default_factory=Counter)  # "overall", "group", "private"
    _recent: deque[float] = field(default_factory=deque)
    _groups: dict[int, deque[float]] = field(default_factory=dict)
    _private: dict[int, tuple[float, float]] = field(default_factory=dict)  # tokens, at

    def admit(self, method: str, params: Mapping[str, Any], now: float | None = None) -> None:
        """Count one call, or raise Telegram's 429 (a :class:`Reply`) without counting it."""
        if method not in MESSAGE_METHODS:
            return
        now = (self.clock() if now is None else now) / self.time_scale
        while self._recent and self._recent[0] <= now - 1.0:
            self._recent.popleft()
        if len(self._recent) >= self.overall:
            self._refuse(self._recent[0] + 1.0 - now, "overall")
        chat = _chat_of(params)
        if chat < 0:  # a group: its sends and edits
            sent = self._groups.setdefault(chat, deque())
            while sent and sent[0] <= now - 60.0:
                sent.popleft()
            if len(sent) >= self.group_per_minute:
                self._refuse(sent[0] + 60.0 - now, "group")
            sent.append(now)
        elif method == "sendMessage" and chat > 0:
            tokens, at = self._private.get(chat, (float(self.private_burst), now))
            tokens = min(float(self.private_burst), tokens + (now - at) * self.private_per_second)
            if tokens < 1.0:
                self._refuse((1.0 - tokens) / self.private_per_second, "private")
            self._private[chat] = (tokens - 1.0, now)
        self._recent.append(now)

    def _refuse(self, seconds: float, reason: str) -> NoReturn:
        self.limited += 1
        self.by_reason[reason] += 1
        raise flood(seconds * self.time_scale)
