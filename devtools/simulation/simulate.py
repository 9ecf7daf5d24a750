"""Random playouts: play many complete games with random legal decisions and check invariants.

    python -m devtools.simulate --games 5000 --players 3-10 --seed 1 --json [--strict]
                              [--timeouts 0.05] [--policy random] [--view-every 10]
                              [--force fortune_telling=true]

Every game is determined by its own seed (``game_seed(seed, i)``) and player count, so a failing
game can be replayed alone with ``--replay GAME_SEED --players N``.

Checks (devtools.simulation.invariants), by default:
- every step of every game: the state invariants (``check``) and who was told what
  (``check_events``: private events to entitled seats only, no secrets in public events);
- every step of every ``--view-every``-th game: also the views of the seats the step concerned
  (asked before or after it, told something privately, plus one seat in turn) and a light JSON
  round trip; every 50 steps of those games every seat's view and the full round trip;
- every ``--sample-every`` steps of the other games, and at the start and end of every game:
  every seat's view and the full JSON round trip.
``--strict`` checks every seat's view and the full round trip after every step of every game.

Speed is reported three ways: ``actions_per_s`` (wall clock, all checks included),
``loop_actions_per_s`` (wall clock minus time in checks: engine + policy + driver) and
``engine_actions_per_s`` (time inside ``engine.apply`` and ``engine.legal_actions`` only).

The command is here (its arguments, the run and its report); one game is ``playout``, what the
run counts ``stats``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Sequence

from devtools.simulation.playout import Config, game_seed, play_game
from devtools.simulation.policies import seat_labels
from devtools.simulation.stats import HOWS, Stats
from engine.rng import Rng
from engine.state import Json

__all__ = ["HOWS", "Config", "Stats", "game_seed", "main", "play_game", "run"]


def run(cfg: Config) -> Json:
    lo, hi = cfg.players
    if not 3 <= lo <= hi <= 10:
        raise ValueError("players must be within 3-10")
    seat_labels(cfg.policy, lo, Rng(0))  # a bad --policy fails here, before any game
    stats = Stats()
    started = time.perf_counter()
    cpu_started = time.process_time()
    if cfg.replay is not None:
        play_game(0, cfg.replay, lo, cfg, stats)
    else:
        span = hi - lo + 1
        for i in range(cfg.games):
            play_game(i, game_seed(cfg.seed, i), lo + i % span, cfg, stats)
    seconds = time.perf_counter() - started
    stats.cpu_seconds = time.process_time() - cpu_started
    return report(cfg, stats, seconds)


def _rate(count: float, seconds: float) -> float:
    return round(count / seconds, 1) if seconds > 0 else 0.0


def report(cfg: Config, stats: Stats, seconds: float) -> Json:
    finished_by = {n: b for n, b in sorted(stats.by_players.items())}
    return {
        "games": stats.games,
        "finished": stats.finished,
        "errors": stats.errors,
        "invariant_violations": stats.invariant_violations,
        "actions": stats.actions,
        "timeouts": stats.timeouts,
        "seconds": round(seconds, 3),
        "games_per_s": _rate(stats.games, seconds),
        "actions_per_s": _rate(stats.actions, seconds),
        "loop_actions_per_s": _rate(stats.actions, seconds - stats.check_seconds),
        "engine_actions_per_s": _rate(stats.actions, stats.engine_seconds),
        "engine_seconds": round(stats.engine_seconds, 3),
        "check_seconds": round(stats.check_seconds, 3),
        # CPU time of the whole run: below ``seconds`` when other processes share the core, and
        # then every wall-clock rate above is low by about that ratio.
        "cpu_seconds": round(stats.cpu_seconds, 3),
        "mean_actions": round(stats.actions / stats.games, 1) if stats.games else 0.0,
        "mean_rounds": (round(sum(stats.rounds) / len(stats.rounds), 2) if stats.rounds else 0.0),
        "median_rounds": statistics.median(stats.rounds) if stats.rounds else 0.0,
        "results": {h: stats.how.get(h, 0) for h in HOWS},
        "round_cap": stats.round_cap,
        "by_players": {
            str(n): {
                "games": b[0],
                "mean_actions": round(b[1] / b[0], 1) if b[0] else 0.0,
                "mean_rounds": round(b[2] / b[0], 2) if b[0] else 0.0,
            }
            for n, b in finished_by.items()
        },
        "options": dict(sorted(stats.options.items())),
        "decisions": dict(stats.decisions.most_common()),
        "events": dict(stats.events.most_common()),
        "policies": {k: v.to_json() for k, v in sorted(stats.by_policy.items())},
        "first_errors": stats.error_samples,
        "first_violations": stats.violation_samples,
        "config": {
            "games": cfg.games,
            "players": f"{cfg.players[0]}-{cfg.players[1]}",
            "seed": cfg.seed,
            "timeouts": cfg.timeouts,
            "strict": cfg.strict,
            "checks": cfg.checks,
            "policy": cfg.policy,
            "view_every": cfg.view_every,
            "sample_every": cfg.sample_every,
            "replay": cfg.replay,
            "short_games": cfg.short_games,
            "force": cfg.force,
        },
    }


def _players(text: str) -> tuple[int, int]:
    lo, _, hi = text.partition("-")
    try:
        a, b = int(lo), int(hi or lo)
    except ValueError:
        raise argparse.ArgumentTypeError("players: N or LO-HI") from None
    if not 3 <= a <= b <= 10:
        raise argparse.ArgumentTypeError("players must be within 3-10")
    return a, b


def _probability(text: str) -> float:
    p = float(text)
    if not 0.0 <= p <= 1.0:
        raise argparse.ArgumentTypeError("a probability between 0 and 1")
    return p


def _forced(text: str) -> tuple[str, object]:
    name, sep, value = text.partition("=")
    try:
        parsed = json.loads(value)
    except ValueError:
        raise argparse.ArgumentTypeError("OPTION=JSON, e.g. fortune_telling=true") from None
    if not sep or not name:
        raise argparse.ArgumentTypeError("OPTION=JSON, e.g. fortune_telling=true")
    return name, parsed


def parse_args(argv: Sequence[str] | None = None) -> tuple[Config, bool]:
    """The run's configuration and whether to print JSON."""
    ap = argparse.ArgumentParser(
        prog="python -m devtools.simulate", description=__doc__.split("\n")[0]
    )
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--players", type=_players, default=(3, 10), help="N or LO-HI (3-10)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--strict", action="store_true", help="every check after every step")
    ap.add_argument("--no-checks", action="store_true", help="no invariant checks (speed only)")
    ap.add_argument("--timeouts", type=_probability, default=0.05, help="timeout probability")
    ap.add_argument(
        "--policy",
        default="random",
        help="random, ai, expert, baseline, a-vs-b (one policy per association, e.g. "
        "expert-vs-ai), mix:a,b, mixed",
    )
    ap.add_argument("--no-short-games", action="store_true", help="never cap a game at 1-6 rounds")
    ap.add_argument("--view-every", type=int, default=10, help="every step of every K-th game")
    ap.add_argument("--sample-every", type=int, default=200, help="other games: every K steps")
    ap.add_argument("--replay", type=int, default=None, help="play only this game seed")
    ap.add_argument(
        "--force",
        type=_forced,
        action="append",
        default=[],
        metavar="OPTION=JSON",
        help="play every game with this option, e.g. fortune_telling=true (repeatable)",
    )
    args = ap.parse_args(argv)
    if args.games < 0:
        ap.error("--games must be >= 0")
    if args.replay is not None and args.players[0] != args.players[1]:
        ap.error("--replay needs a single --players N")
    cfg = Config(
        games=args.games,
        players=args.players,
        seed=args.seed,
        timeouts=args.timeouts,
        strict=args.strict,
        checks=not args.no_checks,
        policy=args.policy,
        view_every=args.view_every,
        sample_every=args.sample_every,
        replay=args.replay,
        short_games=not args.no_short_games,
        force=dict(args.force),
    )
    return cfg, args.json


