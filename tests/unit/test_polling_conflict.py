"""A second bot started by mistake with the same token (or a webhook set while polling): Telegram
answers the older ``getUpdates`` 409 Conflict, and so does the emulator (one model of Telegram).
The long-polling runner then stops with the cause in one sentence, so exactly one process goes
on: two would each get some of the players' presses and run their games' timers twice (it
stopped before too, but only on a real Telegram, saying "Telegram refused to start the bot")."""

from __future__ import annotations

import queue
import threading
import time

import pytest
from telegram import Bot

from devtools.botapi.methods import POLL_CONFLICT, WEBHOOK_CONFLICT
from devtools.botapi.recording import RecordingRequest
from handlers.polling import Runner, StartupError
from infra.telegram_polling import TelegramPoller


class NoTimers:
    def close(self) -> None:
        return None


def start_polling(api: RecordingRequest) -> tuple[threading.Thread, list[BaseException]]:
    """A runner (without its startup calls) polling ``api`` in a thread, through
    python-telegram-bot as ``make run`` does; returns once its ``getUpdates`` waits."""
    runner = Runner.__new__(Runner)
    runner.updates = TelegramPoller(Bot("123:TEST", request=api, get_updates_request=api))
    runner.due = queue.Queue()
    runner.timers = NoTimers()  # type: ignore[assignment]
    ended: list[BaseException] = []

    def poll() -> None:
        try:
            runner.poll_forever(poll_seconds=2, sleep=lambda _: None)
        except BaseException as error:
            ended.append(error)

    thread = threading.Thread(target=poll, daemon=True)
    thread.start()
    waiting(api)
    return thread, ended


def waiting(api: RecordingRequest) -> None:
    """Until a ``getUpdates`` came and waits (its call recorded, then a moment)."""
    deadline = time.monotonic() + 10
    while not api.calls_to("getUpdates") and time.monotonic() < deadline:
        time.sleep(0.01)
    assert api.calls_to("getUpdates"), "nobody polled"
    time.sleep(0.2)


def test_the_emulator_answers_the_older_of_two_get_updates_409_as_telegram_does() -> None:
    api = RecordingRequest(limits=False)
    answers: list[tuple[int, dict[str, object]]] = []
    older = threading.Thread(target=lambda: answers.append(api.call("getUpdates", {"timeout": 5})))
    older.start()
    waiting(api)
    newer = api.call("getUpdates", {"timeout": 0})
    older.join(5)
    assert newer == (200, {"ok": True, "result": []})
    assert answers == [
        (409, {"ok": False, "error_code": 409, "description": POLL_CONFLICT}),
    ]
    # a webhook takes the updates: getUpdates is refused until it is deleted
    assert api.call("setWebhook", {"url": "https://example.org/hook"})[0] == 200
    status, body = api.call("getUpdates", {"timeout": 0})
    assert (status, body["description"]) == (409, WEBHOOK_CONFLICT)
    assert api.call("deleteWebhook", {})[0] == 200
    assert api.call("getUpdates", {"timeout": 0})[0] == 200


def test_a_second_instance_polling_with_the_token_stops_the_first_with_a_clear_cause() -> None:
    api = RecordingRequest(limits=False)
    thread, ended = start_polling(api)
    # another process (a second `make run` elsewhere) polls with the same token
    assert api.call("getUpdates", {"timeout": 0})[0] == 200
    thread.join(5)
    assert not thread.is_alive(), "the runner went on polling against the other process"
    (error,) = ended
    assert isinstance(error, StartupError)
    assert "Another process is polling Telegram with this bot's token" in str(error)
    assert "terminated by other getUpdates request" in str(error)
    # it stopped at once: no retry that would take the updates back from the other one
    assert len(api.calls_to("getUpdates")) == 2


def test_a_webhook_set_while_polling_stops_the_runner_saying_so() -> None:
    api = RecordingRequest(limits=False)
    thread, ended = start_polling(api)
    assert api.call("setWebhook", {"url": "https://example.org/hook"})[0] == 200
    thread.join(5)
    assert not thread.is_alive()
    (error,) = ended
    assert isinstance(error, StartupError)
    assert "A webhook was set for this bot while it was polling" in str(error)
    assert api.webhook_url == "https://example.org/hook"  # left to whoever set it


@pytest.mark.parametrize("lang", ["en", "de", "zh-Hans"])
def test_the_conflict_messages_name_telegrams_reason(lang: str) -> None:
    from handlers.i18n import t

    for key in ("local.poll_conflict", "local.webhook_conflict"):
        assert "WHY" in t(lang, key, reason="WHY")
