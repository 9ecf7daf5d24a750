"""Register the deployed webhook with Telegram and set the command menus.

    python -m handlers.register_webhook --url <WebhookUrl output of the stack>

Reads TELEGRAM_BOT_TOKEN, TELEGRAM_WEBHOOK_SECRET and TELEGRAM_API_BASE_URL from the environment.
"""

from __future__ import annotations

import argparse
import sys

from telegram import Bot

from handlers.app import GROUP_COMMANDS, PRIVATE_COMMANDS
from handlers.i18n import LANGUAGES, t
from handlers.telegram_messenger import make_bot
from infra.settings import Settings
from infra.telegram_gateway import LoopRunner, TelegramGateway

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


async def register(bot: Bot, url: str, secret: str) -> None:
    gateway = TelegramGateway(bot)
    await bot.set_webhook(
        url, secret_token=secret, allowed_updates=ALLOWED_UPDATES, drop_pending_updates=False
    )
    for lang in LANGUAGES:
        for scope, commands in menus(lang).items():
            await gateway.set_commands(commands, scope=scope, language_code=TELEGRAM_LANGUAGE[lang])  # type: ignore[arg-type]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--url", required=True, help="the stack's WebhookUrl output")
    args = parser.parse_args(argv)
    settings = Settings()
    if not settings.telegram_bot_token or not settings.telegram_webhook_secret:
        print(t("en", "local.no_token"), file=sys.stderr)
        return 2
    bot = make_bot(settings.telegram_bot_token, settings.bot_api_base_url())
    LoopRunner().run(register(bot, args.url, settings.telegram_webhook_secret))
    print(f"webhook set: {args.url}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
