"""Issue 13: the lobby, settings, language and info commands, each through the whole bot
(parse, command table, room, pipeline, delivery) against in-memory fakes."""

from __future__ import annotations

from typing import Any

from engine.setup import MAX_PLAYERS, MIN_PLAYERS
from handlers.group_settings import DEADLINE_CHOICES, GroupSettings
from handlers.i18n import t
from handlers.lobby_view import SETTINGS_SETTLE_SECONDS
from handlers.store_keys import chat_key
from infra.ports import Put
from tests.service.group_chat import ADMIN, GROUP, Group

CREATOR = 2
PLAYER = 3


def lobby_group() -> Group:
    g = Group()
    g.say(CREATOR, "en", "/newgame")
    return g


# -- the lobby ----------------------------------------------------------------------------------
def test_a_second_newgame_while_a_lobby_is_open_is_refused() -> None:
    g = lobby_group()
    gid = g.gid()
    g.say(PLAYER, "en", "/newgame")
    assert g.last().text == t("en", "lobby.already_running")
    assert g.gid() == gid


def test_joining_lists_the_player_once_and_a_full_coach_takes_nobody_more() -> None:
    g = lobby_group()
    lobby = g.last()
    g.join(PLAYER)
    assert g.last(PLAYER).text == t("en", "lobby.joined")
    assert f"P{PLAYER}" in lobby.text  # the lobby message is edited in place
    g.join(PLAYER)
    assert g.last(PLAYER).text == t("en", "lobby.already_joined")
    for uid in range(10, 10 + MAX_PLAYERS - 1):
        g.join(uid)
    late = 99
    g.join(late)
    assert g.last(late).text == t("en", "lobby.full")
    assert [p["uid"] for p in g.game()["players"]].count(PLAYER) == 1
    assert len(g.game()["players"]) == MAX_PLAYERS


def test_the_leave_button_takes_the_player_out_of_the_lobby() -> None:
    g = lobby_group()
    lobby = g.last()
    g.join(PLAYER)
    g.press(PLAYER, "en", lobby.message_id, f"L:{g.gid()}:leave")
    assert f"P{PLAYER}" not in lobby.text
    assert g.game()["players"] == []
    user = g.store.get(f"USER#{PLAYER}")
    assert user is not None and user.doc["game"] is None  # free to join another game


def test_only_the_creator_or_an_admin_starts_and_only_with_enough_passengers() -> None:
    g = lobby_group()
    lobby = g.last()
    g.join(PLAYER)
    g.say(PLAYER, "en", "/startgame")
    assert g.last().text == t("en", "lobby.only_creator")
    g.press(PLAYER, "en", lobby.message_id, f"L:{g.gid()}:start")
    assert g.answer() == (t("en", "lobby.only_creator"), True)
    g.say(CREATOR, "en", "/startgame")
    assert g.last().text == t("en", "lobby.too_few", min=MIN_PLAYERS)
    g.press(ADMIN, "en", lobby.message_id, f"L:{g.gid()}:start")
    assert g.answer() == (t("en", "lobby.too_few", min=MIN_PLAYERS), True)
    assert g.game()["phase"] == "lobby"
    for uid in (4, 5):
        g.join(uid)
    g.press(ADMIN, "en", lobby.message_id, f"L:{g.gid()}:start")  # an admin may start it
    assert g.game()["phase"] == "playing"


def test_cancel_is_for_the_creator_and_frees_the_group_for_a_new_game() -> None:
    g = lobby_group()
    gid = g.gid()
    g.say(PLAYER, "en", "/cancel")
    assert g.last().text == t("en", "lobby.only_creator")
    assert g.game()["phase"] == "lobby"
    g.say(CREATOR, "en", "/cancel")
    assert g.last().text == t("en", "lobby.cancelled")
    g.say(PLAYER, "en", "/newgame")
    assert g.gid() != gid
    g.say(PLAYER, "en", "/cancel")
    g.say(PLAYER, "en", "/cancel")
    assert g.last().text == t("en", "lobby.no_game")


def test_startgame_without_a_lobby_says_to_open_one() -> None:
    g = Group()
    g.say(CREATOR, "en", "/startgame")
    assert g.last().text == t("en", "lobby.no_lobby")


def test_a_lobby_nobody_touches_expires_by_its_timer() -> None:
    g = lobby_group()
    g.join(PLAYER)
    gid = g.gid()
    minutes = GroupSettings().lobby_minutes
    g.clock.advance(minutes * 60 - 5)
    g.fire_timers()
    assert g.game(gid)["phase"] == "lobby"
    g.clock.advance(10)
    g.fire_timers()
    assert g.game(gid)["phase"] == "cancelled"
    assert g.last().text == t("en", "lobby.expired")


