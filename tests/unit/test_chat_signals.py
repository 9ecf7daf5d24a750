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


def test_an_upgrade_field_not_shaped_as_telegram_sends_it_moves_nothing() -> None:
    """Attack run 6: the parser took any message with ``migrate_to_chat_id`` or
    ``migrate_from_chat_id`` for the upgrade, whatever its chat type, text or ids, so a message
    that carried the field (a user's text, a supergroup naming another supergroup, a group naming
    a group) would move a group's game into a chat of the sender's choosing."""
    to, came_from = migration_updates(10, -4123, -1000000004123, 5, "Ann")
    forged = [
        {**to, "message": {**to["message"], "text": "/status"}},  # a person's text
        {**to, "message": {**to["message"], "migrate_to_chat_id": -4555}},  # to a basic group
        {**to, "message": {**to["message"], "chat": {"id": -1000000007777, "type": "supergroup"}}},
        {**came_from, "message": {**came_from["message"], "caption": "x"}},
        {**came_from, "message": {**came_from["message"], "migrate_from_chat_id": -1000000000009}},
        {**came_from, "message": {**came_from["message"], "chat": {"id": -4999, "type": "group"}}},
    ]
    for update in forged:
        assert not isinstance(parse(update, BOT), ChatMoved), update
    assert parse(to, BOT) == ChatMoved(10, -4123, -1000000004123)  # the real ones still move
    assert parse(came_from, BOT) == ChatMoved(11, -4123, -1000000004123)
