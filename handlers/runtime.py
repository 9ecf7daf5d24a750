"""Wiring: the same Service over AWS adapters (Lambda) or local ones (one process)."""

from __future__ import annotations

import logging
from functools import cache

from handlers.app import Service
from handlers.telegram_messenger import TelegramMessenger, make_bot
from infra.settings import Settings
from infra.telegram_gateway import TelegramGateway
from infra.timers import SystemClock


def configure_logging() -> None:
    logging.basicConfig(level=logging.INFO, format="%(message)s")


def bot_username(messenger: TelegramMessenger) -> str:
    me = messenger.runner.run(messenger.gateway.bot.get_me())
    return str(me.username)


@cache
def lambda_service() -> Service:
    """One per warm container: the bot, its connection pool and the event loop are reused."""
    from infra.dynamo_store import DynamoStore
    from infra.rate_limit import SharedRateLimiter
    from infra.timers import SqsTimers

    settings = Settings()
    if not settings.telegram_bot_token or not settings.table_name or not settings.timer_queue_url:
        raise RuntimeError("TELEGRAM_BOT_TOKEN, GAME_TABLE_NAME and TIMER_QUEUE_URL must be set")
    configure_logging()
    clock = SystemClock()
    bot = make_bot(settings.telegram_bot_token, settings.bot_api_base_url())
    messenger = TelegramMessenger(TelegramGateway(bot))
    store = DynamoStore(settings.table_name, clock=clock)
    return Service(
        store,
        messenger,
        SqsTimers(settings.timer_queue_url, clock=clock),
        clock,
        bot_username=bot_username(messenger),
        time_scale=settings.game_time_scale,
        is_admin=messenger.is_admin,
        limiter=SharedRateLimiter(store),  # the bot's ~30 messages a second, across functions
    )