# -- /settings ----------------------------------------------------------------------------------
def settings_of(g: Group) -> GroupSettings:
    chat = g.store.get(chat_key(GROUP))
    assert chat is not None
    return GroupSettings.model_validate(chat.doc["settings"])


def test_settings_buttons_change_the_setting_for_a_manager_only() -> None:
    g = lobby_group()
    g.say(PLAYER, "en", "/settings")
    menu = g.last()
    assert menu.text.startswith(t("en", "settings.title"))
    before = settings_of(g).smuggling
    g.press(PLAYER, "en", menu.message_id, f"S:{GROUP}:smuggling")
    assert g.answer() == (t("en", "settings.only_admin"), True)
    assert settings_of(g).smuggling is before
    g.press(CREATOR, "en", menu.message_id, f"S:{GROUP}:smuggling")
    assert g.answer() == (t("en", "settings.saved"), False)
    assert settings_of(g).smuggling is not before
    state = t("en", "settings.on" if not before else "settings.off")
    assert f"{'✅' if not before else '▫️'} {t('en', 'settings.button.smuggling')}" in [
        b[0] for row in menu.rows for b in row
    ]  # the menu's button shows it, the lobby lists it once a burst of changes is over
    g.clock.advance(SETTINGS_SETTLE_SECONDS)
    g.fire_timers()
    assert t("en", "settings.smuggling", value=state) in g.messenger.in_chat(GROUP)[0].text


def test_a_deadline_button_steps_through_its_choices_and_wraps_around() -> None:
    g = Group()
    g.say(ADMIN, "en", "/settings")
    menu = g.last()
    choices = DEADLINE_CHOICES["turn"]
    seen = []
    for _ in choices:
        g.press(ADMIN, "en", menu.message_id, f"S:{GROUP}:d.turn")
        seen.append(settings_of(g).seconds("turn"))
    assert sorted(seen) == sorted(choices)


def test_settings_buttons_of_another_chat_or_unknown_do_nothing() -> None:
    g = Group()
    g.say(ADMIN, "en", "/settings")
    menu = g.last()
    g.press(ADMIN, "en", menu.message_id, f"S:{GROUP - 1}:smuggling")
    assert g.answer() == (None, False)
    g.press(ADMIN, "en", menu.message_id, f"S:{GROUP}:no_such_setting")
    assert g.answer() == (None, False)
    assert g.store.get(chat_key(GROUP)) is None  # nothing was saved


# -- /language -----------------------------------------------------------------------------------
def test_a_players_own_language_answers_their_private_commands() -> None:
    g = Group()
    g.say(PLAYER, "en", "/language", chat=PLAYER)
    choose = g.last(PLAYER)
    assert choose.text == t("en", "language.choose")
    assert "G:u:de" in [b[2] for row in choose.rows for b in row]
    g.press(PLAYER, "en", choose.message_id, "G:u:de", chat=PLAYER)
    assert choose.text == t("de", "language.set")
    g.say(PLAYER, "en", "/help", chat=PLAYER)
    assert g.last(PLAYER).text == t("de", "help.private")


def test_the_groups_language_is_a_setting_for_managers() -> None:
    g = lobby_group()
    g.say(PLAYER, "en", "/language")
    choose = g.last()
    g.press(PLAYER, "en", choose.message_id, f"G:{GROUP}:de")
    assert g.answer() == (t("en", "settings.only_admin"), True)
    assert settings_of(g).language == "en"
    g.press(CREATOR, "en", choose.message_id, f"G:{GROUP}:de")
    assert settings_of(g).language == "de"
    g.say(PLAYER, "en", "/help")
    assert g.last().text == t("de", "help.group")


# -- information ---------------------------------------------------------------------------------
def test_scores_list_the_groups_totals_best_first() -> None:
    g = Group()
    g.say(PLAYER, "en", "/scores")
    assert g.last().text == t("en", "scores.none")
    scores = {
        "7": {"name": "Ann <b>", "points": 3, "games": 2},
        "8": {"name": "Bob", "points": 9, "games": 4},
    }
    doc = {"settings": {}, "scores": scores, "game": None}
    g.store.commit([Put(chat_key(GROUP), doc, None)])
    g.say(PLAYER, "en", "/scores")
    lines = g.last().text.split("\n")
    assert lines[0] == t("en", "scores.title")
    assert lines[1:] == [
        t("en", "scores.line", rank=1, name="Bob", points=9, games=4),
        t("en", "scores.line", rank=2, name="Ann &lt;b&gt;", points=3, games=2),
    ]


