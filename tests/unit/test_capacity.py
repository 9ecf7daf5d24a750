"""The capacity simulation (issue 27): many tables on one fake clock, Telegram's limits on."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest

from devtools import capacity, capacity_clock, capacity_counting, capacity_sim, pace_players
from devtools.fakes import FakeClock
from infra.ports import FloodWait


def test_sleeping_invocations_interleave_by_time_on_one_clock() -> None:
    """A delivery waiting for its slot is suspended; whatever is due first runs meanwhile."""
    clock = FakeClock(0.0)
    scheduler = capacity_clock.Scheduler(clock)
    seen: list[tuple[str, float]] = []

    def slow() -> None:
        seen.append(("slow starts", clock.now()))
        scheduler.sleep(5.0)
        seen.append(("slow ends", clock.now()))

    def quick() -> None:
        seen.append(("quick", clock.now()))

    scheduler.at(0.0, "run", slow)
    scheduler.at(1.0, "run", quick)
    while scheduler.queue:
        _, kind, payload = scheduler.pop()
        if kind == "run":
            scheduler.spawn(None, payload)
        else:
            scheduler.resume(payload)
    assert seen == [("slow starts", 0.0), ("quick", 1.0), ("slow ends", 5.0)]


def test_a_few_games_under_the_limits_get_no_429_and_no_delay_worth_noting() -> None:
    figures = capacity_sim.Simulation(3, seed=2, ramp=10.0, window=60.0).run()
    assert figures.failed == 0
    assert figures.accepted_per_second > 0.5 and figures.prompts > 0
    assert figures.floods == 0 and figures.delay_p99 < 2.0
    assert figures.not_shown == 0


def test_over_the_limit_telegram_answers_429_and_prompts_come_late() -> None:
    """Two messages a second for the whole bot: Telegram refuses with retry_after, the bot's
    flood handling delivers later, and the delay shows in the figures."""
    sim = capacity_sim.Simulation(3, seed=2, ramp=10.0, window=60.0)
    sim.limits.overall = 2
    figures = sim.run()
    assert figures.failed == 0
    assert figures.floods > 0 and figures.floods_by_limit.get("overall", 0) > 0
    assert figures.delay_max > 2.0


def test_the_command_prints_the_table_and_its_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert capacity.main(["--games", "2", "--ramp", "5", "--window", "30", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    row = report["rows"]["2"]
    assert row["games"] == 2 and row["failed"] == 0
    assert report["goal_met"] is None  # N=100 not run
    assert "p99" in capacity.render(report)


def test_the_command_leaves_the_bots_log_level_as_it_found_it() -> None:
    """``main`` quiets the bot's logger while it runs; run in a test process it must not keep it
    quiet afterwards: another test in the same worker (``tests/e2e/test_log_secrets.py``) reads
    the bot's INFO lines, and failed whenever xdist happened to schedule it after this one."""
    import logging

    bot_log = logging.getLogger("coachride")
    before = bot_log.level
    assert capacity.main(["--games", "1", "--ramp", "1", "--window", "5", "--json"]) == 0
    assert bot_log.level == before


def test_the_simulation_waits_out_floods_as_the_gateway_does() -> None:
    """The simulated messenger sleeps out a short flood wait with the gateway's own bounds (it
    stands in for TelegramGateway, whose defaults production uses)."""
    import inspect

    from infra.telegram_messenger import TelegramGateway

    defaults = inspect.signature(TelegramGateway.__init__).parameters
    assert defaults["flood_attempts"].default == capacity_counting.FLOOD_ATTEMPTS
    assert defaults["max_wait"].default == capacity_counting.MAX_FLOOD_WAIT


@pytest.mark.os_seeds
def test_a_seeded_simulation_replays_its_deals_and_figures() -> None:
    """The command says a seed replays a run: the deals too, though the bot's own come from
    ``secrets`` (the simulation hands the service a seeded source; the OS source stays on here)."""

    def figures() -> dict[str, object]:
        got = dataclasses.asdict(capacity_sim.Simulation(4, seed=5, ramp=10.0, window=60.0).run())
        got.pop("wall_seconds")
        return got

    assert figures() == figures()


