"""Register the deployed webhook with Telegram and set the command menus.

    python -m devtools.register_webhook --stack <stack name> --region <region>

reads the stack's outputs (the URL, the webhook's concurrency), its TelegramApiBaseUrl parameter
(the Bot API root its functions call) and the token and webhook secret from its Secrets Manager
secrets, so no secret is ever typed on a command line. Without
``--stack``: ``--url`` plus TELEGRAM_BOT_TOKEN and TELEGRAM_WEBHOOK_SECRET from the environment.
``max_connections`` equals the webhook's reserved concurrency: Telegram never opens more
connections than there are instances to answer them.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass, field, replace
from typing import Any

from telegram import Bot
from telegram.error import TelegramError

from handlers.commands import GROUP_COMMANDS, PRIVATE_COMMANDS
from handlers.i18n import LANGUAGES, t
from infra import logs
from infra.bot_api import BotApi
from infra.bot_api import TelegramError as ApiError
from infra.event_loop import LoopRunner
from infra.settings import Settings
from infra.telegram_messenger import TelegramGateway

DEFAULT_MAX_CONNECTIONS = 10  # the template's WebhookConcurrency default
ALLOWED_UPDATES = ["message", "callback_query", "chat_member", "my_chat_member"]
TELEGRAM_LANGUAGE = {"en": None, "de": "de", "zh-Hans": "zh"}
ORDER = (
    "newgame",
    "startgame",
    "status",
    "settings",
    "language",
    "scores",
    "rules",
    "help",
    "cancel",
    "start",
    "notes",
)


def menus(lang: str) -> dict[str, list[tuple[str, str]]]:
    def menu(names: set[str]) -> list[tuple[str, str]]:
        return [(name, t(lang, f"command.{name}")) for name in ORDER if name in names]

    return {"groups": menu(GROUP_COMMANDS), "private": menu(PRIVATE_COMMANDS)}


async def register(
    bot: Bot, url: str, secret: str, max_connections: int = DEFAULT_MAX_CONNECTIONS
) -> None:
    gateway = TelegramGateway(BotApi(bot.base_url))
    await bot.set_webhook(
        url,
        secret_token=secret,
        allowed_updates=ALLOWED_UPDATES,
        drop_pending_updates=False,
        max_connections=max_connections,
    )
    for lang in LANGUAGES:
        for scope, commands in menus(lang).items():
            gateway.set_commands(commands, scope=scope, language_code=TELEGRAM_LANGUAGE[lang])  # type: ignore[arg-type]


@dataclass(frozen=True)
class Target:
    """Where and how to register: never shows the token or the secret in its ``repr``."""

    url: str
    token: str = field(repr=False)
    secret: str = field(repr=False)
    max_connections: int = DEFAULT_MAX_CONNECTIONS
    api_root: str | None = None  # the stack's TelegramApiBaseUrl; None: the environment's


def describe_stack(stack: str, region: str | None) -> dict[str, Any]:
    from infra import aws

    cloudformation = aws.client("cloudformation", region=region)
    (found,) = cloudformation.describe_stacks(StackName=stack)["Stacks"]
    return dict(found)


def stack_outputs(stack: str, region: str | None) -> dict[str, str]:
    found = describe_stack(stack, region)
    return {o["OutputKey"]: o["OutputValue"] for o in found.get("Outputs", [])}


def from_stack(stack: str, region: str | None) -> Target:
    """What a deployed stack says: its URL, concurrency and Bot API root (the parameter the
    functions were deployed with), and the token and secret from its Secrets Manager secrets."""
    from infra import aws

    found = describe_stack(stack, region)
    outputs = {o["OutputKey"]: o["OutputValue"] for o in found.get("Outputs", [])}
    parameters = {p["ParameterKey"]: p.get("ParameterValue") for p in found.get("Parameters", [])}
    secrets = aws.client("secretsmanager", region=region)

    def secret(arn: str) -> str:
        return str(secrets.get_secret_value(SecretId=arn)["SecretString"]).strip()

    return Target(
        outputs["WebhookUrl"],
        secret(outputs["BotTokenSecretArn"]),
        secret(outputs["WebhookSecretArn"]),
        int(outputs.get("WebhookMaxConnections", DEFAULT_MAX_CONNECTIONS)),
        parameters.get("TelegramApiBaseUrl") or None,
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--stack", help="the deployed stack's name")
    source.add_argument("--url", help="the webhook URL (token and secret from the environment)")
    parser.add_argument("--region", help="the stack's region (default: the AWS configuration's)")
    parser.add_argument("--max-connections", type=int, help="overrides the stack's concurrency")
    args = parser.parse_args(argv)
    settings = Settings()
    if args.stack:
        target = from_stack(args.stack, args.region)
        if target.api_root:
            settings = replace(settings, telegram_api_base_url=target.api_root)
    else:
        target = Target(
            args.url,
            settings.telegram_bot_token or "",
            settings.telegram_webhook_secret or "",
        )
    if not target.token or not target.secret:
        print(t("en", "local.no_token"), file=sys.stderr)
        return 2
    connections = args.max_connections or target.max_connections
    logs.protect(target.token, target.secret)
    bot = Bot(target.token, base_url=settings.bot_api_base_url())
    try:
        LoopRunner().run(register(bot, target.url, target.secret, connections))
    except (TelegramError, ApiError) as error:
        # e.g. a revoked token (401 Unauthorized): say so in one line, no traceback, no secret
        why = logs.redact(f"{type(error).__name__}: {error}")
        print(f"registering the webhook failed: {why}", file=sys.stderr)
        return 1
    print(f"webhook set: {target.url} (max_connections={connections})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
