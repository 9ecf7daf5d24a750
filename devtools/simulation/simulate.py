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
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
import traceback
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from devtools.simulation import invariants
from devtools.simulation.policies import policy, seat_labels
from engine.actions import TIMEOUT, Action
from engine.api import apply, awaiting, legal_actions, new_game, timeout_action
from engine.rng import Rng, seed_state
from engine.state import Json, State

HOWS = ("claim", "claim_failed", "solo", "fortune", "fortune_failed", "exhausted", "abandoned")
MAX_ACTIONS = 200_000  # per game: a game still running after this many is reported as stuck
MAX_VIOLATIONS_PER_GAME = 20  # stop checking a game after this many (it is failing anyway)
MAX_SAMPLES = 5
FULL_GAME_EVERY = 50  # in the closely checked games: every view and the full round trip


@dataclass
class Config:
    games: int = 100
    players: tuple[int, int] = (3, 10)
    seed: int = 0
    timeouts: float = 0.05
    strict: bool = False
    checks: bool = True
    policy: str = "random"
    view_every: int = 10  # every step of every view_every-th game gets the view checks
    sample_every: int = 200  # other games: views and full round trip every sample_every steps
    replay: int | None = None  # play only this game seed
    short_games: bool = True  # now and then cap a game at 1-6 rounds, to reach exhaustion
    force: dict[str, object] = field(default_factory=dict)  # options every game plays with


@dataclass
class PolicyStats:
    """How the seats playing one policy fared (a game counts once per policy at the table)."""

    games: int = 0
    wins: int = 0  # games in which a seat of this policy was among the winners
    claims: int = 0  # victory declarations by its seats (team, Fortune-telling, solo)
    failed_claims: int = 0
    fortune_claims: int = 0  # of the claims, Fortune-telling ones (R-W7)
    fortune_failed: int = 0
    rounds: int = 0  # summed over its finished games
    decision_ms: list[float] = field(default_factory=list)
    # CPU time of the same decisions: what a budget bounds, whatever else shares the core
    decision_cpu_ms: list[float] = field(default_factory=list)

    def to_json(self) -> Json:
        ms = sorted(self.decision_ms)
        cpu = sorted(self.decision_cpu_ms)
        return {
            "games": self.games,
            "wins": self.wins,
            "win_rate": round(self.wins / self.games, 4) if self.games else 0.0,
            "win_rate_ci95": _wilson(self.wins, self.games),
            "claims": self.claims,
            "failed_claims": self.failed_claims,
            "failed_claim_share": (
                round(self.failed_claims / self.claims, 4) if self.claims else 0.0
            ),
            "fortune_claims": self.fortune_claims,
            "fortune_failed": self.fortune_failed,
            "mean_rounds": round(self.rounds / self.games, 2) if self.games else 0.0,
            "decisions": len(ms),
            "decision_ms_mean": round(sum(ms) / len(ms), 3) if ms else 0.0,
            "decision_ms_p99": _p99(ms),
            "decision_ms_max": round(ms[-1], 3) if ms else 0.0,
            "decision_cpu_ms_p99": _p99(cpu),
            "decision_cpu_ms_max": round(cpu[-1], 3) if cpu else 0.0,
        }


def _wilson(k: int, n: int) -> list[float]:
    """The 95 % Wilson score interval of a share of ``k`` in ``n``."""
    if not n:
        return [0.0, 1.0]
    z = 1.96
    p = k / n
    mid = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * ((p * (1 - p) + z * z / (4 * n)) / n) ** 0.5 / (1 + z * z / n)
    return [round(max(0.0, mid - half), 4), round(min(1.0, mid + half), 4)]


