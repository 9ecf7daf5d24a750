"""Issue 27 (nobody is timed out for a message the bot could not deliver): a page turn of a prompt
(a navigation press) is the answer to the press the player is looking at. It goes right after
the press's callback answer, before what the press's unit of work delivers from the game's outbox,
booked in the shared budget; a wait for it moves the player's deadline on (``handlers.page_turn``),
a window's never (R-D1), and the group sees the same at twin tables."""

from __future__ import annotations

import pytest

import engine
from devtools.botapi.messenger import EmulatedMessenger
from devtools.fakes import FakeClock
from handlers.page_turn import MAX_PAGE_STRETCH_SECONDS, stretch_for_page
from handlers.store_keys import FLUSH, game_key
from handlers.transaction import Txn
from infra.ports import Rows, Sent
from tests.service.service_game import GROUP, ServiceGame
from tests.service.test_twins import diplomat_twins
from tests.service.twins import assert_same_streams


class OrderedMessenger(EmulatedMessenger):
    """Notes each call, with the fake clock's time."""

    def __init__(self, clock: FakeClock) -> None:
        super().__init__()
        self.clock = clock
        self.log: list[tuple[float, str, int]] = []

    def send(
        self, chat_id: int, text: str, rows: Rows | None = None, reply_to: int | None = None
    ) -> Sent:
        self.log.append((self.clock.now(), "send", chat_id))
        return super().send(chat_id, text, rows)

    def edit(self, chat_id: int, message_id: int, text: str, rows: Rows | None = None) -> Sent:
        self.log.append((self.clock.now(), "edit", chat_id))
        return super().edit(chat_id, message_id, text, rows)

    def answer(self, query_id: str, text: str | None = None, alert: bool = False) -> None:
        self.log.append((self.clock.now(), "answer", 0))
        super().answer(query_id, text, alert)


class QueueLimiter:
    """The shared budget's queue: each slot ``late`` seconds after its booking; counts them."""

    tolerance = 0.1

    def __init__(self, late: float) -> None:
        self.late = late
        self.booked = 0

    def reserve(self, count: int, now: float, latest: float) -> list[float]:
        self.booked += count
        return [now + self.late] * count

    def backlog(self, now: float) -> float:
        return self.late


def started() -> tuple[ServiceGame, OrderedMessenger, int, int]:
    """A game at its first turn: the table, its messenger, the turn's seat and its prompt."""
    clock = FakeClock()
    messenger = OrderedMessenger(clock)
    table = ServiceGame(clock=clock, messenger=messenger)
    table.start()
    seat = table.state().turn
    message_id, _ = table.prompt(seat)
    messenger.log.clear()
    return table, messenger, seat, message_id


def page_turn(table: ServiceGame, seat: int, message_id: int, to: str = "~tr") -> None:
    """The seat's player turns their prompt to the page ``to`` (the trade's; "~": the first)."""
    _, data = table.prompt(seat)
    page = next(d for d in data if d.split(":", 2)[2] == to)
    table.press(table.uids[seat], message_id, page)


def test_issue_27_a_page_turn_goes_before_what_its_press_delivers_from_the_outbox() -> None:
    """The press takes up the game's queued message (its sender's lease ended): the player's
    page goes right after the callback answer, the group's message after it."""
    table, messenger, seat, message_id = started()
    uid = table.uids[seat]
    table.service.pipeline.limiter = QueueLimiter(0.0)

    def queued(txn: Txn) -> None:  # left by an invocation that ended before sending it
        txn.until = txn.now
        txn.send(GROUP, "a message left in the outbox", tag="lobby")

    table.service.pipeline.run(game_key(table.gid), queued, None)
    table.service.pipeline.limiter = QueueLimiter(2.0)
    table.service.pipeline.sleep = table.clock.advance
    messenger.log.clear()
    table.clock.advance(30.0)  # past its lease (and the hold it asked for): the next load's
    page_turn(table, seat, message_id)
    calls = [(what, chat) for _, what, chat in messenger.log]
    assert calls[:3] == [("answer", 0), ("edit", uid), ("send", GROUP)], calls


