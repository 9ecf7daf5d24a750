"""`python -m devtools.capacity`: how many games one bot token carries, on a fake clock.

N five-player games run at once through the real service (``handlers.app.CoachRideBot`` with
its pipeline and the shared rate limiter production uses, ``infra.rate_limit``) and the
project's Telegram emulator (``devtools.botapi``) with Telegram's limits on: about 30 messages a
second per bot, about one a second per private chat with short bursts, 20 a minute per group,
answered with ``429`` and ``retry_after``; the bot reacts as it does in production (flood
control holds the chat, the flush timer sends the rest later).

Every table is the pace command's (``devtools.pace``): brisk humans who start thinking when
their prompt shows and press the buttons that lead to what they chose. All tables share ONE
fake clock: an event queue ordered by time holds the presses players will make, the timers the
service asked for, and the invocations that wait (a delivery sleeping for its rate-limit slot is
suspended, and the clock moves on to whatever comes first). Only one thing runs at a time, so a
run is deterministic for its seed, and an hour of play costs only the service's real work.

Games start spread over the first ``--ramp`` seconds; a game that ends is replaced at once by a
new one, so N games are always in progress. Figures count what happens in the ``--window``
after the ramp:

- sends and edits per second Telegram accepted (and asked for);
- 429s Telegram answered, by limit;
- the delay the limits add from a press to the next prompt: from the moment the service has
  committed a decision a player is asked, to the moment its prompt shows in their chat (0
  without limits, since the simulated service takes no time), p50 / p99 / max;
- deadlines extended (a decision's deadline moved later, outside the boost window's rule).

The looking-around a player does before pressing (``PaceTable.route``) edits their prompt
without counting against the limits, as in the pace command; everything else counts.
"""

from __future__ import annotations

import argparse
import heapq
import itertools
import json
import logging
import random
import statistics
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import engine
from devtools.botapi.emulator import BotApiEmulator
from devtools.botapi.faults import MESSAGE_METHODS, RateLimits
from devtools.botapi.messenger import EmulatedMessenger
from devtools.fakes import FakeClock, FakeTimers
from devtools.memory_store import MemoryStore
from devtools.pace_players import Tap
from devtools.pace_table import BOT, PaceTable, Shared
from handlers import lobby
from handlers.app import CoachRideBot
from infra.ports import FloodWait, Rows, Sent, TimerRequest
from infra.rate_limit import SharedRateLimiter

PLAYERS = 5
SIZES = (25, 50, 100, 200, 400)
QUICK_SIZES = (25, 50, 100)
LOOK_AGAIN_SECONDS = 1.0  # a player whose prompt is not there (yet) looks again this much later
GOAL_N = 100
# TelegramGateway's defaults (flood_attempts, max_wait): what production sleeps out in-process.
FLOOD_ATTEMPTS = 3
MAX_FLOOD_WAIT = 30.0
GOAL_P99_SECONDS = 2.0
FIRST_GROUP = -2_000_000_000
FIRST_UID = 100_000_000

log = logging.getLogger("coachride")


# -- one clock, one queue of events ------------------------------------------------------------
class _Worker:
    """One invocation of the service (an update or a timer) in its own thread, run only while
    the scheduler waits for it: it runs until it finishes or sleeps."""

    def __init__(self, table: SimTable | None, work: Callable[[], None]) -> None:
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
        worker: _Worker | None = getattr(self._local, "worker", None)
        if worker is None:  # outside any invocation (a player looking around): no waiting
            return
        self.at(self.clock.now() + max(0.0, seconds), "wake", worker)
        self._back.release()
        worker.go.acquire()

    def spawn(self, table: SimTable | None, work: Callable[[], None]) -> _Worker:
        """Run ``work`` as an invocation until it finishes or sleeps."""
        worker = _Worker(table, work)
        threading.Thread(target=self._run, args=(worker,), daemon=True).start()
        self._back.acquire()
        return worker

    def resume(self, worker: _Worker) -> None:
        worker.go.release()
        self._back.acquire()

    def _run(self, worker: _Worker) -> None:
        self._local.worker = worker
        try:
            worker.work()
        except BaseException:
            log.exception("simulated invocation failed")
        finally:
            worker.done = True
            self._back.release()