def summary(out: Json) -> str:
    lines = [
        f"games {out['games']}  finished {out['finished']}  errors {out['errors']}  "
        f"invariant violations {out['invariant_violations']}",
        f"actions {out['actions']} in {out['seconds']} s: {out['games_per_s']} games/s, "
        f"{out['actions_per_s']} actions/s (loop {out['loop_actions_per_s']}, "
        f"engine {out['engine_actions_per_s']})",
        f"cpu {out['cpu_seconds']} s, checks {out['check_seconds']} s, "
        f"engine {out['engine_seconds']} s",
        f"mean rounds {out['mean_rounds']} (median {out['median_rounds']}), "
        f"mean actions {out['mean_actions']}",
        "results: " + ", ".join(f"{k} {v}" for k, v in out["results"].items()),
        f"games at the round cap {out['round_cap']}",
        "by players: "
        + ", ".join(
            f"{n}: {b['games']} games / {b['mean_actions']} actions / {b['mean_rounds']} rounds"
            for n, b in out["by_players"].items()
        ),
    ]
    for label, ps in out["policies"].items():
        lines.append(
            f"policy {label}: {ps['games']} games, win rate {ps['win_rate']:.1%} "
            f"(95% CI {ps['win_rate_ci95'][0]:.1%}-{ps['win_rate_ci95'][1]:.1%}), "
            f"claims {ps['claims']} ({ps['failed_claims']} failed, "
            f"{ps['failed_claim_share']:.1%}; Fortune-telling "
            f"{ps['fortune_claims']}, {ps['fortune_failed']} failed), "
            f"mean rounds {ps['mean_rounds']}, decision ms mean {ps['decision_ms_mean']} "
            f"p99 {ps['decision_ms_p99']} max {ps['decision_ms_max']} "
            f"(cpu p99 {ps['decision_cpu_ms_p99']} max {ps['decision_cpu_ms_max']})"
        )
    for e in out["first_errors"]:
        lines.append(f"ERROR game {e['game']} seed {e['seed']} step {e['step']}: {e['error']}")
        lines += ["    " + t for t in e["traceback"]]
        lines.append(f"    replay: {e['replay']}")
    for v in out["first_violations"]:
        lines.append(
            f"VIOLATION game {v['game']} seed {v['seed']} ({v['players']} players) "
            f"step {v['step']}: " + "; ".join(v["violations"])
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    cfg, as_json = parse_args(argv)
    try:
        out = run(cfg)
    except ValueError as e:  # a bad --policy
        print(f"error: {e}", file=sys.stderr)
        return 2
    if as_json:
        print(json.dumps(out, sort_keys=False))
    else:
        print(summary(out))
    ok = out["errors"] == 0 and out["invariant_violations"] == 0 and out["finished"] == out["games"]
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
