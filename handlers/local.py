"""`make run`: the bot on this machine — long polling, a SQLite file, in-process timers.

The same Service as in AWS with local adapters. Everything runs on one thread: timers only
queue their requests, and the polling loop applies them between updates.
"""

from __future__ import annotations

import logging
import queue
import sys

from telegram.error import InvalidToken, NetworkError

from handlers.app import Service
from handlers.i18n import t
from handlers.runtime import bot_username, configure_logging
from handlers.telegram_messenger import TelegramMessenger, make_bot
from infra.ports import TimerRequest, Timers
from infra.settings import Settings
from infra.sqlite_store import SqliteStore
from infra.telegram_gateway import TelegramGateway
from infra.timers import LocalTimers, SystemClock

log = logging.getLogger("coachride")

POLL_SECONDS = 1
ALLOWED_UPDATES = ["message", "callback_query", "chat_member", "my_chat_member"]


def rearm_timers(store: SqliteStore, timers: Timers) -> int:
    """In-process timers die with the process: on start, every open lobby and running game
    gets its next deadline back (a late one fires at once)."""
    armed = 0
    for key in store.keys("GAME#"):
        got = store.get(key)
        due = got.doc.get("due") if got else None
        if got and due and got.doc.get("phase") in ("lobby", "playing"):
            timers.schedule(TimerRequest(key, due["dec"], due["at"]))
            armed += 1
    return armed


def main() -> int:
    settings = Settings()
    if not settings.telegram_bot_token:
        print(t("en", "local.no_token"), file=sys.stderr)
        return 2
    configure_logging()
    due: queue.Queue[TimerRequest] = queue.Queue()
    clock = SystemClock()
    bot = make_bot(settings.telegram_bot_token, settings.bot_api_base_url())
    messenger = TelegramMessenger(TelegramGateway(bot))
    try:
        username = bot_username(messenger)
    except InvalidToken:
        print(t("en", "local.bad_token"), file=sys.stderr)
        return 2
    timers = LocalTimers(due.put)
    store = SqliteStore(settings.db_path, clock=clock)
    service = Service(
        store,
        messenger,
        timers,
        clock,
        bot_username=username,
        time_scale=settings.game_time_scale,
        is_admin=messenger.is_admin,
    )
    rearm_timers(store, timers)
    messenger.runner.run(bot.delete_webhook())
    print(t("en", "local.running", bot=username, db=settings.db_path), file=sys.stderr)
    offset = 0
    try:
        while True:
            try:
                updates = messenger.runner.run(
                    bot.get_updates(
                        offset=offset, timeout=POLL_SECONDS, allowed_updates=ALLOWED_UPDATES
                    )
                )
            except NetworkError:
                log.warning("polling failed; retrying")
                continue
            for update in updates:
                offset = update.update_id + 1
                service.handle_update(update.to_dict())
            while not due.empty():
                service.handle_timer(due.get_nowait())
    except KeyboardInterrupt:
        return 0
    finally:
        timers.close()


if __name__ == "__main__":
    raise SystemExit(main())
