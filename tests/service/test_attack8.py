"""Attacks on this session's additions (helper attack8): the reply budget, the /cancel vote,
the press alerts' cut, through the webhook (``tests.service.webhook_table``)."""

from __future__ import annotations

from handlers.reply_budget import GROUP_REPLIES_PER_MINUTE
from tests.service.webhook_table import GROUP, BotTable

SPAMMER = 9999


def group_sends(bot: BotTable) -> list[str]:
    return [p["text"] for p in bot.api.calls_to("sendMessage") if p["chat_id"] == GROUP]


def test_one_spammer_cannot_spend_the_groups_replies_a_players_status_needs() -> None:
    """A member with no seat sends distinct commands (/rules with args, /scores, /help, ...):
    each reply differs, so none is taken for another. Before: his six used the group's minute,
    and a player's /status right after was dropped."""
    bot = BotTable(n=4)
    bot.start()
    spam = ["/help", "/scores", "/rules 1", "/rules 2", "/rules 3", "/newgame", "/settings"]
    for i in range(3 * GROUP_REPLIES_PER_MINUTE):
        bot.message(SPAMMER, GROUP, spam[i % len(spam)] + " " * (i // len(spam)))
        bot.clock.advance(0.5)
    bot.press_turn_pass()  # a real event: the status changes
    before = len(group_sends(bot))
    bot.message(bot.uids[1], GROUP, "/status")
    assert len(group_sends(bot)) == before + 1
