"""What the capacity simulation counts: what Telegram accepted, refused (429s by limit) and was
asked for, and when each decision's prompt was asked and first shown (``Tally``), through the
service's messenger over the shared emulator (``SimMessenger``, which sleeps out short flood waits
as production's gateway does); and the figures of a run's window (``Figures``)."""

from __future__ import annotations

import statistics
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from devtools.botapi.faults import MESSAGE_METHODS
from devtools.botapi.messenger import EmulatedMessenger
from handlers.message_tags import tag_of
from infra.ports import FloodWait, Rows, Sent

# TelegramGateway's defaults (flood_attempts, max_wait): what production sleeps out in-process.
FLOOD_ATTEMPTS = 3
MAX_FLOOD_WAIT = 30.0


@dataclass
class Tally:
    """What Telegram saw and what players waited, each with the time it happened."""

    accepted: list[tuple[float, str]] = field(default_factory=list)  # (when, method)
    asked_for: list[float] = field(default_factory=list)
    floods: list[tuple[float, str]] = field(default_factory=list)  # (when, limit)
    asked: dict[tuple[str, int, int], float] = field(default_factory=dict)  # (gid, dec, uid)
    shown: dict[tuple[str, int, int], float] = field(default_factory=dict)
    delays: list[tuple[float, float]] = field(default_factory=list)  # (asked at, delay)
    deadlines: dict[tuple[str, int, int, str], float] = field(default_factory=dict)
    extended: list[float] = field(default_factory=list)
    timed_out: list[float] = field(default_factory=list)  # a player's decision ran out (R-D2)
    finished: list[float] = field(default_factory=list)
    presses: int = 0
    # what each call Telegram answered was, and how long it waited in the outbox (see ``Call``)
    calls: list[tuple[float, str, float]] = field(default_factory=list)  # (when, what, waited)

    def call_answered(self, e: dict[str, Any], now: float) -> None:
        """An outbox entry Telegram answered: what it is (``what_call``) and its wait; a pin is
        no message call (Telegram's limits count sends and text edits)."""
        if e["op"] not in ("send", "edit"):
            return
        self.calls.append((now, what_call(e), max(0.0, now - float(e.get("at", now)))))

    def prompt_shown(self, key: tuple[str, int, int], now: float) -> None:
        if key in self.shown:
            return
        self.shown[key] = now
        if key in self.asked:
            self.delays.append((self.asked[key], now - self.asked[key]))

    def prompt_asked(self, key: tuple[str, int, int], now: float) -> None:
        if key in self.asked:
            return
        self.asked[key] = now
        if key in self.shown:
            self.delays.append((now, max(0.0, self.shown[key] - now)))


def what_call(e: dict[str, Any]) -> str:
    """An outbox entry as the capacity table names it: its call, its chat (the group or a
    player's) and its kind (``handlers.message_tags.Kind``: a private message of no kind is a
    player's news, a card drawn or what a look showed)."""
    kind = tag_of(e).kind.value or ("news" if int(e["chat"]) > 0 else "other")
    return f"{e['op']} {'group' if int(e['chat']) < 0 else 'private'} {kind}"