def _p99(ms: list[float]) -> float:
    return round(ms[min(len(ms) - 1, len(ms) * 99 // 100)], 3) if ms else 0.0


@dataclass
class Stats:
    games: int = 0
    finished: int = 0
    errors: int = 0
    invariant_violations: int = 0
    actions: int = 0
    timeouts: int = 0
    engine_seconds: float = 0.0
    check_seconds: float = 0.0
    cpu_seconds: float = 0.0
    how: Counter[str] = field(default_factory=Counter)
    round_cap: int = 0  # games that ran out of rounds at the table's own cap (not a short game)
    rounds: list[int] = field(default_factory=list)
    by_players: dict[int, list[int]] = field(default_factory=dict)  # n -> [games, actions, rounds]
    decisions: Counter[str] = field(default_factory=Counter)
    events: Counter[str] = field(default_factory=Counter)
    options: Counter[str] = field(default_factory=Counter)
    error_samples: list[Json] = field(default_factory=list)
    violation_samples: list[Json] = field(default_factory=list)
    by_policy: dict[str, PolicyStats] = field(default_factory=dict)


def game_seed(seed: int, index: int) -> int:
    return seed * 1_000_000 + index


def random_options(rng: Rng, *, short_games: bool = True) -> dict[str, object]:
    """A random mix of the game options (occasionally a short game to reach exhaustion)."""
    opts: dict[str, object] = {
        "items": "beginner" if rng.below(4) == 0 else "full",
        "smuggling": rng.below(2) == 0,
        "fortune_telling": rng.below(2) == 0,
        "advanced_three": rng.below(2) == 0,
        "personal_scores": rng.below(2) == 0,
    }
    if rng.below(20) == 0:
        short = 1 + rng.below(6)  # drawn either way: the same seed plays the same game
        if short_games:
            opts["max_rounds"] = short
    return opts


def _describe(action: Action | None) -> Json | None:
    return None if action is None else action.to_dict()


def play_game(index: int, gseed: int, n: int, cfg: Config, stats: Stats) -> None:
    """One complete game; everything it finds goes into ``stats``."""
    rng = Rng(seed_state(gseed ^ 0x5EED))
    opts = random_options(rng, short_games=cfg.short_games) | cfg.force
    labels: list[str] = []
    timeout_ppm = int(cfg.timeouts * 1_000_000)
    full = cfg.checks and (cfg.strict or (cfg.view_every > 0 and index % cfg.view_every == 0))
    sample = cfg.sample_every if cfg.checks and cfg.sample_every > 0 else 0
    ledger = invariants.Ledger()
    violations = 0
    step = 0
    action: Action | None = None
    actions = 0
    engine_s = 0.0
    check_s = 0.0
    decisions = stats.decisions
    event_kinds = stats.events
    perf = time.perf_counter
    cpu = time.process_time

    def report(found: list[str], where: str) -> None:
        nonlocal violations
        violations += len(found)
        stats.invariant_violations += len(found)
        if len(stats.violation_samples) < MAX_SAMPLES:
            stats.violation_samples.append(
                {
                    "game": index,
                    "seed": gseed,
                    "players": n,
                    "options": opts,
                    "step": step,
                    "check": where,
                    "after": _describe(action),
                    "violations": found[:5],
                }
            )

    st: State | None = None
    try:
        t0 = perf()
        st, events = new_game([f"p{i}" for i in range(n)], gseed, opts)
        engine_s += perf() - t0
        # "a-vs-b" gives each association one policy, so the policies are seated once the
        # associations are dealt (new_game draws nothing from this generator).
        labels = seat_labels(cfg.policy, n, rng, [p.association for p in st.players])
        seats = [policy(label) for label in labels]
        decision_ms: dict[str, list[float]] = {label: [] for label in labels}
        decision_cpu_ms: dict[str, list[float]] = {label: [] for label in labels}
        for e in events:
            event_kinds[e.kind] += 1
        if cfg.checks:
            t0 = perf()
            found = invariants.check(st) + invariants.check_views(st, events, ledger)
            found += invariants.check_roundtrip(st)
            check_s += perf() - t0
            if found:
                report(found, "start")
        while True:
            aw = awaiting(st)
            if aw is None:
                break
            if actions >= MAX_ACTIONS:
                raise RuntimeError(f"game still running after {actions} actions")
            decisions[aw.kind] += 1
            asked, asked_id = aw.seats, aw.decision
            if aw.closable or not aw.seats:
                action = timeout_action(st)
            elif timeout_ppm and rng.below(1_000_000) < timeout_ppm:
                stats.timeouts += 1
                if rng.below(2) == 0:
                    action = timeout_action(st)
                else:
                    action = Action(TIMEOUT, aw.seats[rng.below(len(aw.seats))], aw.decision)
            else:
                seat = aw.seats[rng.below(len(aw.seats))] if len(aw.seats) > 1 else aw.seats[0]
                t0 = perf()
                legal = legal_actions(st, seat)
                engine_s += perf() - t0
                t0, c0 = perf(), cpu()
                action = seats[seat].choose(st, seat, legal, rng)
                decision_ms[labels[seat]].append((perf() - t0) * 1000.0)
                decision_cpu_ms[labels[seat]].append((cpu() - c0) * 1000.0)
            t0 = perf()
            st, events = apply(st, action, inplace=True)
            engine_s += perf() - t0
            actions += 1
            step += 1
            for e in events:
                event_kinds[e.kind] += 1
            if cfg.checks and violations < MAX_VIOLATIONS_PER_GAME:
                t0 = perf()
                found = invariants.check(st)
                over = st.result is not None
                if (
                    over
                    or cfg.strict
                    or (sample and step % sample == 0)
                    or (full and step % FULL_GAME_EVERY == 0)
                ):
                    found += invariants.check_views(st, events, ledger)
                    found += invariants.check_roundtrip(st)
                elif full:
                    # The views that can have changed: the seat that acted, those whose being
                    # asked changed, those told something privately; one more seat in turn.
                    touched = {step % n}
                    if action.seat is not None:
                        touched.add(action.seat)
                    now = st.pending
                    if now is None or now.id != asked_id:
                        touched.update(asked)
                        if now is not None:
                            touched.update(now.actors)
                    else:
                        touched.update(set(asked).symmetric_difference(now.actors))
                    for e in events:
                        if e.to is not None:
                            touched.update(e.to)
                    found += invariants.check_views(st, events, ledger, touched)
                    found += invariants.check_roundtrip(st, light=True)
                else:
                    found += invariants.check_events(st, events, ledger)
                check_s += perf() - t0
                if found:
                    report(found, "step")
    except Exception as exc:
        stats.errors += 1
        if len(stats.error_samples) < MAX_SAMPLES:
            stats.error_samples.append(
                {
                    "game": index,
                    "seed": gseed,
                    "players": n,
                    "options": opts,
                    "step": step,
                    "action": _describe(action),
                    "pending": None if st is None or st.pending is None else st.pending.to_dict(),
                    "error": repr(exc),
                    "traceback": traceback.format_exc().splitlines()[-12:],
                    "replay": f"python -m devtools.simulate --replay {gseed} --players {n}",
                }
            )
    finally:
        stats.games += 1
        stats.actions += actions
        stats.engine_seconds += engine_s
        stats.check_seconds += check_s
        for k, v in opts.items():
            if v is True:
                stats.options[k] += 1
        bucket = stats.by_players.setdefault(n, [0, 0, 0])
        bucket[0] += 1
        bucket[1] += actions
        if st is not None and st.result is not None:
            stats.finished += 1
            stats.how[st.result["how"]] += 1
            if st.result["how"] == "exhausted" and st.result["round"] >= st.options["max_rounds"]:
                stats.round_cap += "max_rounds" not in opts or "max_rounds" in cfg.force
            stats.rounds.append(st.result["round"])
            bucket[2] += st.result["round"]
        if labels:
            result = None if st is None else st.result
            _count_policies(stats, labels, result, decision_ms, decision_cpu_ms)


def _count_policies(
    stats: Stats,
    labels: list[str],
    result: Json | None,
    decision_ms: dict[str, list[float]],
    decision_cpu_ms: dict[str, list[float]],
) -> None:
    for label in sorted(set(labels)):
        ps = stats.by_policy.setdefault(label, PolicyStats())
        ps.games += 1
        ps.decision_ms += decision_ms.get(label, [])
        ps.decision_cpu_ms += decision_cpu_ms.get(label, [])
        if result is None:
            continue
        ps.rounds += result["round"]
        if any(labels[s] == label for s in result["winners"]):
            ps.wins += 1
    declarer = None if result is None else result["declarer"]
    if result is not None and declarer is not None:
        ps = stats.by_policy[labels[declarer]]
        ps.claims += 1
        ps.failed_claims += result["how"].endswith("_failed")
        ps.fortune_claims += result["how"].startswith("fortune")
        ps.fortune_failed += result["how"] == "fortune_failed"


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
