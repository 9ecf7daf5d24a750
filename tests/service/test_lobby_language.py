"""Issue 9: a new lobby speaks its creator's Telegram language until the group picks one
(/settings or /language); after that every lobby keeps the group's choice."""

from __future__ import annotations

from handlers.i18n import t
from tests.service.group_chat import ADMIN, GROUP, Group


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
