"""Issue 28, one way through for a press: the unit of work is a context manager that owns its
retry. A room is a plain function of (command, unit of work): on a version conflict it runs
again on fresh reads, and only the attempt that committed is answered and delivered, when the
block is left; a room that raises commits, answers and sends nothing."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from devtools.fakes import FakeClock, FakeTimers
from devtools.memory_messenger import MemoryMessenger
from devtools.memory_store import MemoryStore
from handlers import txn_store, unit_of_work
from handlers.pipeline import Pipeline
from handlers.store_keys import FLUSH, game_key
from handlers.unit_of_work import UnitOfWork, Work
from infra.ports import Delete, Put, TimerRequest, deadline_scope
from tests.service.service_game import GROUP
from tests.service.test_delivery import hooked_table, run_sends, sends

KEY = "GAME#g1"


def service() -> tuple[Pipeline, MemoryStore, MemoryMessenger]:
    clock = FakeClock()
    store, messenger = MemoryStore(clock=clock), MemoryMessenger()
    store.commit([Put(KEY, {"n": 0}, None)])
    return Pipeline(store, messenger, FakeTimers(), clock), store, messenger


def count(cmd: list[int], work: UnitOfWork) -> int:
    """A room: counts the document up and tells chat 5, once per attempt it is run."""
    cmd.append(work.txn.doc["n"])
    work.txn.doc["n"] += 1
    work.txn.changed = True
    work.txn.send(5, f"n={work.txn.doc['n']}")
    work.txn.toast = ("done", False)
    return work.txn.doc["n"]


def test_a_conflict_reruns_the_room_on_fresh_reads_and_delivers_once() -> None:
    pipeline, store, messenger = service()
    raced = []

    def someone_else_first(writes: Sequence[Put | Delete], update_id: int | None) -> None:
        if not raced:
            raced.append(1)
            store.before_commit = None
            store.commit([Put(KEY, {"n": 10}, 1)])

    store.before_commit = someone_else_first
    seen: list[int] = []
    with Work(pipeline, KEY, 7, query="q1") as work:
        result = work.run(count, seen)
        assert messenger.answers == []  # nothing answered or sent inside the block
        assert messenger.in_chat(5) == []
    assert seen == [0, 10]  # the room ran again on what the other writer left
    assert result == 11 and work.txn is not None and work.committed
    assert [s.text for s in messenger.in_chat(5)] == ["n=11"]
    assert messenger.answers == [("q1", "done", False)]
    got = store.get(KEY)
    assert got is not None and got.doc["n"] == 11


def test_a_room_that_raises_commits_answers_and_sends_nothing() -> None:
    pipeline, store, messenger = service()

    def broken(cmd: Any, work: UnitOfWork) -> None:
        work.txn.send(5, "never")
        work.txn.changed = True
        raise RuntimeError("the room failed")

    with pytest.raises(RuntimeError), Work(pipeline, KEY, 8, query="q2") as work:
        work.run(broken, None)
    assert messenger.answers == [] and messenger.in_chat(5) == []
    got = store.get(KEY)
    assert got is not None and got.doc == {"n": 0}


def test_a_follow_up_with_no_time_left_leaves_the_rest_to_the_flush_timer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A delivery out of the invocation's time (``OutOfTime``) holds the chat, a follow-up of
    its own; that follow-up must not deliver again: it would claim the same send, fail it, and
    hold once more, a follow-up of a follow-up (the store's round trips moving the clock on, each
    one pushing the deadlines on by a second) until a RecursionError. What is left goes once, by
    the flush timer."""
    table, messenger = hooked_table()
    follows: list[object] = []
    real_follow, real_load = unit_of_work.Work._follow, txn_store.load

    def follow(work: Work, change: Any, command: Any) -> None:
        follows.append(command)
        real_follow(work, change, command)

    def slow_load(*args: Any, **kwargs: Any) -> Any:
        table.clock.advance(1.5)  # a store round trip
        return real_load(*args, **kwargs)

    monkeypatch.setattr(unit_of_work.Work, "_follow", follow)
    monkeypatch.setattr(txn_store, "load", slow_load)
    messenger.hooks["A1"] = lambda: table.clock.advance(30)  # the invocation's time runs out
    with deadline_scope(table.clock.now() + 30, table.clock):
        run_sends(table, "A1", "A2")  # RecursionError on the code before
    assert len(follows) == 1, f"{len(follows)} follow-ups in one invocation"
    assert sends(table, GROUP, "A2") == 0
    monkeypatch.setattr(txn_store, "load", real_load)
    table.clock.advance(60)
    table.service.handle_timer(TimerRequest(game_key(table.gid), FLUSH, table.clock.now()))
    assert [sends(table, GROUP, text) for text in ("A1", "A2")] == [1, 1]
