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
messages per player, Bot API calls per game, and the issue's goals next to them.
"""

from __future__ import annotations

import argparse
import itertools
import json
import logging
import random
import statistics
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import engine
from devtools.botapi.messenger import EmulatedMessenger
from devtools.fakes import FakeClock, FakeTimers
from devtools.memory_messenger import Shown
from devtools.memory_store import MemoryStore
from engine.actions import Action
from engine.ai import AiPolicy
from engine.cards import item_kind
from engine.rng import Rng, seed_state
from handlers import action_payloads, lobby
from handlers.app import CoachRideBot
from infra.ports import Rows, Sent

GROUP = -1_000_777
BOT = "pace_bot"
FIRST_UID = 7001

THINK_SECONDS: dict[str, tuple[float, float]] = {
    "turn": (8.0, 35.0),
    "support": (3.0, 12.0),
    "boost": (2.0, 10.0),
    "window": (1.0, 5.0),
    "trade": (5.0, 20.0),
    "choice": (3.0, 12.0),
}
WINDOW_KINDS = {"priest", "hypnotist", "doctor", "smuggle"}
DISMISS_KINDS = {"pass", "skip", "end"}  # a tap that only says "nothing from me"
MAX_TAPS_PER_DECISION = 6
MAX_STEPS = 200_000
NAV_DEPTH = 3

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


def think_kind(kind: str, data: dict[str, Any]) -> str:
    if kind == "turn":
        return "choice" if data.get("acted") else "turn"
    if kind in WINDOW_KINDS:
        return "window"
    if kind == "trade_answer":
        return "trade"
    if kind in ("support", "boost"):
        return kind
    return "choice"


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


@dataclass(frozen=True)
class Tap:
    """A press a player will make: when, who, in which decision (or their turn chosen ahead),
    and what the table waits for until then."""

    at: float
    seat: int
    decision: int
    turn_no: int
    ahead: bool
    waited: str


@dataclass
class Shared:
    """What a table plays through: one per table here, one for all in devtools.capacity."""

    clock: FakeClock
    store: MemoryStore
    timers: FakeTimers
    messenger: Any
    service: CoachRideBot


class _ErrorCount(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.count = 0

    def emit(self, record: logging.LogRecord) -> None:
        self.count += 1


class PaceTable:
    """One game of ``players`` brisk humans through the service."""

    def __init__(
        self,
        players: int,
        seed: int,
        ahead: float = 1.0,
        *,
        group: int = GROUP,
        first_uid: int = FIRST_UID,
        shared: Shared | None = None,
        lang: str = "en",
    ) -> None:
        """``shared``: the clock, store, timers, messenger and service of a simulation that
        runs many tables at once (devtools.capacity); by default the table's own. ``lang``:
        every player's Telegram language (devtools.transcript)."""
        if shared is None:
            clock = FakeClock()
            store = MemoryStore(clock=clock)
            messenger = CountingMessenger(clock=clock.now)
            timers = FakeTimers()
            service = CoachRideBot(store, messenger, timers, clock, bot_username=BOT)
            shared = Shared(clock, store, timers, messenger, service)
        self.clock = shared.clock
        self.timers = shared.timers
        self.store = shared.store
        self.messenger = shared.messenger
        self.service = shared.service
        self.group = group
        self.lang = lang
        self.first_uid = first_uid
        self.uids = [first_uid + i for i in range(players)]
        self.think = random.Random(seed)
        self.rng = Rng(seed_state(seed))
        self.ai = AiPolicy()
        self.ids = itertools.count(1)
        self.gid = ""
        self.taps = self.decision_taps = self.dismiss_taps = self.unreachable = 0
        self.ahead_taps = 0  # turns chosen ahead (engine.premove)
        # the players who use the "your turn is next" prompt at all (a share of the table)
        picks = random.Random(f"ahead{seed}")
        self.planners = {s for s in range(players) if picks.random() < ahead}
        self.waits: dict[str, float] = defaultdict(float)  # seconds of play waiting, by kind
        self.plans: dict[tuple[int, int], float] = {}  # (decision, seat) -> when they press
        self.tapped: Counter[tuple[int, int]] = Counter()
        # The next player choosing their turn ahead (engine.premove) thinks from the moment the
        # prompt first shows, through the decisions around it, into their turn if need be.
        self.ahead_plans: dict[int, tuple[int, float]] = {}  # turn number -> (seat, when decided)
        self.errors = _ErrorCount()

    # -- updates as Telegram sends them --------------------------------------------------------
    def _user(self, uid: int) -> dict[str, Any]:
        return {"id": uid, "is_bot": False, "first_name": f"P{uid - self.first_uid + 1}"}

    def command(self, uid: int, chat: int, text: str) -> None:
        kind = "private" if chat > 0 else "supergroup"
        update_id = next(self.ids)
        self.service.handle_update(
            {
                "update_id": update_id,
                "message": {
                    "message_id": update_id,
                    "date": int(self.clock.now()),
                    "chat": {"id": chat, "type": kind},
                    "from": {**self._user(uid), "language_code": self.lang},
                    "text": text,
                    "entities": [
                        {"type": "bot_command", "offset": 0, "length": len(text.split()[0])}
                    ],
                },
            }
        )

    def press(self, uid: int, message_id: int, data: str) -> None:
        update_id = next(self.ids)
        update = {
            "update_id": update_id,
            "callback_query": {
                "id": f"q{update_id}",
                "from": {**self._user(uid), "language_code": self.lang},
                "chat_instance": f"c{uid}",
                "data": data,
                "message": {
                    "message_id": message_id,
                    "date": int(self.clock.now()),
                    "chat": {"id": uid, "type": "private"},
                    "text": "…",
                },
            },
        }
        self.service.handle_update(self.messenger.pressed(update))

    # -- reading the game (to know whose phone to look at, and what they know) ----------------
    def doc(self) -> dict[str, Any]:
        got = self.store.get(f"GAME#{self.gid}")
        assert got is not None
        return got.doc

    def prompt(self, uid: int, decision: int) -> Shown | None:
        prefix = f"{self.gid}:{decision}:"
        for shown in reversed(self.messenger.in_chat(uid)[-60:]):
            if any(b[2].startswith(prefix) for row in shown.rows or [] for b in row):
                return shown
        ahead = self.doc().get("ahead") or {}  # "your turn is next", not edited for hidden data
        if ahead.get("msg") and self.uids[int(ahead["seat"])] == uid:
            shown = self.messenger.messages.get((uid, int(ahead["msg"])))
            if shown is not None and shown.rows:
                return shown
        return None

    # -- playing -------------------------------------------------------------------------------
    def play(self) -> GameFigures:
        """Seeded game ids and deal seeds (the bot takes both from ``secrets``) make a seed
        replay."""
        log = logging.getLogger("coachride")
        log.addHandler(self.errors)
        random_ids, random_seeds = lobby.new_game_id, lobby.new_deal_seed
        lobby.new_game_id = lambda: f"pace{self.think.getrandbits(32):08x}"
        lobby.new_deal_seed = lambda: self.think.getrandbits(lobby.DEAL_SEED_BITS)
        try:
            return self._play()
        finally:
            lobby.new_game_id, lobby.new_deal_seed = random_ids, random_seeds
            log.removeHandler(self.errors)

    def open(self) -> None:
        """The lobby: /newgame in the group, every player joins in private, /startgame."""
        creator = self.uids[0]
        self.command(creator, self.group, "/newgame")
        chat = self.store.get(f"CHAT#{self.group}")
        assert chat is not None
        self.gid = str(chat.doc["game"])
        for uid in self.uids:
            self.command(uid, uid, f"/start {self.gid}")
        self.command(creator, self.group, "/startgame")

    def state(self) -> engine.State:
        return engine.State.from_dict(self.doc()["engine"])

    def next_tap(self, st: engine.State) -> Tap | None:
        """Who presses next and when, if nobody's deadline comes first. Each asked player
        starts thinking when their prompt shows (calling again changes nothing until the game
        or a prompt does)."""
        aw = engine.awaiting(st)
        assert aw is not None and st.pending is not None
        now = self.clock.now()
        plans, tapped, ahead_plans = self.plans, self.tapped, self.ahead_plans
        asked = aw.seats + aw.ahead  # supporters asked ahead of their turn think at once
        premove = aw.premove
        for seat in asked:
            key = (aw.decision, seat)
            if key in plans or tapped[key] >= MAX_TAPS_PER_DECISION:
                continue
            own = engine.view(st, seat)["decision"] or {"kind": aw.kind, "data": {}}
            if own["data"].get("declared") is not None:
                continue  # declared ahead of its turn: told when the turn comes
            thinking = None
            if aw.kind == "turn" and not own["data"].get("acted"):
                thinking = ahead_plans.pop(st.turn_no - 1, None)
            if thinking is not None and thinking[0] == seat and thinking[1] >= 0:
                plans[key] = max(now, thinking[1])  # went on thinking into the turn
            elif self.prompt(self.uids[seat], aw.decision) is not None:
                # the seat's own question (one asked during a window is not the window's)
                lo, hi = THINK_SECONDS[think_kind(own["kind"], own["data"])]
                plans[key] = now + self.think.uniform(lo, hi)
        if (
            premove is not None
            and premove in self.planners
            and st.turn_no not in ahead_plans
            and not engine.view(st, premove)["decision"]["data"].get("held")
            and self.prompt(self.uids[premove], aw.decision) is not None
        ):
            lo, hi = THINK_SECONDS["turn"]
            ahead_plans[st.turn_no] = (premove, now + self.think.uniform(lo, hi))
        mine = [(at, seat) for (dec, seat), at in plans.items() if dec == aw.decision]
        mine = [(at, seat) for at, seat in mine if seat in asked]
        planned = ahead_plans.get(st.turn_no)
        if (
            premove is not None
            and planned is not None
            and planned[0] == premove
            and not engine.view(st, premove)["decision"]["data"].get("held")
        ):
            mine.append((max(now, planned[1]), premove))
        if not mine:
            return None
        at, seat = min(mine)
        ahead = seat == premove and (aw.decision, seat) not in plans
        return Tap(at, seat, aw.decision, st.turn_no, ahead, _waiting_for(st, aw))

    def take(self, tap: Tap) -> None:
        """The bookkeeping of a press about to be made: the plan it ends."""
        if tap.ahead:
            self.ahead_plans[tap.turn_no] = (tap.seat, -1.0)  # chosen: nothing more to think
            self.ahead_taps += 1
        else:
            del self.plans[(tap.decision, tap.seat)]
            self.tapped[(tap.decision, tap.seat)] += 1

    def _play(self) -> GameFigures:
        self.open()
        started = self.clock.now()
        for _ in range(MAX_STEPS):
            st = self.state()
            if st.over:
                break
            tap = self.next_tap(st)
            timer = min((r.due_at for r in self.timers.requests), default=None)
            now = self.clock.now()
            if tap is not None and (timer is None or tap.at <= timer):
                self.waits[tap.waited] += max(0.0, tap.at - now)
                self.clock.advance(max(0.0, tap.at - now))
                self.take(tap)
                self.decide(tap.seat, tap.decision)
            elif timer is not None:
                aw = engine.awaiting(st)
                assert aw is not None
                self.waits[_waiting_for(st, aw)] += max(0.0, timer - now)
                self.clock.advance(max(0.0, timer - now))
                for request in self.timers.pop_due(self.clock.now()):
                    self.service.handle_timer(request)
            else:
                raise RuntimeError("nothing to wait for: the game is stuck")
        else:
            raise RuntimeError("the game did not end")
        result = st.result or {}
        counts = self.messenger.by_chat_kind
        calls = [(at, chat) for at, chat in self.messenger.log if at >= started]
        seconds = max(1.0, self.clock.now() - started)
        return GameFigures(
            players=len(self.uids),
            minutes=(self.clock.now() - started) / 60,
            rounds=st.round,
            result=str(result.get("how")),
            group_messages=counts["send_group"],
            group_edits=counts["edit_group"],
            private_messages=counts["send_private"],
            private_edits=counts["edit_private"],
            busiest_group_60s=busiest([at for at, chat in calls if chat == self.group], 60.0),
            busiest_private_10s=max(
                (busiest([at for at, c in calls if c == uid], 10.0) for uid in self.uids),
                default=0,
            ),
            calls_per_second=len(calls) / seconds,
            taps=self.taps,
            decision_taps=self.decision_taps,
            dismiss_taps=self.dismiss_taps,
            unreachable_choices=self.unreachable,
            errors=self.errors.count,
            api_calls=dict(self.messenger.calls),
            wait_minutes={k: v / 60 for k, v in self.waits.items()},
        )

    def decide(self, seat: int, decision: int) -> None:
        """The player looks at their prompt, decides, and presses their way to it."""
        chosen = self.choose(seat, decision)
        if chosen is not None:
            uid, message_id, route = chosen
            for data in route:
                self.press(uid, message_id, data)

    def choose(self, seat: int, decision: int) -> tuple[int, int, list[str]] | None:
        """What the player decides, as the buttons to press in their prompt (``uid``, the
        prompt's message id, the callback data in order); counted as taps."""
        st = engine.State.from_dict(self.doc()["engine"])
        uid = self.uids[seat]
        shown = self.prompt(uid, decision)
        legal = engine.legal_actions(st, seat)
        if shown is None or not legal:
            return None
        decision = _decision_shown(shown, self.gid, decision)
        action = self.ai.choose(engine.view(st, seat), legal, self.rng)
        route = None
        for same in _identical(action, legal):  # a menu shows one of two identical Goblets
            wanted = f"{self.gid}:{decision}:{action_payloads.encode_action(same)}"
            route = self.route(uid, shown, decision, wanted, same)
            if route is not None:
                break
        if route is None:
            self.unreachable += 1
            acts = [
                b[2]
                for row in shown.rows or []
                for b in row
                if b[2].startswith(f"{self.gid}:{decision}:") and b[2].split(":")[2][:1] not in "~?"
            ]
            if not acts:
                return None
            route = [acts[self.rng.below(len(acts))]]
        self.taps += len(route)
        self.decision_taps += 1
        if all(a.kind in DISMISS_KINDS for a in legal):
            self.dismiss_taps += 1
        return uid, shown.message_id, route

    def route(
        self, uid: int, shown: Shown, decision: int, wanted: str, action: Action
    ) -> list[str] | None:
        """The buttons to press, from the page shown, to reach ``wanted``: a breadth-first look
        through the prompt's pages (quietly, restoring the page shown afterwards)."""
        prefix = f"{self.gid}:{decision}:"
        start = (shown.text, shown.rows)
        claim_mask = None
        if action.kind in ("claim", "claim_other"):
            claim_mask = sum(1 << s for s in action.seats)
        frontier: list[tuple[list[str], Rows | None]] = [([], shown.rows)]
        seen: set[str] = set()
        self.messenger.quiet = True
        try:
            for _ in range(NAV_DEPTH + len(action.seats) + 2):
                nxt: list[tuple[list[str], Rows | None]] = []
                for path, rows in frontier:
                    buttons = [b[2] for row in rows or [] for b in row]
                    if wanted in buttons:
                        return [*path, wanted]
                    for data in buttons:
                        payload = data[len(prefix) :] if data.startswith(prefix) else ""
                        if not payload.startswith("~") or data in seen:
                            continue
                        if not _worth_looking(payload, claim_mask):
                            continue
                        seen.add(data)
                        self.press(uid, shown.message_id, data)
                        nxt.append(([*path, data], shown.rows))
                frontier = nxt
            return None
        finally:
            self.messenger.quiet = False
            shown.text, shown.rows = start