def test_issue_27_a_page_turns_wait_moves_the_deadline_on_before_the_rest_is_delivered() -> None:
    """The rest of the press's delivery may wait long for its slots: the deadline's timer could
    fire meanwhile, so the deadline has moved on by the page's wait before it goes."""
    table, messenger, seat, message_id = started()
    table.service.pipeline.limiter = QueueLimiter(0.0)

    def queued(txn: Txn) -> None:  # left by an invocation that ended before sending it
        txn.until = txn.now
        txn.send(GROUP, "a message left in the outbox", tag="lobby")

    table.service.pipeline.run(game_key(table.gid), queued, None)
    table.clock.advance(30.0)
    deadline = float(table.doc()["due"]["deadline"])
    seen: list[float] = []
    send = messenger.send

    def noting(
        chat_id: int, text: str, rows: Rows | None = None, reply_to: int | None = None
    ) -> Sent:
        if chat_id == GROUP:
            seen.append(float(table.doc()["due"]["deadline"]))
        return send(chat_id, text, rows, reply_to)

    messenger.send = noting  # type: ignore[method-assign]
    table.service.pipeline.limiter = QueueLimiter(3.0)
    table.service.pipeline.sleep = table.clock.advance
    page_turn(table, seat, message_id)
    assert [at - deadline for at in seen] == [pytest.approx(3.0)]


def test_issue_27_the_callback_answer_never_waits_for_the_budget() -> None:
    """Telegram shows a spinner until the answer comes (and drops it after 15 s): it goes at
    once, before the page turn's slot, however far the budget is booked."""
    table, messenger, seat, message_id = started()
    table.service.pipeline.limiter = QueueLimiter(5.0)
    table.service.pipeline.sleep = table.clock.advance
    pressed = table.clock.now()
    page_turn(table, seat, message_id)
    assert messenger.log[0] == (pressed, "answer", 0)
    assert messenger.log[1] == (pressed + 5.0, "edit", table.uids[seat])


def test_issue_27_a_page_turn_is_booked_in_the_shared_budget_once() -> None:
    table, messenger, seat, message_id = started()
    limiter = QueueLimiter(0.0)
    table.service.pipeline.limiter = limiter
    page_turn(table, seat, message_id)
    assert limiter.booked == 1
    assert [what for _, what, _ in messenger.log] == ["answer", "edit"]


@pytest.mark.parametrize("late", [0.5, 5.0])
def test_issue_27_a_page_turn_the_budget_delays_moves_the_deadline_on_by_the_wait(
    late: float,
) -> None:
    table, _messenger, seat, message_id = started()
    deadline = float(table.doc()["due"]["deadline"])
    table.service.pipeline.limiter = QueueLimiter(late)
    table.service.pipeline.sleep = table.clock.advance
    page_turn(table, seat, message_id)
    stretched = float(table.doc()["due"]["deadline"]) - deadline
    # a wait under a second is no delay (as for a prompt, ``holds.STRETCH_AFTER_SECONDS``)
    assert stretched == (pytest.approx(late) if late > 1.0 else 0.0)
    page_turn(table, seat, message_id, "~")  # each page the player waited for counts
    assert float(table.doc()["due"]["deadline"]) - deadline == pytest.approx(2 * stretched)


def test_R_D1_a_windows_deadline_never_moves_for_a_page_and_a_page_stretch_is_capped() -> None:
    doc = {
        "phase": "playing",
        "dec": {"id": 7, "opened": 100.0, "window": True},
        "due": {"dec": 7, "at": 110.0, "deadline": 110.0},
    }
    assert stretch_for_page(doc, 7, 5.0) == 0.0  # who a window asks is secret
    del doc["dec"]["window"]
    assert stretch_for_page(doc, 6, 5.0) == 0.0  # a decision no longer pending
    assert stretch_for_page(doc, 7, 5.0) == 5.0
    assert doc["due"] == {"dec": 7, "at": 115.0, "deadline": 115.0}
    assert stretch_for_page(doc, 7, 2 * MAX_PAGE_STRETCH_SECONDS) == MAX_PAGE_STRETCH_SECONDS - 5
    assert stretch_for_page(doc, 7, 5.0) == 0.0  # paging on cannot hold the table longer


