"""The Telegram gateway against the fake Bot API: retries, unreachable chats, keyboards, pacing."""

from __future__ import annotations

import asyncio

import pytest

from devtools.botapi import RecordingRequest
from infra.bot_api import NetworkError, RetryAfter, TimedOut, bot_api
from infra.event_loop import LoopRunner
from infra.telegram_markup import Button, keyboard
from infra.telegram_messenger import TelegramGateway

PLAYER, BLOCKED, GROUP = 11, 12, -100200


class Sleeps:
    def __init__(self) -> None:
        self.waits: list[float] = []

    def __call__(self, seconds: float) -> None:
        self.waits.append(seconds)


@pytest.fixture
def api() -> RecordingRequest:
    return RecordingRequest(blocked_chats={BLOCKED})


@pytest.fixture
def sleeps() -> Sleeps:
    return Sleeps()


@pytest.fixture
def gateway(api: RecordingRequest, sleeps: Sleeps) -> TelegramGateway:
    return TelegramGateway(
        bot_api("123:TEST", "https://api.telegram.org/bot", api.transport), sleep=sleeps
    )


def test_send_converts_button_rows_to_an_inline_keyboard(
    api: RecordingRequest, gateway: TelegramGateway
) -> None:
    rows = [
        [Button("🗝️ Key", data="g1:4:key1"), Button("🏆 Goblet", data="g1:4:goblet2")],
        [Button("Join", url="https://t.me/coachride_bot?start=abc")],
    ]
    message_id = gateway.send(PLAYER, "<b>Choose</b> an item", rows)
    assert message_id == 1
    assert api.buttons(PLAYER, 1) == [
        ("🗝️ Key", "g1:4:key1"),
        ("🏆 Goblet", "g1:4:goblet2"),
        ("Join", "https://t.me/coachride_bot?start=abc"),
    ]
    assert [len(row) for row in api.message(PLAYER, 1).button_rows()] == [2, 1]
    params = api.calls_to("sendMessage")[0]
    assert params["parse_mode"] == "HTML"
    assert params["link_preview_options"] == {"is_disabled": True}
    assert api.last_message(PLAYER).text == "Choose an item"


def test_no_buttons_means_no_keyboard() -> None:
    assert keyboard(None) is None
    assert keyboard([]) is None


def test_button_needs_exactly_one_of_data_and_url() -> None:
    with pytest.raises(ValueError, match="exactly one"):
        Button("x")
    with pytest.raises(ValueError, match="exactly one"):
        Button("x", data="a", url="https://t.me/x")


def test_send_waits_out_one_flood_control_answer_and_retries(
    api: RecordingRequest, gateway: TelegramGateway, sleeps: Sleeps
) -> None:
    api.inject_retry_after("sendMessage", 3)
    assert gateway.send(GROUP, "story") == 1
    assert sleeps.waits == [3.0]
    assert api.count_by_method() == {"sendMessage": 2}
    assert len(api.messages_in(GROUP)) == 1


def test_flood_control_gives_up_after_bounded_attempts(
    api: RecordingRequest, gateway: TelegramGateway, sleeps: Sleeps
) -> None:
    api.inject_retry_after("sendMessage", 2, times=5)
    with pytest.raises(RetryAfter):
        gateway.send(GROUP, "story")
    assert sleeps.waits == [2.0, 2.0]
    assert api.count_by_method() == {"sendMessage": 3}


def test_a_flood_wait_longer_than_max_wait_is_not_slept(
    api: RecordingRequest, gateway: TelegramGateway, sleeps: Sleeps
) -> None:
    api.inject_retry_after(None, 600)
    with pytest.raises(RetryAfter):
        gateway.send(GROUP, "story")
    assert sleeps.waits == []


def test_failed_connects_are_retried_a_couple_of_times(
    api: RecordingRequest, gateway: TelegramGateway, sleeps: Sleeps
) -> None:
    api.inject_timeout("sendMessage", times=2)  # the fake's timeouts never reach Telegram
    assert gateway.send(PLAYER, "hello") == 1
    assert len(sleeps.waits) == 2
    api.inject_timeout("sendMessage", times=3)
    with pytest.raises(NetworkError):
        gateway.send(PLAYER, "hello")


def test_a_send_whose_answer_was_lost_is_not_sent_again(
    api: RecordingRequest, gateway: TelegramGateway
) -> None:
    """Issue 24: Telegram delivered it, the answer timed out; a retry would show it twice."""
    import random

    from tests.fakes.faults import AfterDelivery

    AfterDelivery(random.Random(1), lost=1.0).install(api)
    with pytest.raises(TimedOut):
        gateway.send(PLAYER, "hello")
    assert [m.text for m in api.messages_in(PLAYER)] == ["hello"]
    gateway.edit(PLAYER, 1, "hello again")  # an edit may be retried: it changes nothing twice
    assert api.message(PLAYER, 1).text == "hello again"


def test_blocked_and_unknown_chats_are_unreachable_not_errors(
    api: RecordingRequest, gateway: TelegramGateway
) -> None:
    api.missing_chats.add(13)
    assert gateway.send(BLOCKED, "your dossier") is None
    assert gateway.send(13, "your dossier") is None
    assert gateway.unreachable == {BLOCKED, 13}
    api.blocked_chats.clear()
    assert gateway.send(BLOCKED, "welcome back") == 1
    assert gateway.unreachable == {13}