def test_status_tells_the_lobby_or_that_no_game_runs() -> None:
    g = Group()
    g.say(PLAYER, "en", "/status")
    assert g.last().text == t("en", "lobby.no_game")
    g.say(CREATOR, "en", "/newgame")
    lobby = g.last()
    g.say(PLAYER, "en", "/status")
    assert g.last().text == lobby.text and g.last().message_id != lobby.message_id


def test_commands_in_the_wrong_kind_of_chat_say_where_they_work() -> None:
    g = Group()
    g.say(PLAYER, "en", "/newgame", chat=PLAYER)
    assert g.last(PLAYER).text == t("en", "bot.only_group", command="newgame", bot="test_bot")
    g.say(PLAYER, "en", "/notes")
    assert g.last().text == t("en", "bot.only_private", command="notes", bot="test_bot")


# -- stale lobby and settings messages (their buttons carry the version they show) -------------
def button(message: Any, ending: str) -> str:
    """The callback data of the message's button whose data ends with ``ending``."""
    return next(b[2] for row in message.rows for b in row if b[2].endswith(ending))


def test_a_start_press_on_a_lobby_message_showing_other_players_is_stale_and_not_applied() -> None:
    g = lobby_group()
    lobby = g.last()
    for uid in (PLAYER, 4):
        g.join(uid)
    shown_before = button(lobby, ":start")  # the lobby as it was with two players
    g.join(5)
    assert button(lobby, ":start") != shown_before  # the message now carries the new version
    g.press(CREATOR, "en", lobby.message_id, shown_before)
    assert g.answer() == (t("en", "bot.stale"), False)
    assert g.game()["phase"] == "lobby"
    g.press(CREATOR, "en", lobby.message_id, button(lobby, ":start"))
    assert g.game()["phase"] == "playing"


def test_a_leave_press_on_a_stale_lobby_message_leaves_nobody() -> None:
    g = lobby_group()
    lobby = g.last()
    g.join(PLAYER)
    stale = button(lobby, ":leave")
    g.say(CREATOR, "en", "/settings")
    g.press(CREATOR, "en", g.last().message_id, button(g.last(), ":smuggling"))
    g.clock.advance(SETTINGS_SETTLE_SECONDS)
    g.fire_timers()
    assert button(lobby, ":leave") != stale  # the lobby shows the new settings
    g.press(PLAYER, "en", lobby.message_id, stale)
    assert g.answer() == (t("en", "bot.stale"), False)
    assert [p["uid"] for p in g.game()["players"]] == [PLAYER]


def test_a_press_on_a_settings_menu_showing_older_settings_is_stale_and_not_applied() -> None:
    g = Group()
    g.say(ADMIN, "en", "/settings")
    first = g.last()
    g.say(ADMIN, "en", "/settings")
    second = g.last()
    g.press(ADMIN, "en", second.message_id, button(second, ":smuggling"))
    after_one_toggle = settings_of(g)
    g.press(ADMIN, "en", first.message_id, button(first, ":smuggling"))  # the old menu
    assert g.answer() == (t("en", "bot.stale"), False)
    assert settings_of(g) == after_one_toggle  # not toggled back
    g.press(ADMIN, "en", second.message_id, button(second, ":smuggling"))  # the edited menu
    assert g.answer() == (t("en", "settings.saved"), False)
    assert settings_of(g).smuggling is not after_one_toggle.smuggling


# -- reads inside the command's unit of work -------------------------------------------------------
def test_newgame_checks_for_a_running_game_in_the_unit_that_points_the_group_at_its_lobby() -> None:
    """Two /newgame at once: the one that commits second reads the group again and refuses
    (its check and its write are one unit), so the group never has two lobbies."""
    g = Group()
    racing = {"done": False}

    def other_newgame_first(writes: Any, update_id: int | None) -> None:
        if not racing["done"] and any(w.key.startswith("GAME#") for w in writes):
            racing["done"] = True
            g.say(PLAYER, "en", "/newgame")  # commits between this command's read and write

    g.store.before_commit = other_newgame_first
    g.say(CREATOR, "en", "/newgame")
    lobbies = [m for m in g.messenger.in_chat(GROUP) if m.text.startswith(t("en", "lobby.title"))]
    assert len(lobbies) == 1
    assert g.last().text == t("en", "lobby.already_running")
    assert g.game()["creator"] == PLAYER