@dataclass
class SimMessenger(EmulatedMessenger):
    """The service's messenger over the shared emulator, noting what Telegram accepted and
    refused and when each decision's prompt first shows in a player's chat.

    Every call counts, a player's looking around their prompt's pages (``quiet``) included: its
    presses are invocations of the service like any other, whose page edits (and whatever else
    their delivery sends) book the shared rate limiter's slots and count against Telegram's
    limits. ``quiet`` is per thread (per invocation): only the looking player's own edits are not
    taken for their prompt showing."""

    tally: Tally = field(default_factory=Tally)
    clock: Callable[[], float] = time.time
    # As infra.telegram_messenger.TelegramGateway does in production: a short flood wait is slept
    # out in the invocation (up to FLOOD_ATTEMPTS tries of at most MAX_FLOOD_WAIT s each); only a
    # longer one reaches the pipeline, which then holds the chat.
    sleep: Callable[[float], None] | None = None
    _looking: threading.local = field(default_factory=threading.local, repr=False)

    @property
    def quiet(self) -> bool:
        """Whether this thread's invocation is a player looking around (``PaceTable.route``)."""
        return bool(getattr(self._looking, "on", False))

    @quiet.setter
    def quiet(self, on: bool) -> None:
        self._looking.on = on

    def _waiting_out_floods(self, call: Callable[[], Sent]) -> Sent:
        for attempt in range(1, FLOOD_ATTEMPTS + 1):
            try:
                return call()
            except FloodWait as flood:
                if (
                    self.sleep is None
                    or attempt == FLOOD_ATTEMPTS
                    or flood.retry_after > MAX_FLOOD_WAIT
                ):
                    raise
                self.sleep(flood.retry_after)
        raise AssertionError("unreachable")

    def _call(self, method: str, params: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        counted = method in MESSAGE_METHODS
        if counted:
            self.tally.asked_for.append(self.clock())
        limits = self.api.limits
        before = Counter(limits.by_reason) if limits is not None else Counter()
        try:
            status, body = super()._call(method, params)
        except FloodWait:
            after = limits.by_reason if limits is not None else Counter()
            reason = next((r for r in after if after[r] > before[r]), "other")
            self.tally.floods.append((self.clock(), reason))
            raise
        if counted and status == 200:
            self.tally.accepted.append((self.clock(), method))
        return status, body

    def send(
        self, chat_id: int, text: str, rows: Rows | None = None, reply_to: int | None = None
    ) -> Sent:
        sent = self._waiting_out_floods(
            lambda: super(SimMessenger, self).send(chat_id, text, rows, reply_to)
        )
        self._note(sent, chat_id, rows)
        return sent

    def edit(self, chat_id: int, message_id: int, text: str, rows: Rows | None = None) -> Sent:
        sent = self._waiting_out_floods(
            lambda: super(SimMessenger, self).edit(chat_id, message_id, text, rows)
        )
        if not self.quiet:
            self._note(sent, chat_id, rows)
        return sent

    def _note(self, sent: Sent, chat_id: int, rows: Rows | None) -> None:
        if not sent.ok or chat_id < 0:
            return
        for row in rows or []:
            for _, kind, data in row:
                parts = data.split(":")
                if kind == "d" and len(parts) >= 3 and parts[1].isdigit():
                    self.tally.prompt_shown((parts[0], int(parts[1]), chat_id), self.clock())
                    return


@dataclass
class Figures:
    games: int
    window_seconds: float
    wall_seconds: float
    accepted_per_second: float
    asked_per_second: float
    sends_per_second: float
    edits_per_second: float
    floods: int
    floods_by_limit: dict[str, int]
    prompts: int
    delay_p50: float
    delay_p99: float
    delay_max: float
    not_shown: int
    deadlines_extended: int
    timed_out: int  # players' decisions (not windows) that ran out: nobody presses in time
    games_finished: int
    presses: int
    failed: int
    # what the calls Telegram answered were (``what_call``), busiest first: calls a second in
    # the window and their wait in the outbox, p50 / p99 seconds
    by_kind: dict[str, tuple[float, float, float]] = field(default_factory=dict)


def by_kind(calls: list[tuple[str, float]], span: float) -> dict[str, tuple[float, float, float]]:
    """Calls a second of each kind over ``span`` seconds and their waits (p50, p99)."""
    waits: dict[str, list[float]] = {}
    for what, waited in calls:
        waits.setdefault(what, []).append(waited)
    ranked = sorted(waits.items(), key=lambda kv: -len(kv[1]))
    return {
        what: (
            round(len(w) / span, 2),
            round(quantile(sorted(w), 0.5), 1),
            round(quantile(sorted(w), 0.99), 1),
        )
        for what, w in ranked
    }


def quantile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[round(q * 100) - 1]
