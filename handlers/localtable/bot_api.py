"""The Bot API methods the bot uses, answered from the local table's chats as Telegram would.

Parameters arrive the way Telegram accepts them: a form (python-telegram-bot sends
``application/x-www-form-urlencoded`` with JSON-encoded objects), a JSON body or a query string.
Answers are Telegram's envelope: ``{"ok": true, "result": …}`` or ``{"ok": false,
"error_code": …, "description": …}`` with Telegram's status codes and wording.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Mapping
from typing import Any

from handlers.localtable.chats import BOT_USER, ApiError, Table
from handlers.localtable.telegram_html import HtmlError, Rendered, plain, render, utf16_length

log = logging.getLogger(__name__)

MAX_TEXT = 4096
MAX_POLL_SECONDS = 50.0
_JSON_FIELDS = {"reply_markup", "allowed_updates", "link_preview_options", "commands", "scope"}

Params = Mapping[str, Any]


def decode(raw: Mapping[str, Any]) -> dict[str, Any]:
    """Form values are strings; objects and lists among them are JSON (as Telegram reads them)."""
    params: dict[str, Any] = {}
    for key, value in raw.items():
        if key in _JSON_FIELDS and isinstance(value, str):
            try:
                value = json.loads(value)
            except ValueError as exc:
                raise ApiError(400, f"Bad Request: can't parse {key} JSON object") from exc
        params[key] = value
    return params


def _int(params: Params, key: str, default: int | None = None) -> int:
    value = params.get(key, default)
    if value is None:
        raise ApiError(400, f"Bad Request: {key} is empty")
    try:
        return int(value)
    except (TypeError, ValueError) as exc:
        raise ApiError(400, f"Bad Request: {key} must be an integer") from exc


def _bool(params: Params, key: str) -> bool:
    value = params.get(key, False)
    return value is True or (isinstance(value, str) and value.lower() in ("true", "1"))


def _text(params: Params) -> Rendered:
    text = params.get("text")
    if not isinstance(text, str) or not text:
        raise ApiError(400, "Bad Request: message text is empty")
    try:
        shown = render(text) if params.get("parse_mode") == "HTML" else plain(text)
    except HtmlError as exc:
        raise ApiError(400, f"Bad Request: {exc}") from exc
    if not shown.text.strip():
        raise ApiError(400, "Bad Request: message text is empty")
    if utf16_length(shown.text) > MAX_TEXT:
        raise ApiError(400, "Bad Request: message is too long")
    return shown


def _markup(params: Params) -> dict[str, Any] | None:
    markup = params.get("reply_markup")
    if markup is None:
        return None
    rows = markup.get("inline_keyboard") if isinstance(markup, dict) else None
    if not isinstance(rows, list) or not all(isinstance(r, list) for r in rows):
        raise ApiError(400, "Bad Request: only inline keyboards are supported here")
    for button in (b for row in rows for b in row):
        if not isinstance(button, dict) or not isinstance(button.get("text"), str):
            raise ApiError(400, "Bad Request: can't parse inline keyboard button")
        data = button.get("callback_data")
        if data is not None and not 1 <= len(str(data).encode()) <= 64:
            raise ApiError(400, "Bad Request: BUTTON_DATA_INVALID")
        if data is None and not isinstance(button.get("url"), str):
            raise ApiError(400, "Bad Request: inline keyboard button needs callback_data or url")
    return {"inline_keyboard": rows} if rows else None


class BotApi:
    def __init__(self, table: Table) -> None:
        self.table = table
        self.methods: dict[str, Callable[[Params], Any]] = {
            "getMe": lambda p: BOT_USER,
            "deleteWebhook": lambda p: True,
            "getUpdates": self.get_updates,
            "sendMessage": self.send_message,
            "editMessageText": self.edit_message_text,
            "editMessageReplyMarkup": self.edit_message_reply_markup,
            "deleteMessage": self.delete_message,
            "answerCallbackQuery": self.answer_callback_query,
            "getChatMember": self.get_chat_member,
            "getChat": lambda p: self.table.chat_json(_int(p, "chat_id")),
            "setMyCommands": self.set_my_commands,
            "pinChatMessage": self.pin_chat_message,
            "unpinChatMessage": self.pin_chat_message,
        }

    def call(self, method: str, params: Params) -> tuple[int, dict[str, Any]]:
        """Telegram's status code and answer for one call."""
        handler = self.methods.get(method)
        if handler is None:
            log.warning("the local table does not offer %s", method)
            return 404, {"ok": False, "error_code": 404, "description": "Not Found"}
        try:
            return 200, {"ok": True, "result": handler(params)}
        except ApiError as error:
            return error.code, error.answer()

    def get_updates(self, p: Params) -> list[dict[str, Any]]:
        timeout = min(float(p.get("timeout") or 0), MAX_POLL_SECONDS)
        limit = min(max(_int(p, "limit", 100), 1), 100)
        return self.table.take_updates(_int(p, "offset", 0), limit, timeout)

    def send_message(self, p: Params) -> dict[str, Any]:
        return self.table.bot_send(_int(p, "chat_id"), _text(p), _markup(p))

    def edit_message_text(self, p: Params) -> dict[str, Any]:
        return self.table.bot_edit(_int(p, "chat_id"), _int(p, "message_id"), _text(p), _markup(p))

    def edit_message_reply_markup(self, p: Params) -> dict[str, Any]:
        return self.table.bot_edit(_int(p, "chat_id"), _int(p, "message_id"), None, _markup(p))

    def delete_message(self, p: Params) -> bool:
        return self.table.bot_delete(_int(p, "chat_id"), _int(p, "message_id"))

    def pin_chat_message(self, p: Params) -> bool:
        """The bot is a plain member of the table's group, so Telegram would refuse to pin
        there; a private chat allows it (the page shows no pins)."""
        chat_id = _int(p, "chat_id")
        status = self.table.member_status(chat_id, BOT_USER["id"])
        if chat_id < 0 and status not in ("administrator", "creator"):
            raise ApiError(
                400, "Bad Request: not enough rights to manage pinned messages in the chat"
            )
        return True

    def answer_callback_query(self, p: Params) -> bool:
        text = p.get("text")
        if text is not None and len(str(text)) > 200:
            raise ApiError(400, "Bad Request: MESSAGE_TOO_LONG")
        return self.table.bot_answer(
            str(p.get("callback_query_id", "")), str(text) if text else None, _bool(p, "show_alert")
        )

    def get_chat_member(self, p: Params) -> dict[str, Any]:
        user_id = _int(p, "user_id")
        status = self.table.member_status(_int(p, "chat_id"), user_id)
        user = BOT_USER if user_id == BOT_USER["id"] else self.table.user_json(user_id)
        member: dict[str, Any] = {"status": status, "user": user}
        if status == "creator":
            member["is_anonymous"] = False
        return member

    def set_my_commands(self, p: Params) -> bool:
        commands = p.get("commands")
        if not isinstance(commands, list):
            raise ApiError(400, "Bad Request: commands must be a list")
        scope = p.get("scope") or {"type": "default"}
        kind = scope.get("type", "default") if isinstance(scope, dict) else "default"
        self.table.commands[(kind, p.get("language_code") or None)] = [
            {"command": str(c.get("command")), "description": str(c.get("description"))}
            for c in commands
            if isinstance(c, dict)
        ]
        return True
