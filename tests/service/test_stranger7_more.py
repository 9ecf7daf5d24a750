"""More of a spammer's, a stranger's and Telegram's bad days, through the webhook handler."""

from __future__ import annotations

from devtools.botapi.methods import CALLBACK_ANSWER_SECONDS
from devtools.botapi.updates import callback_update, message_update
from handlers.i18n import t
from tests.service.test_stranger7_updates import raw_update, started, version
from tests.service.webhook_table import GROUP, BotTable


def group_sends(bot: BotTable) -> list[str]:
    return [p["text"] for p in bot.api.calls_to("sendMessage") if p["chat_id"] == GROUP]


def test_an_anonymous_admin_spamming_commands_hears_the_notice_once_a_minute() -> None:
    bot = started()
    before = len(group_sends(bot))
    for _ in range(20):
        u = message_update(next(bot.ids), GROUP, "supergroup", 1087968824, "Group", "/status", "en")
        u["message"]["sender_chat"] = {"id": GROUP, "type": "supergroup", "title": "G"}
        assert raw_update(bot, u) == 200
        bot.clock.advance(1)
    notices = group_sends(bot)[before:]
    assert notices == [t("en", "bot.anonymous_sender", command="status")]


def test_a_press_that_reaches_the_bot_too_late_to_answer_still_plays_its_move() -> None:
    """Telegram on a bad day delivers the press after the callback query expired: the answer
    is refused (400 query is too old), the move is still made, nothing fails."""
    bot = started()
    seat = bot.state().turn
    found = bot.prompt(seat)
    assert found is not None
    message_id, data = found
    passing = next(d for d in data if d.endswith(":pa"))
    u = callback_update(
        next(bot.ids), bot.uids[seat], "P", bot.uids[seat], message_id, passing, "en"
    )
    bot.api.pressed(u)
    bot.clock.advance(CALLBACK_ANSWER_SECONDS + 5)
    before = version(bot)
    assert raw_update(bot, u) == 200
    assert version(bot) > before
    assert not bot.api.violations


def test_the_start_button_of_a_cancelled_lobby_does_not_start_the_next_one() -> None:
    bot = BotTable(n=4)
    bot.message(bot.uids[0], GROUP, "/newgame")
    old = bot.store.get(f"CHAT#{GROUP}")
    assert old is not None
    old_gid = old.doc["game"]
    lobby = [m for m in bot.api.messages_in(GROUP) if m.buttons()][-1]
    start = next(d for _, d in lobby.buttons() if d and d.endswith(":start"))
    bot.message(bot.uids[0], GROUP, "/cancel")
    bot.message(bot.uids[1], GROUP, "/newgame")
    new = bot.store.get(f"CHAT#{GROUP}")
    assert new is not None and new.doc["game"] != old_gid
    for uid in bot.uids:
        bot.message(uid, uid, f"/start {new.doc['game']}")
    u = callback_update(next(bot.ids), bot.uids[0], "P", GROUP, lobby.message_id, start, "en")
    u["callback_query"]["message"]["chat"] = {"id": GROUP, "type": "supergroup"}
    bot.api.pressed(u)
    raw_update(bot, u)
    game = bot.store.get(f"GAME#{new.doc['game']}")
    assert game is not None and game.doc["phase"] == "lobby"


def test_a_stranger_cannot_start_a_lobby_and_is_told_within_the_budget() -> None:
    bot = BotTable(n=4)
    bot.message(bot.uids[0], GROUP, "/newgame")
    gid = bot.store.get(f"CHAT#{GROUP}").doc["game"]  # type: ignore[union-attr]
    for uid in bot.uids:
        bot.message(uid, uid, f"/start {gid}")
    before = len(group_sends(bot))
    for _ in range(10):
        bot.message(9999, GROUP, "/startgame")
    assert bot.store.get(f"GAME#{gid}").doc["phase"] == "lobby"  # type: ignore[union-attr]
    assert group_sends(bot)[before:] == [t("en", "lobby.only_creator")]


def test_the_emulator_refuses_chat_id_0_as_telegram_does() -> None:
    """Before: the emulator sent to chat 0 (Telegram: 400 chat not found), so an update naming
    chat 0 could pass a test that would fail on Telegram."""
    from devtools.botapi.emulator import BotApiEmulator

    api = BotApiEmulator(limits=False)
    status, body = api.handle("sendMessage", {"chat_id": 0, "text": "hi"})
    assert status == 400 and b"chat not found" in body


def test_a_command_from_chat_0_is_answered_200_and_starts_nothing() -> None:
    bot = BotTable(n=4)
    u = message_update(next(bot.ids), 0, "private", 0, "Zero", "/start", "en")
    assert raw_update(bot, u) == 200
    u = message_update(next(bot.ids), 0, "supergroup", 5, "P", "/newgame", "en")
    assert raw_update(bot, u) == 200
    assert not bot.api.violations
