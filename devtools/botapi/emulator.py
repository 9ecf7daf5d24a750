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

:class:`RecordingRequest` is the emulator as python-telegram-bot's ``BaseRequest``: hand it to a
real ``telegram.Bot(token, request=..., get_updates_request=...)`` and nothing touches the
network; ``transport`` serves ``infra.bot_api``'s HTTP client the same way.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple, NoReturn, Protocol

from telegram.error import TelegramError, TimedOut
from telegram.request import BaseRequest, RequestData

from devtools.botapi.chats import BOT_USER, ChatStore, MemoryChats, Message
from devtools.botapi.faults import Chaos, RateLimits, Reply
from devtools.botapi.html import Parsed
from devtools.botapi.limits import (
    Refusal,
    answer_refusals,
    commands_refusals,
    keyboard_refusals,
    read_text,
)
from devtools.botapi.spec import BotApiSpec, is_int

log = logging.getLogger(__name__)

NOT_MODIFIED = (
    "Bad Request: message is not modified: specified new message content and reply markup are "
    "exactly the same as a current content and reply markup of the message"
)
QUERY_INVALID = "Bad Request: query is too old and response timeout expired or query ID is invalid"
NO_PIN_RIGHTS = "Bad Request: not enough rights to manage pinned messages in the chat"
# A callback query must be answered soon after the press; later Telegram refuses the answer.
CALLBACK_ANSWER_SECONDS = 15.0
# A bot may delete a message for everyone only within 48 hours of sending.
DELETE_SECONDS = 48 * 3600
MAX_POLL_SECONDS = 50.0
_ADMINS = ("creator", "administrator")


class ApiViolation(TelegramError, AssertionError):
    """A call that the real Bot API would refuse (or not show as written), or that the emulator
    cannot answer: a bug of the bot. Also a ``TelegramError``, so python-telegram-bot passes it
    through unwrapped."""


class Call(NamedTuple):
    method: str
    params: dict[str, Any]


class Directory(Protocol):
    """Who and what the chats are: the tests' open world, or the local table's seats."""

    def chat_json(self, chat_id: int) -> dict[str, Any]:
        """The chat, or ``Reply(400, "Bad Request: chat not found")``."""
        ...

    def user_json(self, user_id: int) -> dict[str, Any]: ...

    def may_write(self, chat_id: int) -> None:
        """Raise Telegram's refusal when the bot may not write in the chat."""
        ...

    def member_status(self, chat_id: int, user_id: int) -> str: ...


class OpenWorld:
    """Every chat exists: positive ids are private chats, negative ones groups; everyone is a
    member of every chat."""

    def chat_json(self, chat_id: int) -> dict[str, Any]:
        return chat_json(chat_id)

    def user_json(self, user_id: int) -> dict[str, Any]:
        return {"id": user_id, "is_bot": False, "first_name": f"User {user_id}"}

    def may_write(self, chat_id: int) -> None:
        return None

    def member_status(self, chat_id: int, user_id: int) -> str:
        return "member"


def chat_json(chat_id: int) -> dict[str, Any]:
    """A plausible Chat: positive ids are private chats, negative ones groups."""
    if chat_id > 0:
        return {"id": chat_id, "type": "private", "first_name": f"User {chat_id}"}
    kind = "supergroup" if chat_id <= -1_000_000_000_000 else "group"
    return {"id": chat_id, "type": kind, "title": f"Group {chat_id}"}


@dataclass
class Query:
    """An open callback query: who pressed, when, whether the bot answered."""

    user_id: int
    at: float
    answered: bool = False


@dataclass
class _Injected:
    method: str | None  # None: any method
    times: int
    make: Callable[[], Exception]


# ("message" | "delete", the message) or ("answer", (query id, Query, the call's parameters))
Listener = Callable[[str, Any], None]


