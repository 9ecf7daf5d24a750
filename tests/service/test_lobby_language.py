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


def test_language_buttons_mark_the_current_one_and_a_switch_in_game_says_what_follows() -> None:
    """Issue 25: the 🌐 buttons did not mark the current language, and switching it in a running
    game changed nothing visible and said nothing."""
    from tests.service.service_game import ServiceGame

    table = ServiceGame(n=3)
    table.start()
    uid = table.uids[1]
    table.message(uid, uid, "/language")
    menu = table.messenger.in_chat(uid)[-1]
    labels = [b[0] for row in menu.rows or [] for b in row]
    assert t("en", "language.current", name=t("en", "language.name")) in labels
    assert t("de", "language.name") in labels  # the others as they are
    german = next(b[2] for row in menu.rows or [] for b in row if b[0] == t("de", "language.name"))
    table.press(uid, menu.message_id, german)
    done = table.messenger.messages[(uid, menu.message_id)].text
    assert t("de", "language.set") in done and t("de", "language.set_in_game") in done


def test_the_lobby_shows_the_seats_that_will_play_and_settings_mark_the_language() -> None:
    """Issue 25: "Passengers (1/10)" while the AI fill was 5; the 🌐 buttons of /settings did
    not mark the current language."""
    g = Group()
    g.say(2, "en", "/newgame")
    lobby = g.last()
    g.say(2, "en", "/settings")
    menu = g.last()
    labels = [b[0] for row in menu.rows or [] for b in row]
    assert f"✅ {t('en', 'language.name')}" in labels and f"🌐 {t('de', 'language.name')}" in labels
    fill = next(b[2] for row in menu.rows or [] for b in row if ":ai_fill" in b[2])
    while t("en", "lobby.ai_seat") not in lobby.text:
        g.press(2, "en", menu.message_id, fill)
        menu = g.last() if g.last().message_id != lobby.message_id else menu
        fill = next(b[2] for row in menu.rows or [] for b in row if ":ai_fill" in b[2])
    ai = lobby.text.count(t("en", "lobby.ai_seat"))  # nobody boarded: every seat an AI's
    assert ai >= 3 and t("en", "lobby.players_ai", count=ai, max=10, ai=ai) in lobby.text
