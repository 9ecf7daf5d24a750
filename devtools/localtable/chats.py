"""What the local table's chats hold: users, one group, each user's private chat with the bot.

The :class:`Table` plays Telegram's side with the project's one Bot API emulator
(``devtools.botapi``, lenient: it answers refusals as Telegram does instead of raising), whose
chats are kept in SQLite. Users' messages and button presses become Telegram updates queued for
``getUpdates``; the bot's ``sendMessage``/``editMessageText``/… change the messages. Every change
is also an *event* that the browsers of the users who can see that chat pick up (long polling on
``/api/events``).

Users and messages live in the same SQLite file as the games (tables ``table_*``), so after a
restart the page shows the same chats with the same working buttons. Update ids continue from
the last one, since the service applies an update id at most once.
"""

from __future__ import annotations

import secrets
import sqlite3
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from unicodedata import category

from devtools.botapi.chats import Message, SqliteChats, bot_user
from devtools.botapi.emulator import BotApiEmulator
from devtools.botapi.faults import RateLimits
from devtools.botapi.faults import Reply as ApiError
from devtools.botapi.html import Parsed as Rendered
from devtools.botapi.methods import Query

GROUP_ID = -1001000000001
BOT_ID = 7_000_000_777
BOT_FIRST_NAME = "Coach Ride"
BOT_USERNAME = "coach_ride_local_bot"
MAX_EVENTS = 5000  # per page (each user's stream)
MAX_NAME = 32
# Seats a table gives out: a game seats ten, and every page keeps its own stream of the group's
# events, so a flood of joins (anyone on the network with HOST=0.0.0.0) stays bounded.
MAX_SEATS = 100

