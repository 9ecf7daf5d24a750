"""/cancel of a game under way (handlers.game_cancel): a creator who is losing cannot end the game
for the others on their own; a majority of its players, or a group admin, can. A lobby is still
closed by its creator alone."""

from __future__ import annotations

from handlers.game_cancel import CANCEL_VOTE_SECONDS
from handlers.i18n import t
from tests.service.webhook_table import GROUP, BotTable


def test_the_creator_alone_cannot_cancel_a_game_under_way() -> None:
    """Before: the creator's /cancel ended the game at once, whoever was winning."""
    bot = BotTable(n=4)
    bot.start()
    bot.message(bot.uids[0], GROUP, "/cancel")
    assert bot.doc()["phase"] == "playing"
    said = [p["text"] for p in bot.api.calls_to("sendMessage") if p["chat_id"] == GROUP]
    assert said[-1] == t("en", "lobby.cancel_vote", have=1, need=3)


def test_a_majority_of_the_players_cancels_it() -> None:
    bot = BotTable(n=4)
    bot.start()
    for uid in bot.uids[:2]:
        bot.message(uid, GROUP, "/cancel")
        bot.message(uid, GROUP, "/cancel")  # twice is one vote
    assert bot.doc()["phase"] == "playing"
    bot.message(bot.uids[3], GROUP, "/cancel")
    assert bot.doc()["phase"] == "cancelled"


def test_old_votes_expire_and_strangers_do_not_vote() -> None:
    bot = BotTable(n=4)
    bot.start()
    for uid in (9001, 9002, 9003):  # not seated: refused, never counted
        bot.message(uid, GROUP, "/cancel")
    bot.message(bot.uids[0], GROUP, "/cancel")
    bot.message(bot.uids[1], GROUP, "/cancel")
    bot.clock.advance(CANCEL_VOTE_SECONDS + 1)
    bot.message(bot.uids[2], GROUP, "/cancel")
    assert bot.doc()["phase"] == "playing"


def test_a_group_admin_cancels_it_alone() -> None:
    bot = BotTable(n=4)
    bot.service.is_admin = lambda chat, uid: uid == 4242
    bot.start()
    bot.message(4242, GROUP, "/cancel")
    assert bot.doc()["phase"] == "cancelled"


def test_a_lobby_is_still_closed_by_its_creator_alone() -> None:
    bot = BotTable(n=4)
    bot.message(bot.uids[0], GROUP, "/newgame")
    bot.message(bot.uids[0], GROUP, "/cancel")
    chat = bot.store.get(f"CHAT#{GROUP}")
    assert chat is not None and chat.doc["game"] is None


def test_the_creator_of_a_game_muted_in_its_group_still_ends_it_alone() -> None:
    """The bot, removed from the group, tells the creator to end the game with /cancel
    (bot.muted_in_group): nobody in the group could follow a vote."""
    from devtools.botapi.updates import my_chat_member

    bot = BotTable(n=4)
    bot.start()
    bot.deliver(my_chat_member(next(bot.ids), GROUP, "supergroup", 1, "Admin", "member", "left"))
    assert bot.doc()["muted"] is True
    bot.message(bot.uids[0], GROUP, "/cancel")
    assert bot.doc()["phase"] == "cancelled"


def test_two_votes_at_the_same_moment_are_both_counted() -> None:
    """Optimistic locking: of two votes read before either is written, the one whose commit
    finds the game changed is counted again on fresh reads, not lost."""
    from devtools.botapi.updates import message_update
    from tests.service.test_stranger7_updates import raw_update
    from tests.service.test_stranger_attacks import Meeting, at_once

    bot = BotTable(n=4)
    bot.start()
    bot.message(bot.uids[0], GROUP, "/cancel")
    meeting = Meeting(bot.store, f"GAME#{bot.gid}")  # type: ignore[arg-type]
    votes = [
        message_update(next(bot.ids), GROUP, "supergroup", uid, "P", "/cancel", "en")
        for uid in bot.uids[1:3]
    ]
    at_once(*[lambda u=u: raw_update(bot, u) for u in votes])  # type: ignore[misc]
    assert meeting.met_both()
    assert bot.doc()["phase"] == "cancelled"