def test_a_player_whose_choice_ahead_was_refused_does_not_press_it_again_at_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Under pressure a paused "your turn is next" may still show its buttons (its edit waits,
    issue 27); a press there is refused. The pace player took that choice as made and pressed
    again at the same instant, for ever: the fake clock stood still at 100 games (seed 1, at
    59 s into the window) while taps piled up. Bounded: every event the scheduler pops."""
    popped = {"n": 0}
    pop = capacity_clock.Scheduler.pop

    def counted(self: capacity_clock.Scheduler) -> Any:
        popped["n"] += 1
        if popped["n"] > 20_000:  # a whole run makes ~7,900
            raise AssertionError("the simulation's clock stands still")
        return pop(self)

    monkeypatch.setattr(capacity_clock.Scheduler, "pop", counted)
    figures = capacity_sim.Simulation(100, seed=1, ramp=60.0, window=60.0).run()
    assert figures.games == 100 and popped["n"] < 20_000


def test_the_figures_say_which_calls_fill_the_budget() -> None:
    """Issue 27: what fills the shared budget, by kind (the prompts, their answers and closes,
    the group's story and status...), adds up to what Telegram accepted; pins are no message."""
    figures = capacity_sim.Simulation(3, seed=2, ramp=10.0, window=60.0).run()
    kinds = figures.by_kind
    assert "send private prompt" in kinds and "edit private answered" in kinds
    assert not any(what.startswith("pin") for what in kinds)
    total = sum(per_second for per_second, _, _ in kinds.values())
    assert total == pytest.approx(figures.accepted_per_second, abs=0.05 * len(kinds))
    counts = [per_second for per_second, _, _ in kinds.values()]
    assert counts == sorted(counts, reverse=True)  # busiest first
    assert all(p50 <= p99 for _, p50, p99 in kinds.values())


def test_the_figures_count_decisions_that_ran_out_before_the_player_pressed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Nobody is timed out waiting for the bot (issue 27): the figures count the players'
    decisions that ran out, none when the players press in time, some when they think longer
    than any deadline."""
    brisk = capacity_sim.Simulation(3, seed=2, ramp=10.0, window=120.0).run()
    assert brisk.timed_out == 0
    slow = {kind: (900.0, 1000.0) for kind in pace_players.THINK_SECONDS}
    monkeypatch.setattr(pace_players, "THINK_SECONDS", slow)
    dozing = capacity_sim.Simulation(3, seed=2, ramp=10.0, window=120.0).run()
    assert dozing.timed_out > 0


def test_a_player_looking_around_is_booked_in_the_bots_limiter_and_counted_by_telegram() -> None:
    """Issue 27's figures count every call: a player looking around their prompt's pages
    (``PaceTable.route``, ``quiet``) presses buttons the bot answers with edits. Those edits
    skipped the shared rate limiter (a free slot at once) and Telegram's limits (switched off
    for them), so the figures were optimistic, and what else those presses delivered went
    unbooked into limits that were on (429s)."""
    sim = capacity_sim.Simulation(1, seed=2, ramp=1.0, window=1.0)
    now = sim.clock.now()
    sim.messenger.quiet = True
    limiter = sim.service.pipeline.limiter
    assert limiter is not None
    limiter.reserve(4, now, now + 10.0)
    assert limiter.backlog(now) > 0  # the looking player's slots are booked like anyone's
    sim.messenger.send(31, "prompt")
    for uid in range(1, 30):  # the rest of the bot's 30 messages of this second
        sim.messenger.send(uid, "m")
    with pytest.raises(FloodWait):  # Telegram counts a looking player's page turn too
        sim.messenger._call("editMessageText", {"chat_id": 31, "message_id": 1, "text": "page 2"})
    assert sim.tally.floods == [(now, "overall")]


def test_looking_around_is_one_invocations_not_everyones() -> None:
    """``quiet`` (a player looking around, whose own page edits are not their prompt showing)
    holds for the invocation that set it only: another one running meanwhile on the shared
    messenger (a delivery suspended for its slot) is not taken for looking."""
    import threading

    messenger = capacity_counting.SimMessenger()
    messenger.quiet = True
    seen: list[bool] = []
    other = threading.Thread(target=lambda: seen.append(messenger.quiet))
    other.start()
    other.join()
    assert seen == [False] and messenger.quiet


def test_the_busy_players_next_press_leaves_the_tables_others_free() -> None:
    """``next_tap``: a seat still pressing (``busy``) is passed over, not everyone with it."""
    from devtools.pace_table import PaceTable

    table = PaceTable(5, 1501)
    table.open()
    for _ in range(400):
        st = table.state()
        tap = table.next_tap(st)
        assert tap is not None
        other = table.next_tap(st, frozenset({tap.seat}))
        if other is not None:
            assert other.seat != tap.seat
            return
        table.clock.advance(max(0.0, tap.at - table.clock.now()))
        table.take(tap)
        table.decide(tap.seat, tap.decision)
    raise AssertionError("no moment with two players about to press")
