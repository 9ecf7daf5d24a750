"""The service's Messenger port, in process, over the emulator: for service tests and the pace
command.

:class:`EmulatedMessenger` keeps what :class:`devtools.memory_messenger.MemoryMessenger` keeps (per
chat, the texts and button rows as the bot sent them) and puts every call through the emulator
first, with the parameters the real gateway sends (``parse_mode=HTML``, no link previews, an
inline keyboard), so Telegram's refusals reach the service as they would through
``infra.telegram_messenger``: a refused message is dropped (``Sent.dropped``), a blocked chat
unreachable, an edit that changes nothing is fine, a gone message not. The emulator is strict: a
call Telegram would refuse is a bug of the bot and raises ``ApiViolation``.

It answers for the gateway, which is not in the loop here: the emulator's rate limits are off
(the service tests' clock stands still while a game is dealt; flood control and the limits are
exercised through the real gateway in the e2e and webhook-table tests), and in a group the bot
may pin (it asks to be an administrator) unless the group is in ``no_pinning``.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field
from typing import Any

from devtools.botapi.emulator import BotApiEmulator
from devtools.botapi.faults import Reply
from devtools.botapi.methods import NOT_MODIFIED
from devtools.memory_messenger import MemoryMessenger, Shown
from infra.ports import FloodWait, Rows, Sent

_NO_PREVIEW = {"is_disabled": True}


def keyboard(rows: Rows | None) -> dict[str, Any] | None:
    """Rows of the Messenger port as Telegram's inline keyboard (none without rows)."""
    if not rows:
        return None
    return {
        "inline_keyboard": [
            [
                {"text": label, "callback_data": value}
                if kind == "d"
                else {"text": label, "url": value}
                for label, kind, value in row
            ]
            for row in rows
        ]
    }


def _emulator() -> BotApiEmulator:
    return BotApiEmulator(limits=False)


@dataclass
class EmulatedMessenger(MemoryMessenger):
    api: BotApiEmulator = field(default_factory=_emulator)

    def _call(self, method: str, params: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        status, body = self.api.call(method, params)
        if status == 429:
            raise FloodWait(float(body["parameters"]["retry_after"]))
        return status, body

    def _message(self, chat_id: int, text: str, rows: Rows | None) -> dict[str, Any]:
        params: dict[str, Any] = {
            "chat_id": chat_id,
            "text": text,
            "parse_mode": "HTML",
            "link_preview_options": _NO_PREVIEW,
        }
        markup = keyboard(rows)
        if markup is not None:
            params["reply_markup"] = markup
        return params

    def send(
        self, chat_id: int, text: str, rows: Rows | None = None, reply_to: int | None = None
    ) -> Sent:
        self._count("sendMessage")
        if chat_id in self.blocked:
            return Sent(False, None, unreachable=True)
        params = self._message(chat_id, text, rows)
        if reply_to is not None:
            params["reply_parameters"] = {"message_id": reply_to}
        status, body = self._call("sendMessage", params)
        if status == 403:  # a group that removed the bot: the bot may not write there
            return Sent(False, None, unreachable=True, muted=chat_id < 0)
        if moved := _moved_to(body):
            return Sent(False, None, dropped=True, moved_to=moved)
        if status == 400 and "message to be replied not found" in body["description"]:
            return Sent(False, None, reply_gone=True)
        if status != 200:
            muted = "not enough rights" in body["description"]
            return Sent(False, None, dropped=True, muted=muted)
        message_id = int(body["result"]["message_id"])
        shown = Shown(chat_id, message_id, text, rows)
        self.messages[(chat_id, message_id)] = shown
        self.by_chat.setdefault(chat_id, []).append(shown)
        return Sent(True, message_id)

    def edit(self, chat_id: int, message_id: int, text: str, rows: Rows | None = None) -> Sent:
        self._count("editMessageText")
        params = {**self._message(chat_id, text, rows), "message_id": message_id}
        status, body = self._call("editMessageText", params)
        if moved := _moved_to(body):
            return Sent(False, None, dropped=True, moved_to=moved)
        if status != 200 and body["description"] != NOT_MODIFIED:
            removed = status == 403 and chat_id < 0  # as a send finds it (``send``)
            return Sent(False, unreachable=removed, muted=removed)
        shown = self.messages[(chat_id, message_id)]
        shown.text, shown.rows = text, rows
        return Sent(True, message_id)

    def pin(self, chat_id: int, message_id: int, pinned: bool = True) -> Sent:
        method = "pinChatMessage" if pinned else "unpinChatMessage"
        self._count(method)
        if chat_id in self.no_pinning:
            return Sent(False)
        if chat_id < 0:
            self.api.member_status.setdefault((chat_id, self.api.bot_id), "administrator")
        params: dict[str, Any] = {"chat_id": chat_id, "message_id": message_id}
        if pinned:
            params["disable_notification"] = True
        status, body = self._call(method, params)
        if moved := _moved_to(body):
            return Sent(False, None, dropped=True, moved_to=moved)
        if status != 200:
            return Sent(False)
        if pinned:
            self.pinned[chat_id] = message_id
        elif self.pinned.get(chat_id) == message_id:
            del self.pinned[chat_id]
        return Sent(True, message_id)

    def answer(self, query_id: str, text: str | None = None, alert: bool = False) -> None:
        self._count("answerCallbackQuery")
        params: dict[str, Any] = {"callback_query_id": query_id}
        if text is not None:
            params["text"] = text
        if alert:
            params["show_alert"] = True
        self.answers.append((query_id, text, alert))
        with contextlib.suppress(FloodWait):  # the gateway gives up on an answer it cannot send
            self._call("answerCallbackQuery", params)

    def pressed(self, update: dict[str, Any]) -> dict[str, Any]:
        """``update`` carries a press: the bot may answer it (once, soon)."""
        return self.api.pressed(update)


def _moved_to(body: dict[str, Any]) -> int | None:
    """The supergroup a refused call's group became (``ResponseParameters``), if it did."""
    moved = (body.get("parameters") or {}).get("migrate_to_chat_id")
    return int(moved) if moved is not None else None


__all__ = ["EmulatedMessenger", "Reply", "keyboard"]
