"""Long polling on python-telegram-bot (the stack's choice for it): ``getUpdates`` and
``deleteWebhook`` through a ``telegram.Bot``, its coroutines run on the process's event loop
(``infra.event_loop``), its refusals raised as the Bot API client's (``infra.bot_api``), so the
long-polling runner (``handlers.polling``) sorts them as the gateway's, with no
python-telegram-bot type of its own."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import Any

from telegram import Bot
from telegram import error as ptb
from telegram.warnings import PTBDeprecationWarning

from infra import bot_api
from infra.event_loop import LoopRunner

# What the bot asks Telegram for: messages, button presses, and who joins or leaves its chats.
ALLOWED_UPDATES = ["message", "callback_query", "chat_member", "my_chat_member"]
FLOOD_FALLBACK_SECONDS = 30.0  # a flood control whose wait python-telegram-bot does not give


class PollingConflict(bot_api.TelegramError):
    """409 Conflict to ``getUpdates``: another process polls with the token (its newer request
    terminated ours), or a webhook is set (``webhook``) and takes the updates."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.webhook = "webhook" in message.lower()


class TelegramPoller:
    """The updates of the bot at ``bot``'s base URL, asked for by long polling."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.loop = LoopRunner()

    @property
    def token(self) -> str:
        return str(self.bot.token)

    @property
    def base_url(self) -> str:
        """The Bot API's URL for this bot (``…/bot<TOKEN>``), where the gateway sends."""
        return str(self.bot.base_url)

    def delete_webhook(self) -> None:
        """Updates come by polling: a webhook set earlier would take them."""
        with _as_bot_api_errors():
            self.loop.run(self.bot.delete_webhook())

    def get_updates(self, offset: int, timeout: int) -> list[dict[str, Any]]:
        """The updates from ``offset`` on, waiting up to ``timeout`` seconds for one; each as
        Telegram's JSON object."""
        with _as_bot_api_errors():
            updates = self.loop.run(
                self.bot.get_updates(
                    offset=offset, timeout=timeout, allowed_updates=ALLOWED_UPDATES
                )
            )
        return [update.to_dict() for update in updates]


@contextmanager
def _as_bot_api_errors() -> Iterator[None]:
    """python-telegram-bot's exceptions as ``infra.bot_api``'s (their text kept)."""
    try:
        yield
    except ptb.InvalidToken as error:
        raise bot_api.InvalidToken(error.message) from None
    except ptb.Conflict as error:
        raise PollingConflict(error.message) from None
    except ptb.RetryAfter as error:
        raise bot_api.RetryAfter(error.message, retry_seconds(error)) from None
    except ptb.TimedOut as error:
        raise bot_api.TimedOut(error.message) from None
    except (
        ptb.BadRequest
    ) as error:  # python-telegram-bot's is a NetworkError; Telegram's 400 is not
        raise bot_api.BadRequest(error.message) from None
    except ptb.NetworkError as error:
        raise bot_api.NetworkError(error.message) from None
    except ptb.TelegramError as error:
        raise bot_api.TelegramError(error.message) from None


def retry_seconds(flood: ptb.RetryAfter) -> float:
    """``retry_after`` in seconds, whether python-telegram-bot gives a number or (as it will) a
    ``timedelta``; its deprecation notice about the change is no news here."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PTBDeprecationWarning)
        value: object = flood.retry_after
    if isinstance(value, timedelta):
        return value.total_seconds()
    return float(value) if isinstance(value, int | float) else FLOOD_FALLBACK_SECONDS
