"""Odd updates and timers through the bot's real entry points (the webhook handler with
Telegram-shaped updates, the timer handler with SQS-shaped records): each is answered 200 (or
acknowledged) and changes the game only as the rules say."""

from __future__ import annotations

import copy
import json
import threading
from typing import Any

import pytest

from devtools.botapi.updates import callback_update, chat_member, message_update, my_chat_member
from handlers import timer, webhook
from handlers.i18n import t
from infra.ports import TimerRequest
from infra.timers import timer_message
from tests.service.webhook_table import GROUP, SECRET, BotTable, FakeContext


def version(bot: BotTable) -> int:
    got = bot.store.get(f"GAME#{bot.gid}")
    assert got is not None
    return got.version


def started() -> BotTable:
    bot = BotTable(n=4)
    bot.start()
    return bot


def raw_update(bot: BotTable, update: Any) -> int:
    event = {"headers": {webhook.SECRET_HEADER: SECRET}, "body": json.dumps(update)}
    reply = webhook.handle(event, lambda: bot.service, SECRET, FakeContext(bot.clock))
    return int(reply["statusCode"])


def creator_says(bot: BotTable, text: str) -> dict[str, Any]:
    return message_update(next(bot.ids), GROUP, "supergroup", bot.uids[0], "P", text, "en")


# -- updates of kinds the bot does not act on ---------------------------------------------------
def _edited(bot: BotTable) -> dict[str, Any]:
    u = creator_says(bot, "/cancel")
    return {"update_id": u["update_id"], "edited_message": u["message"]}


def _business(bot: BotTable) -> dict[str, Any]:
    u = creator_says(bot, "/cancel")
    msg = {**u["message"], "business_connection_id": "b1"}
    return {"update_id": u["update_id"], "business_message": msg}


def _inline(bot: BotTable) -> dict[str, Any]:
    return {
        "update_id": next(bot.ids),
        "inline_query": {
            "id": "i1",
            "from": {"id": 1, "is_bot": False, "first_name": "X"},
            "query": "/cancel",
            "offset": "",
        },
    }


def _channel_post(bot: BotTable) -> dict[str, Any]:
    u = creator_says(bot, "/cancel")
    msg = {k: v for k, v in u["message"].items() if k != "from"}
    msg["chat"] = {"id": GROUP, "type": "channel", "title": "C"}
    return {"update_id": u["update_id"], "channel_post": msg}


def _from_a_bot(bot: BotTable) -> dict[str, Any]:
    u = creator_says(bot, "/cancel")
    u["message"]["from"] = {"id": bot.uids[0], "is_bot": True, "first_name": "Bot"}
    return u


def _caption(bot: BotTable) -> dict[str, Any]:
    u = creator_says(bot, "x")
    del u["message"]["text"]
    u["message"]["caption"] = "/cancel"
    u["message"]["photo"] = []
    return u


def _automatic_forward(bot: BotTable) -> dict[str, Any]:
    u = creator_says(bot, "/cancel")
    u["message"]["is_automatic_forward"] = True
    return u


def _other_bots_command(bot: BotTable) -> dict[str, Any]:
    return creator_says(bot, "/cancel@someone_elses_bot")


IGNORED = {
    "an edited message": _edited,
    "a business message": _business,
    "an inline query": _inline,
    "a channel post": _channel_post,
    "a message from a bot": _from_a_bot,
    "a caption": _caption,
    "an automatic forward": _automatic_forward,
    "a command for another bot": _other_bots_command,
}


@pytest.mark.parametrize("kind", list(IGNORED))
def test_updates_that_are_no_command_change_nothing(kind: str) -> None:
    bot = started()
    before, sent = version(bot), len(bot.api.calls_to("sendMessage"))
    assert raw_update(bot, IGNORED[kind](bot)) == 200
    assert bot.doc()["phase"] == "playing" and version(bot) == before
    assert len(bot.api.calls_to("sendMessage")) == sent


@pytest.mark.parametrize(
    "body",
    [
        None,
        [],
        "x",
        {"update_id": "7", "message": {}},
        {"update_id": -1},
        {"update_id": 2**80, "message": {"text": "/cancel"}},
        {"update_id": 5, "message": {"chat": {"id": "g"}, "text": "/cancel"}},
        {"update_id": 6, "callback_query": {"id": 1, "data": 5}},
        {"update_id": 7, "message": {"chat": [], "from": 5, "text": ["/cancel"]}},
    ],
)
def test_malformed_updates_are_answered_200_and_change_nothing(body: Any) -> None:
    bot = started()
    before = version(bot)
    assert raw_update(bot, body) == 200
    assert version(bot) == before


def test_unknown_fields_everywhere_do_not_stop_a_command() -> None:
    """Telegram adds fields with every Bot API version."""
    bot = started()
    u = creator_says(bot, "/status")
    u["future_field"] = {"x": 1}
    u["message"]["future"] = [1, 2]
    u["message"]["chat"]["future"] = True
    u["message"]["from"]["future"] = "y"
    sent = len(bot.api.calls_to("sendMessage"))
    assert raw_update(bot, u) == 200
    assert len(bot.api.calls_to("sendMessage")) == sent + 1  # the status was shown


@pytest.mark.parametrize("size", [4096, 100_000])
def test_a_huge_text_is_handled_within_telegrams_limits(size: int) -> None:
    bot = started()
    for text in ("/rules " + "x" * size, "/start " + "é" * size, "/" + "a" * size):
        for chat in (GROUP, bot.uids[1]):
            kind = "private" if chat > 0 else "supergroup"
            update = message_update(next(bot.ids), chat, kind, bot.uids[1], "P", text, "en")
            assert raw_update(bot, update) == 200
    assert not bot.api.violations
    assert bot.doc()["phase"] == "playing"


