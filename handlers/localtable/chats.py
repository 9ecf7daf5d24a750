"""What the local table's chats hold: users, one group, each user's private chat with the bot.

The :class:`Table` plays Telegram's side. Users' messages and button presses become Telegram
updates queued for ``getUpdates``; the bot's ``sendMessage``/``editMessageText``/… change the
messages. Every change is also an *event* that the browsers of the users who can see that chat
pick up (long polling on ``/api/events``).

Users and messages live in the same SQLite file as the games (tables ``table_*``), so after a
restart the page shows the same chats with the same working buttons. Update ids continue from
the last one, since the service applies an update id at most once.
"""

from __future__ import annotations

import json
import secrets
import sqlite3
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from handlers.localtable.telegram_html import Rendered

GROUP_ID = -1001000000001
BOT_ID = 7_000_000_777
BOT_FIRST_NAME = "Coach Ride"
BOT_USERNAME = "coach_ride_local_bot"
MAX_EVENTS = 5000
MAX_NAME = 32

_SCHEMA = """
CREATE TABLE IF NOT EXISTS table_users (
    id INTEGER PRIMARY KEY, name TEXT NOT NULL, lang TEXT, secret TEXT NOT NULL,
    started INTEGER NOT NULL DEFAULT 0, joined REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS table_messages (
    chat_id INTEGER NOT NULL, message_id INTEGER NOT NULL, body TEXT NOT NULL,
    PRIMARY KEY (chat_id, message_id)
);
CREATE TABLE IF NOT EXISTS table_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""


class ApiError(Exception):
    """A Bot API error answer: ``{"ok": false, "error_code": code, "description": …}``."""

    def __init__(self, code: int, description: str) -> None:
        super().__init__(description)
        self.code = code
        self.description = description

    def answer(self) -> dict[str, Any]:
        return {"ok": False, "error_code": self.code, "description": self.description}


@dataclass(slots=True)
class User:
    id: int
    name: str
    lang: str | None
    secret: str
    started: bool = False  # opened the private chat with the bot (Telegram's START)

    def json(self) -> dict[str, Any]:
        user: dict[str, Any] = {"id": self.id, "is_bot": False, "first_name": self.name}
        if self.lang:
            user["language_code"] = self.lang
        return user


@dataclass(slots=True)
class Message:
    chat_id: int
    message_id: int
    sender: int  # a user id, or BOT_ID
    date: int
    text: str
    html: str
    markup: dict[str, Any] | None = None
    edited: bool = False
    shown: str | None = None  # what the page shows when it differs from the text (deep links)

    def body(self) -> dict[str, Any]:
        return {
            "sender": self.sender,
            "date": self.date,
            "text": self.text,
            "html": self.html,
            "markup": self.markup,
            "edited": self.edited,
            "shown": self.shown,
        }

    @classmethod
    def from_body(cls, chat_id: int, message_id: int, body: dict[str, Any]) -> Message:
        return cls(chat_id, message_id, **body)


@dataclass(slots=True)
class Event:
    seq: int
    audience: int | None  # a user id, or None for everyone at the table
    payload: dict[str, Any]


@dataclass(slots=True)
class _State:
    users: dict[int, User] = field(default_factory=dict)
    chats: dict[int, dict[int, Message]] = field(default_factory=dict)
    next_message: dict[int, int] = field(default_factory=dict)
    last_update_id: int = 0
    owner: int | None = None  # the group's creator: the first user to take a seat


class Table:
    def __init__(self, db_path: str, clock: Any = time.time) -> None:
        self._clock = clock
        self._cond = threading.Condition()
        self._db = sqlite3.connect(db_path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA busy_timeout = 10000")
        self._db.executescript(_SCHEMA)
        self._state = self._load()
        self._updates: deque[dict[str, Any]] = deque()
        self._events: deque[Event] = deque(maxlen=MAX_EVENTS)
        self._seq = 0
        self._woken = False
        self._queries: dict[str, int] = {}  # open callback query id -> the user who pressed
        self.boot = secrets.token_hex(4)  # a page that saw another boot reloads its chats
        self.commands: dict[tuple[str, str | None], list[dict[str, str]]] = {}

    # -- persistence ------------------------------------------------------------------------
    def _load(self) -> _State:
        state = _State()
        for uid, name, lang, secret, started, _ in self._db.execute(
            "SELECT * FROM table_users ORDER BY joined"
        ):
            state.users[uid] = User(uid, name, lang, secret, bool(started))
            state.owner = state.owner or uid
        for chat_id, message_id, body in self._db.execute(
            "SELECT * FROM table_messages ORDER BY chat_id, message_id"
        ):
            message = Message.from_body(chat_id, message_id, json.loads(body))
            state.chats.setdefault(chat_id, {})[message_id] = message
            state.next_message[chat_id] = message_id + 1
        row = self._db.execute("SELECT value FROM table_meta WHERE key = 'update_id'").fetchone()
        state.last_update_id = int(row[0]) if row else 0
        return state

    def _save_user(self, user: User) -> None:
        self._db.execute(
            "INSERT OR REPLACE INTO table_users VALUES (?, ?, ?, ?, ?, ?)",
            (user.id, user.name, user.lang, user.secret, int(user.started), self._clock()),
        )

    def _save_message(self, message: Message) -> None:
        self._db.execute(
            "INSERT OR REPLACE INTO table_messages VALUES (?, ?, ?)",
            (message.chat_id, message.message_id, json.dumps(message.body())),
        )

    # -- users ------------------------------------------------------------------------------
    def join(self, name: str, lang: str | None, uid: int | None, secret: str | None) -> User:
        """A browser takes a seat, or takes back its own (``uid`` and its ``secret``). A new
        seat's id is the table's choice, never the browser's: not the bot's, nor anyone's."""
        name = " ".join(name.split())[:MAX_NAME]
        if not name:
            raise ApiError(400, "Bad Request: a name is needed")
        with self._cond:
            known = self._state.users.get(uid) if uid is not None else None
            if known is not None:
                if not secrets.compare_digest(known.secret, secret or ""):
                    raise ApiError(403, "Forbidden: that seat belongs to another browser")
                known.name, known.lang = name, lang or known.lang
                self._save_user(known)
                return known
            uid = 100_000_000 + secrets.randbelow(1_900_000_000)
            while uid in self._state.users or uid == BOT_ID:
                uid = 100_000_000 + secrets.randbelow(1_900_000_000)
            user = User(uid, name, lang, secrets.token_urlsafe(16))
            self._state.users[uid] = user
            self._state.owner = self._state.owner or uid
            self._save_user(user)
            self._publish(None, {"kind": "members", "count": len(self._state.users)})
            return user

    def user(self, uid: int, secret: str) -> User:
        with self._cond:
            user = self._state.users.get(uid)
        if user is None or not secrets.compare_digest(user.secret, secret):
            raise ApiError(401, "Unauthorized: take a seat first")
        return user

    def member_count(self) -> int:
        with self._cond:
            return len(self._state.users)

    def member_status(self, chat_id: int, user_id: int) -> str:
        with self._cond:
            if chat_id == GROUP_ID and user_id in self._state.users:
                return "creator" if user_id == self._state.owner else "member"
            if chat_id == user_id and user_id in self._state.users:
                return "member"
            if user_id == BOT_ID:
                return "member"
        raise ApiError(400, "Bad Request: member not found")

    def user_json(self, uid: int) -> dict[str, Any]:
        with self._cond:
            user = self._state.users.get(uid)
            if user is None:
                raise ApiError(400, "Bad Request: user not found")
            return user.json()

    # -- chats ------------------------------------------------------------------------------
    def chat_json(self, chat_id: int) -> dict[str, Any]:
        if chat_id == GROUP_ID:
            return {"id": GROUP_ID, "type": "supergroup", "title": "Coach Ride table"}
        with self._cond:
            user = self._state.users.get(chat_id)
        if user is None:
            raise ApiError(400, "Bad Request: chat not found")
        return {"id": user.id, "type": "private", "first_name": user.name}

    def message_json(self, message: Message) -> dict[str, Any]:
        sender = BOT_USER if message.sender == BOT_ID else self.user_json(message.sender)
        out: dict[str, Any] = {
            "message_id": message.message_id,
            "date": message.date,
            "chat": self.chat_json(message.chat_id),
            "from": sender,
            "text": message.text,
        }
        if message.edited:
            out["edit_date"] = int(self._clock())
        if message.markup:
            out["reply_markup"] = message.markup
        return out

    def snapshot(self, user: User) -> dict[str, Any]:
        """What ``user``'s page shows: the group, their private chat, where events go on."""
        with self._cond:
            return {
                "boot": self.boot,
                "seq": self._seq,
                "members": len(self._state.users),
                "started": user.started,
                "group": [self._view(m) for m in self._state.chats.get(GROUP_ID, {}).values()],
                "private": [self._view(m) for m in self._state.chats.get(user.id, {}).values()],
            }

    def _view(self, message: Message) -> dict[str, Any]:
        sender = self._state.users.get(message.sender)
        name = BOT_FIRST_NAME if message.sender == BOT_ID else (sender.name if sender else "?")
        return {
            "chat": "group" if message.chat_id == GROUP_ID else "private",
            "id": message.message_id,
            "from": message.sender,
            "name": name,
            "bot": message.sender == BOT_ID,
            "date": message.date,
            "html": message.html if message.shown is None else message.shown,
            "markup": message.markup,
            "edited": message.edited,
        }

    def _audience(self, chat_id: int) -> int | None:
        return None if chat_id == GROUP_ID else chat_id

    def _publish(self, audience: int | None, payload: dict[str, Any]) -> None:
        self._seq += 1
        self._events.append(Event(self._seq, audience, payload))
        self._cond.notify_all()

    def _add(self, chat_id: int, sender: int, shown: Rendered, markup: Any, text: str) -> Message:
        message_id = self._state.next_message.get(chat_id, 1)
        self._state.next_message[chat_id] = message_id + 1
        message = Message(
            chat_id, message_id, sender, int(self._clock()), text, shown.html, markup or None
        )
        self._state.chats.setdefault(chat_id, {})[message_id] = message
        self._save_message(message)
        self._publish(self._audience(chat_id), {"kind": "message", "message": self._view(message)})
        return message

    # -- the bot's side (Bot API methods) ----------------------------------------------------
    def bot_send(self, chat_id: int, shown: Rendered, markup: Any) -> dict[str, Any]:
        with self._cond:
            if chat_id != GROUP_ID:
                user = self._state.users.get(chat_id)
                if user is None:
                    raise ApiError(400, "Bad Request: chat not found")
                if not user.started:
                    raise ApiError(403, "Forbidden: bot can't initiate conversation with a user")
            message = self._add(chat_id, BOT_ID, shown, markup, shown.text)
            return self.message_json(message)

    def bot_edit(self, chat_id: int, message_id: int, shown: Rendered | None, markup: Any) -> Any:
        """``shown`` None: only the keyboard changes (editMessageReplyMarkup)."""
        with self._cond:
            message = self._state.chats.get(chat_id, {}).get(message_id)
            if message is None:
                raise ApiError(400, "Bad Request: message to edit not found")
            if message.sender != BOT_ID:
                raise ApiError(400, "Bad Request: message can't be edited")
            html = message.html if shown is None else shown.html
            if html == message.html and (markup or None) == message.markup:
                raise ApiError(
                    400,
                    "Bad Request: message is not modified: specified new message content and "
                    "reply markup are exactly the same as a current content and reply markup "
                    "of the message",
                )
            if shown is not None:
                message.text, message.html = shown.text, shown.html
            message.markup = markup or None
            message.edited = True
            self._save_message(message)
            self._publish(
                self._audience(chat_id), {"kind": "message", "message": self._view(message)}
            )
            return self.message_json(message)

    def bot_delete(self, chat_id: int, message_id: int) -> bool:
        with self._cond:
            message = self._state.chats.get(chat_id, {}).pop(message_id, None)
            if message is None:
                raise ApiError(400, "Bad Request: message to delete not found")
            self._db.execute(
                "DELETE FROM table_messages WHERE chat_id = ? AND message_id = ?",
                (chat_id, message_id),
            )
            chat = "group" if chat_id == GROUP_ID else "private"
            event = {"kind": "delete", "chat": chat, "id": message_id}
            self._publish(self._audience(chat_id), event)
            return True

    def bot_answer(self, query_id: str, text: str | None, show_alert: bool) -> bool:
        with self._cond:
            uid = self._queries.pop(query_id, None)
            if uid is None:
                raise ApiError(
                    400,
                    "Bad Request: query is too old and response timeout expired or query ID is "
                    "invalid",
                )
            self._publish(
                uid, {"kind": "answer", "query": query_id, "text": text, "alert": show_alert}
            )
            return True

    # -- the users' side (the page) ---------------------------------------------------------
    def _next_update(self, update: dict[str, Any]) -> None:
        self._state.last_update_id += 1
        update["update_id"] = self._state.last_update_id
        self._db.execute(
            "INSERT OR REPLACE INTO table_meta VALUES ('update_id', ?)",
            (str(self._state.last_update_id),),
        )
        self._updates.append(update)
        self._cond.notify_all()

    def user_says(self, user: User, chat: str, text: str, shown: str | None = None) -> int:
        """A message typed by ``user`` in the group or their private chat; its message id."""
        from handlers.localtable.telegram_html import plain

        text = text.strip()[:4096]
        if not text:
            raise ApiError(400, "Bad Request: message text is empty")
        chat_id = GROUP_ID if chat == "group" else user.id
        with self._cond:
            if chat_id == user.id and not user.started:
                user.started = True
                self._save_user(user)
            message = self._add(chat_id, user.id, plain(shown or text), None, text)
            if shown is not None:
                message.shown = plain(shown).html
                self._save_message(message)
            update_message = self.message_json(message)
            if text.startswith("/"):
                command = text.split(maxsplit=1)[0]
                update_message["entities"] = [
                    {"type": "bot_command", "offset": 0, "length": len(command)}
                ]
            self._next_update({"message": update_message})
            return message.message_id

    def user_presses(self, user: User, chat: str, message_id: int, data: str) -> str:
        """A press on a callback button; the query id the bot's answer will name."""
        chat_id = GROUP_ID if chat == "group" else user.id
        with self._cond:
            message = self._state.chats.get(chat_id, {}).get(message_id)
            markup = (message.markup if message else None) or {}
            buttons = [b for row in markup.get("inline_keyboard", []) for b in row]
            if message is None or not any(b.get("callback_data") == data for b in buttons):
                raise ApiError(400, "Bad Request: no such button")
            query_id = secrets.token_hex(8)
            self._queries[query_id] = user.id
            self._next_update(
                {
                    "callback_query": {
                        "id": query_id,
                        "from": user.json(),
                        "chat_instance": str(chat_id),
                        "data": data,
                        "message": self.message_json(message),
                    }
                }
            )
            return query_id

    # -- waiting ----------------------------------------------------------------------------
    def wake(self) -> None:
        """Let a waiting ``getUpdates`` return now (a timer is due)."""
        with self._cond:
            self._woken = True
            self._cond.notify_all()

    def take_updates(self, offset: int, limit: int, timeout: float) -> list[dict[str, Any]]:
        """``getUpdates``: drop the confirmed ones, wait up to ``timeout`` for new ones."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                while self._updates and self._updates[0]["update_id"] < offset:
                    self._updates.popleft()
                if self._updates or self._woken:
                    self._woken = False
                    return list(self._updates)[:limit]
                left = deadline - time.monotonic()
                if left <= 0:
                    return []
                self._cond.wait(left)

    def events_for(self, user: User, after: int, timeout: float) -> dict[str, Any]:
        """The events ``user`` may see after ``after``; waits up to ``timeout`` for one."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                if self._events and after < self._events[0].seq - 1:
                    return {"resync": True, "boot": self.boot}
                if after > self._seq:
                    return {"resync": True, "boot": self.boot}
                mine = [
                    e.payload
                    for e in self._events
                    if e.seq > after and e.audience in (None, user.id)
                ]
                left = deadline - time.monotonic()
                if mine or left <= 0:
                    return {"boot": self.boot, "seq": self._seq, "events": mine}
                self._cond.wait(left)


BOT_USER: dict[str, Any] = {
    "id": BOT_ID,
    "is_bot": True,
    "first_name": BOT_FIRST_NAME,
    "username": BOT_USERNAME,
    "can_join_groups": True,
    "can_read_all_group_messages": False,
    "supports_inline_queries": False,
}
