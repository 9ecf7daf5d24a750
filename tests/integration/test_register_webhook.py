"""The operator's step after `sam deploy` (README, Operating the bot in AWS: Deploy), as a
stranger runs it: `python -m devtools.register_webhook --stack <stack> --region <region>`
against a deployed stack (a CloudFormation stack on moto with the template's outputs and
parameters, its two secrets in Secrets Manager) and a Bot API (the emulator, which refuses what
Telegram refuses, behind a local HTTP server). Nothing secret on the command line or in what the
tool prints."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from contextlib import contextmanager, redirect_stderr, redirect_stdout
from typing import Any
from urllib.parse import parse_qsl

import boto3
import pytest

from devtools import register_webhook
from devtools.botapi.emulator import BotApiEmulator
from handlers.i18n import LANGUAGES
from tests.http_bot_api import Answer, serving
from tests.integration.conftest import REGION, unique

TOKEN = "987654321:AAsecretTOKENkeyDoNotPrint_0123456789ab"
SECRET = "webhookSECRETdoNotPrint0123456789abcdefXYZ"
FUNCTION_URL = "https://abcdefghij.lambda-url.eu-central-1.on.aws/"


def params_of(content_type: str, body: bytes) -> dict[str, Any]:
    """A Bot API request's parameters: a JSON body (infra.bot_api) or a form whose values are
    JSON where they are not plain strings (python-telegram-bot)."""
    if content_type.startswith("application/json"):
        parsed: dict[str, Any] = json.loads(body or b"{}")
        return parsed
    params: dict[str, Any] = {}
    for name, value in parse_qsl(body.decode()):
        try:
            literal = value[:1] in "[{" or value.isdigit() or value in ("true", "false")
            params[name] = json.loads(value) if literal else value
        except ValueError:
            params[name] = value
    return params


@contextmanager
def bot_api_over_http(api: BotApiEmulator) -> Iterator[str]:
    """The emulator at ``http://127.0.0.1:<port>``; a request for another token gets 401, as
    Telegram answers it."""

    def answer(path: str, content_type: str, body: bytes) -> Answer:
        _, bot, method = path.split("/", 2)
        if bot != f"bot{TOKEN}":
            return 401, b'{"ok":false,"error_code":401,"description":"Unauthorized"}'
        try:
            return api.handle(method, params_of(content_type, body))
        except Exception as error:  # a call Telegram would refuse (strict emulator)
            api.violations.append(f"{method}: {error!r}")
            return 400, b'{"ok":false,"description":"Bad Request"}'

    with serving(answer) as root:
        yield root


def deploy_stack(api_root: str, concurrency: int) -> str:
    """A stack with what template.yaml's stack shows register_webhook: its outputs and its
    TelegramApiBaseUrl parameter; the token and the secret in Secrets Manager."""
    secrets = boto3.client("secretsmanager")
    token_arn = secrets.create_secret(Name=unique("token"), SecretString=TOKEN)["ARN"]
    secret_arn = secrets.create_secret(Name=unique("hook"), SecretString=SECRET + "\n")["ARN"]
    template = {
        "Parameters": {
            "TelegramApiBaseUrl": {"Type": "String"},
            "WebhookConcurrency": {"Type": "Number"},
        },
        "Resources": {"TimerQueue": {"Type": "AWS::SQS::Queue"}},
        "Outputs": {
            "WebhookUrl": {"Value": FUNCTION_URL},
            "WebhookMaxConnections": {"Value": {"Ref": "WebhookConcurrency"}},
            "BotTokenSecretArn": {"Value": token_arn},
            "WebhookSecretArn": {"Value": secret_arn},
        },
    }
    stack = unique("coach")
    boto3.client("cloudformation").create_stack(
        StackName=stack,
        TemplateBody=json.dumps(template),
        Parameters=[
            {"ParameterKey": "TelegramApiBaseUrl", "ParameterValue": api_root},
            {"ParameterKey": "WebhookConcurrency", "ParameterValue": str(concurrency)},
        ],
    )
    return stack


def run(argv: list[str]) -> tuple[int, str]:
    out = io.StringIO()
    with redirect_stdout(out), redirect_stderr(out):
        code = register_webhook.main(argv)
    return code, out.getvalue()


def test_register_webhook_reads_the_stack_and_registers_against_its_bot_api_root(
    moto_server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The Bot API root the stack was deployed with (TelegramApiBaseUrl: a proxy, or a local
    Bot API server) is where the webhook is registered; before, the tool took the operator's
    environment (TELEGRAM_API_BASE_URL, unset: api.telegram.org) and registered the bot
    elsewhere than the functions call it, or failed."""
    for name in ("TELEGRAM_API_BASE_URL", "TELEGRAM_BOT_TOKEN", "TELEGRAM_WEBHOOK_SECRET"):
        monkeypatch.delenv(name, raising=False)
    api = BotApiEmulator()
    with bot_api_over_http(api) as root:
        stack = deploy_stack(root, concurrency=7)
        code, printed = run(["--stack", stack, "--region", REGION])
    assert code == 0, (printed, api.violations)
    (hook,) = [c.params for c in api.calls if c.method == "setWebhook"]
    assert hook["url"] == FUNCTION_URL
    assert hook["secret_token"] == SECRET  # stripped of the newline a hand-made secret may have
    assert hook["max_connections"] == 7
    assert set(hook["allowed_updates"]) == set(register_webhook.ALLOWED_UPDATES)
    menus = [c.params for c in api.calls if c.method == "setMyCommands"]
    assert len(menus) == 2 * len(LANGUAGES)
    assert api.violations == []
    assert TOKEN not in printed and TOKEN.split(":")[1] not in printed and SECRET not in printed
    assert FUNCTION_URL in printed


def test_a_revoked_token_fails_in_one_line_without_printing_it(
    moto_server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Before: python-telegram-bot's InvalidToken escaped as a traceback."""
    monkeypatch.delenv("TELEGRAM_API_BASE_URL", raising=False)
    api = BotApiEmulator()
    with bot_api_over_http(api) as root:
        stack = deploy_stack(root, concurrency=10)
        outputs = register_webhook.stack_outputs(stack, REGION)
        boto3.client("secretsmanager").put_secret_value(
            SecretId=outputs["BotTokenSecretArn"], SecretString="123456789:" + "r" * 35
        )
        code, printed = run(["--stack", stack, "--region", REGION])
    assert code == 1
    assert printed.strip() == "registering the webhook failed: InvalidToken: Unauthorized"
    assert "r" * 35 not in printed and SECRET not in printed
    assert [c for c in api.calls if c.method == "setWebhook"] == []
