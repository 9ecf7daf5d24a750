"""Issue 27, nobody is timed out for a message the bot could not deliver: in the capacity
simulation, players who look through their prompt's pages while the shared budget is booked far
ahead wait for each page; their deadline moves on by those waits (``handlers.page_turn``)."""

from __future__ import annotations

import functools

import pytest

from devtools import capacity_sim
from infra.rate_limit import SharedRateLimiter


def test_issue_27_players_paging_under_lasting_pressure_are_not_timed_out(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A bot allowed 2 calls a second carrying 8 games: the budget runs seconds behind for the
    whole run, as at 100 games on Telegram's 30. Before, a page turn went after the press's
    delivery of the game's queued messages and moved no deadline: 1 decision timed out here
    (and at 4 a second, 20 games: 5), with players still pressing through their pages."""
    monkeypatch.setattr(
        capacity_sim, "SharedRateLimiter", functools.partial(SharedRateLimiter, rate=2.0)
    )
    figures = capacity_sim.Simulation(8, seed=1, ramp=10.0, window=300.0).run()
    assert figures.delay_p50 > 2.0  # under pressure indeed
    assert figures.deadlines_extended > 0
    assert figures.timed_out == 0
