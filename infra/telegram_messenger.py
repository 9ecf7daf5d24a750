"""The Telegram adapter, in one module: the Messenger port (``infra.ports``) on the Bot API
client (``infra.bot_api``).

:class:`TelegramGateway` speaks in chat ids, HTML texts and rows of ``Button``
(``infra.telegram_markup``), and absorbs what the real Telegram does to a game bot: flood control
(``RetryAfter``: wait and retry, bounded), transient network trouble (retry a couple of times),
users who blocked the bot or never opened it (the chat is remembered in ``unreachable`` and
``send`` returns ``None``), edits that change nothing and callback queries that are too old to
answer. Its calls block (a function handles one update at a time, nothing else would run
meanwhile, and asyncio alone would cost a cold start ~30 ms of imports; the bot's global rate is
booked before, in ``infra.rate_limit``, and a chat's flood control is waited out here).

:class:`TelegramMessenger` sorts Telegram's answers for the outbox: flood control longer than the
invocation may wait is ``FloodWait`` (the entry stays for later), a refusal that no retry can
change (400 other than the ones the gateway absorbs, e.g. the bot muted in a group) is
``Sent(dropped=True)``, and anything else raised is transient (the entry stays and is retried a
bounded number of times).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from typing import TypeVar

from infra.bot_api import (
    BadRequest,
    BotApi,
    ChatMigrated,
    Forbidden,
    NetworkError,
    RetryAfter,
    TimedOut,
    Transport,
    bot_api,
)
from infra.ports import FloodWait, OutOfTime, Rows, Sent, time_left
from infra.telegram_markup import Button, CommandScope, buttons, command_scope, fit_alert, keyboard

T = TypeVar("T")
_LOG = logging.getLogger(__name__)
log = logging.getLogger("coachride")


_NO_PREVIEW = {"is_disabled": True}
_UNREACHABLE = ("chat not found", "user not found", "peer_id_invalid")
_GONE = ("message to edit not found", "message to delete not found", "message can't be")
_STALE_QUERY = ("query is too old", "query id is invalid")
_ADMINS = ("creator", "administrator")


def _mentions(error: Exception, fragments: Sequence[str]) -> bool:
    text = str(error).lower()
    return any(fragment in text for fragment in fragments)


def retry_seconds(error: RetryAfter) -> float:
    """``retry_after`` in seconds."""
    return float(error.retry_after)


class TelegramGateway:
    """What the service may ask of Telegram. Every method blocks until Telegram answers.

    ``sleep`` is injectable so tests need not wait; ``max_wait`` bounds a single flood-control
    wait (a longer one is raised to the caller rather than stalling a Lambda). Every wait also
    fits the invocation's remaining time (``infra.ports.time_left``) with ``request_reserve``
    seconds to spare for the request itself; what does not fit is raised, and no request starts
    with less than that left (``OutOfTime``).
    """

    def __init__(
        self,
        bot: BotApi,
        *,
        sleep: Callable[[float], None] | None = None,
        flood_attempts: int = 3,
        network_attempts: int = 3,
        network_backoff: float = 0.5,
        max_wait: float = 30.0,
        request_reserve: float = 6.0,
    ) -> None:
        self.bot = bot
        self.unreachable: set[int] = set()
        self.migrated: dict[int, int] = {}  # group id -> the supergroup it became
        self._sleep = sleep or time.sleep
        self._flood_attempts = flood_attempts
        self._network_attempts = network_attempts
        self._network_backoff = network_backoff
        self._max_wait = max_wait
        self._reserve = request_reserve

    def send(
        self,
        chat_id: int,
        text: str,
        buttons: Sequence[Sequence[Button]] | None = None,
        *,
        follow: bool = True,
        reply_to: int | None = None,
    ) -> int | None:
        """Send an HTML message; its id, or None when the chat cannot be reached.

        A group that became a supergroup is followed once (see ``migrated``), unless
        ``follow`` is False: then ``ChatMigrated`` reaches the caller, who moves what it keeps
        of the group (the game's outbox, ``handlers.chat_moves``). A timeout is
        *not* retried: Telegram has no idempotency key, and a request whose answer was lost may
        have been delivered. ``TimedOut`` reaches the caller, who decides (the outbox records
        the send as uncertain, ``handlers.pipeline``).
        """
        target = self.migrated.get(chat_id, chat_id) if follow else chat_id
        try:
            message = self._call(
                lambda: self.bot.call(
                    "sendMessage",
                    chat_id=target,
                    text=text,
                    parse_mode="HTML",
                    link_preview_options=_NO_PREVIEW,
                    reply_markup=keyboard(buttons),
                    reply_parameters=None if reply_to is None else {"message_id": reply_to},
                ),
                idempotent=False,
            )
        except ChatMigrated as moved:
            if chat_id in self.migrated or not follow:
                raise
            self.migrated[chat_id] = moved.new_chat_id
            return self.send(chat_id, text, buttons, reply_to=reply_to)
        except Forbidden as error:
            self._lost(chat_id, error)
            return None
        except BadRequest as error:
            if not _mentions(error, _UNREACHABLE):
                raise
            self._lost(chat_id, error)
            return None
        self.unreachable.discard(chat_id)
        return int(message["message_id"])

    def edit(
        self,
        chat_id: int,
        message_id: int,
        text: str,
        buttons: Sequence[Sequence[Button]] | None = None,
    ) -> bool:
        """Replace a message's text and keyboard (no buttons: the keyboard goes).

        True when the message now shows ``text`` (also when it already did); False when the
        message is gone or the chat unreachable.
        """
        try:
            self._call(
                lambda: self.bot.call(
                    "editMessageText",
                    text=text,
                    chat_id=chat_id,
                    message_id=message_id,
                    parse_mode="HTML",
                    link_preview_options=_NO_PREVIEW,
                    reply_markup=keyboard(buttons),
                )
            )
        except Forbidden as error:
            self._lost(chat_id, error)
            return False
        except BadRequest as error:
            if _mentions(error, ("message is not modified",)):
                return True
            if _mentions(error, _GONE):
                return False
            if _mentions(error, _UNREACHABLE):
                self._lost(chat_id, error)
                return False
            raise
        return True

    def answer(self, callback_query_id: str, text: str | None = None, alert: bool = False) -> bool:
        """Answer a button press (a toast, or an alert); False if the query is too old."""
        try:
            return bool(
                self._call(
                    lambda: self.bot.call(
                        "answerCallbackQuery",
                        callback_query_id=callback_query_id,
                        text=fit_alert(text),
                        show_alert=alert,
                    )
                )
            )
        except BadRequest as error:
            if _mentions(error, _STALE_QUERY):
                return False
            raise

    def delete(self, chat_id: int, message_id: int) -> bool:
        """Delete a message; False if it is already gone or may not be deleted."""
        try:
            return bool(
                self._call(
                    lambda: self.bot.call("deleteMessage", chat_id=chat_id, message_id=message_id)
                )
            )
        except Forbidden as error:
            self._lost(chat_id, error)
            return False
        except BadRequest as error:
            if _mentions(error, _GONE):
                return False
            raise

    def pin(self, chat_id: int, message_id: int, pinned: bool = True) -> bool:
        """Pin a message without a notification (or unpin it); False when Telegram refuses —
        the bot may lack the right to pin there, which is an answer, not an error."""
        try:
            if pinned:
                answer = self._call(
                    lambda: self.bot.call(
                        "pinChatMessage",
                        chat_id=chat_id,
                        message_id=message_id,
                        disable_notification=True,
                    )
                )
            else:
                answer = self._call(
                    lambda: self.bot.call(
                        "unpinChatMessage", chat_id=chat_id, message_id=message_id
                    )
                )
            return bool(answer)
        except (Forbidden, BadRequest) as error:
            _LOG.info("Telegram did not %spin: %s", "" if pinned else "un", error)
            return False

    def set_commands(
        self,
        commands: Sequence[tuple[str, str]],
        *,
        scope: CommandScope = "default",
        chat_id: int | None = None,
        language_code: str | None = None,
    ) -> None:
        """Set the command menu: (command, description) pairs for a scope and language.

        ``chat_id`` narrows the scope to one chat (a group with its own language).
        """
        menu = [{"command": c, "description": d} for c, d in commands]
        target = command_scope(scope, chat_id)
        self._call(
            lambda: self.bot.call(
                "setMyCommands", commands=menu, scope=target, language_code=language_code
            )
        )

    def is_admin(self, chat_id: int, user_id: int) -> bool:
        """Whether the user is the group's creator or one of its administrators."""
        member = self._call(
            lambda: self.bot.call("getChatMember", chat_id=chat_id, user_id=user_id)
        )
        return member.get("status") in _ADMINS

    def is_member(self, chat_id: int, user_id: int) -> bool:
        """Whether the user is in the group (an admin, a member, or restricted but a member)."""
        member = self._call(
            lambda: self.bot.call("getChatMember", chat_id=chat_id, user_id=user_id)
        )
        status = member.get("status")
        return status in (*_ADMINS, "member") or (
            status == "restricted" and bool(member.get("is_member"))
        )

    def _call(self, request: Callable[[], T], idempotent: bool = True) -> T:
        """Run ``request``, waiting out flood control and retrying transient network errors;
        a timeout (the request may have been carried out) only when ``idempotent``."""
        floods = failures = 0
        while True:
            if time_left() < self._reserve:
                raise OutOfTime()
            try:
                return request()
            except RetryAfter as error:
                floods += 1
                wait = retry_seconds(error)
                if (
                    floods >= self._flood_attempts
                    or wait > self._max_wait
                    or wait + self._reserve > time_left()
                ):
                    raise
                _LOG.warning("flood control: waiting %.1f s", wait)
                self._sleep(wait)
            except (TimedOut, NetworkError) as error:
                if isinstance(error, TimedOut) and not idempotent:
                    raise
                failures += 1
                backoff = self._network_backoff * failures
                if failures >= self._network_attempts or backoff + self._reserve > time_left():
                    raise
                _LOG.warning("transient Telegram error, retrying: %s", error)
                self._sleep(backoff)

    def _lost(self, chat_id: int, error: Exception) -> None:
        _LOG.info("chat %s unreachable: %s", chat_id, error)
        self.unreachable.add(chat_id)


class TelegramMessenger:
    def __init__(self, gateway: TelegramGateway) -> None:
        self.gateway = gateway

    def send(
        self, chat_id: int, text: str, rows: Rows | None = None, reply_to: int | None = None
    ) -> Sent:
        try:
            message_id = self._sorted(
                lambda: self.gateway.send(
                    chat_id, text, buttons(rows), follow=False, reply_to=reply_to
                )
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
        return Sent(ok, message_id if ok else None, unreachable=removed, muted=removed)

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
            if _mentions(error, ("message to be replied not found",)):
                return Sent(False, None, reply_gone=True)  # the sender sends it anew
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

    def is_member(self, chat_id: int, user_id: int) -> bool:
        """Whether the user is in the group; when Telegram cannot tell (a bot that is no admin
        of a large group may not see every member, an error, no time left), yes: a player is
        never kept out by the bot's own blindness, only a stranger Telegram names as one."""
        try:
            return self.gateway.is_member(chat_id, user_id)
        except Exception as error:
            log.warning(
                "the membership check failed (%s: %s); taken as a member",
                type(error).__name__,
                error,
            )
            return True


def make_bot(token: str, base_url: str, transport: Transport | None = None) -> BotApi:
    """``base_url`` is the Bot API root plus ``/bot``; the token follows. ``transport``: how
    requests travel (infra.http_pool unless given, e.g. the fake Bot API's)."""
    return bot_api(token, base_url, transport)