def _decision_shown(shown: Shown, gid: str, decision: int) -> int:
    """The decision id a prompt's buttons carry (an older one on "your turn is next")."""
    for row in shown.rows or []:
        for _, _, data in row:
            parts = data.split(":")
            if len(parts) >= 3 and parts[0] == gid and parts[1].isdigit():
                return int(parts[1])
    return decision


def busiest(times: list[float], window: float) -> int:
    """The most of ``times`` (sorted) that fall in any ``window`` seconds (a half-open span,
    as Telegram's limits count: a call ``window`` seconds after another is in the next one)."""
    most = start = 0
    for end, at in enumerate(times):
        while times[start] <= at - window:
            start += 1
        most = max(most, end - start + 1)
    return most


def _identical(action: Action, legal: list[Action]) -> list[Action]:
    """``action`` first, then the legal actions that differ from it only in which of identical
    cards (Keys, Goblets) they name: a player cannot tell those apart, nor can the buttons."""

    def kinds(a: Action) -> tuple[object, ...]:
        card = item_kind(a.card) if a.card is not None else None
        choice = item_kind(a.choice) if a.choice is not None else None
        cards = tuple(sorted(item_kind(c) for c in a.cards))
        return (a.kind, a.target, card, choice, cards, a.seats)

    key = kinds(action)
    return [action, *(a for a in legal if a != action and kinds(a) == key)]


def _waiting_for(st: engine.State, aw: engine.Awaiting) -> str:
    """What the table waits for, by decision kind; the turn's free use after the action apart,
    and a window that also asks someone's own next decision named with it."""
    kind = aw.kind
    p = st.pending
    if kind == "turn" and p is not None and p.data.get("acted"):
        return "turn (free use after the action)"
    if p is not None and aw.window and "ride" in p.data:
        return f"{kind} + {p.data['ride']['kind']}"
    return kind


def _worth_looking(payload: str, claim_mask: int | None) -> bool:
    """Claim pages toggle allies (a bitmask): follow only the toggles towards the wanted set."""
    parts = payload[1:].split(".")
    if parts[0] not in ("cl", "fo"):
        return True
    if claim_mask is None or len(parts) < 2 or not parts[1].isdigit():
        return False
    return int(parts[1]) & ~claim_mask == 0


# -- figures ---------------------------------------------------------------------------------
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
        f"pace benchmark (seed {report['seed']}; think times in devtools/pace.py; "
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
