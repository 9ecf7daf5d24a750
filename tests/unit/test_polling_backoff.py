"""The long-polling runner during a Telegram outage (502s, no network): it waits between tries,
longer each time up to a bound, instead of asking again at once (an attack run measured ~25,000
getUpdates calls and warning lines a second before, a hot loop against Telegram)."""

from __future__ import annotations

import ast
import queue
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from telegram.error import BadRequest, NetworkError, RetryAfter

from handlers import polling
from handlers.polling import Runner
from infra.ports import TimerRequest
from infra.telegram_polling import TelegramPoller

# RetryAfter's constructor reads its own deprecated attribute
pytestmark = pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")


class Stop(Exception):
    pass


class OutageBot:
    """``getUpdates`` fails ``failures`` times, then answers once with nothing, then fails
    ``again`` times, then the test stops."""

    def __init__(self, failures: int, again: int) -> None:
        self.script = ["fail"] * failures + ["ok"] + ["fail"] * again
        self.calls = 0

    async def get_updates(self, **_: Any) -> list[Any]:
        self.calls += 1
        if not self.script:
            raise Stop
        step = self.script.pop(0)
        if step == "fail":
            raise NetworkError("Bad Gateway")
        if step == "flood":
            raise RetryAfter(timedelta(seconds=7))
        if step == "refused":
            raise BadRequest("Bad Request: wrong parameter")
        return []


class NoTimers:
    def close(self) -> None:
        return None


def runner(bot: OutageBot) -> Runner:
    """A runner polling ``bot`` (through the adapter, as python-telegram-bot's errors) without
    its startup calls (getMe, deleteWebhook)."""
    r = Runner.__new__(Runner)
    r.updates = TelegramPoller(bot)  # type: ignore[arg-type]
    r.due = queue.Queue()
    r.timers = NoTimers()  # type: ignore[assignment]
    return r


def test_polling_backs_off_during_an_outage_and_resets_after_an_answer(
    caplog: pytest.LogCaptureFixture,
) -> None:
    bot = OutageBot(failures=8, again=2)
    waits: list[float] = []
    with pytest.raises(Stop):
        runner(bot).poll_forever(sleep=waits.append)
    # each warning says why (it said only "polling failed", whatever the cause)
    assert "Bad Gateway" in caplog.records[0].getMessage()
    assert bot.calls == 8 + 1 + 2 + 1
    assert len(waits) == 8 + 2  # one wait after each failure, none after an answer
    outage, later = waits[:8], waits[8:]
    assert all(0 < w <= polling.MAX_RETRY_SECONDS for w in waits)
    assert outage == sorted(outage) and outage[-1] == polling.MAX_RETRY_SECONDS
    assert later == outage[:2]  # an answer starts the count again


def test_flood_control_on_get_updates_is_waited_out_not_a_reason_to_stop() -> None:
    """A 429 answer to getUpdates is a wait of ``retry_after``, not the end of ``make run``."""
    bot = OutageBot(failures=0, again=0)
    bot.script = ["flood", "ok"]
    waits: list[float] = []
    with pytest.raises(Stop):
        runner(bot).poll_forever(sleep=waits.append)
    assert waits == [7.0] and bot.calls == 3


def test_a_refused_get_updates_stops_with_telegrams_reason_not_an_endless_retry() -> None:
    """python-telegram-bot's BadRequest subclasses its NetworkError: the adapter raised it as
    ``bot_api.NetworkError``, so a 400 to getUpdates (the same request, refused again each time)
    was retried every 30 s forever, the log saying only "polling failed". It is a refusal, as
    ``infra.bot_api`` raises one: ``make run`` stops with Telegram's words."""
    bot = OutageBot(failures=0, again=0)
    bot.script = ["refused", "ok"]
    waits: list[float] = []
    with pytest.raises(polling.StartupError, match=r"(?i)wrong parameter"):
        runner(bot).poll_forever(sleep=waits.append)
    assert waits == [] and bot.calls == 1


class FlakyService:
    """``handle_timer`` raises once (a transient fault, as the timer Lambda needs it raised),
    then applies."""

    def __init__(self) -> None:
        self.applied: list[TimerRequest] = []
        self.failed = 0

    def handle_update(self, update: Any) -> None:
        return None

    def handle_timer(self, request: TimerRequest) -> None:
        if not self.failed:
            self.failed += 1
            raise RuntimeError("database is locked")
        self.applied.append(request)


class KeptTimers(NoTimers):
    def __init__(self) -> None:
        self.scheduled: list[TimerRequest] = []

    def schedule(self, request: TimerRequest) -> None:
        self.scheduled.append(request)


def test_a_timer_that_raises_is_tried_again_later_not_the_end_of_make_run() -> None:
    """Every wait has a deadline: a timer's transient fault (raised on purpose, for SQS to
    deliver it again in Lambda) ended poll_forever, and ``make run`` with it, before."""
    bot = OutageBot(failures=0, again=0)
    bot.script = ["ok", "ok"]
    r = runner(bot)
    r.service = FlakyService()  # type: ignore[assignment]
    timers = r.timers = KeptTimers()  # type: ignore[assignment]
    request = TimerRequest("GAME#g", 7, 100.0)
    r.due.put(request)
    with pytest.raises(Stop):
        r.poll_forever(sleep=lambda _: None)
    (again,) = timers.scheduled
    assert (again.game_key, again.decision) == (request.game_key, request.decision)
    assert again.due_at > time.time()  # later, not in a hot loop


def test_the_handlers_use_python_telegram_bot_only_through_an_infra_adapter() -> None:
    """Issue 28: adapters live in ``infra/``; the long-polling runner polls through
    ``infra.telegram_polling`` and names no python-telegram-bot type (it imported ``telegram``)."""
    root = Path(__file__).resolve().parents[2] / "handlers"
    found = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            names = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
                if isinstance(node, ast.ImportFrom)
                else []
            )
            found += [f"{path.name}: {n}" for n in names if n.split(".")[0] == "telegram"]
    assert found == []
