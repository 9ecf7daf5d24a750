"""What the emulated chats hold, and where it is kept.

A :class:`Message` is one message as its chat shows it now (every edit applied). A
:class:`ChatStore` keeps them: :class:`MemoryChats` for tests and commands, :class:`SqliteChats`
for the local table, whose chats survive a restart (table ``table_messages`` in the table's
SQLite file, one JSON body per message).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from typing import Any, Protocol

BOT_ID = 7_000_000_001
BOT_USERNAME = "coachride_bot"
BOT_FIRST_NAME = "Coach Ride"


def bot_user(bot_id: int = BOT_ID, username: str = BOT_USERNAME) -> dict[str, Any]:
    return {
        "id": bot_id,
        "is_bot": True,
        "first_name": BOT_FIRST_NAME,
        "username": username,
        "can_join_groups": True,
        "can_read_all_group_messages": False,
        "supports_inline_queries": False,
    }


BOT_USER = bot_user()


@dataclass
class Message:
    """One message as a chat shows it now."""

    chat_id: int
    message_id: int
    text: str  # after entity parsing, as the user reads it
    raw_text: str  # as sent, with markup
    parse_mode: str | None
    reply_markup: dict[str, Any] | None
    date: int
    sender: int = BOT_ID  # a user id, or the bot's
    html: str = ""  # a safe fragment for the local table's page
    entities: list[dict[str, Any]] = field(default_factory=list)
    edits: int = 0
    edit_date: int | None = None
    pinned: bool = False
    shown: str | None = None  # what the page shows when it differs from the text (deep links)
    reply_to: int | None = None  # the message of the same chat it replies to (quoted)

    def button_rows(self) -> list[list[tuple[str, str | None]]]:
        rows = (self.reply_markup or {}).get("inline_keyboard", [])
        return [[(b["text"], b.get("callback_data", b.get("url"))) for b in row] for row in rows]

    def buttons(self) -> list[tuple[str, str | None]]:
        return [button for row in self.button_rows() for button in row]

    def body(self) -> dict[str, Any]:
        body = asdict(self)
        del body["chat_id"], body["message_id"]
        return body

    @classmethod
    def from_body(cls, chat_id: int, message_id: int, body: dict[str, Any]) -> Message:
        """Also reads the bodies the local table wrote before the emulator (``markup``,
        ``edited``)."""
        body = dict(body)
        if "markup" in body:
            body["reply_markup"] = body.pop("markup")
        if "edited" in body:
            body["edits"] = int(bool(body.pop("edited")))
        body.setdefault("raw_text", body.get("text", ""))
        body.setdefault("parse_mode", None)
        known = set(cls.__dataclass_fields__)
        return cls(chat_id, message_id, **{k: v for k, v in body.items() if k in known})


class ChatStore(Protocol):
    """Where the emulator keeps its chats' messages."""

    def messages(self, chat_id: int) -> list[Message]:
        """The chat's messages that still exist, oldest first."""
        ...

    def get(self, chat_id: int, message_id: int) -> Message | None: ...

    def put(self, message: Message) -> None:
        """Keep a new or changed message."""
        ...

    def delete(self, chat_id: int, message_id: int) -> None: ...

    def new_id(self, chat_id: int) -> int:
        """The next message id in the chat (ids are per chat and never reused)."""
        ...


class MemoryChats:
    def __init__(self) -> None:
        self._chats: dict[int, dict[int, Message]] = {}
        self._last_id: dict[int, int] = {}

    def messages(self, chat_id: int) -> list[Message]:
        return list(self._chats.get(chat_id, {}).values())

    def get(self, chat_id: int, message_id: int) -> Message | None:
        return self._chats.get(chat_id, {}).get(message_id)

    def put(self, message: Message) -> None:
        self._chats.setdefault(message.chat_id, {})[message.message_id] = message
        last = self._last_id.get(message.chat_id, 0)
        self._last_id[message.chat_id] = max(last, message.message_id)

    def delete(self, chat_id: int, message_id: int) -> None:
        self._chats.get(chat_id, {}).pop(message_id, None)

    def new_id(self, chat_id: int) -> int:
        self._last_id[chat_id] = self._last_id.get(chat_id, 0) + 1
        return self._last_id[chat_id]

    def load(self, messages: Iterable[Message]) -> None:
        for message in messages:
            self.put(message)


_SCHEMA = """
CREATE TABLE IF NOT EXISTS table_messages (
    chat_id INTEGER NOT NULL, message_id INTEGER NOT NULL, body TEXT NOT NULL,
    PRIMARY KEY (chat_id, message_id)
);
"""


class SqliteChats(MemoryChats):
    """Messages in memory, written through to ``table_messages`` of an SQLite connection (one
    that may be shared across threads: the caller serialises the calls)."""

    def __init__(self, db: sqlite3.Connection) -> None:
        super().__init__()
        self._db = db
        db.executescript(_SCHEMA)
        rows = db.execute("SELECT chat_id, message_id, body FROM table_messages ORDER BY 1, 2")
        for chat_id, message_id, body in rows:
            try:
                self.put_cached(Message.from_body(chat_id, message_id, json.loads(body)))
            except (ValueError, TypeError):
                continue  # a body nobody can read is skipped, not fatal for everyone

    def put_cached(self, message: Message) -> None:
        super().put(message)

    def put(self, message: Message) -> None:
        super().put(message)
        self._db.execute(
            "INSERT OR REPLACE INTO table_messages VALUES (?, ?, ?)",
            (message.chat_id, message.message_id, json.dumps(message.body())),
        )

    def delete(self, chat_id: int, message_id: int) -> None:
        super().delete(chat_id, message_id)
        self._db.execute(
            "DELETE FROM table_messages WHERE chat_id = ? AND message_id = ?",
            (chat_id, message_id),
        )
