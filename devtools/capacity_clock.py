"""One fake clock and one queue of events for the capacity simulation: the presses players will
make, the timers the service asked for (``SimTimers``: SQS in production), and the invocations
that wait. An invocation runs in its own thread but only while the scheduler waits for it, so one
thing runs at a time and a run is deterministic for its seed."""

from __future__ import annotations

import heapq
import itertools
import logging
import threading
from collections.abc import Callable
from typing import Any, Generic, TypeVar

from devtools.fakes import FakeClock, FakeTimers
from infra.ports import TimerRequest

Table = TypeVar("Table")  # what an invocation is about (the simulation's table), or None

log = logging.getLogger("coachride")


class Worker(Generic[Table]):
    """One invocation of the service (an update or a timer) in its own thread, run only while
    the scheduler waits for it: it runs until it finishes or sleeps."""

    def __init__(self, table: Table | None, work: Callable[[], None]) -> None:
        self.table = table
        self.work = work
        self.go = threading.Semaphore(0)
        self.done = False


class Scheduler:
    """Events by time on one fake clock. ``sleep`` (given to the pipeline and the rate limiter)
    suspends the invocation calling it until the clock reaches its wake-up."""

    def __init__(self, clock: FakeClock) -> None:
        self.clock = clock
        self.queue: list[tuple[float, int, str, Any]] = []
        self._seq = itertools.count()
        self._back = threading.Semaphore(0)
        self._local = threading.local()

    def at(self, when: float, kind: str, payload: Any) -> None:
        heapq.heappush(self.queue, (when, next(self._seq), kind, payload))

    def pop(self) -> tuple[float, str, Any]:
        when, _, kind, payload = heapq.heappop(self.queue)
        if when > self.clock.now():
            self.clock.advance(when - self.clock.now())
        return when, kind, payload

    def sleep(self, seconds: float) -> None:
        worker: Worker[Any] | None = getattr(self._local, "worker", None)
        if worker is None:  # outside any invocation (a player looking around): no waiting
            return
        self.at(self.clock.now() + max(0.0, seconds), "wake", worker)
        self._back.release()
        worker.go.acquire()

    def spawn(self, table: Table | None, work: Callable[[], None]) -> Worker[Table]:
        """Run ``work`` as an invocation until it finishes or sleeps."""
        worker = Worker(table, work)
        threading.Thread(target=self._run, args=(worker,), daemon=True).start()
        self._back.acquire()
        return worker

    def resume(self, worker: Worker[Any]) -> None:
        worker.go.release()
        self._back.acquire()

    def _run(self, worker: Worker[Any]) -> None:
        self._local.worker = worker
        try:
            worker.work()
        except BaseException:
            log.exception("simulated invocation failed")
        finally:
            worker.done = True
            self._back.release()


class SimTimers(FakeTimers):
    """Timers become events on the scheduler's queue (SQS in production)."""

    def __init__(self, scheduler: Scheduler) -> None:
        super().__init__()
        self.scheduler = scheduler

    def schedule(self, request: TimerRequest) -> None:
        self.scheduler.at(request.due_at, "timer", request)
