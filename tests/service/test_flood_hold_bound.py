"""Every wait has a deadline, flood control's too: Telegram may hold one chat for days (a
``retry_after`` of a week), and the game must not wait that long for it. The game waits for
a held chat at most an hour (``holds.MAX_HOLD_SECONDS``); then it goes on, and that chat's
prompts wait for Telegram (its player's decisions take their defaults, as an unreachable
player's do)."""

from __future__ import annotations

import json
import math
from typing import Any

from devtools.botapi.emulator import Call
from tests.service.webhook_table import BotTable

WEEK = 7 * 24 * 3600.0
HOUR = 3600.0
MESSAGE_METHODS = ("sendMessage", "editMessageText")


def hold_one_chat(bot: BotTable, chat: int, seconds: float) -> None:
    """From now on, every message call to ``chat`` answers 429 until ``seconds`` have passed."""
    end = bot.clock.now() + seconds
    inner = bot.api.handle

    def handle(method: str, params: dict[str, Any]) -> tuple[int, bytes]:
        now = bot.clock.now()
        if method in MESSAGE_METHODS and params.get("chat_id") == chat and now < end:
            wait = max(1, math.ceil(end - now))
            body = {
                "ok": False,
                "error_code": 429,
                "description": f"Too Many Requests: retry after {wait}",
                "parameters": {"retry_after": wait},
            }
            bot.api.calls.append(Call(method, params))
            return 429, json.dumps(body).encode()
        return inner(method, params)

    bot.api.handle = handle  # type: ignore[method-assign]


def test_a_week_long_flood_hold_on_one_chat_stalls_the_game_at_most_the_bound() -> None:
    bot = BotTable(n=4)
    bot.start()
    started = bot.clock.now()
    held = bot.uids[(bot.state().turn + 1) % 4]  # the next player's private chat
    hold_one_chat(bot, held, WEEK)
    bot.press_turn_pass()  # the next prompt cannot go out
    deadline = bot.doc()["due"]["deadline"]
    assert deadline - bot.clock.now() <= HOUR + 120
    for _ in range(2000):
        if bot.state().over:
            break
        bot.timeout_once()
    assert bot.state().over
    # an unheld game by timeouts takes minutes; the hold adds at most the bound, not a week
    assert bot.clock.now() - started < HOUR + 24 * 3600


def test_a_short_hold_after_the_bound_adds_only_its_own_time() -> None:
    """A chat held for a week, waited for an hour; a later short hold of another chat moves the
    game on by its own length, not by another hour of the week-long one."""
    from handlers.holds import hold_game

    now = 1000.0
    doc: dict[str, Any] = {"phase": "playing", "dec": {"id": 1, "opened": now}, "due": None}
    assert hold_game(doc, {1: now + WEEK}, now) == HOUR
    later = now + 2 * HOUR
    assert hold_game(doc, {2: later + 60}, later) == 60