def test_send_follows_a_group_that_became_a_supergroup(
    api: RecordingRequest, gateway: TelegramGateway
) -> None:
    api.migrated_chats[-5] = GROUP
    assert gateway.send(-5, "lobby") == 1
    assert gateway.send(-5, "again") == 2
    assert [m.text for m in api.messages_in(GROUP)] == ["lobby", "again"]
    assert gateway.migrated == {-5: GROUP}


def test_edit_replaces_text_and_buttons_and_tolerates_no_change(
    api: RecordingRequest, gateway: TelegramGateway
) -> None:
    message_id = gateway.send(PLAYER, "Trade?", [[Button("Accept", data="a")]])
    assert message_id is not None
    assert gateway.edit(PLAYER, message_id, "Trade?", [[Button("Accept", data="a")]])
    method, code, description = api.errors[-1]
    assert (method, code) == ("editMessageText", 400) and "not modified" in description
    assert gateway.edit(PLAYER, message_id, "Trade? <i>accepted</i>")
    assert api.message(PLAYER, message_id).text == "Trade? accepted"
    assert api.buttons(PLAYER, message_id) == []
    assert gateway.edit(PLAYER, 99, "gone") is False


def test_answer_delete_commands_and_admin_check(
    api: RecordingRequest, gateway: TelegramGateway
) -> None:
    api.open_query("q1")  # a press; Telegram refuses answers to queries it never had
    assert gateway.answer("q1", "Too late", alert=True) is True
    assert api.calls_to("answerCallbackQuery")[0] == {
        "callback_query_id": "q1",
        "text": "Too late",
        "show_alert": True,
    }
    api.inject_error("answerCallbackQuery", 400, "Bad Request: query is too old")
    assert gateway.answer("q2") is False

    message_id = gateway.send(GROUP, "status")
    assert message_id is not None
    assert gateway.delete(GROUP, message_id) is True
    assert gateway.delete(GROUP, message_id) is False

    gateway.set_commands([("newgame", "Open a lobby")], chat_id=GROUP, language_code="de")
    gateway.set_commands([("start", "Start")], scope="private")
    menus = api.calls_to("setMyCommands")
    assert menus[0]["scope"] == {"type": "chat", "chat_id": GROUP}
    assert menus[0]["language_code"] == "de"
    assert menus[1]["scope"] == {"type": "all_private_chats"}

    api.set_member_status(GROUP, 7, "creator")
    assert gateway.is_admin(GROUP, 7) is True
    assert gateway.is_admin(GROUP, 8) is False
    assert api.violations == []


def test_loop_runner_reuses_one_loop_across_runs(
    api: RecordingRequest, gateway: TelegramGateway
) -> None:
    async def current_loop() -> asyncio.AbstractEventLoop:
        return asyncio.get_running_loop()

    runner = LoopRunner()
    first = runner.run(current_loop())
    assert LoopRunner().run(current_loop()) is first


def test_loop_runner_refuses_to_nest() -> None:
    async def nested() -> None:
        LoopRunner().run(asyncio.sleep(0))

    with pytest.raises(RuntimeError, match="inside the running event loop"):
        LoopRunner().run(nested())


def test_the_gateway_needs_no_event_loop(api: RecordingRequest, gateway: TelegramGateway) -> None:
    """The Lambda runs the gateway without asyncio (a cold start's imports, issue 12)."""
    api.inject_retry_after("sendMessage", 2)
    assert gateway.send(PLAYER, "one") == 1  # flood control waited out


def test_a_failed_admin_check_is_no_admin_and_is_logged(
    api: RecordingRequest, gateway: TelegramGateway, caplog: pytest.LogCaptureFixture
) -> None:
    """Issue 28: is_admin swallowed every error without a log line."""
    from infra.telegram_messenger import TelegramMessenger

    api.set_member_status(GROUP, 7, "creator")
    api.inject_error("getChatMember", 400, "Bad Request: chat not found")
    with caplog.at_level("WARNING", logger="coachride"):
        assert TelegramMessenger(gateway).is_admin(GROUP, 7) is False
    assert [r.getMessage() for r in caplog.records] == [
        "the admin check failed (BadRequest: Bad Request: chat not found); taken as not an admin"
    ]
    assert TelegramMessenger(gateway).is_admin(GROUP, 7) is True


def test_a_press_answer_over_telegrams_200_characters_is_cut_not_refused(
    api: RecordingRequest, gateway: TelegramGateway
) -> None:
    """A newcomer's German game: the alert on a paused "your turn is next" named a long-named
    player and ran to 207 characters; Telegram refuses such an answer whole (MESSAGE_TOO_LONG)
    and the player saw nothing. It loses its last words instead."""
    api.open_query("q1")
    long = "🤖 Friedrich ist noch am Zug. " + "⏸️ Pausiert, solange der Tisch wartet. " * 6
    assert gateway.answer("q1", long, alert=True) is True
    sent = api.calls_to("answerCallbackQuery")[0]["text"]
    assert len(sent.encode("utf-16-le")) // 2 <= 200 and sent.endswith("…")
    assert long.startswith(sent[:-1])
    assert api.violations == []
