"""Register the deployed webhook with Telegram and set the command menus.

    python -m devtools.register_webhook --stack <stack name> --region <region>

reads the stack's outputs (the URL, the webhook's concurrency) and the token and webhook secret
from its Secrets Manager secrets, so no secret is ever typed on a command line. Without
``--stack``: ``--url`` plus TELEGRAM_BOT_TOKEN and TELEGRAM_WEBHOOK_SECRET from the environment.
``max_connections`` equals the webhook's reserved concurrency: Telegram never opens more
connections than there are instances to answer them.
"""

from __future__ import annotations

import argparse
import sys

from telegram import Bot

from handlers.commands import GROUP_COMMANDS, PRIVATE_COMMANDS
from handlers.i18n import LANGUAGES, t
from infra.bot_api import BotApi
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


def stack_outputs(stack: str, region: str | None) -> dict[str, str]:
    from infra import aws

    cloudformation = aws.client("cloudformation", region=region)
    (found,) = cloudformation.describe_stacks(StackName=stack)["Stacks"]
    return {o["OutputKey"]: o["OutputValue"] for o in found.get("Outputs", [])}


def from_stack(stack: str, region: str | None) -> tuple[str, str, str, int]:
    """(url, token, webhook secret, max_connections) of a deployed stack."""
    from infra import aws

    outputs = stack_outputs(stack, region)
    secrets = aws.client("secretsmanager", region=region)

    def secret(arn: str) -> str:
        return str(secrets.get_secret_value(SecretId=arn)["SecretString"]).strip()

    return (
        outputs["WebhookUrl"],
        secret(outputs["BotTokenSecretArn"]),
        secret(outputs["WebhookSecretArn"]),
        int(outputs.get("WebhookMaxConnections", DEFAULT_MAX_CONNECTIONS)),
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
        url, token, secret, connections = from_stack(args.stack, args.region)
    else:
        url, connections = args.url, DEFAULT_MAX_CONNECTIONS
        token = settings.telegram_bot_token or ""
        secret = settings.telegram_webhook_secret or ""
    if not token or not secret:
        print(t("en", "local.no_token"), file=sys.stderr)
        return 2
    if args.max_connections:
        connections = args.max_connections
    bot = Bot(token, base_url=settings.bot_api_base_url())
    LoopRunner().run(register(bot, url, secret, connections))
    print(f"webhook set: {url} (max_connections={connections})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
