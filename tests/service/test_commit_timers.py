"""The commit of a command schedules its flush timer once (issue 28, read along one press): a
decision that opened while Telegram held the game's group (a flood hold) had the same flush timer
scheduled twice in one commit (``Work.run`` called ``schedule_flush`` for the hold, then again),
each an SQS message and an invocation of its own on Lambda."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from handlers.transaction import Txn
from tests.fakes.faults import MESSAGE_METHODS
from tests.service.webhook_table import GROUP, BotTable


def hold_the_group(bot: BotTable, seconds: int) -> None:
    """From now on, Telegram answers every message call to the group with flood control."""
    inner = bot.api.handle
    end = bot.clock.now() + seconds

    def handle(method: str, params: dict[str, Any]) -> tuple[int, bytes]:
        if method in MESSAGE_METHODS and params.get("chat_id") == GROUP:
            wait = max(1, int(end - bot.clock.now()))
            body = {"ok": False, "error_code": 429, "description": "Too Many Requests"}
            return 429, json.dumps({**body, "parameters": {"retry_after": wait}}).encode()
        return inner(method, params)

    bot.api.handle = handle  # type: ignore[method-assign]


def test_a_decision_opened_during_a_flood_hold_schedules_its_flush_once() -> None:
    bot = BotTable(n=4)
    bot.start()
    hold_the_group(bot, 300)
    delivery = bot.service.pipeline.delivery
    calls: list[int] = []
    schedule_flush = delivery.schedule_flush

    def counted(key: str, txn: Txn) -> None:
        calls.append(id(txn))
        schedule_flush(key, txn)

    delivery.schedule_flush = counted  # type: ignore[method-assign]
    bot.press_turn_pass()  # the group's messages wait: the game is held
    assert bot.doc().get("hold")
    bot.press_turn_pass()  # the next player's prompt went out privately: a new decision
    assert bot.doc()["dec"].get("held")  # it opened during the hold and waits for its end
    assert max(Counter(calls).values()) == 1  # one call per committed attempt
