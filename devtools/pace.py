"""`python -m devtools.pace`: how long games take and how much they buzz, on a fake clock.

Whole games run through the real service (in-memory store, a recording messenger, timers fired
when the fake clock reaches them), played by a brisk table of humans: each asked player looks at
the prompt the bot sent, thinks (uniformly, seeded), decides what to do with the engine's AI
policy on their own view, and presses the buttons that lead to it (navigation pages included).
Someone the bot does not ask does nothing; every other wait ends on its deadline (the defaults).
The next player offered their turn ahead (engine.premove) starts thinking when that prompt shows,
chooses when done (if the prompt is still there then, else as soon as it is back), and, if their
turn starts first, goes on thinking and presses in the turn's own prompt; ``--ahead`` says which
share of the players does so at all (the others wait for their turn).

Think times (issue 9): turn action 8-35 s, support 3-12 s, boost 2-10 s, Priest / Hypnotist /
Doctor / smuggling windows 1-5 s, trade answer 5-20 s; other choices (rewards, gifts, the free
uses after an action, looks) 3-12 s. Navigation taps happen within the think time.

Printed per table size: median (and range of) game duration, new group messages, group edits,
the share of taps that only dismiss something (the tapping player could do nothing else), private
messages per player, Bot API calls per game, the sends and edits per game by what they are (the
group's status, story...; a private chat's prompts sent by decision kind, closed, re-shown, page
turns, 🔜, news...), and the issue's goals next to them.

Here the command, its goals and its printing; the game driver is ``devtools.pace_table``, the
players ``devtools.pace_players``, what is counted ``devtools.pace_figures``.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from devtools.pace_figures import summarize
from devtools.pace_table import PaceTable

GOALS = {
    # issue 25: a 5-player game's median when players use "your turn is next" (🔜), and when
    # they ignore it (--ahead 0); new group messages per game
    "median_minutes_5p_ahead": 25.0,
    "median_minutes_5p": 32.0,
    "group_messages_5p": 25.0,
    "dismiss_share": 0.05,
    # issue 27: what Telegram counts, for 5 players
    "calls_per_second_5p": 0.3,
    "group_calls_per_60s": 20,
    "private_calls_per_10s": 10,
}


def goals(by_players: dict[int, dict[str, Any]], ahead: float = 1.0) -> dict[str, dict[str, Any]]:
    """The goals next to the figures; the game length's depends on whether the players choose
    their turn ahead at all (``ahead`` > 0) or ignore it."""
    five = by_players.get(5)
    out: dict[str, dict[str, Any]] = {}
    if five is not None:
        uses = ahead > 0
        minutes = GOALS["median_minutes_5p_ahead" if uses else "median_minutes_5p"]
        how = "players use 🔜" if uses else "players ignore 🔜"
        out[f"5-player median minutes ({how})"] = {
            "goal": f"<= {minutes:g}",
            "value": five["median_minutes"],
            "met": five["median_minutes"] <= minutes,
        }
        out["new group messages per 5-player game"] = {
            "goal": f"<= {GOALS['group_messages_5p']:g}",
            "value": five["group_messages_per_game"],
            "met": five["group_messages_per_game"] <= GOALS["group_messages_5p"],
        }
    if five is not None:
        out["sends and edits per second per 5-player game"] = {
            "goal": f"<= {GOALS['calls_per_second_5p']:g}",
            "value": five["calls_per_second"],
            "met": five["calls_per_second"] <= GOALS["calls_per_second_5p"],
        }
        out["group sends and edits in the busiest 60 s (5 players)"] = {
            "goal": f"<= {GOALS['group_calls_per_60s']:g}",
            "value": five["busiest_group_60s"],
            "met": five["busiest_group_60s"] <= GOALS["group_calls_per_60s"],
        }
        out["private chat sends and edits in the busiest 10 s (5 players)"] = {
            "goal": f"<= {GOALS['private_calls_per_10s']:g}",
            "value": five["busiest_private_10s"],
            "met": five["busiest_private_10s"] <= GOALS["private_calls_per_10s"],
        }
    worst = max(f["dismiss_share_of_decision_taps"] for f in by_players.values())
    out["dismiss-only taps (worst table size)"] = {
        "goal": f"<= {GOALS['dismiss_share']:.0%}",
        "value": worst,
        "met": worst <= GOALS["dismiss_share"],
    }
    return out


def run(games: int, players: list[int], seed: int, ahead: float = 1.0) -> dict[str, Any]:
    by_players = {}
    for n in players:
        played = [PaceTable(n, seed * 1000 + n * 100 + i, ahead).play() for i in range(games)]
        by_players[n] = summarize(played)
    return {"seed": seed, "ahead": ahead, "tables": by_players, "goals": goals(by_players, ahead)}


def render(report: dict[str, Any]) -> str:
    lines = [
        f"pace benchmark (seed {report['seed']}; think times in devtools/pace_players.py; "
        f"{report['ahead']:.0%} of players choose their turn ahead when offered)"
    ]
    for n, f in report["tables"].items():
        lines += [
            "",
            f"{n} players, {f['games']} games, results {f['results']}, "
            f"median round reached {f['median_rounds']}",
            f"  game duration        median {f['median_minutes']} min "
            f"(range {f['minutes_range'][0]}-{f['minutes_range'][1]})",
            f"  group                {f['group_messages_per_game']} new messages, "
            f"{f['group_edits_per_game']} edits per game",
            f"  Telegram counts      group {f['group_messages_per_game']} sends + "
            f"{f['group_edits_per_game']} edits, private {f['private_sends_per_game']} sends + "
            f"{f['private_edits_per_game']} edits per game; {f['calls_per_second']} per second",
            f"  busiest              group {f['busiest_group_60s']} calls in 60 s (median game "
            f"{f['busiest_group_60s_median']}), a private chat {f['busiest_private_10s']} in 10 s",
            f"  taps per game        {f['taps_per_game']} ({f['decision_taps_per_game']} "
            f"decisions, the rest navigation)",
            f"  dismiss-only taps    {f['dismiss_share_of_decision_taps']:.1%} of decisions, "
            f"{f['dismiss_share_of_all_taps']:.1%} of all taps",
            f"  private messages     {f['private_messages_per_player']} per player per game",
            f"  Bot API calls        {f['bot_api_calls_per_game']} per game "
            f"{f['bot_api_calls_by_method']}",
        ]
        by_decision = f["minutes_by_decision"]
        lines.append(
            f"  waiting, min/game    {round(sum(by_decision.values()), 1)} in all: "
            + ", ".join(f"{k} {v}" for k, v in by_decision.items() if v >= 0.05)
        )
        kinds = f.get("calls_by_kind") or {}
        if kinds:
            lines.append("  sends and edits per game, by what they are:")
            lines += [f"    {v:6.1f}  {k}" for k, v in kinds.items() if v >= 0.05]
        if f["choices_without_a_button"]:
            lines.append(f"  choices with no button to reach: {f['choices_without_a_button']}")
        if f["failed_updates"]:
            lines.append(f"  FAILED updates (logged errors): {f['failed_updates']}")
    lines += ["", "goals (issues 9, 25 and 27):"]
    for name, g in report["goals"].items():
        value = g["value"]
        shown = f"{value:.1%}" if "dismiss" in name else f"{value}"
        lines.append(f"  {'met ' if g['met'] else 'MISS'} {name}: {shown} (goal {g['goal']})")
    return "\n".join(lines)


def _players(raw: str) -> list[int]:
    return [int(p) for p in raw.split(",") if p]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=(__doc__ or "").split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--games", type=int, default=5, help="games per table size")
    parser.add_argument("--players", type=_players, default=[5, 3, 8], help="e.g. 5 or 3,5,8")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--ahead",
        type=float,
        default=1.0,
        help="share of players who choose their turn ahead when offered (0-1)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    report = run(args.games, args.players, args.seed, args.ahead)
    print(json.dumps(report) if args.json else render(report))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
