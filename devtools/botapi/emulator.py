"""One model of Telegram's Bot API, for the tests, the pace and load commands and the local table.

:class:`BotApiEmulator` answers a call the way Telegram does: it checks it against the spec
(``devtools.botapi.spec``) and the limits Telegram states in prose (``limits``), reads
``parse_mode=HTML`` with Telegram's parser (``html``), applies Telegram's rate limits on its clock
(``faults.RateLimits``) and keeps what each chat shows (``chats``: in memory, or in SQLite for
the local table). It refuses where Telegram refuses, in Telegram's words: ``Bad Request: can't
parse entities: …``, ``message is not modified``, ``message to edit not found``, ``message can't
be edited``, ``query is too old and response timeout expired or query ID is invalid`` for a
callback query answered twice or too late, ``429 Too Many Requests: retry after N``.

*Strict* (the default, for tests and commands) it also raises :class:`ApiViolation` for every
call Telegram would refuse or not show as written — a bug of the bot, not a bad day of
Telegram's — after recording it in ``violations``. The local table runs it lenient: it answers
as Telegram would and logs the refusal.

The module checks and records a call (spec, limits, faults, injected errors, rate limits); the
methods it answers, on the chats, are ``methods.BotApiMethods``; who the chats are,
``directory``. ``getUpdates`` answers ``409 Conflict`` as Telegram does when a newer
``getUpdates`` takes over (two processes polling with one token) or a webhook is set.
``recording.RecordingRequest`` is the emulator as python-telegram-bot's
``BaseRequest`` and ``infra.bot_api``'s transport.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

from telegram.error import TimedOut

from devtools.botapi.chats import BOT_USER, ChatStore, MemoryChats, Message
from devtools.botapi.directory import Directory, OpenWorld
from devtools.botapi.faults import Chaos, RateLimits, Reply
from devtools.botapi.html import Parsed
from devtools.botapi.limits import (
    Refusal,
    answer_refusals,
    commands_refusals,
    keyboard_refusals,
    read_text,
    webhook_refusals,
)
from devtools.botapi.methods import ApiViolation, BotApiMethods, Listener, Query
from devtools.botapi.spec import BotApiSpec

log = logging.getLogger(__name__)


class Call(NamedTuple):
    method: str
    params: dict[str, Any]


@dataclass
class _Injected:
    method: str | None  # None: any method
    times: int
    make: Callable[[], Exception]


class BotApiEmulator(BotApiMethods):
    """A Bot API that validates, records and answers every call (see the module's docstring).

    ``blocked_chats``: calls to them answer 403 "bot was blocked by the user" (a group: "bot
    was kicked from the supergroup chat");
    ``missing_chats``: 400 "chat not found"; ``migrated_chats`` (group id -> supergroup id):
    400 with ``migrate_to_chat_id``. ``clock`` gives the message dates and drives the rate
    limits (``limits``; None: none) and callback query deadlines.
    """

    def __init__(
        self,
        *,
        spec: BotApiSpec | None = None,
        chats: ChatStore | None = None,
        directory: Directory | None = None,
        blocked_chats: Iterable[int] = (),
        missing_chats: Iterable[int] = (),
        clock: Callable[[], float] = time.time,
        limits: RateLimits | bool | None = True,
        strict: bool = True,
        bot: Mapping[str, Any] = BOT_USER,
        lock: threading.Condition | None = None,
    ) -> None:
        self.spec = spec or BotApiSpec.load()
        self.chats: ChatStore = chats if chats is not None else MemoryChats()
        self.directory: Directory = directory or OpenWorld()
        self.blocked_chats: set[int] = set(blocked_chats)
        self.missing_chats: set[int] = set(missing_chats)
        self.migrated_chats: dict[int, int] = {}
        self.clock = clock
        self.strict = strict
        self.bot: dict[str, Any] = dict(bot)
        self.calls: list[Call] = []
        self.violations: list[str] = []
        self.errors: list[tuple[str, int, str]] = []  # (method, HTTP code, description) answered
        self.updates: list[dict[str, Any]] = []  # waiting for getUpdates
        self.sent: list[tuple[int, str]] = []  # (chat, text as sent) of every message delivered
        self.member_status: dict[tuple[int, int], str] = {}  # (chat, user) -> status
        self.restricted_members: set[tuple[int, int]] = set()
        self.commands: dict[tuple[str, str | None], list[dict[str, str]]] = {}
        self.queries: dict[str, Query] = {}
        self.listeners: list[Listener] = []
        self.chaos: Chaos | None = None
        self.limits: RateLimits | None = (
            RateLimits(clock=clock) if limits is True else (limits or None)
        )
        self._injected: list[_Injected] = []
        self.outage: tuple[float, int, str] | None = None  # until, code, description
        self._last_update_id = 0
        self._woken = False
        self._polls = 0
        self.webhook_url = ""  # set by setWebhook: getUpdates then answers 409
        # Several functions may call at once (the load command, the table's threads).
        self.lock = lock or threading.Condition(threading.RLock())

    # -- answering -----------------------------------------------------------------------------

    def handle(self, method: str, params: dict[str, Any]) -> tuple[int, bytes]:
        """Validate, record and answer one call; returns (HTTP status, JSON body)."""
        status, body = self.call(method, params)
        return status, json.dumps(body).encode()

    def call(self, method: str, params: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        """Validate, record and answer one call; returns (HTTP status, Telegram's answer)."""
        if method == "getUpdates":  # may wait, so it is answered outside the lock
            with self.lock:
                self.calls.append(Call(method, params))
                try:
                    self._validate(method, params)
                except Reply as reply:
                    return reply.code, reply.answer()
            return self._poll(params)
        with self.lock:
            return self._call(method, params)

    def _call(self, method: str, params: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        self.calls.append(Call(method, params))
        try:
            parsed = self._validate(method, params)
            if self.chaos is not None:
                self.chaos.strike(method, params, self.clock())
            self._raise_injected(method)
            self._raise_outage(method)
            self._check_chat(params.get("chat_id"), method)
            if self.limits is not None:
                self.limits.admit(method, params, self.clock())
            result = self._answer(method, params, parsed)
        except Reply as reply:
            self.errors.append((method, reply.code, reply.description))
            return reply.code, reply.answer()
        return 200, {"ok": True, "result": result}

    def _validate(self, method: str, params: Mapping[str, Any]) -> Parsed | None:
        """The message text as Telegram reads it; raises Telegram's refusal (strict: an
        :class:`ApiViolation`) for a call Telegram would refuse."""
        if method not in self.spec.methods:
            self._refuse(f"unknown method {method!r}", Refusal("Not Found", "", 404))
        problems = self.spec.check_call(method, params)
        refusals = [Refusal(f"Bad Request: {p}", p) for p in problems if "unknown param" not in p]
        if "reply_markup" in params and not problems:
            refusals += keyboard_refusals(params["reply_markup"])
        parsed = None
        if method in ("sendMessage", "editMessageText"):
            if "text" not in params:
                detail = "text is required (the emulator does not support rich_message)"
                refusals.append(Refusal("Bad Request: message text is empty", detail))
            else:
                parsed, text_refusals = read_text(params["text"], params.get("parse_mode"))
                refusals += text_refusals
                if parsed is not None and parsed.lints:
                    problems += [f"text shows other than written: {'; '.join(parsed.lints)}"]
        if method == "answerCallbackQuery":
            refusals += answer_refusals(params)
        if method == "setMyCommands" and not problems:
            refusals += commands_refusals(params)
        if method == "setWebhook" and not problems:
            refusals += webhook_refusals(params)
        details = problems + [r.detail for r in refusals if r.detail not in problems]
        if details:
            first = refusals[0] if refusals else None
            self._refuse("; ".join(details), first)
        return parsed

    def _refuse(self, detail: str, refusal: Refusal | None) -> None:
        """Strict: every problem is a violation. Lenient: Telegram's answer, if it refuses."""
        message = f"{self.calls[-1].method}({_short(self.calls[-1].params)}): {detail}"
        if refusal is not None and refusal.description:
            message += f" [Telegram: {refusal.description}]"
        self.violations.append(message)
        if self.strict:
            raise ApiViolation(message)
        log.warning("Telegram would refuse or alter %s", message)
        if refusal is not None:
            raise Reply(refusal.code, refusal.description)

    def _answer(self, method: str, params: dict[str, Any], parsed: Parsed | None) -> Any:
        handler = getattr(self, f"_api_{method}", None)
        if handler is not None:
            return handler(params, parsed) if parsed is not None else handler(params)
        if self.spec.returns.get(method) == ("Boolean",):
            return True  # setWebhook, deleteWebhook, sendChatAction, …
        self._violate(f"the emulator does not implement {method}")

    # -- configuration -------------------------------------------------------------------------

    def inject_retry_after(self, method: str | None, retry_after: int, times: int = 1) -> None:
        """The next ``times`` calls of ``method`` (None: of any method) answer 429."""
        description = f"Too Many Requests: retry after {retry_after}"

        def make() -> Exception:
            return Reply(429, description, {"retry_after": retry_after})

        self._injected.append(_Injected(method, times, make))

    def inject_error(self, method: str | None, code: int, description: str, times: int = 1) -> None:
        self._injected.append(_Injected(method, times, lambda: Reply(code, description)))

    def inject_timeout(self, method: str | None, times: int = 1) -> None:
        self._injected.append(_Injected(method, times, lambda: TimedOut()))

    def migrate_group(self, group_id: int, by_user: int, title: str | None = None) -> int:
        """Someone upgrades the group to a supergroup, as on Telegram: the supergroup has a new
        id (``-100…``) and none of the group's message ids; its members keep their status; every
        later call to the group answers 400 "group chat was upgraded to a supergroup chat" with
        ``migrate_to_chat_id``; and the bot gets the two service messages
        (``updates.migration_updates``), queued for ``getUpdates`` and returned."""
        from devtools.botapi.updates import migration_updates

        with self.lock:
            if group_id in self.migrated_chats:
                raise ValueError(f"group {group_id} was upgraded already")
            supergroup = -1_000_000_000_000 - abs(group_id)
            self.migrated_chats[group_id] = supergroup
            for (chat, user), status in list(self.member_status.items()):
                if chat == group_id:
                    self.member_status[(supergroup, user)] = status
            who = self.directory.user_json(by_user)
            first = self._last_update_id + 1
            moved = migration_updates(
                first,
                group_id,
                supergroup,
                by_user,
                who["first_name"],
                title=title,
                date=int(self.clock()),
            )
            for update in moved:
                self.queue_update(update, update["update_id"])
            return supergroup

    def inject_outage(
        self, seconds: float, code: int = 500, description: str = "Internal Server Error"
    ) -> None:
        """For ``seconds`` on the emulator's clock every call but ``getUpdates`` answers a
        server error, as on Telegram's bad days (its 5xx carry no ``retry_after``)."""
        with self.lock:
            self.outage = (self.clock() + seconds, code, description)

    def set_member_status(
        self, chat_id: int, user_id: int, status: str, is_member: bool = False
    ) -> None:
        """One of creator, administrator, member, restricted, left, kicked; a restricted
        user is in the group only with ``is_member`` (ChatMemberRestricted.is_member)."""
        self.member_status[(chat_id, user_id)] = status
        if is_member:
            self.restricted_members.add((chat_id, user_id))
        else:
            self.restricted_members.discard((chat_id, user_id))

    # -- the users' side -----------------------------------------------------------------------

    def open_query(self, query_id: str, user_id: int = 0) -> None:
        """A user pressed a callback button: the bot may answer ``query_id`` once, soon."""
        with self.lock:
            self.queries[query_id] = Query(user_id, self.clock())

    def pressed(self, update: dict[str, Any]) -> dict[str, Any]:
        """``update`` (built by a test) carries a press: open its callback query."""
        query = update.get("callback_query")
        if query is not None:
            self.open_query(str(query["id"]), int(query["from"]["id"]))
        return update

    def add_message(
        self, chat_id: int, sender: int, shown: Parsed, markup: Any = None, text: str | None = None
    ) -> Message:
        """A new message in the chat (the bot's, or one a user typed): ``shown`` is what the
        chat shows, ``text`` what the message's text is when it differs (a deep link's
        ``/start payload`` shows as ``/start``)."""
        with self.lock:
            message = Message(
                chat_id=chat_id,
                message_id=self.chats.new_id(chat_id),
                text=shown.text if text is None else text,
                raw_text=shown.text if text is None else text,
                parse_mode=None,
                reply_markup=markup or None,
                date=int(self.clock()),
                sender=sender,
                html=shown.html,
                entities=[e.json() for e in shown.entities],
            )
            self.chats.put(message)
            self._changed("message", message)
            return message

    def save(self, message: Message) -> None:
        """Keep a changed message (and tell the listeners)."""
        with self.lock:
            self.chats.put(message)
            self._changed("message", message)

    def queue_update(self, update: dict[str, Any], update_id: int | None = None) -> int:
        """An update for the bot's ``getUpdates``; its id."""
        with self.lock:
            self._last_update_id = update_id or self._last_update_id + 1
            update["update_id"] = self._last_update_id
            self.updates.append(update)
            self.lock.notify_all()
            return self._last_update_id

    def wake(self) -> None:
        """Let a waiting ``getUpdates`` return now (a timer is due)."""
        with self.lock:
            self._woken = True
            self.lock.notify_all()

    # -- what tests read -----------------------------------------------------------------------

    def last_message(self, chat_id: int) -> Message:
        messages = self.messages_in(chat_id)
        assert messages, f"no message in chat {chat_id}"
        return messages[-1]

    def message(self, chat_id: int, message_id: int) -> Message:
        found = self.chats.get(chat_id, int(message_id))
        assert found is not None, f"no message {message_id} in chat {chat_id}"
        return found

    def buttons(self, chat_id: int, message_id: int) -> list[tuple[str, str | None]]:
        """The message's current buttons as (text, callback_data or url), row by row."""
        return self.message(chat_id, message_id).buttons()

    def count_by_method(self) -> dict[str, int]:
        return dict(Counter(call.method for call in self.calls))

    def calls_to(self, method: str) -> list[dict[str, Any]]:
        return [call.params for call in self.calls if call.method == method]

    # -- internals -----------------------------------------------------------------------------

    def _raise_injected(self, method: str) -> None:
        for injected in self._injected:
            if injected.times > 0 and injected.method in (None, method):
                injected.times -= 1
                raise injected.make()

    def _raise_outage(self, method: str) -> None:
        if self.outage is None:
            return
        until, code, description = self.outage
        if self.clock() >= until:
            self.outage = None
            return
        raise Reply(code, description)

    def _check_chat(self, chat_id: Any, method: str) -> None:
        if chat_id is None:
            return
        if chat_id in self.blocked_chats:
            if isinstance(chat_id, int) and chat_id < 0:  # a group that removed the bot
                raise Reply(403, "Forbidden: bot was kicked from the supergroup chat")
            raise Reply(403, "Forbidden: bot was blocked by the user")
        if chat_id in self.missing_chats or chat_id in (0, "0"):  # no chat has the id 0
            raise Reply(400, "Bad Request: chat not found")
        if chat_id in self.migrated_chats:
            description = "Bad Request: group chat was upgraded to a supergroup chat"
            raise Reply(400, description, {"migrate_to_chat_id": self.migrated_chats[chat_id]})
        if method == "sendMessage":
            self.directory.may_write(self._chat(chat_id))


def _short(params: Mapping[str, Any]) -> str:
    return ", ".join(f"{k}={v!r:.40}" for k, v in params.items())
