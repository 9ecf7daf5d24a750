"""`make run`: the bot on this machine — long polling, a SQLite file, in-process timers.

With ``TELEGRAM_BOT_TOKEN`` it plays in Telegram. Without one it opens the local table
(``devtools.localtable``): the same CoachRideBot and gateway, talking over HTTP to a Bot API that
this process serves itself, with a web page for the chats.
"""

from __future__ import annotations

import fcntl
import logging
import sys
from collections.abc import Iterator
from contextlib import contextmanager

from handlers.i18n import t
from handlers.polling import Runner, StartupError, rearm_timers
from handlers.runtime import configure_logging
from infra.settings import Settings

__all__ = ["main", "rearm_timers"]


def run_telegram(settings: Settings, token: str) -> int:
    from telegram import Bot

    from infra.telegram_polling import TelegramPoller

    runner = Runner(settings, TelegramPoller(Bot(token, base_url=settings.bot_api_base_url())))
    print(t("en", "local.running", bot=runner.username, db=settings.db_path), file=sys.stderr)
    runner.poll_forever()
    return 0


@contextmanager
def only_process_on(db_path: str) -> Iterator[None]:
    """This process alone serves the SQLite file ``db_path``: a second table (or bot) on the
    same file would fire the same games' timers twice and keep its own chats in memory, so it
    is refused in one sentence. An exclusive ``flock`` on the file, held while the process
    runs (independent of SQLite's own locks; the system drops it when the process ends)."""
    with open(db_path, "ab") as held:
        try:
            fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise StartupError(t("en", "local.db_busy", db=db_path)) from None
        yield


def main() -> int:
    settings = Settings()
    configure_logging()
    # httpx logs every request at INFO, with the token in its URL.
    logging.getLogger("httpx").setLevel(logging.WARNING)
    try:
        with only_process_on(settings.db_path):
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
