"""The Messenger port on top of the Telegram gateway.

Telegram's answers are sorted here for the outbox: flood control longer than the invocation may
wait is ``FloodWait`` (the entry stays for later), a refusal that no retry can change (400 other
than the ones the gateway absorbs, e.g. the bot muted in a group) is ``Sent(dropped=True)``, and
anything else raised is transient (the entry stays and is retried a bounded number of times).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TypeVar

from infra.bot_api import (
    BadRequest,
    BotApi,
    ChatMigrated,
    RetryAfter,
    TimedOut,
    Transport,
    bot_api,
)
from infra.ports import FloodWait, Rows, Sent
from infra.telegram_gateway import Button, TelegramGateway, retry_seconds

T = TypeVar("T")
log = logging.getLogger("coachride")


def buttons(rows: Rows | None) -> list[list[Button]] | None:
    if not rows:
        return None
    return [
        [
            Button(label, data=value) if kind == "d" else Button(label, url=value)
            for label, kind, value in row
        ]
        for row in rows
    ]


class TelegramMessenger:
    def __init__(self, gateway: TelegramGateway) -> None:
        self.gateway = gateway

    def send(self, chat_id: int, text: str, rows: Rows | None = None) -> Sent:
        try:
            message_id = self._sorted(
                lambda: self.gateway.send(chat_id, text, buttons(rows), follow=False)
            )
        except TimedOut:  # the answer is lost; the message may have been shown
            log.warning("a send's answer was lost: outcome unknown")
            return Sent(False, None, uncertain=True)
        if isinstance(message_id, Sent):
            return message_id
        if message_id is None:
            # a group (negative id) that cannot be reached removed the bot: the bot may not
            # write there, as when its right to write was taken away
            return Sent(False, None, unreachable=True, muted=chat_id < 0)
        return Sent(True, message_id)

    def edit(self, chat_id: int, message_id: int, text: str, rows: Rows | None = None) -> Sent:
        ok = self._sorted(lambda: self.gateway.edit(chat_id, message_id, text, buttons(rows)))
        if isinstance(ok, Sent):
            return ok
        removed = not ok and chat_id < 0 and chat_id in self.gateway.unreachable
        return Sent(ok, message_id if ok else None, muted=removed)

    def pin(self, chat_id: int, message_id: int, pinned: bool = True) -> Sent:
        ok = self._sorted(lambda: self.gateway.pin(chat_id, message_id, pinned))
        if isinstance(ok, Sent):
            return ok
        return Sent(ok, message_id if ok else None)

    def _sorted(self, call: Callable[[], T]) -> T | Sent:
        try:
            return call()
        except RetryAfter as error:
            raise FloodWait(retry_seconds(error)) from error
        except ChatMigrated as moved:  # the game follows its group (``handlers.chat_moves``)
            log.warning("the group became the supergroup %s", moved.new_chat_id)
            return Sent(False, None, dropped=True, moved_to=moved.new_chat_id)
        except BadRequest as error:
            log.warning("Telegram refused a message for good: %s", error)
            muted = "not enough rights" in str(error).lower()
            return Sent(False, None, dropped=True, muted=muted)

    def answer(self, query_id: str, text: str | None = None, alert: bool = False) -> None:
        self.gateway.answer(query_id, text, alert)

    def is_admin(self, chat_id: int, user_id: int) -> bool:
        """Whether the user administers the group; when Telegram cannot tell (an error, no
        time left), not: an admin's command is refused, and the log says why."""
        try:
            return self.gateway.is_admin(chat_id, user_id)
        except Exception as error:
            log.warning(
                "the admin check failed (%s: %s); taken as not an admin",
                type(error).__name__,
                error,
            )
            return False


def make_bot(token: str, base_url: str, transport: Transport | None = None) -> BotApi:
    """``base_url`` is the Bot API root plus ``/bot``; the token follows. ``transport``: how
    requests travel (infra.http_pool unless given, e.g. the fake Bot API's)."""
    return bot_api(token, base_url, transport)
