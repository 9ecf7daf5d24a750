"""Wiring: the same CoachRideBot over AWS adapters (Lambda) or local ones (one process).

This module stays cheap to import: the service and the AWS client are imported when the first
update that needs them arrives (python-telegram-bot never is: Lambda talks to the Bot API through
``infra.bot_api``), so a request without the secret header costs
nothing and the logging is in place before anything can log a secret.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING

from infra import logs, metrics
from infra.bot_secrets import BotSecrets, SecretSource
from infra.settings import Settings

if TYPE_CHECKING:
    from handlers.app import CoachRideBot
    from infra.bot_api import BotApi
    from infra.telegram_messenger import TelegramMessenger


def configure_logging() -> None:
    """JSON lines in Lambda, plain lines locally; the configured token and secret redacted."""
    logs.configure_logging()
    settings = Settings()
    logs.protect(settings.telegram_bot_token, settings.telegram_webhook_secret)


def bot_username(messenger: TelegramMessenger) -> str:
    me = messenger.gateway.bot.get_me()
    return str(me["username"])


# What a cold container imports before it answers its first update (devtools.bench measures
# it, with the AWS clients' creation): the webhook module, then what _build and the AWS calls
# need (botocore's clients: infra.aws).
FIRST_UPDATE_IMPORTS = (
    "handlers.webhook",
    "handlers.runtime",
    "handlers.app",
    "infra.telegram_messenger",
    "infra.dynamo_store",
    "infra.timers",
    "infra.timed",
    "infra.rate_limit",
    "infra.aws",
    "infra.http_pool",
)


@dataclass(frozen=True)
class _Built:
    """The warm container's service, the token it was built with and its Bot API client."""

    token: str
    service: CoachRideBot
    bot: BotApi


_lock = threading.Lock()
_source: SecretSource | None = None
_built: _Built | None = None


def secret_source() -> SecretSource:
    global _source
    with _lock:
        if _source is None:
            configure_logging()
            _source = SecretSource(Settings())
        return _source


def bot_secrets(refresh: bool = False) -> BotSecrets:
    source = secret_source()
    return source.refresh() if refresh else source.get()


def lambda_service() -> CoachRideBot:
    """One per warm container: the Bot API client and its connection pool are reused.
    Built again only when the token in Secrets Manager changed (a rotation). A token Telegram
    refuses (read between a /revoke and the new secret) makes it read the secret again, at
    most once a minute, rather than keep the refused one for the secret's whole age; so does
    a token refused to a warm container's send (a /revoke: the new token is taken within a
    minute of its put-secret-value, not 15)."""
    from infra.bot_api import InvalidToken

    token = bot_secrets().token
    built = _built
    if built is not None and built.token == (token or "") and built.bot.refused:
        token = bot_secrets(refresh=True).token
    try:
        return _service(token)
    except InvalidToken:
        fresh = bot_secrets(refresh=True).token
        if fresh == token:
            raise
        return _service(fresh)


def _service(token: str | None) -> CoachRideBot:
    global _built
    with _lock:
        if _built is not None and _built.token == token:
            return _built.service
        with metrics.timing("setup"):  # a cold start's (or a rotation's) share of this update
            _built = _Built(token or "", *_build(token))
        return _built.service


def _build(token: str | None) -> tuple[CoachRideBot, BotApi]:
    from handlers.app import CoachRideBot
    from infra import timed
    from infra.dynamo_store import DynamoStore
    from infra.rate_limit import SharedRateLimiter
    from infra.telegram_messenger import TelegramGateway, TelegramMessenger, make_bot
    from infra.timers import SqsTimers, SystemClock

    settings = Settings()
    if not token or not settings.table_name or not settings.timer_queue_url:
        raise RuntimeError("the bot token, GAME_TABLE_NAME and TIMER_QUEUE_URL must be set")
    clock = SystemClock()
    bot = make_bot(token, settings.bot_api_base_url())
    messenger = TelegramMessenger(TelegramGateway(bot))
    store = DynamoStore(settings.table_name, clock=clock)
    service = CoachRideBot(
        timed.TimedStore(store),
        timed.TimedMessenger(messenger),
        SqsTimers(settings.timer_queue_url, clock=clock),
        clock,
        bot_username=bot_username(messenger),
        time_scale=settings.game_time_scale,
        is_admin=messenger.is_admin,
        is_member=messenger.is_member,
        limiter=SharedRateLimiter(store),  # the bot's ~30 messages a second, across functions
    )
    return service, bot
