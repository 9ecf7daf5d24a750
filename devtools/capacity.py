"""`python -m devtools.capacity`: how many games one bot token carries, on a fake clock.

N five-player games run at once through the real service (``handlers.app.CoachRideBot`` with
its pipeline and the shared rate limiter production uses, ``infra.rate_limit``) and the
project's Telegram emulator (``devtools.botapi``) with Telegram's limits on: about 30 messages a
second per bot, about one a second per private chat with short bursts, 20 sends and edits a
minute per group, answered with ``429`` and ``retry_after``; the bot reacts as it does in
production (flood control holds the chat, the flush timer sends the rest later).

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
- deadlines extended (a decision's deadline moved later, outside the boost window's rule);
- decisions timed out (a player's, windows aside, that ran out before they pressed: nobody
  should, since a prompt shown late stretches its deadline);
- which calls fill the budget, by kind, each with its wait in the outbox.

Every call counts, the looking-around a player does before pressing (``PaceTable.route``)
included: its presses are invocations like any other, whose page edits book the bot's shared rate
limiter and count against Telegram's limits (the pace command, which measures what a game
costs, leaves them out). A group's 20 a minute count its edits too (``devtools.botapi.faults``).
Messages the shared budget cannot fit before an invocation's end wait for the flush timer, and
the game's deadlines wait for them (``handlers.delivery``).

Here the command, its goal and its printing; the simulation is ``devtools.capacity_sim``, its
clock and queue ``devtools.capacity_clock``, what it counts ``devtools.capacity_counting``.
"""

from __future__ import annotations

import argparse
import json
import logging
from typing import Any

from devtools.capacity_sim import PLAYERS, Simulation

SIZES = (25, 50, 100, 200, 400)
QUICK_SIZES = (25, 50, 100)
GOAL_N = 100
GOAL_P99_SECONDS = 2.0


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
        f"{'timed out':>9} {'wall s':>7}",
    ]
    for n, r in report["rows"].items():
        lines.append(
            f"{n:>5} {r['accepted_per_second']:>10} {r['sends_per_second']:>8} "
            f"{r['edits_per_second']:>8} {r['asked_per_second']:>8} {r['floods']:>6} "
            f"{r['delay_p50']:>6} {r['delay_p99']:>6} {r['delay_max']:>6} "
            f"{r['not_shown']:>7} {r['deadlines_extended']:>8} {r['timed_out']:>9} "
            f"{r['wall_seconds']:>7}"
        )
        if r["floods_by_limit"]:
            lines.append(f"      429s by limit: {r['floods_by_limit']}")
        if r["by_kind"]:
            lines += _kinds(r["by_kind"])
        if r["failed"]:
            lines.append(f"      FAILED invocations (logged errors): {r['failed']}")
    lines += [
        "",
        "accepted/s: sends and edits Telegram took; asked/s: those the bot tried (429s "
        "included); p50/p99/max: delay the limits add from a committed decision to its prompt "
        "showing; unshown: prompts asked in the window not shown by its end; extended: "
        "deadlines moved later; timed out: players' decisions (windows aside) that ran out "
        "before they pressed; by kind: the busiest calls Telegram answered (what, where, "
        "kind), each a second with its wait in the outbox from queued to sent (p50/p99 s)",
    ]
    if report["goal_met"] is not None:
        verdict = "met" if report["goal_met"] else "MISSED"
        lines.append(
            f"goal at N={GOAL_N}: no 429 and p99 added delay <= {GOAL_P99_SECONDS:g} s: {verdict}"
        )
    return "\n".join(lines)


def _kinds(kinds: dict[str, Any], top: int = 8) -> list[str]:
    """The busiest kinds of call of a row: calls a second (p50 / p99 wait in the outbox, s)."""
    parts = [f"{what} {n:g}/s ({p50:g}/{p99:g})" for what, (n, p50, p99) in kinds.items()][:top]
    rows = [parts[i : i + 3] for i in range(0, len(parts), 3)]
    return [
        ("      by kind: " if i == 0 else "               ") + "; ".join(r)
        for i, r in enumerate(rows)
    ]


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
    sizes = list(QUICK_SIZES) if args.quick else args.games
    bot_log = logging.getLogger("coachride")
    level = bot_log.level
    bot_log.setLevel(logging.ERROR)  # for this run only: a test process keeps its logging
    try:
        report = run(sizes, args.seed, args.ramp, args.window)
    finally:
        bot_log.setLevel(level)
    print(json.dumps(report) if args.json else render(report))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
