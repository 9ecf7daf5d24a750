"""A spammer in the group must not be able to delay the game: the bot's direct replies to a
group (/help, /status, /rules, refusals, the notice to anonymous admins) share Telegram's 20
sends a minute per group with the game's own messages, so they have a budget of their own
(``handlers.reply_budget``) and the game's messages keep the rest."""

from __future__ import annotations

from handlers.reply_budget import GROUP_REPLIES_PER_MINUTE, PRIVATE_REPLIES_PER_MINUTE
from tests.service.webhook_table import GROUP, BotTable

SPAMMER = 9999


def group_sends(bot: BotTable) -> list[str]:
    return [p["text"] for p in bot.api.calls_to("sendMessage") if p["chat_id"] == GROUP]


def test_a_command_spammer_never_makes_telegram_hold_the_games_group_messages() -> None:
    """Before the budget: 24 of the group's sends were refused with 429 (retry after up to 52 s)
    and the game's story waited behind them."""
    bot = BotTable(n=4)
    bot.start()
    game_sends = len(group_sends(bot))
    replies = 0
    for i in range(40):  # 40 commands in 20 s, from a member with no seat
        before = len(group_sends(bot))
        bot.message(SPAMMER, GROUP, ("/help", "/status", "/rules", "/newgame")[i % 4])
        replies += len(group_sends(bot)) - before
        bot.clock.advance(0.5)
        if i % 5 == 4:
            before = len(group_sends(bot))
            bot.press_turn_pass()  # the game goes on meanwhile
            game_sends += len(group_sends(bot)) - before
    assert bot.api.limits is not None
    assert bot.api.limits.by_reason["group"] == 0  # Telegram never held the group
    assert 1 <= replies <= GROUP_REPLIES_PER_MINUTE  # the first askers were answered
    assert game_sends >= 2


def test_the_same_question_asked_again_at_once_is_answered_once() -> None:
    bot = BotTable(n=4)
    bot.start()
    before = len(group_sends(bot))
    for uid in (SPAMMER, SPAMMER + 1, SPAMMER + 2):
        bot.message(uid, GROUP, "/rules")
    assert len(group_sends(bot)[before:]) == 1
    bot.clock.advance(61)  # a minute later the question is answered again
    bot.message(SPAMMER, GROUP, "/rules")
    assert len(group_sends(bot)[before:]) == 2


def test_a_player_spamming_their_private_chat_never_makes_telegram_hold_it() -> None:
    """Before: 60 /help in 12 s from the next player drew 44 private 429s: the chat's allowance
    was spent on the replies, and the game's prompt to that player waited behind them (nobody is
    timed out for a prompt the bot could not deliver: the table waited for the spammer)."""
    bot = BotTable(n=4)
    bot.start()
    cheat = bot.uids[(bot.state().turn + 1) % 4]
    before = len(bot.api.messages_in(cheat))
    for i in range(60):
        bot.message(cheat, cheat, ("/help", "/rules", "/notes", "/start")[i % 4])
        bot.clock.advance(0.2)
    assert bot.api.limits is not None and bot.api.limits.by_reason["private"] == 0
    replies = len(bot.api.messages_in(cheat)) - before
    assert 4 <= replies <= PRIVATE_REPLIES_PER_MINUTE  # each question answered, then rationed
    bot.press_turn_pass()  # the next turn is the spammer's: its prompt goes out at once
    assert bot.prompt(bot.state().turn) is not None


def test_a_player_asking_again_a_while_later_is_answered_again() -> None:
    bot = BotTable(n=4)
    before = len(bot.api.calls_to("sendMessage"))
    for _ in range(3):
        bot.message(SPAMMER, SPAMMER, "/help")
    bot.clock.advance(11)
    bot.message(SPAMMER, SPAMMER, "/help")
    assert len(bot.api.calls_to("sendMessage")) - before == 2


def test_refused_cancel_and_startgame_are_replies_under_the_budget() -> None:
    """Before: a non-manager's /cancel and /startgame were refused through the game's own
    outbox, beside the budget: 40 of them in a minute sent 40 refusals to the group."""
    bot = BotTable(n=4)
    bot.start()
    before = len(group_sends(bot))
    for i in range(40):
        bot.message(SPAMMER + i % 3, GROUP, ("/cancel", "/startgame")[i % 2])
        bot.clock.advance(1.4)
    assert bot.doc()["phase"] == "playing"  # nobody but the creator or an admin cancels
    assert len(group_sends(bot)) - before <= GROUP_REPLIES_PER_MINUTE + 1
    assert bot.api.limits is not None and bot.api.limits.by_reason["group"] == 0
