"""No secret in any output when every layer fails (the operator's attack on the Lambda entry
points): the real ``webhook.handler`` and ``timer.handler`` read the token and the webhook
secret from Secrets Manager (moto), as in AWS, then meet a Bot API that refuses everything and
echoes the request path, which holds the token (``/bot<TOKEN>/getMe``), in its error
description (a proxy or a local Bot API server may do that; Telegram's own 404 says
"Not Found"), a table and a queue that do not exist, and a Bot API that is not there at all.
Whatever reaches the log (through logging, which redacts), the answer to Telegram, or the
Lambda runtime (an exception that escapes a handler is printed by the runtime itself, past the
redaction: its message and traceback) must hold neither the token, its key, nor the secret."""

from __future__ import annotations

import io
import json
import logging
import traceback
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import boto3
import pytest

from handlers import runtime, timer, webhook
from infra import logs
from infra.ports import TimerRequest
from infra.timers import timer_message
from tests.http_bot_api import Answer, serving
from tests.integration.conftest import unique

TOKEN = "987654321:AAsecretTOKENkeyNeverShown_0123456789ab"
KEY = TOKEN.split(":", 1)[1]
SECRET = "webhookSECRETneverShown0123456789abcdefXYZ"


@contextmanager
def echoing_bot_api(status: int) -> Iterator[str]:
    """A Bot API root whose every answer is ``status`` with the request path in its text."""

    def answer(path: str, _: str, body: bytes) -> Answer:
        text = {"ok": False, "error_code": status, "description": f"No route {path}"}
        return status, json.dumps(text).encode()

    with serving(answer) as root:
        yield root


class Context:
    def get_remaining_time_in_millis(self) -> int:
        return 20_000