class BotApiEmulator:
    """A Bot API that validates, records and answers every call (see the module's docstring).

    ``blocked_chats``: calls to them answer 403 "bot was blocked by the user";
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
        self.commands: dict[tuple[str, str | None], list[dict[str, str]]] = {}
        self.queries: dict[str, Query] = {}
        self.listeners: list[Listener] = []
        self.chaos: Chaos | None = None
        self.limits: RateLimits | None = (
            RateLimits(clock=clock) if limits is True else (limits or None)
        )
        self._injected: list[_Injected] = []
        self._last_update_id = 0
        self._woken = False
        # Several functions may call at once (the load command, the table's threads).
        self.lock = lock or threading.Condition(threading.RLock())

    @property
    def bot_id(self) -> int:
        return int(self.bot["id"])

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
            return 200, {"ok": True, "result": self._get_updates(params)}
        with self.lock:
            return self._call(method, params)

    def _call(self, method: str, params: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        self.calls.append(Call(method, params))
        try:
            parsed = self._validate(method, params)
            if self.chaos is not None:
                self.chaos.strike(method, params, self.clock())
            self._raise_injected(method)
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

    def _violate(self, message: str) -> NoReturn:
        self.violations.append(message)
        raise ApiViolation(message)

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

    def set_member_status(self, chat_id: int, user_id: int, status: str) -> None:
        """One of creator, administrator, member, restricted, left, kicked."""
        self.member_status[(chat_id, user_id)] = status

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

    def messages_in(self, chat_id: int) -> list[Message]:
        """The chat's messages that still exist, oldest first."""
        return self.chats.messages(chat_id)

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

    def _changed(self, kind: str, what: Any) -> None:
        for listener in self.listeners:
            listener(kind, what)

    def _raise_injected(self, method: str) -> None:
        for injected in self._injected:
            if injected.times > 0 and injected.method in (None, method):
                injected.times -= 1
                raise injected.make()

    def _check_chat(self, chat_id: Any, method: str) -> None:
        if chat_id is None:
            return
        if chat_id in self.blocked_chats:
            raise Reply(403, "Forbidden: bot was blocked by the user")
        if chat_id in self.missing_chats:
            raise Reply(400, "Bad Request: chat not found")
        if chat_id in self.migrated_chats:
            description = "Bad Request: group chat was upgraded to a supergroup chat"
            raise Reply(400, description, {"migrate_to_chat_id": self.migrated_chats[chat_id]})
        if method == "sendMessage":
            self.directory.may_write(self._chat(chat_id))

    def _chat(self, chat_id: Any) -> int:
        if isinstance(chat_id, str) and chat_id.lstrip("-").isdigit():
            chat_id = int(chat_id)
        if not is_int(chat_id):
            self._violate(f"the emulator needs integer chat ids, got {chat_id!r}")
        return int(chat_id)

    def _find(self, params: Mapping[str, Any], missing: str) -> Message:
        if "inline_message_id" in params:
            self._violate("the emulator does not support inline messages")
        chat_id, message_id = self._chat(params.get("chat_id")), params.get("message_id", "")
        if not is_int(message_id):
            self._violate(f"message_id must be an integer, got {message_id!r}")
        found = self.chats.get(chat_id, int(message_id))
        if found is None:
            raise Reply(400, f"Bad Request: {missing}")
        return found

    def _status(self, chat_id: int, user_id: int) -> str:
        known = self.member_status.get((chat_id, user_id))
        return known if known is not None else self.directory.member_status(chat_id, user_id)

    def message_json(self, message: Message) -> dict[str, Any]:
        sender = (
            self.bot if message.sender == self.bot_id else self.directory.user_json(message.sender)
        )
        result: dict[str, Any] = {
            "message_id": message.message_id,
            "date": message.date,
            "chat": self.directory.chat_json(message.chat_id),
            "from": sender,
            "text": message.text,
        }
        if message.entities:
            result["entities"] = message.entities
        if message.reply_markup:
            result["reply_markup"] = message.reply_markup
        if message.edit_date is not None:
            result["edit_date"] = message.edit_date
        return result

    # -- methods -------------------------------------------------------------------------------

    def _api_getMe(self, params: Mapping[str, Any]) -> Any:
        return self.bot

    def _get_updates(self, params: Mapping[str, Any]) -> list[dict[str, Any]]:
        """Drop the updates ``offset`` confirms; wait up to ``timeout`` for one (an update
        stays until an offset beyond it confirms it, as on Telegram)."""
        offset = int(params.get("offset") or 0)
        limit = min(max(int(params.get("limit") or 100), 1), 100)
        timeout = min(float(params.get("timeout") or 0), MAX_POLL_SECONDS)
        deadline = time.monotonic() + timeout
        with self.lock:
            while True:
                if offset:
                    self.updates = [u for u in self.updates if u["update_id"] >= offset]
                if self.updates or self._woken:
                    self._woken = False
                    return list(self.updates[:limit])
                left = deadline - time.monotonic()
                if left <= 0:
                    return []
                self.lock.wait(left)

    def _api_sendMessage(self, params: Mapping[str, Any], shown: Parsed) -> Any:
        chat_id = self._chat(params["chat_id"])
        message = Message(
            chat_id=chat_id,
            message_id=self.chats.new_id(chat_id),
            text=shown.text,
            raw_text=params["text"],
            parse_mode=params.get("parse_mode"),
            reply_markup=params.get("reply_markup") or None,
            date=int(self.clock()),
            sender=self.bot_id,
            html=shown.html,
            entities=[e.json() for e in shown.entities],
        )
        self.chats.put(message)
        self.sent.append((chat_id, params["text"]))
        self._changed("message", message)
        return self.message_json(message)

    def _editable(self, params: Mapping[str, Any]) -> Message:
        message = self._find(params, "message to edit not found")
        if message.sender != self.bot_id:
            raise Reply(400, "Bad Request: message can't be edited")
        return message

    def _edited(self, message: Message) -> Any:
        message.edits += 1
        message.edit_date = int(self.clock())
        self.chats.put(message)
        self._changed("message", message)
        return self.message_json(message)

    def _api_editMessageText(self, params: Mapping[str, Any], shown: Parsed) -> Any:
        message = self._editable(params)
        markup = params.get("reply_markup") or None  # Telegram drops the keyboard if none given
        entities = [e.json() for e in shown.entities]
        if (shown.text, entities, markup) == (message.text, message.entities, message.reply_markup):
            raise Reply(400, NOT_MODIFIED)
        message.text, message.entities, message.html = shown.text, entities, shown.html
        message.raw_text, message.parse_mode = params["text"], params.get("parse_mode")
        message.reply_markup = markup
        return self._edited(message)

    def _api_editMessageReplyMarkup(self, params: Mapping[str, Any]) -> Any:
        message = self._editable(params)
        markup = params.get("reply_markup") or None
        if markup == message.reply_markup:
            raise Reply(400, NOT_MODIFIED)
        message.reply_markup = markup
        return self._edited(message)

    def _api_deleteMessage(self, params: Mapping[str, Any]) -> Any:
        message = self._find(params, "message to delete not found")
        chat_id = message.chat_id
        others = message.sender != self.bot_id
        if chat_id < 0 and others and self._status(chat_id, self.bot_id) not in _ADMINS:
            raise Reply(400, "Bad Request: message can't be deleted")
        if self.clock() - message.date > DELETE_SECONDS and chat_id < 0:
            raise Reply(400, "Bad Request: message can't be deleted for everyone")
        self.chats.delete(chat_id, message.message_id)
        self._changed("delete", message)
        return True

    def _may_pin(self, params: Mapping[str, Any]) -> int:
        """In a group only an administrator may pin (the bot, like anyone, as ``member_status``
        says; a member by default)."""
        chat_id = self._chat(params["chat_id"])
        if chat_id < 0 and self._status(chat_id, self.bot_id) not in _ADMINS:
            raise Reply(400, NO_PIN_RIGHTS)
        return chat_id

    def _api_pinChatMessage(self, params: Mapping[str, Any]) -> Any:
        self._may_pin(params)
        message = self._find(params, "message to pin not found")
        message.pinned = True
        self.chats.put(message)
        return True

    def _api_unpinChatMessage(self, params: Mapping[str, Any]) -> Any:
        chat_id = self._may_pin(params)
        pinned = [m for m in self.messages_in(chat_id) if m.pinned]
        if "message_id" in params:
            pinned = [m for m in pinned if m.message_id == params["message_id"]]
        if pinned:
            pinned[-1].pinned = False
            self.chats.put(pinned[-1])
        return True

    def _api_answerCallbackQuery(self, params: Mapping[str, Any]) -> Any:
        """Once per query, within ``CALLBACK_ANSWER_SECONDS`` of the press."""
        query = self.queries.get(str(params["callback_query_id"]))
        if query is None or query.answered:
            raise Reply(400, QUERY_INVALID)
        if self.clock() - query.at > CALLBACK_ANSWER_SECONDS:
            raise Reply(400, QUERY_INVALID)
        query.answered = True
        self._changed("answer", (str(params["callback_query_id"]), query, params))
        return True

    def _api_getChat(self, params: Mapping[str, Any]) -> Any:
        return self.directory.chat_json(self._chat(params["chat_id"]))

    def _api_getChatMember(self, params: Mapping[str, Any]) -> Any:
        chat_id, user_id = self._chat(params["chat_id"]), params["user_id"]
        return self._member_json(user_id, self._status(chat_id, user_id))

    def _api_getChatAdministrators(self, params: Mapping[str, Any]) -> Any:
        chat_id = self._chat(params["chat_id"])
        return [
            self._member_json(user_id, status)
            for (chat, user_id), status in self.member_status.items()
            if chat == chat_id and status in _ADMINS
        ]

    def _api_setMyCommands(self, params: Mapping[str, Any]) -> Any:
        scope = params.get("scope") or {"type": "default"}
        key = (str(scope.get("type", "default")), params.get("language_code") or None)
        self.commands[key] = [
            {"command": str(c["command"]), "description": str(c["description"])}
            for c in params["commands"]
        ]
        return True

    def _member_json(self, user_id: int, status: str) -> dict[str, Any]:
        type_name = _MEMBER_TYPES[status]
        user = self.bot if user_id == self.bot_id else self.directory.user_json(user_id)
        member: dict[str, Any] = {"status": status, "user": user}
        for f in self.spec.types[type_name].values():
            if f.required and f.name not in member:
                member[f.name] = 0 if f.types == ("Integer",) else f.name == "can_manage_chat"
        return member


