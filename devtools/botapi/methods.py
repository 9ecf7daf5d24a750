"""The Bot API methods the emulator answers, on the chats it keeps: send, edit, delete, pin,
answer a callback query, read chats and members, set commands, and wait for updates.

:class:`BotApiMethods` is the emulator's half that changes and reads the chats;
``devtools.botapi.emulator`` checks a call (spec, limits, rate limits, faults) before it reaches
``_api_<method>`` here. Refusals are Telegram's, in its words (``Reply``); a call the emulator
cannot answer is an :class:`ApiViolation`.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, NoReturn

from telegram.error import TelegramError

from devtools.botapi.chats import ChatStore, Message
from devtools.botapi.directory import Directory
from devtools.botapi.faults import Reply
from devtools.botapi.html import Parsed
from devtools.botapi.spec import BotApiSpec, is_int

NOT_MODIFIED = (
    "Bad Request: message is not modified: specified new message content and reply markup are "
    "exactly the same as a current content and reply markup of the message"
)
QUERY_INVALID = "Bad Request: query is too old and response timeout expired or query ID is invalid"
NO_PIN_RIGHTS = "Bad Request: not enough rights to manage pinned messages in the chat"
# A callback query must be answered soon after the press; later Telegram refuses the answer.
CALLBACK_ANSWER_SECONDS = 15.0
# A bot may delete a message only within 48 hours of its sending, in any chat (the spec's
# deleteMessage: "A message can only be deleted if it was sent less than 48 hours ago").
DELETE_SECONDS = 48 * 3600
MAX_POLL_SECONDS = 50.0
# Telegram's answers to a getUpdates it will not serve: another getUpdates with the same token
# took over (the older request is the one terminated), or a webhook takes the updates.
POLL_CONFLICT = (
    "Conflict: terminated by other getUpdates request; make sure that only one bot instance is "
    "running"
)
SET_WEBHOOK_CONFLICT = "Conflict: terminated by setWebhook request"  # a getUpdates then waiting
WEBHOOK_CONFLICT = (
    "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete "
    "the webhook first"
)
_ADMINS = ("creator", "administrator")


class ApiViolation(TelegramError, AssertionError):
    """A call that the real Bot API would refuse (or not show as written), or that the emulator
    cannot answer: a bug of the bot. Also a ``TelegramError``, so python-telegram-bot passes it
    through unwrapped."""


@dataclass
class Query:
    """An open callback query: who pressed, when, whether the bot answered."""

    user_id: int
    at: float
    answered: bool = False


# ("message" | "delete", the message) or ("answer", (query id, Query, the call's parameters))
Listener = Callable[[str, Any], None]


class BotApiMethods:
    """The methods, on the state :class:`devtools.botapi.emulator.BotApiEmulator` builds."""

    spec: BotApiSpec
    chats: ChatStore
    directory: Directory
    clock: Callable[[], float]
    bot: dict[str, Any]
    violations: list[str]
    updates: list[dict[str, Any]]
    sent: list[tuple[int, str]]
    member_status: dict[tuple[int, int], str]
    restricted_members: set[tuple[int, int]]  # restricted, and still in the group
    commands: dict[tuple[str, str | None], list[dict[str, str]]]
    queries: dict[str, Query]
    listeners: list[Listener]
    lock: threading.Condition
    webhook_url: str
    _woken: bool
    _polls: int  # getUpdates requests so far: a waiting one ends when a newer one comes

    @property
    def bot_id(self) -> int:
        return int(self.bot["id"])

    def messages_in(self, chat_id: int) -> list[Message]:
        """The chat's messages that still exist, oldest first."""
        return self.chats.messages(chat_id)

    def user_deletes(self, user_id: int, message_id: int) -> None:
        """The user deletes a message of their private chat with the bot, theirs or the bot's
        (for both sides, as Telegram lets them), or clears the chat message by message: the bot
        is not told; an edit of it, or a reply to it, is then refused."""
        with self.lock:
            message = self.chats.get(user_id, int(message_id))
            assert message is not None, f"no message {message_id} in chat {user_id}"
            self.chats.delete(user_id, message.message_id)
            self._changed("delete", message)

    def _violate(self, message: str) -> NoReturn:
        self.violations.append(message)
        raise ApiViolation(message)

    def _changed(self, kind: str, what: Any) -> None:
        for listener in self.listeners:
            listener(kind, what)

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
        replied = self.chats.get(message.chat_id, message.reply_to) if message.reply_to else None
        if replied is not None:  # which holds no reply_to_message of its own (the Bot API's)
            quoted = self.message_json(replied)
            quoted.pop("reply_to_message", None)
            result["reply_to_message"] = quoted
        return result

    # -- methods -------------------------------------------------------------------------------

    def _api_getMe(self, params: Mapping[str, Any]) -> Any:
        return self.bot

    def _poll(self, params: Mapping[str, Any]) -> tuple[int, dict[str, Any]]:
        """``getUpdates`` as Telegram answers it: 409 while a webhook is set; otherwise it
        takes over from a ``getUpdates`` still waiting (which answers 409, as the one
        terminated by the newer request) and returns the updates."""
        with self.lock:
            if self.webhook_url:
                return 409, Reply(409, WEBHOOK_CONFLICT).answer()
            self._polls += 1
            mine = self._polls
            self.lock.notify_all()
        updates = self._get_updates(params, mine)
        if isinstance(updates, str):
            return 409, Reply(409, updates).answer()
        return 200, {"ok": True, "result": updates}

    def _get_updates(self, params: Mapping[str, Any], mine: int) -> list[dict[str, Any]] | str:
        """Drop the updates ``offset`` confirms; wait up to ``timeout`` for one (an update
        stays until an offset beyond it confirms it, as on Telegram); Telegram's 409 when a
        newer ``getUpdates`` (poll number ``mine`` is this one) or a webhook took over."""
        offset = int(params.get("offset") or 0)
        limit = min(max(int(params.get("limit") or 100), 1), 100)
        timeout = min(float(params.get("timeout") or 0), MAX_POLL_SECONDS)
        deadline = time.monotonic() + timeout
        with self.lock:
            while True:
                if self.webhook_url:
                    return SET_WEBHOOK_CONFLICT
                if self._polls != mine:
                    return POLL_CONFLICT
                if offset:
                    self.updates = [u for u in self.updates if u["update_id"] >= offset]
                if self.updates or self._woken:
                    self._woken = False
                    return list(self.updates[:limit])
                left = deadline - time.monotonic()
                if left <= 0:
                    return []
                self.lock.wait(left)

    def _api_setWebhook(self, params: Mapping[str, Any]) -> Any:
        """Updates go to the webhook from now on: a waiting ``getUpdates`` ends with 409."""
        self.webhook_url = str(params["url"])
        self.lock.notify_all()
        return True

    def _api_deleteWebhook(self, params: Mapping[str, Any]) -> Any:
        self.webhook_url = ""
        return True

    def _api_getWebhookInfo(self, params: Mapping[str, Any]) -> Any:
        return {"url": self.webhook_url, "has_custom_certificate": False, "pending_update_count": 0}

    def _api_sendMessage(self, params: Mapping[str, Any], shown: Parsed) -> Any:
        chat_id = self._chat(params["chat_id"])
        reply_to = self._replied(chat_id, params.get("reply_parameters"))
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
            reply_to=reply_to,
        )
        self.chats.put(message)
        self.sent.append((chat_id, params["text"]))
        self._changed("message", message)
        return self.message_json(message)

    def _replied(self, chat_id: int, reply: Mapping[str, Any] | None) -> int | None:
        """The message a new one replies to (``ReplyParameters``): one of the same chat here.
        Gone (deleted, the chat cleared), Telegram refuses the message, unless
        ``allow_sending_without_reply`` (then it is sent as no reply)."""
        if not reply:
            return None
        if reply.get("chat_id") not in (None, chat_id):
            self._violate("the emulator replies only within the same chat")
        found = self.chats.get(chat_id, int(reply["message_id"]))
        if found is None and not reply.get("allow_sending_without_reply"):
            raise Reply(400, "Bad Request: message to be replied not found")
        return None if found is None else found.message_id

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
        if self.clock() - message.date > DELETE_SECONDS:  # in every chat, as the spec says
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
        member = self._member_json(user_id, self._status(chat_id, user_id))
        if member["status"] == "restricted":
            member["is_member"] = (chat_id, user_id) in self.restricted_members
        return member

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
