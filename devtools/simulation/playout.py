"""One random playout: a complete game with random legal decisions (or the seats' policies),
timeouts now and then, and the invariants (``devtools.simulation.invariants``) checked as the
run's :class:`Config` asks; what it finds goes into the run's ``Stats``."""

from __future__ import annotations

import time
import traceback
from dataclasses import dataclass, field

from devtools.simulation import invariants
from devtools.simulation.policies import policy, seat_labels
from devtools.simulation.stats import Stats, count_policies
from engine.actions import TIMEOUT, Action
from engine.api import apply, awaiting, legal_actions, new_game, timeout_action
from engine.rng import Rng, seed_state
from engine.state import Json, State

MAX_ACTIONS = 200_000  # per game: a game still running after this many is reported as stuck
MAX_VIOLATIONS_PER_GAME = 20  # stop checking a game after this many (it is failing anyway)
MAX_SAMPLES = 5  # of the errors and of the violations, kept for the report
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
            count_policies(stats, labels, result, decision_ms, decision_cpu_ms)