@dataclass
class Tally:
    """What Telegram saw and what players waited, each with the time it happened."""

    accepted: list[tuple[float, str]] = field(default_factory=list)  # (when, method)
    asked_for: list[float] = field(default_factory=list)
    floods: list[tuple[float, str]] = field(default_factory=list)  # (when, limit)
    asked: dict[tuple[str, int, int], float] = field(default_factory=dict)  # (gid, dec, uid)
    shown: dict[tuple[str, int, int], float] = field(default_factory=dict)
    delays: list[tuple[float, float]] = field(default_factory=list)  # (asked at, delay)
    deadlines: dict[tuple[str, int, int, str], float] = field(default_factory=dict)
    extended: list[float] = field(default_factory=list)
    finished: list[float] = field(default_factory=list)
    presses: int = 0

    def prompt_shown(self, key: tuple[str, int, int], now: float) -> None:
        if key in self.shown:
            return
        self.shown[key] = now
        if key in self.asked:
            self.delays.append((self.asked[key], now - self.asked[key]))

    def prompt_asked(self, key: tuple[str, int, int], now: float) -> None:
        if key in self.asked:
            return
        self.asked[key] = now
        if key in self.shown:
            self.delays.append((now, max(0.0, self.shown[key] - now)))


@dataclass
class SimMessenger(EmulatedMessenger):
    """The service's messenger over the shared emulator, noting what Telegram accepted and
    refused and when each decision's prompt first shows in a player's chat."""

    tally: Tally = field(default_factory=Tally)
    clock: Callable[[], float] = time.time
    quiet: bool = False  # a player looking around their prompt's pages (not counted)
    # As infra.telegram_gateway.TelegramGateway does in production: a short flood wait is slept
    # out in the invocation (up to FLOOD_ATTEMPTS tries of at most MAX_FLOOD_WAIT s each); only a
    # longer one reaches the pipeline, which then holds the chat.
    sleep: Callable[[float], None] | None = None

    def _waiting_out_floods(self, call: Callable[[], Sent]) -> Sent:
        for attempt in range(1, FLOOD_ATTEMPTS + 1):
            try:
                return call()
            except FloodWait as flood:
                if (
                    self.sleep is None
                    or attempt == FLOOD_ATTEMPTS
                    or flood.retry_after > MAX_FLOOD_WAIT
                ):
                    raise
                self.sleep(flood.retry_after)
        raise AssertionError("unreachable")

    def _call(self, method: str, params: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        looking = self.quiet and method == "editMessageText" and params["chat_id"] > 0
        if looking:
            limits, self.api.limits = self.api.limits, None
            try:
                return super()._call(method, params)
            finally:
                self.api.limits = limits
        counted = method in MESSAGE_METHODS
        if counted:
            self.tally.asked_for.append(self.clock())
        limits = self.api.limits
        before = Counter(limits.by_reason) if limits is not None else Counter()
        try:
            status, body = super()._call(method, params)
        except FloodWait:
            after = limits.by_reason if limits is not None else Counter()
            reason = next((r for r in after if after[r] > before[r]), "other")
            self.tally.floods.append((self.clock(), reason))
            raise
        if counted and status == 200:
            self.tally.accepted.append((self.clock(), method))
        return status, body

    def send(self, chat_id: int, text: str, rows: Rows | None = None) -> Sent:
        sent = self._waiting_out_floods(lambda: super(SimMessenger, self).send(chat_id, text, rows))
        self._note(sent, chat_id, rows)
        return sent

    def edit(self, chat_id: int, message_id: int, text: str, rows: Rows | None = None) -> Sent:
        sent = self._waiting_out_floods(
            lambda: super(SimMessenger, self).edit(chat_id, message_id, text, rows)
        )
        if not self.quiet:
            self._note(sent, chat_id, rows)
        return sent

    def _note(self, sent: Sent, chat_id: int, rows: Rows | None) -> None:
        if not sent.ok or chat_id < 0:
            return
        for row in rows or []:
            for _, kind, data in row:
                parts = data.split(":")
                if kind == "d" and len(parts) >= 3 and parts[1].isdigit():
                    self.tally.prompt_shown((parts[0], int(parts[1]), chat_id), self.clock())
                    return


class _LookingAround:
    """The shared limiter, except while a player looks around their prompt's pages."""

    def __init__(self, inner: SharedRateLimiter, messenger: SimMessenger) -> None:
        self.inner = inner
        self.messenger = messenger
        self.tolerance = inner.tolerance

    def reserve(self, count: int, now: float, latest: float) -> list[float]:
        if self.messenger.quiet:
            return [now] * count
        return self.inner.reserve(count, now, latest)

    def backlog(self, now: float) -> float:
        return self.inner.backlog(now)


class SimTimers(FakeTimers):
    """Timers become events on the scheduler's queue (SQS in production)."""

    def __init__(self, scheduler: Scheduler) -> None:
        super().__init__()
        self.scheduler = scheduler

    def schedule(self, request: TimerRequest) -> None:
        self.scheduler.at(request.due_at, "timer", request)


class SimTable(PaceTable):
    """A pace table in the simulation: its presses are events, its updates invocations."""

    def __init__(self, index: int, seed: int, shared: Shared, ids: itertools.count[int]) -> None:
        super().__init__(
            PLAYERS,
            seed,
            group=FIRST_GROUP - index,
            first_uid=FIRST_UID + index * 10,
            shared=shared,
        )
        self.index = index
        self.ids = ids  # update ids are the bot's, across all chats
        self.started = False
        self.over = False
        self.gen = 0
        self.scheduled: Tap | None = None
        self.pressing: set[int] = set()  # seats whose presses are on their way


# -- the simulation ------------------------------------------------------------------------------
@dataclass
class Figures:
    games: int
    window_seconds: float
    wall_seconds: float
    accepted_per_second: float
    asked_per_second: float
    sends_per_second: float
    edits_per_second: float
    floods: int
    floods_by_limit: dict[str, int]
    prompts: int
    delay_p50: float
    delay_p99: float
    delay_max: float
    not_shown: int
    deadlines_extended: int
    games_finished: int
    presses: int
    failed: int


class _Errors(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.count = 0

    def emit(self, record: logging.LogRecord) -> None:
        self.count += 1


class Simulation:
    def __init__(self, games: int, seed: int, ramp: float, window: float) -> None:
        self.n = games
        self.seed = seed
        self.ramp = ramp
        self.window = window
        self.clock = FakeClock()
        self.t0 = self.clock.now()
        self.scheduler = Scheduler(self.clock)
        self.store = MemoryStore(clock=self.clock)
        self.limits = RateLimits(clock=self.clock.now)
        api = BotApiEmulator(clock=self.clock.now, limits=self.limits)
        self.tally = Tally()
        self.messenger = SimMessenger(
            api=api, tally=self.tally, clock=self.clock.now, sleep=self.scheduler.sleep
        )
        limiter = SharedRateLimiter(self.store, sleep=self.scheduler.sleep)
        self.service = CoachRideBot(
            self.store,
            self.messenger,
            SimTimers(self.scheduler),
            self.clock,
            bot_username=BOT,
            limiter=_LookingAround(limiter, self.messenger),
            sleep=self.scheduler.sleep,
        )
        self.shared = Shared(self.clock, self.store, FakeTimers(), self.messenger, self.service)
        self.tables: dict[str, SimTable] = {}  # by game id
        self.count = itertools.count()
        self.update_ids = itertools.count(1)
        self.rng = random.Random(seed)

    @property
    def end(self) -> float:
        return self.t0 + self.ramp + self.window

    def new_table(self, at: float) -> None:
        index = next(self.count)
        table = SimTable(index, self.seed * 100_003 + index, self.shared, self.update_ids)
        self.scheduler.at(at, "open", table)

    def run(self) -> Figures:
        errors = _Errors()
        log.addHandler(errors)
        random_ids = lobby.new_game_id
        ids = random.Random(f"ids{self.seed}")
        lobby.new_game_id = lambda: f"cap{ids.getrandbits(32):08x}"
        wall = time.perf_counter()
        try:
            for _ in range(self.n):
                self.new_table(self.t0 + self.rng.uniform(0, self.ramp))
            while self.scheduler.queue and self.scheduler.queue[0][0] <= self.end:
                self.step()
        finally:
            lobby.new_game_id = random_ids
            log.removeHandler(errors)
        return self.figures(time.perf_counter() - wall, errors.count)

    def step(self) -> None:
        _, kind, payload = self.scheduler.pop()
        if kind == "open":
            table: SimTable = payload

            def open_game() -> None:
                table.open()
                self.tables[table.gid] = table
                table.started = True

            worker = self.scheduler.spawn(table, open_game)
        elif kind == "tap":
            table, gen = payload
            if gen != table.gen or table.over or table.scheduled is None:
                return
            tap = table.scheduled
            chosen = table.choose(tap.seat, tap.decision)
            if chosen is None:  # nothing to press in what they see yet: they look again soon
                table.gen += 1
                self.scheduler.at(self.clock.now() + LOOK_AGAIN_SECONDS, "tap", (table, table.gen))
                return
            table.scheduled = None
            table.take(tap)
            uid, message_id, route = chosen
            self.tally.presses += len(route)

            def press() -> None:
                try:
                    for data in route:
                        table.press(uid, message_id, data)
                finally:
                    table.pressing.discard(tap.seat)

            table.pressing.add(tap.seat)

            worker = self.scheduler.spawn(table, press)
        elif kind == "timer":
            request: TimerRequest = payload
            gid = request.game_key.partition("#")[2]
            worker = self.scheduler.spawn(
                self.tables.get(gid), lambda: self.service.handle_timer(request)
            )
        else:  # "wake"
            worker = payload
            self.scheduler.resume(worker)
        if worker.table is not None and worker.table.started:
            self.replan(worker.table)

    def replan(self, table: SimTable) -> None:
        """After anything happened to ``table``'s game: what its players are asked (noted),
        and their next press (an event, replacing the one planned before)."""
        if table.over:
            return
        doc = table.doc()
        st = engine.State.from_dict(doc["engine"])
        now = self.clock.now()
        if st.over:
            table.over = True
            self.tally.finished.append(now)
            self.new_table(now)  # N games stay in progress
            return
        aw = engine.awaiting(st)
        assert aw is not None
        for seat in aw.seats:
            self.tally.prompt_asked((table.gid, aw.decision, table.uids[seat]), now)
        due = doc.get("due")
        if due and due.get("deadline") is not None and aw.kind != "boost":
            key = (table.gid, int(due["dec"]), aw.part, str(aw.kind))  # the same question
            before = self.tally.deadlines.get(key)
            if before is not None and due["deadline"] > before + 0.5:
                self.tally.extended.append(now)
            self.tally.deadlines[key] = float(due["deadline"])
        tap = table.next_tap(st)
        if tap is not None and tap.seat in table.pressing:
            tap = None  # still pressing their way to a choice: the rest of it first
        if tap == table.scheduled:
            return
        table.gen += 1
        table.scheduled = tap
        if tap is not None:
            self.scheduler.at(max(now, tap.at), "tap", (table, table.gen))

    def figures(self, wall: float, failed: int) -> Figures:
        lo, hi = self.t0 + self.ramp, self.end
        span = hi - lo

        def inside(at: float) -> bool:
            return lo <= at < hi

        accepted = [m for at, m in self.tally.accepted if inside(at)]
        floods = [r for at, r in self.tally.floods if inside(at)]
        delays = sorted(d for at, d in self.tally.delays if inside(at))
        settled = {k for k in self.tally.shown}
        not_shown = sum(1 for k, at in self.tally.asked.items() if inside(at) and k not in settled)
        return Figures(
            games=self.n,
            window_seconds=span,
            wall_seconds=round(wall, 1),
            accepted_per_second=round(len(accepted) / span, 2),
            asked_per_second=round(sum(1 for at in self.tally.asked_for if inside(at)) / span, 2),
            sends_per_second=round(accepted.count("sendMessage") / span, 2),
            edits_per_second=round(accepted.count("editMessageText") / span, 2),
            floods=len(floods),
            floods_by_limit=dict(Counter(floods)),
            prompts=len(delays),
            delay_p50=round(_quantile(delays, 0.5), 2),
            delay_p99=round(_quantile(delays, 0.99), 2),
            delay_max=round(delays[-1], 2) if delays else 0.0,
            not_shown=not_shown,
            deadlines_extended=sum(1 for at in self.tally.extended if inside(at)),
            games_finished=sum(1 for at in self.tally.finished if inside(at)),
            presses=self.tally.presses,
            failed=failed,
        )


def _quantile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[round(q * 100) - 1]


def run(sizes: list[int], seed: int, ramp: float, window: float) -> dict[str, Any]:
    rows = {}
    for n in sizes:
        rows[n] = Simulation(n, seed, ramp, window).run().__dict__
    goal = rows.get(GOAL_N)
    met = None
    if goal is not None:
        met = goal["floods"] == 0 and goal["delay_p99"] <= GOAL_P99_SECONDS
    return {
        "seed": seed,
        "ramp": ramp,
        "window": window,
        "players": PLAYERS,
        "rows": rows,
        "goal_met": met,
    }


def render(report: dict[str, Any]) -> str:
    lines = [
        f"capacity of one bot token: N {report['players']}-player games at once, Telegram's "
        f"limits on (seed {report['seed']}; games start over {report['ramp']:.0f} s, figures "
        f"over the next {report['window']:.0f} s of the fake clock)",
        "",
        f"{'N':>5} {'accepted/s':>10} {'sends/s':>8} {'edits/s':>8} {'asked/s':>8} "
        f"{'429s':>6} {'p50 s':>6} {'p99 s':>6} {'max s':>6} {'unshown':>7} {'extended':>8} "
        f"{'wall s':>7}",
    ]
    for n, r in report["rows"].items():
        lines.append(
            f"{n:>5} {r['accepted_per_second']:>10} {r['sends_per_second']:>8} "
            f"{r['edits_per_second']:>8} {r['asked_per_second']:>8} {r['floods']:>6} "
            f"{r['delay_p50']:>6} {r['delay_p99']:>6} {r['delay_max']:>6} "
            f"{r['not_shown']:>7} {r['deadlines_extended']:>8} {r['wall_seconds']:>7}"
        )
        if r["floods_by_limit"]:
            lines.append(f"      429s by limit: {r['floods_by_limit']}")
        if r["failed"]:
            lines.append(f"      FAILED invocations (logged errors): {r['failed']}")
    lines += [
        "",
        "accepted/s: sends and edits Telegram took; asked/s: those the bot tried (429s "
        "included); p50/p99/max: delay the limits add from a committed decision to its prompt "
        "showing; unshown: prompts asked in the window not shown by its end; extended: "
        "deadlines moved later",
    ]
    if report["goal_met"] is not None:
        verdict = "met" if report["goal_met"] else "MISSED"
        lines.append(
            f"goal at N={GOAL_N}: no 429 and p99 added delay <= {GOAL_P99_SECONDS:g} s: {verdict}"
        )
    return "\n".join(lines)


def _sizes(raw: str) -> list[int]:
    return [int(n) for n in raw.split(",") if n]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=(__doc__ or "").split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--games", type=_sizes, default=list(SIZES), help="e.g. 25,50,100")
    parser.add_argument(
        "--quick", action="store_true", help=f"only N = {', '.join(map(str, QUICK_SIZES))}"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--ramp", type=float, default=60.0, help="seconds over which games start")
    parser.add_argument("--window", type=float, default=180.0, help="seconds measured")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    logging.getLogger("coachride").setLevel(logging.ERROR)
    sizes = list(QUICK_SIZES) if args.quick else args.games
    report = run(sizes, args.seed, args.ramp, args.window)
    print(json.dumps(report) if args.json else render(report))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
