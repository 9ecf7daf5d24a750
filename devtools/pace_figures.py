"""What the pace tables count: every Bot API call by method and by chat kind, when each send and
edit went out, and a game's figures (``GameFigures``); ``summarize`` makes the figures of one table
size out of its games."""

from __future__ import annotations

import statistics
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from devtools.botapi.messenger import EmulatedMessenger
from infra.ports import Rows, Sent

GROUP = -1_000_777  # the group chat a table plays in, unless told another


@dataclass
class CountingMessenger(EmulatedMessenger):
    """Counts Bot API calls by method and by chat kind; looking around a prompt's pages while
    deciding (``quiet``) is not counted, since the player then presses the way there again."""

    group: int = GROUP
    quiet: bool = False
    by_chat_kind: Counter[str] = field(default_factory=Counter)
    clock: Callable[[], float] | None = None
    log: list[tuple[float, int]] = field(default_factory=list)  # (when, chat) of each send/edit

    def _count(self, method: str) -> None:
        if not self.quiet:
            super()._count(method)

    def _count_chat(self, what: str, chat_id: int) -> None:
        if not self.quiet:
            self.by_chat_kind[f"{what}_{'group' if chat_id == self.group else 'private'}"] += 1
            if self.clock is not None:
                self.log.append((self.clock(), chat_id))

    def send(self, chat_id: int, text: str, rows: Rows | None = None) -> Sent:
        self._count_chat("send", chat_id)
        return super().send(chat_id, text, rows)

    def edit(self, chat_id: int, message_id: int, text: str, rows: Rows | None = None) -> Sent:
        self._count_chat("edit", chat_id)
        return super().edit(chat_id, message_id, text, rows)


@dataclass
class GameFigures:
    players: int
    minutes: float
    rounds: int
    result: str
    group_messages: int
    group_edits: int
    private_messages: int
    private_edits: int
    busiest_group_60s: int  # sends and edits in the group in its busiest 60 s
    busiest_private_10s: int  # sends and edits in one private chat in its busiest 10 s
    calls_per_second: float  # sends and edits per second over the whole game, all chats
    taps: int
    decision_taps: int
    dismiss_taps: int
    unreachable_choices: int
    errors: int
    api_calls: dict[str, int]
    wait_minutes: dict[str, float] = field(default_factory=dict)


def busiest(times: list[float], window: float) -> int:
    """The most of ``times`` (sorted) that fall in any ``window`` seconds (a half-open span,
    as Telegram's limits count: a call ``window`` seconds after another is in the next one)."""
    most = start = 0
    for end, at in enumerate(times):
        while times[start] <= at - window:
            start += 1
        most = max(most, end - start + 1)
    return most


def summarize(games: list[GameFigures]) -> dict[str, Any]:
    n = games[0].players
    minutes = sorted(g.minutes for g in games)
    taps = sum(g.taps for g in games)
    decision_taps = sum(g.decision_taps for g in games)
    dismiss = sum(g.dismiss_taps for g in games)
    calls: Counter[str] = Counter()
    for g in games:
        calls.update(g.api_calls)
    per_game = {m: round(c / len(games), 1) for m, c in sorted(calls.items())}
    return {
        "players": n,
        "games": len(games),
        "median_minutes": round(statistics.median(minutes), 1),
        "minutes_range": [round(minutes[0], 1), round(minutes[-1], 1)],
        "median_rounds": statistics.median(g.rounds for g in games),
        "results": dict(Counter(g.result for g in games)),
        "group_messages_per_game": round(statistics.mean(g.group_messages for g in games), 1),
        "group_edits_per_game": round(statistics.mean(g.group_edits for g in games), 1),
        "private_sends_per_game": round(statistics.mean(g.private_messages for g in games), 1),
        "private_edits_per_game": round(statistics.mean(g.private_edits for g in games), 1),
        "busiest_group_60s": max(g.busiest_group_60s for g in games),
        "busiest_group_60s_median": statistics.median(g.busiest_group_60s for g in games),
        "busiest_private_10s": max(g.busiest_private_10s for g in games),
        "calls_per_second": round(statistics.mean(g.calls_per_second for g in games), 3),
        "taps_per_game": round(taps / len(games), 1),
        "decision_taps_per_game": round(decision_taps / len(games), 1),
        "dismiss_share_of_decision_taps": round(dismiss / decision_taps, 3) if decision_taps else 0,
        "dismiss_share_of_all_taps": round(dismiss / taps, 3) if taps else 0,
        "private_messages_per_player": round(
            statistics.mean(g.private_messages for g in games) / n, 1
        ),
        "bot_api_calls_per_game": round(sum(calls.values()) / len(games), 1),
        "bot_api_calls_by_method": per_game,
        "minutes_by_decision": _minutes_by_decision(games),
        "choices_without_a_button": sum(g.unreachable_choices for g in games),
        "failed_updates": sum(g.errors for g in games),
    }


def _minutes_by_decision(games: list[GameFigures]) -> dict[str, float]:
    """Mean minutes per game the table waited on each kind of decision, longest first."""
    total: dict[str, float] = defaultdict(float)
    for g in games:
        for k, v in g.wait_minutes.items():
            total[k] += v
    mean = {k: v / len(games) for k, v in total.items()}
    return {k: round(v, 2) for k, v in sorted(mean.items(), key=lambda kv: -kv[1])}
