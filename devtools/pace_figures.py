"""What the pace tables count: every Bot API call by method and by chat kind, when each send and
edit went out, what each send and edit was (``CallKinds``: by the tag the presenter gave its
outbox entry), and a game's figures (``GameFigures``); ``summarize`` makes the figures of one table
size out of its games."""

from __future__ import annotations

import statistics
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import engine
from devtools.botapi.messenger import EmulatedMessenger
from handlers.message_tags import Kind, Tag
from infra.ports import Rows, Sent

GROUP = -1_000_777  # the group chat a table plays in, unless told another

# what a group message is, by its outbox tag's kind
_GROUP_KINDS = {
    Kind.STATUS: "status",
    Kind.STATUS_PIN: "status",
    Kind.STORY: "story",
    Kind.TURN_REMINDER: "turn mention",
    Kind.LOBBY: "lobby",
    Kind.LOBBY_EDIT: "lobby",
}
# what a private message is, by its outbox tag's kind (a prompt: by its decision's kind)
_PRIVATE_KINDS = {
    Kind.AHEAD: "🔜 ahead",
    Kind.REMINDER: "reminder",
    Kind.AWAY: "away notice",
    Kind.REPLY: "reply",
    Kind.NONE: "news",  # untagged: private news, results, the final dossier
}
# what an edit does, by its tag's kind
_EDITS = {
    Kind.CLOSED: "closed",
    Kind.ANSWERED: "closed",
    Kind.PROMPT: "re-shown",
    Kind.RESHOWN: "re-shown",
    Kind.NONE: "edited",
}
WINDOW_KINDS = ("priest", "hypnotist", "doctor", "smuggle")


@dataclass
class CallKinds:
    """What each send and edit was, by the outbox entry it delivered (its tag): ``outbox`` gives
    the game's current outbox entries and its engine state (the delivery runs right after the
    commit, so the entry is still there). A private send is labelled by what it is ("prompt
    support", "🔜 ahead", "news"...); an edit by the message it edits and what it does to it
    ("prompt support: re-shown", "prompt turn: closed"); an edit of no outbox entry is a page
    turn (a navigation button edits its prompt at once)."""

    outbox: Callable[[], tuple[list[dict[str, Any]], dict[str, Any] | None]] | None = None
    counts: Counter[str] = field(default_factory=Counter)
    labels: dict[tuple[int, int], str] = field(default_factory=dict)  # (chat, msg) -> what

    def _entry(
        self, op: str, chat: int, text: str, msg: int | None
    ) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
        if self.outbox is None:
            return None, None
        entries, state = self.outbox()
        for e in entries:
            if e["op"] == op and e["chat"] == chat and e["text"] == text and e.get("msg") == msg:
                return e, state
        return None, state

    def sent(self, chat: int, group: bool, text: str, message_id: int | None) -> None:
        e, state = self._entry("send", chat, text, None)
        tag = Tag.parse(e.get("tag")) if e is not None else None
        if group:
            what = _GROUP_KINDS.get(tag.kind, "other") if tag is not None else "other"
        elif tag is None:
            what = "unknown"
        elif tag.kind == Kind.PROMPT:
            what = f"prompt {_decision_kind(state, tag.dec)}"
        else:
            what = _PRIVATE_KINDS.get(tag.kind, tag.kind.value)
        where = "group" if group else "private"
        self.counts[f"{where} send: {what}"] += 1
        if message_id:
            self.labels[(chat, message_id)] = what

    def edited(self, chat: int, group: bool, message_id: int, text: str) -> None:
        where = "group" if group else "private"
        what = self.labels.get((chat, message_id), "earlier message")
        e, _ = self._entry("edit", chat, text, message_id)
        if e is None:
            self.counts[f"{where} edit: {what}: page turn"] += 1
            return
        kind = Tag.parse(e.get("tag")).kind
        does = "edited" if group else _EDITS.get(kind, kind.value)
        self.counts[f"{where} edit: {what}: {does}"] += 1


def _decision_kind(state: dict[str, Any] | None, decision: int | None) -> str:
    """The kind of the decision a prompt asks (a window's: "window <kind>")."""
    if state is None:
        return "?"
    p = engine.State.from_dict(state).pending
    if p is None or p.id != decision:
        return "?"
    kind = str(p.kind)
    return f"window {kind}" if kind in WINDOW_KINDS else kind


@dataclass
class CountingMessenger(EmulatedMessenger):
    """Counts Bot API calls by method and by chat kind; looking around a prompt's pages while
    deciding (``quiet``) is not counted, since the player then presses the way there again."""

    group: int = GROUP
    quiet: bool = False
    by_chat_kind: Counter[str] = field(default_factory=Counter)
    clock: Callable[[], float] | None = None
    log: list[tuple[float, int]] = field(default_factory=list)  # (when, chat) of each send/edit
    kinds: CallKinds = field(default_factory=CallKinds)

    def _count(self, method: str) -> None:
        if not self.quiet:
            super()._count(method)

    def _count_chat(self, what: str, chat_id: int) -> None:
        if not self.quiet:
            self.by_chat_kind[f"{what}_{'group' if chat_id == self.group else 'private'}"] += 1
            if self.clock is not None:
                self.log.append((self.clock(), chat_id))

    def send(
        self, chat_id: int, text: str, rows: Rows | None = None, reply_to: int | None = None
    ) -> Sent:
        self._count_chat("send", chat_id)
        sent = super().send(chat_id, text, rows, reply_to)
        if not self.quiet:
            self.kinds.sent(chat_id, chat_id == self.group, text, sent.message_id)
        return sent

    def edit(self, chat_id: int, message_id: int, text: str, rows: Rows | None = None) -> Sent:
        self._count_chat("edit", chat_id)
        if not self.quiet:
            self.kinds.edited(chat_id, chat_id == self.group, message_id, text)
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
    calls_by_kind: dict[str, int] = field(default_factory=dict)  # ``CallKinds.counts``


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
        "calls_by_kind": _calls_by_kind(games),
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


def _calls_by_kind(games: list[GameFigures]) -> dict[str, float]:
    """Mean sends and edits per game by what they were (``CallKinds``), most first."""
    total: Counter[str] = Counter()
    for g in games:
        total.update(g.calls_by_kind)
    return {k: round(v / len(games), 1) for k, v in total.most_common()}
