"""The Telegram signals of a group changing under a game, parsed (``handlers.updates``): an
upgrade to a supergroup from either chat's service message, and the bot's own membership
(``my_chat_member``) — removed, banned, restricted from sending, added back."""

from __future__ import annotations

from typing import Any

import pytest

from devtools.botapi.updates import migration_updates, my_chat_member
from handlers.updates import BotMembership, ChatMoved, parse

BOT = "coachride_bot"


def test_either_service_message_of_an_upgrade_names_the_old_and_the_new_chat() -> None:
    to, came_from = migration_updates(10, -4123, -1000000004123, 5, "Ann")
    assert parse(to, BOT) == ChatMoved(10, -4123, -1000000004123)
    assert parse(came_from, BOT) == ChatMoved(11, -4123, -1000000004123)


def test_an_upgrade_message_without_a_sender_still_moves_the_group() -> None:
    to, _ = migration_updates(10, -4123, -1000000004123, 5, "Ann")
    del to["message"]["from"]
    assert parse(to, BOT) == ChatMoved(10, -4123, -1000000004123)


@pytest.mark.parametrize(
    ("status", "may_write"),
    [("member", True), ("administrator", True), ("left", False), ("kicked", False)],
)
def test_the_bot_s_membership_of_a_group_says_whether_it_may_write(
    status: str, may_write: bool
) -> None:
    update = my_chat_member(3, -100777, "supergroup", 5, "Ann", "member", status)
    assert parse(update, BOT) == BotMembership(3, -100777, may_write)


def _restricted(can_send: bool) -> dict[str, Any]:
    update = my_chat_member(3, -100777, "supergroup", 5, "Ann", "member", "restricted")
    update["my_chat_member"]["new_chat_member"].update(is_member=True, can_send_messages=can_send)
    return update


def test_a_bot_restricted_from_sending_may_not_write() -> None:
    assert parse(_restricted(False), BOT) == BotMembership(3, -100777, False)
    assert parse(_restricted(True), BOT) == BotMembership(3, -100777, True)


def test_a_user_blocking_or_unblocking_the_bot_in_private_says_so() -> None:
    blocked = my_chat_member(3, 5, "private", 5, "Ann", "member", "kicked")
    assert parse(blocked, BOT) == BotMembership(3, 5, False)
    unblocked = my_chat_member(4, 5, "private", 5, "Ann", "kicked", "member")
    assert parse(unblocked, BOT) == BotMembership(4, 5, True)
