"""Issue 9: a new lobby speaks its creator's Telegram language until the group picks one
(/settings or /language); after that every lobby keeps the group's choice."""

from __future__ import annotations

import itertools
from typing import Any

from handlers.app import Service
from handlers.i18n import t
from infra.memory_messenger import MemoryMessenger
from infra.memory_store import MemoryStore
from infra.timers import FakeClock, FakeTimers

GROUP = -1002
ADMIN = 1


class Group:
    def __init__(self) -> None:
        self.clock = FakeClock()
        self.messenger = MemoryMessenger()
        self.store = MemoryStore(clock=self.clock)
        self.service = Service(
            self.store,
            self.messenger,
            FakeTimers(),
            self.clock,
            bot_username="test_bot",
            is_admin=lambda chat, uid: uid == ADMIN,
        )
        self.ids = itertools.count(1)

    def _user(self, uid: int, lang: str) -> dict[str, Any]:
        return {"id": uid, "is_bot": False, "first_name": f"P{uid}", "language_code": lang}

    def say(self, uid: int, lang: str, text: str) -> None:
        update_id = next(self.ids)
        self.service.handle_update(
            {
                "update_id": update_id,
                "message": {
                    "message_id": update_id,
                    "date": 0,
                    "chat": {"id": GROUP, "type": "supergroup"},
                    "from": self._user(uid, lang),
                    "text": text,
                },
            }
        )

    def press(self, uid: int, lang: str, message_id: int, data: str) -> None:
        update_id = next(self.ids)
        self.service.handle_update(
            {
                "update_id": update_id,
                "callback_query": {
                    "id": f"q{update_id}",
                    "from": self._user(uid, lang),
                    "chat_instance": "g",
                    "data": data,
                    "message": {
                        "message_id": message_id,
                        "date": 0,
                        "chat": {"id": GROUP, "type": "supergroup"},
                    },
                },
            }
        )

    def last(self) -> Any:
        return self.messenger.in_chat(GROUP)[-1]


def test_a_new_lobby_takes_the_creators_language_until_the_group_chooses_one() -> None:
    g = Group()
    g.say(1, "zh-hans", "/newgame")
    assert g.last().text.startswith(t("zh-Hans", "lobby.title"))
    g.say(1, "zh-hans", "/cancel")
    g.say(2, "de", "/newgame")  # nobody chose: the next creator's language
    lobby = g.last()
    assert lobby.text.startswith(t("de", "lobby.title"))
    g.say(2, "de", "/settings")
    settings_msg = g.last()
    assert settings_msg.text.startswith(t("de", "settings.title"))
    g.press(2, "de", settings_msg.message_id, f"S:{GROUP}:lang.en")
    assert lobby.text.startswith(t("en", "lobby.title"))  # the open lobby follows at once
    g.say(2, "de", "/cancel")
    g.say(3, "zh-hans", "/newgame")  # the group's choice now outranks the creator's
    assert g.last().text.startswith(t("en", "lobby.title"))


def test_language_command_in_the_group_is_a_choice_too() -> None:
    g = Group()
    g.say(ADMIN, "en", "/language")
    g.press(ADMIN, "en", g.last().message_id, f"G:{GROUP}:de")
    g.say(2, "zh-hans", "/newgame")
    assert g.last().text.startswith(t("de", "lobby.title"))