# -- replays and races --------------------------------------------------------------------------
def test_an_old_update_replayed_after_the_game_moved_on_changes_nothing() -> None:
    bot = started()
    seat = bot.state().turn
    found = bot.prompt(seat)
    assert found is not None
    message_id, data = found
    press = callback_update(
        next(bot.ids),
        bot.uids[seat],
        "P",
        bot.uids[seat],
        message_id,
        next(d for d in data if d.endswith(":pa")),
        "en",
    )
    bot.api.pressed(press)
    assert raw_update(bot, press) == 200
    after = version(bot)
    bot.timeout_once()  # the game moves on
    moved = version(bot)
    assert moved > after
    assert raw_update(bot, copy.deepcopy(press)) == 200  # Telegram redelivers, much later
    assert version(bot) == moved


def test_a_press_with_another_games_id_is_stale() -> None:
    bot = started()
    seat = bot.state().turn
    found = bot.prompt(seat)
    assert found is not None
    message_id, data = found
    forged = "Zz9Zz9Zz" + data[0][len(bot.gid) :]
    before = version(bot)
    bot.press(bot.uids[seat], message_id, forged)
    assert version(bot) == before
    answers = bot.api.calls_to("answerCallbackQuery")
    assert answers and answers[-1].get("text")  # told, not left spinning


def test_the_same_button_pressed_at_once_by_two_webhooks_is_applied_once() -> None:
    bot = started()
    seat = bot.state().turn
    found = bot.prompt(seat)
    assert found is not None
    message_id, data = found
    passing = next(d for d in data if d.endswith(":pa"))
    updates = []
    for _ in range(2):
        u = callback_update(
            next(bot.ids), bot.uids[seat], "P", bot.uids[seat], message_id, passing, "en"
        )
        bot.api.pressed(u)
        updates.append(u)
    threads = [threading.Thread(target=raw_update, args=(bot, u)) for u in updates]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    ids = {u["callback_query"]["id"] for u in updates}
    texts = [
        a.get("text")
        for a in bot.api.calls_to("answerCallbackQuery")
        if a["callback_query_id"] in ids
    ]
    assert len(texts) == 2  # both presses answered, once each
    assert texts.count(t("en", "bot.stale")) == 1  # one applied, the other told it is stale


# -- timers -------------------------------------------------------------------------------------
def _fire(bot: BotTable, request: TimerRequest, body: Any = None) -> dict[str, Any]:
    record = {"messageId": "m", "body": timer_message(request) if body is None else body}
    return timer.handle({"Records": [record]}, bot.service, bot.timers, bot.clock.now())


def test_a_timer_that_arrives_early_decides_nothing_yet() -> None:
    bot = started()
    due = bot.doc()["due"]
    before = version(bot)
    result = _fire(bot, TimerRequest(f"GAME#{bot.gid}", due["dec"], due["at"]))
    assert result["batchItemFailures"] == []
    assert version(bot) == before and bot.doc()["due"] == due


def test_a_timer_delivered_twice_decides_once() -> None:
    bot = started()
    due = bot.doc()["due"]
    bot.clock.advance(due["at"] - bot.clock.now() + 1)
    request = TimerRequest(f"GAME#{bot.gid}", due["dec"], due["at"])
    _fire(bot, request)
    once = version(bot), bot.state().to_dict()
    _fire(bot, request)
    assert (version(bot), bot.state().to_dict()) == once


def test_a_timer_of_a_decision_long_gone_changes_nothing() -> None:
    bot = started()
    old = bot.doc()["due"]
    for _ in range(3):
        bot.timeout_once()
    before = version(bot), bot.state().to_dict()
    _fire(bot, TimerRequest(f"GAME#{bot.gid}", old["dec"], old["at"]))
    assert (version(bot), bot.state().to_dict()) == before


@pytest.mark.parametrize(
    "body",
    [
        "",
        "{",
        "[]",
        '{"game": 5}',
        json.dumps({"key": "GAME#../x", "dec": 1, "at": 0}),
        json.dumps({"key": "USER#1", "dec": 1, "at": 0}),
        "\x00" * 100,
        "x" * 300_000,
    ],
)
def test_a_malformed_or_forged_timer_is_acknowledged_and_changes_nothing(body: str) -> None:
    bot = started()
    before = version(bot), bot.state().to_dict()
    result = _fire(bot, TimerRequest("GAME#x", 1, 0.0), body)
    assert result["batchItemFailures"] == []  # never retried forever
    assert (version(bot), bot.state().to_dict()) == before


# -- the group and the bot ----------------------------------------------------------------------
def test_a_player_who_leaves_the_group_mid_game_is_away_and_the_game_goes_on() -> None:
    bot = started()
    leaver = bot.uids[2]
    assert raw_update(bot, chat_member(next(bot.ids), GROUP, leaver, "P")) == 200
    assert bot.state().players[2].away
    assert bot.play().over


def test_a_member_leaving_another_group_changes_nothing_here() -> None:
    bot = started()
    before = version(bot)
    assert raw_update(bot, chat_member(next(bot.ids), -100999, bot.uids[2], "P")) == 200
    assert version(bot) == before


def test_the_bot_demoted_to_a_member_without_send_rights_mutes_the_game_and_it_still_ends() -> None:
    bot = started()
    update = my_chat_member(
        next(bot.ids), GROUP, "supergroup", 1, "Admin", "administrator", "restricted"
    )
    update["my_chat_member"]["new_chat_member"].update(can_send_messages=False, is_member=True)
    assert raw_update(bot, update) == 200
    assert bot.doc()["muted"] is True
    assert bot.play().over