def test_a_settings_press_checks_who_manages_in_the_unit_that_saves_it() -> None:
    """With no game open any member may change settings (issue 25); once a game is opened by
    someone else between the press's read and its write, the press reruns and is refused."""
    g = Group()
    g.say(PLAYER, "en", "/settings")
    menu = g.last()
    before = GroupSettings().smuggling  # the group's, never saved yet
    racing = {"done": False}

    def creator_opens_first(writes: Any, update_id: int | None) -> None:
        if not racing["done"] and any(w.key == chat_key(GROUP) for w in writes):
            racing["done"] = True
            g.say(CREATOR, "en", "/newgame")

    g.store.before_commit = creator_opens_first
    g.press(PLAYER, "en", menu.message_id, button(menu, ":smuggling"))
    assert g.answer() == (t("en", "settings.only_admin"), True)
    assert settings_of(g).smuggling is before


def test_a_player_in_another_groups_open_game_is_refused_until_they_leave_it() -> None:
    g = lobby_group()
    first_lobby = g.last()
    g.join(PLAYER)
    other_group = GROUP - 1
    g.say(ADMIN, "en", "/newgame", chat=other_group)
    other = g.store.get(chat_key(other_group))
    assert other is not None
    other_gid = other.doc["game"]
    g.say(PLAYER, "en", f"/start {other_gid}", chat=PLAYER)
    assert g.last(PLAYER).text == t("en", "lobby.in_other_game")
    assert g.game(other_gid)["players"] == []
    g.press(PLAYER, "en", first_lobby.message_id, button(first_lobby, ":leave"))
    g.say(PLAYER, "en", f"/start {other_gid}", chat=PLAYER)
    assert g.last(PLAYER).text == t("en", "lobby.joined")
    assert [p["uid"] for p in g.game(other_gid)["players"]] == [PLAYER]


# -- commands sent on behalf of a chat (an anonymous administrator, a channel) ---------------------
ANONYMOUS_BOT = {
    "id": 1087968824,
    "is_bot": True,
    "first_name": "Group",
    "username": "GroupAnonymousBot",
}


def say_anonymously(g: Group, text: str, update_id: int) -> None:
    """As Telegram delivers an anonymous administrator's message: from GroupAnonymousBot, with
    the group itself as ``sender_chat``."""
    chat = {"id": GROUP, "type": "supergroup", "title": "Coach"}
    g.service.handle_update(
        {
            "update_id": update_id,
            "message": {
                "message_id": update_id,
                "date": 0,
                "chat": chat,
                "from": ANONYMOUS_BOT,
                "sender_chat": chat,
                "text": text,
            },
        }
    )


def test_an_anonymous_administrators_command_is_answered_with_why_nobody_plays_as_a_group() -> None:
    g = Group()
    say_anonymously(g, "/newgame@test_bot", 900)
    assert g.last().text == t("en", "bot.anonymous_sender", command="newgame")
    assert (
        g.store.get(chat_key(GROUP)) is None or g.store.get(chat_key(GROUP))[0].get("game") is None
    )
    say_anonymously(g, "/newgame", 900)  # the same update again: answered once
    say_anonymously(g, "/notacommand", 901)  # not ours: nothing
    say_anonymously(g, "/newgame@other_bot", 902)  # another bot's: nothing
    say_anonymously(g, "hello", 903)
    assert [m.text for m in g.messenger.in_chat(GROUP)] == [
        t("en", "bot.anonymous_sender", command="newgame")
    ]


def test_a_channel_post_forwarded_into_its_discussion_group_is_nobodys_command() -> None:
    """Attack run 6: a channel's post that starts like a command ("/newgame tonight at 8"),
    copied by Telegram into the channel's linked discussion group (``is_automatic_forward``),
    was answered there as an anonymous administrator's command, though nobody sent one."""
    g = Group()
    g.service.handle_update(
        {
            "update_id": 910,
            "message": {
                "message_id": 910,
                "date": 0,
                "chat": {"id": GROUP, "type": "supergroup", "title": "Coach"},
                "from": {"id": 777000, "is_bot": False, "first_name": "Telegram"},
                "sender_chat": {"id": -1001234567890, "type": "channel", "title": "News"},
                "is_automatic_forward": True,
                "text": "/newgame tonight at 8, everyone welcome",
            },
        }
    )
    assert g.messenger.in_chat(GROUP) == []
    say_anonymously(g, "/newgame", 911)  # an anonymous administrator is still answered
    assert [m.text for m in g.messenger.in_chat(GROUP)] == [
        t("en", "bot.anonymous_sender", command="newgame")
    ]
