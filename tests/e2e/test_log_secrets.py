"""No bot token, webhook secret or private text in any log line (issue 12).

Whole games run through the Lambda entry points (``webhook.handle`` with the secret header,
``timer.handle`` with SQS-shaped records) and the gateway's real HTTP client (urllib3, whose
DEBUG line prints every request path, ``/bot<TOKEN>/…``) over HTTP to a local server that
answers from the fake Bot API. Logging is configured as in production and every line is
captured. A few requests fail as a dropped connection; their errors reach the warnings.
"""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from handlers import timer, webhook
from infra import logs
from infra.ports import TimerRequest
from infra.telegram_messenger import make_bot
from infra.timers import timer_message
from tests.e2e.harness import GROUP, Harness, Player
from tests.http_bot_api import Answer, serving

TOKEN = "987654321:AAsecretTOKENkeyDoNotLog_0123456789abc"
TOKEN_KEY = TOKEN.split(":", 1)[1]
SECRET = "webhook-SECRET-do-not-log-0123456789abcdef"


@contextmanager
def fake_api_over_http(h: Harness, failures: int) -> Iterator[str]:
    """The harness's fake Bot API behind a local HTTP server; its Bot API root (``…/bot``).
    The first ``failures`` sendMessage calls lose their connection without an answer."""
    left = [failures]

    def answer(path: str, _: str, body: bytes) -> Answer:
        method = path.rsplit("/", 1)[-1]
        if method == "sendMessage" and left[0] > 0:
            left[0] -= 1
            return None
        return h.api.handle(method, json.loads(body))

    with serving(answer, "/bot") as root:
        yield root


class ThroughLambdaEntryPoints:
    """Stands where the harness calls the service: every update goes through the webhook's
    handler code with the secret header, every timer through the timer's, as in AWS."""

    def __init__(self, h: Harness) -> None:
        self.h = h
        self.service = h.service
        self.messages = 0

    def handle_update(self, update: dict[str, Any]) -> None:
        event = {
            "headers": {"X-Telegram-Bot-Api-Secret-Token": SECRET},
            "body": json.dumps(update),
        }
        assert webhook.handle(event, lambda: self.service, SECRET)["statusCode"] == 200

    def handle_timer(self, request: TimerRequest) -> None:
        self.messages += 1
        record = {"messageId": f"m{self.messages}", "body": timer_message(request)}
        reply = timer.handle({"Records": [record]}, self.service, self.h.timers, self.h.clock.now())
        assert reply == {"batchItemFailures": []}


@pytest.fixture
def captured() -> Iterator[io.StringIO]:
    """Logging as `configure_logging` sets it up, written to a buffer; restored afterwards."""
    root = logging.getLogger()
    saved = (list(root.handlers), root.level)
    levels = {name: logging.getLogger(name).level for name in (*logs.QUIET_LOGGERS, "coachride")}
    stream = io.StringIO()
    logs.configure_logging(stream=stream)
    try:
        yield stream
    finally:
        for handler in root.handlers:
            handler.removeFilter(logs.REDACTOR)
        root.handlers, root.level = saved
        for name, level in levels.items():
            logging.getLogger(name).setLevel(level)


def play_through_lambda(n: int, seed: int, failures: int) -> Harness:
    players = [
        Player(uid=3000 + i, name=f"Rider {i}", lang=("en", "de", "zh-Hans")[i % 3])
        for i in range(n)
    ]
    h = Harness(players, seed=seed)
    with fake_api_over_http(h, failures) as base_url:
        h.messenger.gateway.bot = make_bot(TOKEN, base_url)
        h.service = ThroughLambdaEntryPoints(h)  # type: ignore[assignment]
        logs.protect(TOKEN, SECRET)  # what runtime does once it has read the secrets
        h.open_lobby_and_join()
        h.start()
        h.play_by_buttons()
    wrong = {"headers": {"X-Telegram-Bot-Api-Secret-Token": SECRET[:-1] + "x"}, "body": "{}"}
    assert webhook.handle(wrong, lambda: h.service, SECRET)["statusCode"] == 403
    return h


def private_texts(h: Harness) -> set[str]:
    """Whole texts the bot sent to players in private (their roles, cards, prompts)."""
    group = {m.text for m in h.api.messages_in(GROUP)}
    return {
        m.text
        for p in h.players
        for m in h.api.messages_in(p.uid)
        if len(m.text) >= 24 and m.text not in group
    }