_MEMBER_TYPES = {
    "creator": "ChatMemberOwner",
    "administrator": "ChatMemberAdministrator",
    "member": "ChatMemberMember",
    "restricted": "ChatMemberRestricted",
    "left": "ChatMemberLeft",
    "kicked": "ChatMemberBanned",
}


def _short(params: Mapping[str, Any]) -> str:
    return ", ".join(f"{k}={v!r:.40}" for k, v in params.items())


class RecordingRequest(BotApiEmulator, BaseRequest):
    """The emulator behind python-telegram-bot's request interface (and ``infra.bot_api``'s
    transport), in memory: what the tests and the pace and load commands talk to."""

    @property
    def read_timeout(self) -> float | None:
        return None

    async def initialize(self) -> None:
        return None

    async def shutdown(self) -> None:
        return None

    async def do_request(
        self,
        url: str,
        method: str,
        request_data: RequestData | None = None,
        read_timeout: Any = None,
        write_timeout: Any = None,
        connect_timeout: Any = None,
        pool_timeout: Any = None,
    ) -> tuple[int, bytes]:
        api_method = url.rstrip("/").rsplit("/", 1)[-1]
        params = dict(request_data.parameters) if request_data is not None else {}
        return self.handle(api_method, params)

    def transport(self, method: str, params: dict[str, Any], timeout: float) -> tuple[int, bytes]:
        """The emulator as ``infra.bot_api``'s transport, with the parameters as they travel."""
        try:
            return self.handle(method, json.loads(json.dumps(params)))
        except TimedOut as error:  # Chaos's timeouts never reach Telegram: a failed connect
            raise ConnectionError("connect timed out") from error
