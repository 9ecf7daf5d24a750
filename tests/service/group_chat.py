"""A bot wired to in-memory fakes, driven as a group chat and its members' private chats."""

from __future__ import annotations

import itertools
from typing import Any

from devtools.botapi.messenger import EmulatedMessenger
from devtools.fakes import FakeClock, FakeTimers
from devtools.memory_store import MemoryStore
from handlers.app import CoachRideBot

GROUP = -1002
ADMIN = 1


class Group:
    def __init__(self) -> None:
        self.clock = FakeClock()
        self.messenger = EmulatedMessenger()
        self.store = MemoryStore(clock=self.clock)
        self.timers = FakeTimers()
        self.service = CoachRideBot(
            self.store,
            self.messenger,
            self.timers,
            self.clock,
            bot_username="test_bot",
            is_admin=lambda chat, uid: uid == ADMIN,
        )
        self.ids = itertools.count(1)

    def _user(self, uid: int, lang: str) -> dict[str, Any]:
        return {"id": uid, "is_bot": False, "first_name": f"P{uid}", "language_code": lang}

    def say(self, uid: int, lang: str, text: str, chat: int = GROUP) -> None:
        """``uid`` writes ``text`` in the group (or, with ``chat=uid``, to the bot)."""
        update_id = next(self.ids)
        self.service.handle_update(
            {
                "update_id": update_id,
                "message": {
                    "message_id": update_id,
                    "date": 0,
                    "chat": {"id": chat, "type": "private" if chat > 0 else "supergroup"},
                    "from": self._user(uid, lang),
                    "text": text,
                },
            }
        )

    def press(self, uid: int, lang: str, message_id: int, data: str, chat: int = GROUP) -> None:
        update_id = next(self.ids)
        update = {
            "update_id": update_id,
            "callback_query": {
                "id": f"q{update_id}",
                "from": self._user(uid, lang),
                "chat_instance": "g",
                "data": data,
                "message": {
                    "message_id": message_id,
                    "date": 0,
                    "chat": {"id": chat, "type": "private" if chat > 0 else "supergroup"},
                },
            },
        }
        self.service.handle_update(self.messenger.pressed(update))

    def last(self, chat: int = GROUP) -> Any:
        return self.messenger.in_chat(chat)[-1]

    def answer(self) -> tuple[str | None, bool]:
        """The text and alert flag of the newest callback answer."""
        _, text, alert = self.messenger.answers[-1]
        return text, alert

    def gid(self) -> str:
        chat = self.store.get(f"CHAT#{GROUP}")
        assert chat is not None
        return str(chat.doc["game"])

    def game(self, gid: str | None = None) -> dict[str, Any]:
        got = self.store.get(f"GAME#{gid or self.gid()}")
        assert got is not None
        return got.doc

    def join(self, uid: int, lang: str = "en") -> None:
        self.say(uid, lang, f"/start {self.gid()}", chat=uid)

    def fire_timers(self) -> None:
        for request in self.timers.pop_due(self.clock.now()):
            self.service.handle_timer(request)
