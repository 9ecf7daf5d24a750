"""One model of Telegram (issue 23), the limits the emulator added later: a group's 20 messages a
minute count its edits too (``devtools.botapi.faults``), and ``getUpdates`` answers 409 Conflict
when another ``getUpdates`` takes over or a webhook is set. Each is checked on both sides."""

from __future__ import annotations

import pytest

from devtools.botapi import BotApiEmulator, RateLimits
from devtools.botapi.faults import Reply
from devtools.fakes import FakeClock

USER = 1001
GROUP = -1_000_000_000_005


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def api(clock: FakeClock) -> BotApiEmulator:
    return BotApiEmulator(clock=clock.now, strict=False)


def edit(api: BotApiEmulator, chat: int, message_id: int, text: str) -> int:
    params = {"chat_id": chat, "message_id": message_id, "text": text}
    return api.call("editMessageText", params)[0]


def test_a_groups_twenty_a_minute_count_its_edits_as_telegrams_flood_control_does(
    api: BotApiEmulator, clock: FakeClock
) -> None:
    """The group's budget is 20 sends *and edits* a minute, as the bot plans it (the status
    and story edited at most every 30 / 45 s, ``handlers.group_board``): the emulator counted
    only sends, so a bot editing the group's status 40 times a minute went unrefused."""
    assert api.call("sendMessage", {"chat_id": GROUP, "text": "status"})[0] == 200
    clock.advance(1)
    edits = []
    for i in range(20):
        edits.append(edit(api, GROUP, 1, f"status {i}"))
        clock.advance(0.5)
    assert edits == [200] * 19 + [429]  # the send and 19 edits fill the minute
    status, body = api.call(
        "editMessageReplyMarkup",
        {"chat_id": GROUP, "message_id": 1, "reply_markup": {"inline_keyboard": []}},
    )
    assert status == 429 and body["parameters"]["retry_after"] >= 1
    assert api.limits is not None and api.limits.by_reason["group"] == 2
    clock.advance(60)  # the minute is over: edits go again
    assert edit(api, GROUP, 1, "status again") == 200


def test_private_page_turns_are_not_held_to_one_a_second(
    api: BotApiEmulator, clock: FakeClock
) -> None:
    """A player turning their prompt's pages edits it at the pace they press: only sends use
    a private chat's one-a-second allowance (a burst of edits is still within 30 a second)."""
    api.call("sendMessage", {"chat_id": USER, "text": "page 0"})
    assert [edit(api, USER, 1, f"page {i}") for i in range(1, 13)] == [200] * 12


def test_the_overall_thirty_a_second_count_edits(api: BotApiEmulator) -> None:
    for i in range(30):
        assert api.call("sendMessage", {"chat_id": USER + i, "text": "m"})[0] == 200
    assert edit(api, USER, 1, "changed") == 429


def test_at_most_a_hundred_commands_as_the_spec_says(api: BotApiEmulator) -> None:
    commands = [{"command": f"c{i}", "description": "x"} for i in range(101)]
    status, body = api.call("setMyCommands", {"commands": commands})
    assert (status, body["description"]) == (400, "Bad Request: BOT_COMMANDS_TOO_MUCH")
    assert api.call("setMyCommands", {"commands": commands[:100]})[0] == 200


def test_a_webhook_needs_https_and_a_secret_telegram_can_send_in_a_header(
    api: BotApiEmulator,
) -> None:
    def hook(url: str, secret: str) -> tuple[int, str]:
        status, body = api.call("setWebhook", {"url": url, "secret_token": secret})
        return status, body.get("description", "")

    assert hook("http://example.org/hook", "s3cret")[1].startswith(
        "Bad Request: bad webhook: An HTTPS URL"
    )
    assert hook("https://example.org/hook", "a+b/c=")[0] == 400  # base64's own characters
    assert hook("https://example.org/hook", "x" * 257)[0] == 400
    assert api.webhook_url == ""
    assert hook("https://example.org/hook", "Az09_-" * 40) == (200, "")


def test_a_message_older_than_48_hours_cannot_be_deleted_in_a_private_chat_either(
    api: BotApiEmulator, clock: FakeClock
) -> None:
    """The spec's deleteMessage: "only if it was sent less than 48 hours ago" (the emulator
    kept that to groups)."""
    api.call("sendMessage", {"chat_id": USER, "text": "old prompt"})
    api.call("sendMessage", {"chat_id": USER, "text": "new prompt"})
    clock.advance(48 * 3600 + 1)
    old = api.call("deleteMessage", {"chat_id": USER, "message_id": 1})
    assert old == (
        400,
        {
            "ok": False,
            "error_code": 400,
            "description": "Bad Request: message can't be deleted for everyone",
        },
    )
    api.call("sendMessage", {"chat_id": USER, "text": "newest"})
    assert api.call("deleteMessage", {"chat_id": USER, "message_id": 3})[0] == 200


def test_the_local_tables_limits_run_on_the_games_time() -> None:
    """The local table plays at ``GAME_TIME_SCALE`` (0.015 in the browser tests), the bot's
    group pacing shrinking with it; its Telegram's limits run on the same time, so a group's
    minute of 20 sends and edits passes in 60 x scale seconds (at 1: Telegram's minute)."""
    now = [0.0]
    limits = RateLimits(clock=lambda: now[0], time_scale=0.5)
    for _ in range(20):
        limits.admit("editMessageText", {"chat_id": GROUP})
    with pytest.raises(Reply) as refused:
        limits.admit("editMessageText", {"chat_id": GROUP})
    assert refused.value.parameters == {"retry_after": 30}  # the game's minute, in real seconds
    now[0] = 30.0
    limits.admit("editMessageText", {"chat_id": GROUP})
