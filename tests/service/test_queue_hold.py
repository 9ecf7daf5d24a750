"""Issue 27, "nobody is timed out for a message the bot could not deliver": when the shared
budget is booked past the end of an invocation, what it could not send waits for the flush
timer, and the game's deadlines wait for it too (at 200 games a prompt with no slot waited for
the flush while its deadline ran out: 136 decisions timed out in ``devtools.capacity``)."""

from __future__ import annotations

import pytest

import engine
from devtools.botapi.messenger import EmulatedMessenger
from handlers.store_keys import FLUSH, game_key
from handlers.transaction import Txn
from tests.service.service_game import GROUP, ServiceGame


class BookedFull:
    """The shared budget booked beyond this invocation's lease: no slot at all."""

    tolerance = 0.1

    def reserve(self, count: int, now: float, latest: float) -> list[float]:
        return []

    def backlog(self, now: float) -> float:
        return 60.0


@pytest.mark.parametrize("to", ["player", "group"])
def test_messages_left_for_the_flush_timer_hold_the_games_deadlines_until_it(to: str) -> None:
    """Whatever waits (a decision prompt, or the group's message: the hold depends on the
    budget alone, never on which prompts were queued, R-D1), the deadlines move on to after the
    flush, so the prompt, sent then, still has its decision's whole time."""
    table = ServiceGame(messenger=EmulatedMessenger())
    table.start()
    doc = table.doc()
    dec, deadline = int(doc["dec"]["id"]), float(doc["due"]["deadline"])
    seat = engine.awaiting(table.state()).seats[0]  # type: ignore[union-attr]
    chat = table.uids[seat] if to == "player" else GROUP
    table.service.pipeline.limiter = BookedFull()
    table.timers.requests.clear()
    now = table.clock.now()

    def change(txn: Txn) -> None:
        tag = f"prompt:{seat}:{dec}" if to == "player" else "turn_reminder"
        txn.send(chat, "your decision", [[["b", "d", "x"]]], tag=tag)

    table.service.pipeline.run(game_key(table.gid), change, None)  # type: ignore[arg-type]
    flush = min(r.due_at for r in table.timers.requests if r.decision == FLUSH)
    after = table.doc()
    assert str(chat) in after["hold"]["chats"]
    assert float(after["due"]["deadline"]) >= deadline + (flush - now) - 0.01
    assert any(e["chat"] == chat for e in after["outbox"])  # still to send, by the flush
