"""Timers and clocks: SQS delayed messages in AWS, a background thread locally (the fakes for
tests and benchmarks are in ``devtools.fakes``)."""

from __future__ import annotations

import heapq
import json
import logging
import math
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from infra.ports import Clock, TimerRequest, Timers

if TYPE_CHECKING:
    from mypy_boto3_sqs.client import SQSClient

log = logging.getLogger(__name__)

MAX_SQS_DELAY_SECONDS = 900


class SystemClock:
    def now(self) -> float:
        return time.time()


def sqs_delay(due_at: float, now: float) -> int:
    return min(max(math.ceil(due_at - now), 0), MAX_SQS_DELAY_SECONDS)


def timer_message(request: TimerRequest) -> str:
    return json.dumps(
        {"game": request.game_key, "decision": request.decision, "due_at": request.due_at},
        separators=(",", ":"),
    )


def parse_timer_message(body: str) -> TimerRequest:
    """Raises ValueError for anything that is not a timer message this module wrote."""
    try:
        data = json.loads(body)
        game, decision, due_at = data["game"], data["decision"], data["due_at"]
    except (ValueError, TypeError, KeyError) as exc:
        raise ValueError(f"not a timer message: {body[:200]!r}") from exc
    if not isinstance(game, str) or not game:
        raise ValueError("timer message: game must be a non-empty string")
    if isinstance(decision, bool) or not isinstance(decision, int):
        raise ValueError("timer message: decision must be an integer")
    if isinstance(due_at, bool) or not isinstance(due_at, int | float) or not math.isfinite(due_at):
        raise ValueError("timer message: due_at must be a finite number")
    return TimerRequest(game_key=game, decision=decision, due_at=float(due_at))


def requeue_if_early(timers: Timers, request: TimerRequest, now: float) -> bool:
    """True when the request is due; otherwise schedule it again for the rest of the wait.

    SQS delays at most 900 s, so a longer wait arrives early and goes round again.
    """
    if request.due_at <= now:
        return True
    timers.schedule(request)
    return False


class SqsTimers:
    def __init__(
        self, queue_url: str, client: SQSClient | None = None, clock: Clock | None = None
    ) -> None:
        self.queue_url = queue_url
        self.clock: Clock = clock or SystemClock()
        self._client = client
        self._client_lock = threading.Lock()

    @property
    def client(self) -> SQSClient:
        if self._client is None:
            with self._client_lock:
                if self._client is None:
                    from infra import aws

                    self._client = aws.client("sqs")  # the container's, made on first use
        return self._client

    def schedule(self, request: TimerRequest) -> None:
        self.client.send_message(
            QueueUrl=self.queue_url,
            MessageBody=timer_message(request),
            DelaySeconds=sqs_delay(request.due_at, self.clock.now()),
        )

    def requeue_if_early(self, request: TimerRequest, now: float | None = None) -> bool:
        return requeue_if_early(self, request, self.clock.now() if now is None else now)


class LocalTimers:
    """In-process timers: one daemon thread calls ``callback(request)`` at each due time."""

    def __init__(self, callback: Callable[[TimerRequest], Any]) -> None:
        self._callback = callback
        self._heap: list[tuple[float, int, TimerRequest]] = []
        self._seq = 0
        self._closed = False
        self._wake = threading.Condition()
        self._thread = threading.Thread(target=self._run, name="local-timers", daemon=True)
        self._thread.start()

    def schedule(self, request: TimerRequest) -> None:
        with self._wake:
            if self._closed:
                raise RuntimeError("LocalTimers is closed")
            self._seq += 1
            heapq.heappush(self._heap, (request.due_at, self._seq, request))
            self._wake.notify()

    def pending(self) -> int:
        with self._wake:
            return len(self._heap)

    def cancel_all(self) -> None:
        with self._wake:
            self._heap.clear()
            self._wake.notify()

    def close(self, timeout: float | None = 5.0) -> None:
        with self._wake:
            self._closed = True
            self._heap.clear()
            self._wake.notify()
        if self._thread is not threading.current_thread():
            self._thread.join(timeout)

    def __enter__(self) -> LocalTimers:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _run(self) -> None:
        while True:
            with self._wake:
                while not self._closed:
                    if self._heap:
                        wait = self._heap[0][0] - time.time()
                        if wait <= 0:
                            break
                        self._wake.wait(wait)
                    else:
                        self._wake.wait()
                if self._closed:
                    return
                request = heapq.heappop(self._heap)[2]
            try:
                self._callback(request)
            except Exception:
                log.exception("timer callback failed for %s", request)
