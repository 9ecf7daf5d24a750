"""The capacity simulation: N pace tables (``devtools.pace_table``) at once through the real
service, its shared rate limiter and the emulator with Telegram's limits on, on one fake clock
(``devtools.capacity_clock``); a game that ends is replaced at once by a new one. What it counts
is ``devtools.capacity_counting``'s."""

from __future__ import annotations

import itertools
import logging
import random
import time
from collections import Counter

import engine
from devtools.botapi.emulator import BotApiEmulator
from devtools.botapi.faults import RateLimits
from devtools.capacity_clock import Scheduler, SimTimers
from devtools.capacity_counting import (
    Figures,
    SimMessenger,
    Tally,
    by_kind,
    quantile,
)
from devtools.fakes import FakeClock, FakeTimers
from devtools.memory_store import MemoryStore
from devtools.pace_players import Tap
from devtools.pace_table import BOT, PaceTable, Shared
from handlers import lobby
from handlers.app import CoachRideBot
from infra.ports import TimerRequest
from infra.rate_limit import SharedRateLimiter

PLAYERS = 5
LOOK_AGAIN_SECONDS = 1.0  # a player whose prompt is not there (yet) looks again this much later
FIRST_GROUP = -2_000_000_000
FIRST_UID = 100_000_000

log = logging.getLogger("coachride")


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
        self.timeouts: list[int] = [0] * PLAYERS  # each seat's decisions run out in a row (R-D2)


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
        deals = random.Random(f"deals{seed}")
        self.service = CoachRideBot(
            self.store,
            self.messenger,
            SimTimers(self.scheduler),
            self.clock,
            bot_username=BOT,
            limiter=limiter,
            sleep=self.scheduler.sleep,
            # the bot deals from ``secrets``; a seeded run replays its deals too
            deal_seeds=lambda: deals.getrandbits(lobby.DEAL_SEED_BITS),
        )
        self.service.pipeline.delivery.answered = lambda e: self.tally.call_answered(
            e, self.clock.now()
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
            table.pressing.add(tap.seat)  # no other press planned for them meanwhile

            def look_and_press() -> None:
                """The player looks around their prompt's pages (each look a press the bot
                answers, booked and counted like any other), then presses their way there."""
                try:
                    chosen = table.choose(tap.seat, tap.decision)
                    if chosen is None:  # nothing to press in what they see yet: look again soon
                        table.gen += 1
                        table.scheduled = tap
                        again = self.clock.now() + LOOK_AGAIN_SECONDS
                        self.scheduler.at(again, "tap", (table, table.gen))
                        return
                    if table.scheduled == tap:
                        table.scheduled = None
                    table.take(tap)
                    uid, message_id, route = chosen
                    self.tally.presses += len(route)
                    for data in route:
                        table.press(uid, message_id, data)
                finally:
                    table.pressing.discard(tap.seat)

            worker = self.scheduler.spawn(table, look_and_press)
        elif kind == "timer":
            request: TimerRequest = payload
            gid = request.game_key.partition("#")[2]

            def fire() -> None:
                self.service.handle_timer(request)

            worker = self.scheduler.spawn(self.tables.get(gid), fire)
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
        for seat, player in enumerate(st.players):  # a decision of theirs ran out meanwhile
            if player.timeouts > table.timeouts[seat]:
                self.tally.timed_out.extend([now] * (player.timeouts - table.timeouts[seat]))
            table.timeouts[seat] = player.timeouts
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
        # a player still pressing their way to a choice (waiting for a page, or for their
        # press's delivery) presses nothing else meanwhile; the others press as they decide
        tap = table.next_tap(st, frozenset(table.pressing))
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
            delay_p50=round(quantile(delays, 0.5), 2),
            delay_p99=round(quantile(delays, 0.99), 2),
            delay_max=round(delays[-1], 2) if delays else 0.0,
            not_shown=not_shown,
            deadlines_extended=sum(1 for at in self.tally.extended if inside(at)),
            timed_out=sum(1 for at in self.tally.timed_out if inside(at)),
            games_finished=sum(1 for at in self.tally.finished if inside(at)),
            presses=self.tally.presses,
            failed=failed,
            by_kind=by_kind([(w, d) for at, w, d in self.tally.calls if inside(at)], span),
        )
