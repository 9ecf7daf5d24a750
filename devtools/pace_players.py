"""The brisk players of the pace command: each asked player looks at the prompt the bot sent,
thinks (uniformly, seeded: ``THINK_SECONDS``, issue 9), decides with the engine's AI policy on
their own view, and presses the buttons that lead to it (navigation pages included). The next
player offered their turn ahead (engine.premove) starts thinking when that prompt shows; a share
of the players (``ahead``) does so at all, and taps "🔜 Offer my turn ahead again" when the bot
stopped sending it after three unused (handlers.ahead_message); the others ignore both."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import engine
from devtools.fakes import FakeClock
from devtools.memory_messenger import Shown
from engine.actions import Action
from engine.ai import AiPolicy
from engine.cards import item_kind
from engine.rng import Rng, seed_state
from handlers import action_payloads
from infra.ports import Rows

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
NAV_DEPTH = 3


def _held_ahead(st: engine.State, seat: int) -> bool:
    """Whether ``seat``, choosing its next turn ahead, keeps a choice already."""
    own = engine.view(st, seat)["decision"]
    return own is not None and bool(own["data"].get("held"))


def think_kind(kind: str, data: Mapping[str, Any]) -> str:
    if kind == "turn":
        return "choice" if data.get("acted") else "turn"
    if kind in WINDOW_KINDS:
        return "window"
    if kind == "trade_answer":
        return "trade"
    if kind in ("support", "boost"):
        return kind
    return "choice"


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


class BriskPlayers:
    """The players of one table: who looks at which prompt, when they press, and what.

    The table (``devtools.pace_table.PaceTable``) gives them the clock, the game and the chats:
    ``doc``, ``prompt`` and ``press`` are its."""

    clock: FakeClock
    messenger: Any
    gid: str

    def __init__(self, players: int, seed: int, ahead: float, first_uid: int) -> None:
        self.first_uid = first_uid
        self.uids = [first_uid + i for i in range(players)]
        self.think = random.Random(seed)
        self.rng = Rng(seed_state(seed))
        self.ai = AiPolicy()
        self.taps = self.decision_taps = self.dismiss_taps = self.unreachable = 0
        self.ahead_taps = 0  # turns chosen ahead (engine.premove)
        # the players who use the "your turn is next" prompt at all (a share of the table)
        picks = random.Random(f"ahead{seed}")
        self.planners = {s for s in range(players) if picks.random() < ahead}
        self.plans: dict[tuple[int, int], float] = {}  # (decision, seat) -> when they press
        self.tapped: Counter[tuple[int, int]] = Counter()
        # The next player choosing their turn ahead (engine.premove) thinks from the moment the
        # prompt first shows, through the decisions around it, into their turn if need be.
        self.ahead_plans: dict[int, tuple[int, float]] = {}  # turn number -> (seat, when decided)

    # -- what the table gives them -------------------------------------------------------------
    def doc(self) -> dict[str, Any]:
        raise NotImplementedError

    def prompt(self, uid: int, decision: int) -> Shown | None:
        raise NotImplementedError

    def press(self, uid: int, message_id: int, data: str) -> None:
        raise NotImplementedError

    # -- when, and what ------------------------------------------------------------------------
    def next_tap(self, st: engine.State, busy: frozenset[int] = frozenset()) -> Tap | None:
        """Who presses next and when, if nobody's deadline comes first. Each asked player
        starts thinking when their prompt shows (calling again changes nothing until the game
        or a prompt does). ``busy``: seats still pressing their way to a choice (the capacity
        simulation, where a press waits for the bot): the next press is another player's, as
        players press at the same time at a real table."""
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
            own: Mapping[str, Any] = engine.view(st, seat)["decision"] or {
                "kind": aw.kind,
                "data": {},
            }
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
            and not _held_ahead(st, premove)
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
            and planned[1] >= 0  # chosen already (``take``): a refused choice is not tapped again
            and not _held_ahead(st, premove)
        ):
            mine.append((max(now, planned[1]), premove))
        mine = [(at, seat) for at, seat in mine if seat not in busy]
        if not mine:
            return None
        at, seat = min(mine)
        ahead = seat == premove and (aw.decision, seat) not in plans
        return Tap(at, seat, aw.decision, st.turn_no, ahead, waiting_for(st, aw))

    def take(self, tap: Tap) -> None:
        """The bookkeeping of a press about to be made: the plan it ends."""
        if tap.ahead:
            self.ahead_plans[tap.turn_no] = (tap.seat, -1.0)  # chosen: nothing more to think
            self.ahead_taps += 1
        else:
            del self.plans[(tap.decision, tap.seat)]
            self.tapped[(tap.decision, tap.seat)] += 1

    def decide(self, seat: int, decision: int) -> None:
        """The player looks at their prompt, decides, and presses their way to it."""
        chosen = self.choose(seat, decision)
        if chosen is not None:
            uid, message_id, route = chosen
            for data in route:
                self.press(uid, message_id, data)
            if seat in self.planners:
                self.ahead_again(uid)

    def ahead_again(self, uid: int) -> None:
        """A player who uses "your turn is next" and finds it no longer offered (it closed unused
        too often, handlers.ahead_message) taps "🔜 Offer my turn ahead again" on its last
        closing, just above the turn they answered; the others leave it."""
        for shown in self.messenger.in_chat(uid)[-8:]:
            for data in [b[2] for row in shown.rows or [] for b in row]:
                if data.startswith("N:"):
                    self.taps += 1
                    self.press(uid, shown.message_id, data)
                    return

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
        for same in identical(action, legal):  # a menu shows one of two identical Goblets
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
                        if not worth_looking(payload, claim_mask):
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


def identical(action: Action, legal: list[Action]) -> list[Action]:
    """``action`` first, then the legal actions that differ from it only in which of identical
    cards (Keys, Goblets) they name: a player cannot tell those apart, nor can the buttons."""

    def kinds(a: Action) -> tuple[object, ...]:
        card = item_kind(a.card) if a.card is not None else None
        choice = item_kind(a.choice) if a.choice is not None else None
        cards = tuple(sorted(item_kind(c) for c in a.cards))
        return (a.kind, a.target, card, choice, cards, a.seats)

    key = kinds(action)
    return [action, *(a for a in legal if a != action and kinds(a) == key)]


def waiting_for(st: engine.State, aw: engine.Awaiting) -> str:
    """What the table waits for, by decision kind; the turn's free use after the action apart,
    and a window that also asks someone's own next decision named with it."""
    kind = aw.kind
    p = st.pending
    if kind == "turn" and p is not None and p.data.get("acted"):
        return "turn (free use after the action)"
    if p is not None and aw.window and "ride" in p.data:
        return f"{kind} + {p.data['ride']['kind']}"
    return kind


def worth_looking(payload: str, claim_mask: int | None) -> bool:
    """Claim pages toggle allies (a bitmask): follow only the toggles towards the wanted set."""
    parts = payload[1:].split(".")
    if parts[0] not in ("cl", "fo"):
        return True
    if claim_mask is None or len(parts) < 2 or not parts[1].isdigit():
        return False
    return int(parts[1]) & ~claim_mask == 0
