"""Telegram's 5xx on the worst days: while Telegram fails every call, nobody is timed out for a
decision prompt it never took (the chat is held as under flood control and the game's deadlines
wait for it: "nobody is timed out for a message the bot could not deliver"); once Telegram
answers again the prompt goes out and the game goes on to its end."""

from __future__ import annotations

import engine
from tests.e2e.harness import Harness, Player


def _action(data: list[str]) -> str:
    """A button that acts (not a menu, not an explanation)."""
    return next(d for d in data if not d.split(":", 2)[2].startswith(("~", "?")))


def _undelivered(h: Harness, decision: int, seats: tuple[int, ...] | list[int]) -> bool:
    """Whether the decision's prompt reached none of the seats asked (no message id)."""
    prompts = h.game_doc().get("prompts") or {}
    return all(
        prompts.get(str(s), {}).get("dec") == decision and prompts[str(s)].get("msg") is None
        for s in seats
    )


def test_a_decision_whose_prompt_telegram_failed_to_take_does_not_time_out() -> None:
    players = [Player(uid=7500 + i, name=f"Rider {i}") for i in range(4)]
    h = Harness(players, seed=3)
    h.service.deal_seeds = lambda: 20261204  # the same deal every run
    h.open_lobby_and_join()
    h.start()
    for _ in range(40):  # on to a press that asks a player by name (not a window)
        aw = engine.awaiting(h.state())
        assert aw is not None
        uid = h.game_doc()["players"][aw.seats[0]]["uid"]
        player = next(p for p in players if p.uid == uid)
        message_id, data = h.prompt_buttons(player, aw.decision)
        h.api.inject_outage(150)  # Telegram answers 500 to everything for 150 s
        h.press(player, player.uid, message_id, _action(data))
        asked = h.state().pending
        assert asked is not None
        if not asked.window and asked.actors and _undelivered(h, asked.id, asked.actors):
            break
        h.api.outage = None
        h.play_by_buttons(stop=1)
    else:
        raise AssertionError("no prompt was refused")
    for _ in range(30):  # 150 s of Telegram failing: the timers fire on
        h.clock.advance(5)
        h.fire_timers()
    still = h.state().pending
    assert still is not None and still.id == asked.id  # still asked: nobody timed out
    for _ in range(24):  # Telegram is back: the flush sends what waited (within 2 minutes)
        h.clock.advance(5)
        h.fire_timers()
    assert h.state().pending is not None and h.state().pending.id == asked.id
    assert not _undelivered(h, asked.id, asked.actors)  # the prompt is shown now
    assert h.play_by_buttons().over
    assert not h.api.violations