def test_whole_games_log_no_token_secret_or_private_text(captured: io.StringIO) -> None:
    h = play_through_lambda(4, seed=2, failures=2)
    lines = captured.getvalue().splitlines()
    assert [line for line in lines if TOKEN_KEY in line or SECRET in line] == []

    # The lines the operator needs are there, with outcome and timings.
    updates = [line for line in lines if '"event": "update"' in line]
    assert len(updates) > h.presses and all('"outcome": ' in u and '"ms": ' in u for u in updates)
    assert any('"event": "timer"' in line and '"outcome": "applied"' in line for line in lines)
    assert any('"outcome": "rejected"' in line for line in lines)
    # The injected network errors did reach the log.
    assert any("transient Telegram error" in line for line in lines)

    texts = private_texts(h)
    assert len(texts) > 10
    assert [t for t in texts if any(t in line for line in lines)] == []


def test_even_debug_lines_of_the_http_client_are_redacted(captured: io.StringIO) -> None:
    for name in ("infra.http_pool", "coachride"):
        logging.getLogger(name).setLevel(logging.DEBUG)
    logging.getLogger().setLevel(logging.DEBUG)
    play_through_lambda(3, seed=1, failures=1)
    lines = captured.getvalue().splitlines()
    http_lines = [line for line in lines if '"POST /bot' in line]
    assert http_lines and all(f"/bot{logs.REDACTED}/" in line for line in http_lines)
    assert [line for line in lines if TOKEN_KEY in line or SECRET in line] == []


def test_the_redactor_covers_arguments_fields_and_tracebacks() -> None:
    redactor = logs.Redactor()
    redactor.protect(TOKEN, SECRET, None, "short")
    try:
        raise RuntimeError(f"GET https://api.telegram.org/bot{TOKEN}/getMe failed")
    except RuntimeError:
        import sys

        record = logging.LogRecord(
            "x", logging.ERROR, __file__, 1, "%s %s", (SECRET, 1), sys.exc_info()
        )
    record.url = f"https://h/bot{TOKEN}/x"
    record.nested = {"token": TOKEN_KEY}
    assert redactor.filter(record)
    text = logging.Formatter().format(record) + json.dumps(logs.extra_fields(record))
    assert TOKEN_KEY not in text and SECRET not in text and "short" not in logs.REDACTED
    assert text.count(logs.REDACTED) >= 4 and record.error_type == "RuntimeError"


# -- issue 24.4: no secret in any output of the local runner's startup ---------------------------
@contextmanager
def _echo_api(status: int, fail_on: str) -> Iterator[str]:
    """A Bot API that answers ``getMe`` like Telegram, and ``fail_on`` (a method, or "*") with
    ``status`` and an error text that echoes the request path, token and all."""
    from devtools.botapi import BOT_USER

    def answer(path: str, _: str, body: bytes) -> Answer:
        method = path.rsplit("/", 1)[-1]
        if fail_on in ("*", method):
            failed = {"ok": False, "error_code": status, "description": f"no {path}"}
            return status, json.dumps(failed).encode()
        result: Any = BOT_USER if method == "getMe" else True
        return 200, json.dumps({"ok": True, "result": result}).encode()

    with serving(answer) as root:
        yield root


@pytest.mark.parametrize(
    ("status", "fail_on"),
    [(400, "getMe"), (500, "getMe"), (401, "getMe"), (409, "*"), (400, "deleteWebhook")],
)
def test_the_local_runner_s_startup_never_prints_the_token(
    tmp_path: Any, status: int, fail_on: str
) -> None:
    import os
    import subprocess
    import sys
    from pathlib import Path

    with _echo_api(status, fail_on) as url:
        done = subprocess.run(
            [sys.executable, "-m", "devtools.local"],
            cwd=Path(__file__).resolve().parents[2],
            env={
                "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
                "GAME_DB_PATH": str(tmp_path / "bot.sqlite3"),
                "TELEGRAM_BOT_TOKEN": TOKEN,
                "TELEGRAM_API_BASE_URL": url,
            },
            capture_output=True,
            text=True,
            timeout=60,
        )
    output = done.stdout + done.stderr
    assert done.returncode != 0  # it did not start
    assert output.strip()  # and said something
    assert TOKEN_KEY not in output, output
    assert "Traceback" not in output, output  # one sentence


def test_credentials_settings_and_clients_print_no_secret() -> None:
    from infra.bot_api import BotApi, bot_api
    from infra.settings import Settings
    from infra.telegram_messenger import TelegramGateway, TelegramMessenger

    settings = Settings(telegram_bot_token=TOKEN, telegram_webhook_secret=SECRET)
    api = bot_api(TOKEN, settings.bot_api_base_url())
    gateway = TelegramGateway(api)
    things: list[object] = [settings, api, gateway, TelegramMessenger(gateway)]
    assert isinstance(api, BotApi)
    for thing in things:
        for text in (repr(thing), str(thing)):
            assert TOKEN_KEY not in text and SECRET not in text, text