def test_R_D1_a_page_turn_the_budget_delays_shows_the_group_the_same_at_twin_tables() -> None:
    """The turn's player pages to the trade while the budget is 3 s behind: the deadline the group
    sees moves on alike whether a face-down Diplomat or a plain occupation is theirs."""
    a, b, turn = diplomat_twins()
    dues = []
    for twin in (a, b):
        twin.wait(5)
        before = twin.due()
        pipeline = twin.harness.service.pipeline
        pipeline.limiter, pipeline.sleep = QueueLimiter(3.0), twin.harness.clock.advance
        twin.press(turn, "~tr")
        pipeline.limiter = None
        after = twin.due()
        assert before is not None and after is not None
        dues.append(after - before)
        twin.wait(150)
        assert engine.awaiting(twin.state()) is not None
    assert dues[0] == dues[1] == pytest.approx(3.0)
    assert_same_streams(a, b, hidden={turn})


def flush_page(table: ServiceGame) -> None:
    """Time passes to the game's first flush timer, which fires (its own alone)."""
    first = min((r for r in table.timers.requests if r.decision == FLUSH), key=lambda r: r.due_at)
    table.clock.advance(max(0.0, first.due_at - table.clock.now()))
    table.timers.requests.remove(first)
    table.service.handle_timer(first)


def test_issue_27_a_page_turn_that_finds_no_slot_is_queued_not_dropped() -> None:
    """The shared budget is booked 40 s ahead, beyond what the press's invocation may wait: the
    page is not dropped (before, the player had to press again) but queued in the game's
    outbox; its flush timer sends it once the budget allows, and the deadline moves on by the
    player's wait."""
    table, messenger, seat, message_id = started()
    uid = table.uids[seat]
    deadline = float(table.doc()["due"]["deadline"])
    pipeline = table.service.pipeline
    pipeline.limiter, pipeline.sleep = QueueLimiter(40.0), table.clock.advance
    pressed = table.clock.now()
    page_turn(table, seat, message_id)
    assert [what for _, what, _ in messenger.log] == ["answer"]  # no slot in its time
    pipeline.limiter = QueueLimiter(0.0)  # the budget is free again
    flush_page(table)
    shown = messenger.messages[(uid, message_id)]
    assert [(what, chat) for _, what, chat in messenger.log] == [("answer", 0), ("edit", uid)]
    assert "Trade" in shown.text and any("⬅️" in b[0] for row in shown.rows or [] for b in row)
    waited = messenger.log[-1][0] - pressed
    assert waited > 20.0
    assert float(table.doc()["due"]["deadline"]) - deadline == pytest.approx(waited)


def test_issue_27_a_queued_page_turn_never_goes_after_a_newer_one() -> None:
    """The player, not seeing their page, presses again once the budget is free: that page goes
    at once, and the queued one is dropped (sent after it, it would be one call too many, or
    turn a page the player opened since back)."""
    table, messenger, seat, message_id = started()
    pipeline = table.service.pipeline
    pipeline.limiter, pipeline.sleep = QueueLimiter(40.0), table.clock.advance
    page_turn(table, seat, message_id)  # queued
    assert [r for r in table.timers.requests if r.decision == FLUSH]
    pipeline.limiter = QueueLimiter(0.0)
    table.clock.advance(2.0)
    page_turn(table, seat, message_id)  # shown at once
    assert [what for _, what, _ in messenger.log] == ["answer", "answer", "edit"]
    while any(r.decision == FLUSH for r in table.timers.requests):
        flush_page(table)
    assert [what for _, what, _ in messenger.log] == ["answer", "answer", "edit"]


def test_R_D1_a_queued_page_turn_shows_the_group_the_same_at_twin_tables() -> None:
    """The turn's player pages to the trade while the budget is 40 s behind (the page queued,
    sent by its flush timer): the group sees the same whether a face-down Diplomat or a plain
    occupation is theirs."""
    a, b, turn = diplomat_twins()
    for twin in (a, b):
        twin.wait(5)
        pipeline = twin.harness.service.pipeline
        pipeline.limiter, pipeline.sleep = QueueLimiter(40.0), twin.harness.clock.advance
        twin.press(turn, "~tr")
        pipeline.limiter = None
        twin.wait(150)
        assert engine.awaiting(twin.state()) is not None
    assert_same_streams(a, b, hidden={turn})
