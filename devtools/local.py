"""`make run`: the bot on this machine — long polling, a SQLite file, in-process timers.

With ``TELEGRAM_BOT_TOKEN`` it plays in Telegram. Without one it opens the local table
(``devtools.localtable``): the same CoachRideBot and gateway, talking over HTTP to a Bot API that
this process serves itself, with a web page for the chats.
"""

from __future__ import annotations

import logging
import sys

from handlers.i18n import t
from handlers.polling import Runner, StartupError, rearm_timers
from handlers.runtime import configure_logging
from infra.settings import Settings

__all__ = ["main", "rearm_timers"]


def run_telegram(settings: Settings, token: str) -> int:
    from telegram import Bot

    runner = Runner(settings, Bot(token, base_url=settings.bot_api_base_url()))
    print(t("en", "local.running", bot=runner.username, db=settings.db_path), file=sys.stderr)
    runner.poll_forever()
    return 0


def main() -> int:
    settings = Settings()
    configure_logging()
    # httpx logs every request at INFO, with the token in its URL.
    logging.getLogger("httpx").setLevel(logging.WARNING)
    try:
        if settings.telegram_bot_token:
            return run_telegram(settings, settings.telegram_bot_token)
        from devtools.localtable.run import run_table

        return run_table(settings)
    except StartupError as error:
        print(error, file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 0


if __name__ == "__main__":
    raise SystemExit(main())
