"""Attacks on this session's additions (helper attack8): the reply budget, the /cancel vote,
the press alerts' cut, through the webhook (``tests.service.webhook_table``)."""

from __future__ import annotations

import pytest

from handlers.reply_budget import GROUP_REPLIES_PER_MINUTE
from tests.e2e.harness import Harness, Player
from tests.service.webhook_table import GROUP, BotTable

SPAMMER = 9999
STRANGER = Player(uid=7690, name="Outsider")


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


# -- joining a lobby: getChatMember (handlers.lobby.cmd_start_private) -------------------------
def _lobby() -> tuple[Harness, str]:
    players = [Player(uid=7600 + i, name=f"Rider {i}") for i in range(3)]
    h = Harness(players, seed=2)
    h.service.is_member = h.messenger.is_member  # as deployed (handlers.runtime)
    h.open_lobby_and_join()
    return h, h.last_gid


def _seated(h: Harness) -> list[int]:
    return [p["uid"] for p in h.game_doc()["players"]]


@pytest.mark.parametrize("status", ["creator", "administrator"])
def test_the_groups_creator_and_admins_take_a_seat(status: str) -> None:
    h, gid = _lobby()
    h.api.set_member_status(h.group, STRANGER.uid, status)
    h.command(STRANGER, f"/start {gid}", chat=STRANGER.uid)
    assert STRANGER.uid in _seated(h)


def test_a_restricted_user_still_in_the_group_takes_a_seat() -> None:
    """A member muted by the group's admins is still its member (is_member: true)."""
    h, gid = _lobby()
    h.api.set_member_status(h.group, STRANGER.uid, "restricted", is_member=True)
    h.command(STRANGER, f"/start {gid}", chat=STRANGER.uid)
    assert STRANGER.uid in _seated(h)


def test_telegram_down_while_asking_seats_the_player_within_the_invocation() -> None:
    """getChatMember answering 502 for a minute: the join is not lost, nor held past the
    invocation's time (the player is seated: never kept out by the bot's blindness)."""
    h, gid = _lobby()
    h.api.inject_outage(3.0)
    h.command(STRANGER, f"/start {gid}", chat=STRANGER.uid)
    assert STRANGER.uid in _seated(h)
    assert not h.errors