_SCHEMA = """
CREATE TABLE IF NOT EXISTS table_users (
    id INTEGER PRIMARY KEY, name TEXT NOT NULL, lang TEXT, secret TEXT NOT NULL,
    started INTEGER NOT NULL DEFAULT 0, joined REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS table_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""


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
class Stream:
    """The events one user's page may see, numbered in a sequence of that user's own: a number
    shared by the whole table would count the others' private messages (a window's prompts to
    its card's holders, R-D1) between two of one's own."""

    seq: int = 0
    events: deque[tuple[int, dict[str, Any]]] = field(
        default_factory=lambda: deque(maxlen=MAX_EVENTS)
    )

    def add(self, payload: dict[str, Any]) -> None:
        self.seq += 1
        self.events.append((self.seq, payload))


@dataclass(slots=True)
class _State:
    users: dict[int, User] = field(default_factory=dict)
    last_update_id: int = 0
    owner: int | None = None  # the group's creator: the first user to take a seat


class Table:
    def __init__(self, db_path: str, clock: Any = time.time, time_scale: float = 1.0) -> None:
        """``time_scale``: the game's (``GAME_TIME_SCALE``). The table's Telegram runs its rate
        limits on the game's time too: at 0.015 a group's minute of 20 sends and edits passes in
        0.9 s, as the bot's own group pacing (``handlers.group_board``) shrinks by the same
        factor; at 1 they are Telegram's."""
        self._clock = clock
        self._cond = threading.Condition()
        self._db = sqlite3.connect(db_path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA busy_timeout = 10000")
        self._db.executescript(_SCHEMA)
        self._state = self._load()
        self._streams: dict[int, Stream] = {}  # each user's events, by user id
        self.boot = secrets.token_hex(4)  # a page that saw another boot reloads its chats
        self.api = BotApiEmulator(
            chats=SqliteChats(self._db),
            directory=self,
            clock=clock,
            strict=False,
            limits=RateLimits(clock=clock, time_scale=time_scale),
            bot=BOT_USER,
            lock=self._cond,
        )
        self.api.listeners.append(self._changed)
        self.commands = self.api.commands  # the bot's menus, per (scope, language)

    # -- persistence ------------------------------------------------------------------------
    def _load(self) -> _State:
        state = _State()
        for uid, name, lang, secret, started, _ in self._db.execute(
            "SELECT * FROM table_users ORDER BY joined"
        ):
            state.users[uid] = User(uid, name, lang, secret, bool(started))
            state.owner = state.owner or uid
        row = self._db.execute("SELECT value FROM table_meta WHERE key = 'update_id'").fetchone()
        state.last_update_id = int(row[0]) if row else 0
        return state

    def _save_user(self, user: User) -> None:
        self._db.execute(
            "INSERT OR REPLACE INTO table_users VALUES (?, ?, ?, ?, ?, ?)",
            (user.id, user.name, user.lang, user.secret, int(user.started), self._clock()),
        )

    def _save_message(self, message: Message) -> None:
        self.api.chats.put(message)

    # -- users ------------------------------------------------------------------------------
    def join(self, name: str, lang: str | None, uid: int | None, secret: str | None) -> User:
        """A browser takes a seat, or takes back its own (``uid`` and its ``secret``). A new
        seat's id is the table's choice, never the browser's: not the bot's, nor anyone's."""
        # as Telegram keeps a name: on one line, with no control character (an escape sequence)
        name = " ".join("".join(c for c in name if c.isspace() or category(c) != "Cc").split())
        name = name[:MAX_NAME]
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
            if len(self._state.users) >= MAX_SEATS:
                raise ApiError(403, "Forbidden: every seat at this table is taken")
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
        return self.api.message_json(message)

    def may_write(self, chat_id: int) -> None:
        """Telegram's refusal when the bot may not write in the chat (the emulator asks)."""
        if chat_id == GROUP_ID:
            return
        user = self._state.users.get(chat_id)
        if user is None:
            raise ApiError(400, "Bad Request: chat not found")
        if not user.started:
            raise ApiError(403, "Forbidden: bot can't initiate conversation with a user")

    def snapshot(self, user: User) -> dict[str, Any]:
        """What ``user``'s page shows: the group, their private chat, where events go on."""
        with self._cond:
            return {
                "boot": self.boot,
                "seq": self._stream(user.id).seq,
                "members": len(self._state.users),
                "started": user.started,
                "group": [self._view(m) for m in self.api.messages_in(GROUP_ID)],
                "private": [self._view(m) for m in self.api.messages_in(user.id)],
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
            "markup": message.reply_markup,
            "edited": message.edits > 0,
        }

    def wake_pages(self) -> None:
        """Wake every waiting long poll to look again (one was superseded)."""
        with self._cond:
            self._cond.notify_all()

    def _audience(self, chat_id: int) -> int | None:
        return None if chat_id == GROUP_ID else chat_id

    def _stream(self, uid: int) -> Stream:
        return self._streams.setdefault(uid, Stream())

    def _publish(self, audience: int | None, payload: dict[str, Any]) -> None:
        """An event for one user's page, or (``audience`` None) for everyone's."""
        for uid in self._state.users if audience is None else (audience,):
            self._stream(uid).add(payload)
        self._cond.notify_all()

    def _add(self, chat_id: int, sender: int, shown: Rendered, markup: Any, text: str) -> Message:
        return self.api.add_message(chat_id, sender, shown, markup, text)

    def _changed(self, kind: str, what: Any) -> None:
        """The emulator changed a chat: tell the pages that show it (under the lock)."""
        if kind == "answer":
            query_id, query, params = what
            assert isinstance(query, Query)
            text, alert = params.get("text") or None, bool(params.get("show_alert"))
            self._publish(
                query.user_id, {"kind": "answer", "query": query_id, "text": text, "alert": alert}
            )
        elif kind == "delete":
            chat = "group" if what.chat_id == GROUP_ID else "private"
            event = {"kind": "delete", "chat": chat, "id": what.message_id}
            self._publish(self._audience(what.chat_id), event)
        else:
            event = {"kind": "message", "message": self._view(what)}
            self._publish(self._audience(what.chat_id), event)

    # -- the users' side (the page) ---------------------------------------------------------
    def _next_update(self, update: dict[str, Any]) -> None:
        self._state.last_update_id += 1
        update["update_id"] = self._state.last_update_id
        self._db.execute(
            "INSERT OR REPLACE INTO table_meta VALUES ('update_id', ?)",
            (str(self._state.last_update_id),),
        )
        self.api.queue_update(update, self._state.last_update_id)

    def user_says(self, user: User, chat: str, text: str, shown: str | None = None) -> int:
        """A message typed by ``user`` in the group or their private chat; its message id."""
        from devtools.localtable.telegram_html import plain

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
            message = self.api.chats.get(chat_id, message_id)
            markup = (message.reply_markup if message else None) or {}
            buttons = [b for row in markup.get("inline_keyboard", []) for b in row]
            if message is None or not any(b.get("callback_data") == data for b in buttons):
                raise ApiError(400, "Bad Request: no such button")
            query_id = secrets.token_hex(8)
            self.api.open_query(query_id, user.id)
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
        self.api.wake()

    def take_updates(self, offset: int, limit: int, timeout: float) -> list[dict[str, Any]]:
        """``getUpdates``: drop the confirmed ones, wait up to ``timeout`` for new ones."""
        params = {"offset": offset, "limit": limit, "timeout": timeout}
        return list(self.api.call("getUpdates", params)[1]["result"])

    def events_for(
        self, user: User, after: int, timeout: float, superseded: Callable[[], bool] = lambda: False
    ) -> dict[str, Any]:
        """The events ``user`` may see after ``after`` (a number of their own stream); waits up
        to ``timeout`` for one, or until ``superseded()`` (woken by ``wake_pages``)."""
        deadline = time.monotonic() + timeout
        with self._cond:
            stream = self._stream(user.id)
            while True:
                if superseded():
                    return {"boot": self.boot, "superseded": True}
                if (stream.events and after < stream.events[0][0] - 1) or after > stream.seq:
                    return {"resync": True, "boot": self.boot}
                mine = [payload for seq, payload in stream.events if seq > after]
                left = deadline - time.monotonic()
                if mine or left <= 0:
                    return {"boot": self.boot, "seq": stream.seq, "events": mine}
                self._cond.wait(left)


BOT_USER: dict[str, Any] = bot_user(BOT_ID, BOT_USERNAME)
