"""The timer Lambda on the worst days (handlers/timer.py): a message that no retry can ever
apply (a body that is no timer message, a key that names no game, a game already gone) is
logged once with what it was and acknowledged, not retried into the dead-letter queue, which
alarms the operators; a transient fault (the store unavailable) is still retried."""

from __future__ import annotations

import json
import logging
from typing import Any

import pytest

from handlers import timer
from handlers.store_keys import FLUSH
from infra.ports import Put, TimerRequest
from infra.timers import timer_message
from tests.service.webhook_table import GROUP, BotTable


def _invoke(table: BotTable, *bodies: str) -> dict[str, Any]:
    event = {"Records": [{"messageId": f"m{i}", "body": b} for i, b in enumerate(bodies)]}
    return timer.handle(event, table.service, table.timers, table.clock.now())


def _body(key: str, decision: int = 3) -> str:
    return timer_message(TimerRequest(key, decision, 0.0))


NEVER_APPLIED = [
    pytest.param(_body(f"CHAT#{GROUP}"), id="a group's record"),
    pytest.param(_body("USER#2001"), id="a user's record"),
    pytest.param(_body(f"REPLY#{GROUP}", 4), id="a reply outbox, not its flush"),
    pytest.param(_body("GAME#nosuchgame"), id="a game already gone"),
    pytest.param(_body("GAME#" + "x" * 5000), id="a forged key too long for the store"),
    pytest.param(_body("../etc"), id="a forged key"),
    pytest.param('{"game": "GAME#a", "decision": "soon"}', id="a malformed body"),
    pytest.param("not json at all", id="no json"),
]


@pytest.mark.parametrize("body", NEVER_APPLIED)
def test_a_timer_message_that_names_no_game_is_acknowledged_and_logged_once(
    body: str, caplog: pytest.LogCaptureFixture
) -> None:
    table = BotTable()
    table.start()
    before = table.doc()
    with caplog.at_level(logging.INFO, logger="coachride"):
        result = _invoke(table, body)
    assert result == {"batchItemFailures": []}  # acknowledged: never to the dead-letter queue
    lines = [r for r in caplog.records if r.name == "coachride" and "timer" in r.getMessage()]
    assert len(lines) == 1 and lines[0].levelno == logging.WARNING
    said = json.dumps(lines[0].__dict__, default=str)
    assert "message_id" in said and "m0" in said
    assert not any(r.exc_info for r in caplog.records)  # no traceback: nothing failed
    assert table.doc()["engine"] == before["engine"]


def test_the_flush_of_a_reply_outbox_and_a_game_timer_still_apply() -> None:
    table = BotTable()
    table.start()
    due = table.doc()["due"]
    result = _invoke(
        table,
        _body(f"REPLY#{GROUP}", FLUSH),
        _body(f"GAME#{table.gid}", FLUSH),
        timer_message(TimerRequest(f"GAME#{table.gid}", due["dec"], 0.0)),
    )
    assert result == {"batchItemFailures": []}


class Unavailable(Exception):
    pass


def test_a_transient_store_fault_is_still_retried() -> None:
    table = BotTable()
    table.start()
    inner = table.store.inner
    due = table.doc()["due"]

    class Down:
        def __getattr__(self, name: str) -> Any:
            if name in ("get", "get_many", "commit"):

                def fail(*args: Any, **kwargs: Any) -> Any:
                    raise Unavailable("the store is unavailable")

                return fail
            return getattr(inner, name)

    table.store.inner = Down()  # type: ignore[assignment]
    result = _invoke(table, _body(f"GAME#{table.gid}", due["dec"]))
    assert result == {"batchItemFailures": [{"itemIdentifier": "m0"}]}


def test_a_timer_for_a_document_that_is_no_game_s_shape_is_acknowledged(
    caplog: pytest.LogCaptureFixture,
) -> None:
    table = BotTable()
    table.start()
    table.store.commit(
        [Put("GAME#broken", {"gid": "broken", "chat": "a group", "phase": "?"}, None)]
    )
    with caplog.at_level(logging.INFO, logger="coachride"):
        result = _invoke(table, _body("GAME#broken"))
    assert result == {"batchItemFailures": []}
    said = [r.__dict__.get("outcome") for r in caplog.records if r.name == "coachride"]
    assert "invalid" in said
