"""What one update or timer did, as one log line that CloudWatch also reads as metrics.

A :class:`Tally` collects counts (version conflicts, commands that gave up, failed sends) and
time spent in the store and in Telegram while one update or timer runs; ``line`` turns it into
the fields of that update's log line. In Lambda the fields also carry CloudWatch's embedded
metric format (``_aws``), so the line *is* the metric: no client library, no extra call, no
PutMetricData permission. The Lambda runtime's JSON log format puts ``extra=`` fields at the top
level of the line, where the format expects them.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

NAMESPACE = "CoachRide"
CONFLICTS, GAVE_UPS, SEND_FAILURES = "Conflicts", "GaveUps", "SendFailures"
# Bot API answers: 429 flood control; 5xx, timeouts and unreachable; 401/404, the token refused
# (revoked, or a wrong one in Secrets Manager: the bot can send nothing) (``infra.bot_api``).
TELEGRAM_FLOODS, TELEGRAM_ERRORS = "TelegramFloods", "TelegramErrors"
TELEGRAM_TOKEN_REFUSED = "TelegramTokenRefused"
# How long after its deadline a timer ran (seconds; ``handlers.timer``'s ``late_s``).
TIMER_LATE = "TimerLateSeconds"
COUNTED = (
    CONFLICTS,
    GAVE_UPS,
    SEND_FAILURES,
    TELEGRAM_FLOODS,
    TELEGRAM_ERRORS,
    TELEGRAM_TOKEN_REFUSED,
)
# Outcomes that are not "applied", each counted under its own metric name.
OUTCOME_METRICS = {
    "error": "Errors",
    "failed": "Errors",
    "duplicate": "Duplicates",
    "stale": "Stale",
    "rejected": "Rejected",
}


@dataclass
class Tally:
    started: float = field(default_factory=time.perf_counter)
    counts: dict[str, int] = field(default_factory=dict)
    ms: dict[str, float] = field(default_factory=dict)
    fields: dict[str, Any] = field(default_factory=dict)  # e.g. cold_start, set by the entry
    reported: bool = False

    def count(self, name: str, amount: int = 1) -> None:
        self.counts[name] = self.counts.get(name, 0) + amount

    def add_ms(self, part: str, ms: float) -> None:
        self.ms[part] = self.ms.get(part, 0.0) + ms

    def elapsed_ms(self) -> float:
        return (time.perf_counter() - self.started) * 1000


_current: ContextVar[Tally | None] = ContextVar("coachride_tally", default=None)


def start() -> Tally:
    """A fresh tally for the update or timer this thread now handles."""
    tally = Tally()
    _current.set(tally)
    return tally


def adopt() -> Tally:
    """The tally a Lambda entry point started for this update, else a fresh one."""
    tally = _current.get()
    return tally if tally is not None and not tally.reported else start()


def unreported() -> Tally | None:
    """The current tally if its line has not been written yet."""
    tally = _current.get()
    return tally if tally is not None and not tally.reported else None


def count(name: str, amount: int = 1) -> None:
    tally = _current.get()
    if tally is not None:
        tally.count(name, amount)


@contextmanager
def timing(part: str) -> Iterator[None]:
    tally = _current.get()
    began = time.perf_counter()
    try:
        yield
    finally:
        if tally is not None:
            tally.add_ms(part, (time.perf_counter() - began) * 1000)


def outcome_metric(outcome: str) -> str:
    return OUTCOME_METRICS.get(outcome, "Ignored" if outcome in IGNORED else "Applied")


IGNORED = {"ignored", "unknown", "wrong_chat", "garbage", "malformed", "requeued", "no_game"}


def line(event: str, fields: dict[str, Any], tally: Tally) -> dict[str, Any]:
    """The fields of the log line for one update (``event="update"``) or timer."""
    tally.reported = True
    ms = round(tally.elapsed_ms(), 2)
    out: dict[str, Any] = {"event": event, **fields, **tally.fields, "ms": ms}
    out.update({f"{part}_ms": round(v, 2) for part, v in sorted(tally.ms.items())})
    out.update({name.lower(): n for name, n in sorted(tally.counts.items())})
    service = os.environ.get("METRICS_SERVICE")
    if service and os.environ.get("AWS_LAMBDA_FUNCTION_NAME"):
        late = fields.get("late_s")
        late_s = float(late) if isinstance(late, int | float) and event == "timer" else None
        out.update(embedded(event, str(fields.get("outcome", "")), ms, tally, service, late_s))
    return out


def _unit(name: str) -> str:
    if name.endswith("Ms"):
        return "Milliseconds"
    return "Seconds" if name.endswith("Seconds") else "Count"


def embedded(
    event: str,
    outcome: str,
    ms: float,
    tally: Tally,
    service: str,
    late_s: float | None = None,
) -> dict[str, Any]:
    """CloudWatch embedded metric format: the ``_aws`` block and the metric values; a timer's
    ``late_s`` (how long after its deadline it ran) becomes ``TimerLateSeconds``."""
    values: dict[str, float] = {
        "Updates" if event == "update" else "Timers": 1,
        outcome_metric(outcome): 1,
        "LatencyMs": ms,
    }
    for name in COUNTED:
        values[name] = tally.counts.get(name, 0)
    if late_s is not None:
        values[TIMER_LATE] = late_s
    units = {name: _unit(name) for name in values}
    return {
        "_aws": {
            "Timestamp": int(time.time() * 1000),
            "CloudWatchMetrics": [
                {
                    "Namespace": NAMESPACE,
                    "Dimensions": [["Service"]],
                    "Metrics": [{"Name": n, "Unit": units[n]} for n in values],
                }
            ],
        },
        "Service": service,
        **values,
    }
