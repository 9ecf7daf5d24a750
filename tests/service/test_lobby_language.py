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
    g.press(2, "en", menu.message_id, _button(menu, ":ai_fill.3"))
    ai = lobby.text.count(t("en", "lobby.ai_seat"))  # nobody boarded: every seat an AI's
    assert ai == 3 and t("en", "lobby.players_ai", count=ai, max=10, ai=ai) in lobby.text


def _button(message: object, ending: str) -> str:
    rows = getattr(message, "rows", None) or []
    return next(b[2] for row in rows for b in row if b[2].endswith(ending))


def test_issue_25_with_no_game_open_any_member_sets_the_groups_settings_and_language() -> None:
    """A member who was not an admin got "only the game's creator" while no game existed."""
    g = Group()
    g.say(3, "en", "/settings")
    g.press(3, "en", g.last().message_id, _button(g.last(), ":smuggling"))
    assert g.answer() == (t("en", "settings.saved"), False)
    g.say(3, "en", "/language")
    g.press(3, "en", g.last().message_id, f"G:{GROUP}:de")
    assert g.answer() == (t("de", "language.set"), False)
    g.say(2, "en", "/newgame")  # a game is open: its creator and the admins now
    g.say(3, "en", "/settings")
    g.press(3, "en", g.last().message_id, _button(g.last(), ":smuggling"))
    assert g.answer() == (t("en", "settings.only_admin"), True)


def test_issue_25_five_ai_seats_take_one_press() -> None:
    """The AI fill was one button stepping 0, 3, 4, 5: three presses to reach 5."""
    g = Group()
    g.say(2, "en", "/newgame")
    lobby = g.last()
    g.say(2, "en", "/settings")
    menu = g.last()
    g.press(2, "en", menu.message_id, _button(menu, ":ai_fill.5"))
    assert lobby.text.count(t("en", "lobby.ai_seat")) == 5
    labels = [b[0] for row in menu.rows or [] for b in row]
    assert "✅ 5" in labels, labels


def test_issue_25_settings_under_an_open_lobby_are_not_printed_twice() -> None:
    """The lobby lists the settings; /settings under it printed the same block again."""
    g = Group()
    g.say(2, "en", "/newgame")
    g.say(2, "en", "/settings")
    smuggling = t("en", "settings.smuggling", value=t("en", "settings.off"))
    shown = [m.text for m in g.messenger.in_chat(GROUP)]
    assert sum(text.count(smuggling) for text in shown) == 1, shown
    assert t("en", "settings.in_lobby") in shown[-1]
    g.press(2, "en", g.last().message_id, _button(g.last(), ":smuggling"))
    shown = [m.text for m in g.messenger.in_chat(GROUP)]
    on = t("en", "settings.smuggling", value=t("en", "settings.on"))
    assert sum(text.count(on) for text in shown) == 1, shown


def test_issue_25_a_lobby_over_no_longer_invites_to_join() -> None:
    """Read in a whole game: "Tap Join to board … the lobby closes after 15 min" stayed above
    "The coach has left!"; a cancelled lobby kept it too."""
    from tests.service.service_game import ServiceGame

    table = ServiceGame(n=3)
    table.start()
    lobby = table.messenger.in_chat(-1001)[0]
    join = t("en", "lobby.how_to_join", minutes=15)[:20]
    assert join not in lobby.text and lobby.text.endswith(t("en", "lobby.started"))
    g = Group()
    g.say(2, "en", "/newgame")
    cancelled = g.last()
    assert join in cancelled.text
    g.say(2, "en", "/cancel")
    assert join not in cancelled.text and t("en", "lobby.cancelled") in cancelled.text


def test_issue_25_the_groups_language_switched_mid_game_follows_into_the_running_game() -> None:
    """The newcomer's game: /settings → Deutsch while playing turned only the settings message
    German; the story, the status and the game's end stayed English, with no word."""
    from tests.service.service_game import GROUP as TABLE
    from tests.service.service_game import ServiceGame

    table = ServiceGame(n=3)
    table.start()
    creator = table.uids[0]
    table.message(creator, TABLE, "/language")
    menu = table.messenger.in_chat(TABLE)[-1]
    press = {
        "update_id": 990,
        "callback_query": {
            "id": "q-group",
            "from": {"id": creator, "is_bot": False, "first_name": "P0", "language_code": "en"},
            "chat_instance": "g",
            "data": f"G:{TABLE}:de",
            "message": {
                "message_id": menu.message_id,
                "date": 0,
                "chat": {"id": TABLE, "type": "supergroup"},
            },
        },
    }
    table.service.handle_update(table.messenger.pressed(press))
    chat = table.store.get(f"CHAT#{TABLE}")
    assert chat is not None and chat.doc["settings"]["language"] == "de"  # the press counted
    assert table.doc()["settings"]["language"] == "de"
    table.attack()  # the game goes on: what the group is shown next speaks German
    table.flush_group()
    shown = "\n".join(table.group_texts())
    assert "<b>Runde " in shown and "⚔️" in shown, shown


def test_a_group_without_settings_answers_a_command_in_the_senders_language() -> None:
    """A Chinese newcomer's first /help and /rules at a new table were answered in English (the
    group's default) while the page and the command menu spoke Chinese; until the group has
    settings (a lobby's creator's language, or a choice) the sender's language answers."""
    g = Group()
    g.say(2, "zh-hans", "/help")
    assert g.last().text == t("zh-Hans", "help.group")
    g.say(3, "de", "/newgame")  # the lobby takes its creator's language: the group's now
    g.say(2, "zh-hans", "/help")
    assert g.last().text == t("de", "help.group")
