"""A clock that moves only when told and timers that only record: for tests, benchmarks and the
pace command. Never imported by the Lambda entry points, so never in the package."""

from __future__ import annotations

from infra.ports import TimerRequest


class FakeClock:
    def __init__(self, start: float = 1_700_000_000.0) -> None:
        self._now = start

    def now(self) -> float:
        return self._now

    def advance(self, seconds: float) -> None:
        self._now += seconds


class FakeTimers:
    """Records requests; tests decide when time passes and collect what is due."""

    def __init__(self) -> None:
        self.requests: list[TimerRequest] = []

    def schedule(self, request: TimerRequest) -> None:
        self.requests.append(request)

    def pop_due(self, now: float) -> list[TimerRequest]:
        due = sorted((r for r in self.requests if r.due_at <= now), key=lambda r: r.due_at)
        self.requests = [r for r in self.requests if r.due_at > now]
        return due
