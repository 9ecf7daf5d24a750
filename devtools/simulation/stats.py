"""What the playouts count: per run (``Stats``: results, rounds, decisions, events, samples of
what went wrong) and per policy at the table (``PolicyStats``: wins with their 95 % interval,
claims, how long its decisions took)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from engine.state import Json

HOWS = ("claim", "claim_failed", "solo", "fortune", "fortune_failed", "exhausted", "abandoned")


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


def count_policies(
    stats: Stats,
    labels: list[str],
    result: Json | None,
    decision_ms: dict[str, list[float]],
    decision_cpu_ms: dict[str, list[float]],
) -> None:
    """Count one game for each policy at the table (``labels``: the seats' policies)."""
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