@pytest.fixture
def lambda_like(moto_server: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[io.StringIO]:
    """The functions' environment (template.yaml's variables), secrets in Secrets Manager, a
    fresh container (no secrets read, no service built), every log line captured."""
    secrets = boto3.client("secretsmanager")
    token_arn = secrets.create_secret(Name=unique("token"), SecretString=TOKEN)["ARN"]
    hook_arn = secrets.create_secret(Name=unique("hook"), SecretString=SECRET)["ARN"]
    for name in ("TELEGRAM_BOT_TOKEN", "TELEGRAM_WEBHOOK_SECRET"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("AWS_LAMBDA_FUNCTION_NAME", "stack-Function-x")
    monkeypatch.setenv("METRICS_SERVICE", "stack")
    monkeypatch.setenv("BOT_TOKEN_SECRET_ARN", token_arn)
    monkeypatch.setenv("WEBHOOK_SECRET_ARN", hook_arn)
    monkeypatch.setenv("GAME_TABLE_NAME", unique("no-such-table"))
    monkeypatch.setenv("TIMER_QUEUE_URL", f"{moto_server}/123456789012/{unique('no-queue')}")
    monkeypatch.setattr(runtime, "_source", None)
    monkeypatch.setattr(runtime, "_built", None)
    monkeypatch.setattr(logs, "REDACTOR", logs.Redactor())
    root = logging.getLogger()
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(logs.FieldsFormatter())
    handler.addFilter(logs.REDACTOR)  # as logs.configure_logging puts it on the runtime's
    saved = (list(root.handlers), root.level)
    root.handlers = [handler]
    root.setLevel(logging.DEBUG)
    try:
        yield stream
    finally:
        handler.removeFilter(logs.REDACTOR)
        root.handlers, root.level = saved


def call(entry: Any, event: dict[str, Any]) -> str:
    """What the Lambda runtime shows of one invocation: its answer, or the escaped error's
    message and traceback (which it prints itself, unredacted)."""
    try:
        return json.dumps(entry(event, Context()))
    except Exception as error:
        return f"{type(error).__name__}: {error}\n{traceback.format_exc()}"


def update_event(secret: str) -> dict[str, Any]:
    update = {
        "update_id": 5,
        "message": {
            "message_id": 1,
            "date": 0,
            "chat": {"id": -100, "type": "group", "title": "g"},
            "from": {"id": 7, "is_bot": False, "first_name": "A"},
            "text": "/newgame",
        },
    }
    headers = {webhook.SECRET_HEADER: secret}
    return {"headers": headers, "body": json.dumps(update)}


def timer_event() -> dict[str, Any]:
    body = timer_message(TimerRequest(game_key="GAME#-100", decision=1, due_at=0.0))
    return {"Records": [{"messageId": "m1", "body": body}]}


def assert_no_secret(*outputs: str) -> None:
    for text in outputs:
        for secret in (TOKEN, KEY, SECRET):
            assert secret not in text, text[max(0, text.find(secret) - 300) :][:600]


@pytest.mark.parametrize("status", [404, 500, 401])
def test_a_bot_api_that_echoes_the_token_reaches_no_output(
    lambda_like: io.StringIO, monkeypatch: pytest.MonkeyPatch, status: int
) -> None:
    with echoing_bot_api(status) as root:
        monkeypatch.setenv("TELEGRAM_API_BASE_URL", root)
        answers = [
            call(webhook.handler, update_event(SECRET)),
            call(webhook.handler, update_event(SECRET[:-1] + "x")),
            call(timer.handler, timer_event()),
        ]
    logged = lambda_like.getvalue()
    assert "No route /bot[redacted]/getMe" in logged  # the echo reached the log, redacted
    assert_no_secret(logged, *answers)


def test_nothing_reachable_at_all_reaches_no_output(
    lambda_like: io.StringIO, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TELEGRAM_API_BASE_URL", "http://127.0.0.1:9")  # nothing listens
    answers = [call(webhook.handler, update_event(SECRET)), call(timer.handler, timer_event())]
    assert "update handling failed" in lambda_like.getvalue()
    assert_no_secret(lambda_like.getvalue(), *answers)


def test_the_bot_api_client_keeps_the_token_out_of_its_errors() -> None:
    """infra.bot_api: an answer that echoes the request path becomes an error without the
    token, whoever prints it (before: the description was taken whole)."""
    from infra.bot_api import BotApi, InvalidToken

    def echo(method: str, params: dict[str, Any], timeout: float) -> tuple[int, bytes]:
        text = f"No route /bot{TOKEN}/{method} (key {KEY})"
        return 404, json.dumps({"ok": False, "description": text}).encode()

    with pytest.raises(InvalidToken) as raised:
        BotApi(f"http://127.0.0.1:9/bot{TOKEN}/", echo).call("getMe")
    assert str(raised.value) == "No route /bot[redacted]/getMe (key [redacted])"


def test_what_escapes_the_timer_handler_is_redacted(
    lambda_like: io.StringIO, monkeypatch: pytest.MonkeyPatch
) -> None:
    """handlers.timer: a service that cannot be built fails the batch (SQS retries it) with an
    error whose text is redacted, since the Lambda runtime prints it past the log's filter."""
    logs.protect(TOKEN, SECRET)

    def cannot_build() -> Any:
        raise ValueError(f"bad answer for /bot{TOKEN}/getMe")

    monkeypatch.setattr(runtime, "lambda_service", cannot_build)
    with pytest.raises(RuntimeError) as raised:
        timer.handler(timer_event(), Context())
    escaped = "".join(traceback.format_exception(raised.value))
    assert "ValueError: bad answer for /bot[redacted]/getMe" in escaped
    assert_no_secret(escaped, lambda_like.getvalue())


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_container_that_read_a_revoked_token_takes_the_new_one_within_a_minute(
    lambda_like: io.StringIO, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A token rotation (README, Rotate): a container that started between /revoke and the
    put-secret-value read the revoked token, and Telegram refuses its getMe. Before, it kept
    that token for the secret's 15-minute age and dropped every update meanwhile; now a refused
    getMe reads the secret again (at most once a minute, as for the webhook secret)."""
    from devtools.botapi.emulator import BotApiEmulator
    from infra.bot_secrets import SecretSource
    from infra.settings import Settings
    from tests.integration.test_register_webhook import TOKEN as NEW
    from tests.integration.test_register_webhook import bot_api_over_http

    revoked = "123456789:" + "R" * 35
    secrets = boto3.client("secretsmanager")
    arn = secrets.create_secret(Name=unique("token"), SecretString=revoked)["ARN"]
    monkeypatch.setenv("BOT_TOKEN_SECRET_ARN", arn)
    clock = Clock()
    monkeypatch.setattr(runtime, "_source", SecretSource(Settings(), clock=clock))
    with bot_api_over_http(BotApiEmulator()) as root:  # knows the NEW token only
        monkeypatch.setenv("TELEGRAM_API_BASE_URL", root)
        with pytest.raises(Exception, match="Unauthorized"):
            runtime.lambda_service()
        secrets.put_secret_value(SecretId=arn, SecretString=NEW)  # the operator's rotation
        clock.now += 61
        service = runtime.lambda_service()
    assert service.bot_username
    assert runtime.bot_secrets().token == NEW


def test_a_warm_container_whose_sends_are_refused_takes_the_new_token_within_a_minute(
    lambda_like: io.StringIO, monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest
) -> None:
    """A /revoke while containers are warm (README, Rotate): their service was built with the
    old token, and every send is refused 401. Before, they kept the old token for the secret's
    15-minute age (no getMe to fail) and sent nothing meanwhile; now a refused send has the
    next update read the secret again (at most once a minute) and build the service anew."""
    from devtools.botapi import BOT_USER
    from infra import telegram_messenger
    from infra.bot_api import BotApi, InvalidToken
    from infra.bot_secrets import SecretSource
    from infra.settings import Settings

    made: list[BotApi] = []
    make_bot = telegram_messenger.make_bot

    def keep(*args: Any, **kwargs: Any) -> BotApi:
        made.append(make_bot(*args, **kwargs))
        return made[-1]

    monkeypatch.setattr(telegram_messenger, "make_bot", keep)

    # botocore's DEBUG lines of this test's own set-up (boto3 below) would show the tokens
    # before the container has read them; in Lambda botocore logs at WARNING (infra.logs), and
    # so it does here. (Disabling the "botocore" logger left its children, botocore.hooks and
    # the rest, logging at DEBUG whenever no earlier test on the worker had set the level.)
    quiet = logging.getLogger("botocore")
    request.addfinalizer(lambda was=quiet.level: quiet.setLevel(was))
    quiet.setLevel(logging.WARNING)
    old, new = "123456789:" + "O" * 35, "123456789:" + "N" * 35
    accepted = [old]

    def answer(path: str, _: str, body: bytes) -> Answer:
        if not path.startswith(f"/bot{accepted[0]}/"):
            return 401, b'{"ok":false,"error_code":401,"description":"Unauthorized"}'
        result: Any = BOT_USER if path.endswith("/getMe") else True
        return 200, json.dumps({"ok": True, "result": result}).encode()

    secrets = boto3.client("secretsmanager")
    arn = secrets.create_secret(Name=unique("token"), SecretString=old)["ARN"]
    monkeypatch.setenv("BOT_TOKEN_SECRET_ARN", arn)
    clock = Clock()
    monkeypatch.setattr(runtime, "_source", SecretSource(Settings(), clock=clock))
    with serving(answer) as root:
        monkeypatch.setenv("TELEGRAM_API_BASE_URL", root)
        warm = runtime.lambda_service()
        accepted[0] = new  # /revoke in @BotFather
        secrets.put_secret_value(SecretId=arn, SecretString=new)  # the operator's rotation
        with pytest.raises(InvalidToken):
            made[-1].call("sendMessage", chat_id=1, text="x")  # a warm container's send
        clock.now += 61
        fresh = runtime.lambda_service()
    assert fresh is not warm
    assert runtime.bot_secrets().token == new
    assert len(made) == 2
    log = lambda_like.getvalue()
    assert old.split(":")[1] not in log and new.split(":")[1] not in log
