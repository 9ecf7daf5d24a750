"""A newcomer sets up the local table's first game: a lobby, /settings, a few deadlines made
longer one press at a time, then the 🤖 number, all within a minute. Telegram counts a group's
edits in its 20 messages a minute, so the menu's edit is held after about ten presses and the
menu shows older settings meanwhile. Found playing the local table: the 🤖 4 pressed then was
answered "That button is no longer active.", the game started without its AI passengers."""

from __future__ import annotations

from typing import Any

from devtools.botapi.emulator import BotApiEmulator
from handlers.i18n import t
from tests.service.group_chat import ADMIN, GROUP, Group
from tests.service.test_rooms import button, settings_of


def limited_group() -> Group:
    """A group whose Bot API keeps Telegram's rate limits on the test's clock."""
    g = Group()
    g.messenger.api = BotApiEmulator(clock=g.clock.now, limits=True)
    return g


def press_shown(g: Group, menu: Any, ending: str) -> None:
    """A press on the menu's button as the chat shows it now, 1.2 s after the last."""
    g.clock.advance(1.2)
    g.press(ADMIN, "en", menu.message_id, button(menu, ending))


def test_the_ai_fill_pressed_on_a_menu_telegram_holds_back_is_saved() -> None:
    g = limited_group()
    g.say(ADMIN, "en", "/newgame")
    g.say(ADMIN, "en", "/settings")
    menu = g.last()
    for _ in range(6):
        press_shown(g, menu, ":d.turn")
    for _ in range(4):
        press_shown(g, menu, ":d.trade")
    shown = button(menu, ":d.trade")
    press_shown(g, menu, ":d.support")
    assert button(menu, ":d.trade") == shown, "Telegram let every edit through: no test"
    press_shown(g, menu, ":ai_fill.4")
    assert g.answer() == (t("en", "settings.saved"), False)
    assert settings_of(g).ai_fill == 4


def test_a_cycling_button_pressed_again_on_a_menu_behind_is_still_stale() -> None:
    """ "Turn 60s" pressed twice on a menu that still shows 60 s would skip 90 s unseen."""
    g = Group()
    g.say(ADMIN, "en", "/settings")
    menu = g.last()
    turn, trade = button(menu, ":d.turn"), button(menu, ":d.trade")
    g.press(ADMIN, "en", menu.message_id, turn)
    seconds = settings_of(g).seconds("turn")
    g.press(ADMIN, "en", menu.message_id, turn)  # the menu as it was before the edit
    assert g.answer() == (t("en", "bot.stale"), False)
    assert settings_of(g).seconds("turn") == seconds
    g.press(ADMIN, "en", menu.message_id, trade)  # another setting: what its label says
    assert g.answer() == (t("en", "settings.saved"), False)
    assert settings_of(g).seconds("trade") > 30


def test_start_on_a_lobby_telegram_holds_back_starts_the_game() -> None:
    """The newcomer's next press: Join, then Start on the lobby as the group shows it. Its
    edits wait for Telegram (the group held for half a minute), so it shows neither the new
    settings nor the newcomer; the Start is the bot's own lag, not the newcomer's mistake:
    it starts the game (before, "That button is no longer active." until the hold ended)."""
    g = limited_group()
    g.say(ADMIN, "en", "/newgame")
    lobby = g.last()
    g.say(ADMIN, "en", "/settings")
    menu = g.last()
    for ending in (":d.turn", ":d.turn", ":d.turn", ":d.support", ":d.boost", ":d.boost"):
        press_shown(g, menu, ending)
    for ending in (":d.window", ":d.window", ":ai_fill.4"):
        press_shown(g, menu, ending)
    g.join(ADMIN)
    assert "P1" not in lobby.text, "Telegram let every edit through: no test"
    g.clock.advance(1.2)
    g.press(ADMIN, "en", lobby.message_id, button(lobby, ":start"))
    game = g.game()
    assert game["phase"] == "playing"
    assert len(game["players"]) == 4


NEWCOMER = (":d.turn", ":d.turn", ":d.turn", ":d.support", ":d.boost", ":d.boost", ":d.window")


def test_a_newcomers_setup_and_start_keep_the_group_under_telegrams_limit() -> None:
    """Seven deadlines and the 🤖 number within 12 s, Join and Start: each press edits the
    menu and used to edit the lobby too (two of the group's 20 messages a minute), so Telegram
    held the group for 37 s and the coach departed that much later. The lobby now shows a
    burst of settings changes once it is over; the game's first messages go at once."""
    g = limited_group()
    g.say(ADMIN, "en", "/newgame")
    lobby = g.last()
    g.say(ADMIN, "en", "/settings")
    menu = g.last()
    for ending in (*NEWCOMER, ":ai_fill.4"):
        press_shown(g, menu, ending)
    g.join(ADMIN)
    g.clock.advance(1.2)
    g.press(ADMIN, "en", lobby.message_id, button(lobby, ":start"))
    assert g.game()["phase"] == "playing"
    floods = [e for e in g.messenger.api.errors if e[1] == 429]
    assert floods == []
    departs = t("en", "game.seats.title")
    assert any(departs in m.text for m in g.messenger.in_chat(GROUP))


def test_the_lobby_shows_a_burst_of_settings_once_it_is_over() -> None:
    g = limited_group()
    g.say(ADMIN, "en", "/newgame")
    lobby = g.last()
    g.say(ADMIN, "en", "/settings")
    menu = g.last()
    for ending in NEWCOMER:
        press_shown(g, menu, ending)
    g.clock.advance(15.0)
    g.fire_timers()
    assert "turn 10 min" in lobby.text and settings_of(g).seconds("turn") == 600


def test_leave_on_a_lobby_whose_settings_edit_waits_takes_the_player_out() -> None:
    g = Group()
    g.say(ADMIN, "en", "/newgame")
    lobby = g.last()
    g.join(3)
    g.say(ADMIN, "en", "/settings")
    g.press(ADMIN, "en", g.last().message_id, button(g.last(), ":smuggling"))
    g.press(3, "en", lobby.message_id, button(lobby, ":leave"))  # shown before the change
    assert g.game()["players"] == []


def test_a_settings_menu_keeps_its_language_at_the_first_press_in_a_new_group() -> None:
    """A German newcomer's first /settings (the empty group's hint names it) is German; its
    first press turned it English, the group's default, as nobody had chosen a language."""
    g = Group()
    g.say(3, "de", "/settings")
    menu = g.last()
    assert menu.text.startswith(t("de", "settings.title"))
    g.press(3, "de", menu.message_id, button(menu, ":smuggling"))
    assert menu.text.startswith(t("de", "settings.title"))
    assert settings_of(g).smuggling and settings_of(g).language == "de"
