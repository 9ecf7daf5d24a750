"""A service wired to in-memory fakes, with helpers to drive a game through it by buttons."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import engine
from devtools.botapi.messenger import EmulatedMessenger
from devtools.fakes import FakeClock, FakeTimers
from devtools.memory_store import MemoryStore
from engine import Action
from engine.cards import OCCUPATIONS
from engine.rng import Rng
from handlers import action_payloads
from handlers.app import CoachRideBot
from handlers.presenter import LIVING_EVERY_SECONDS
from handlers.prompts.turn import INLINE_ATTACKS
from handlers.store_keys import FLUSH
from infra.ports import Put

GROUP = -1001


def user(uid: int, lang: str = "en") -> dict[str, Any]:
    return {"id": uid, "is_bot": False, "first_name": f"P{uid}", "language_code": lang}


@dataclass
class ServiceGame:
    n: int = 4
    seed: int = 3
    clock: FakeClock = field(default_factory=FakeClock)
    timers: FakeTimers = field(default_factory=FakeTimers)
    messenger: EmulatedMessenger = field(default_factory=EmulatedMessenger)
    lang: str = "en"  # every player's Telegram language
    time_scale: float = 1.0  # GAME_TIME_SCALE

    def __post_init__(self) -> None:
        self.store = MemoryStore(clock=self.clock)
        self.service = CoachRideBot(
            self.store,
            self.messenger,
            self.timers,
            self.clock,
            bot_username="test_bot",
            time_scale=self.time_scale,
        )
        self.ids = itertools.count(1)
        self.uids = [101 + i for i in range(self.n)]
        self.rng = Rng(self.seed)
        self.gid = ""

    def message(
        self, uid: int, chat: int, text: str, update_id: int | None = None
    ) -> dict[str, Any]:
        kind = "private" if chat > 0 else "supergroup"
        update = {
            "update_id": update_id or next(self.ids),
            "message": {
                "message_id": 1,
                "date": 0,
                "chat": {"id": chat, "type": kind},
                "from": user(uid, self.lang),
                "text": text,
            },
        }
        self.service.handle_update(update)
        return update

    def press(
        self,
        uid: int,
        message_id: int,
        data: str,
        update_id: int | None = None,
        *,
        chat: int | None = None,
        query_id: str | None = None,
    ) -> dict[str, Any]:
        """A press by ``uid`` on message ``message_id`` of ``chat`` (their private chat)."""
        chat = uid if chat is None else chat
        update = {
            "update_id": update_id or next(self.ids),
            "callback_query": {
                "id": query_id or f"q{uid}",
                "from": user(uid, self.lang),
                "chat_instance": "x",
                "data": data,
                "message": {
                    "message_id": message_id,
                    "date": 0,
                    "chat": {"id": chat, "type": "private" if chat > 0 else "supergroup"},
                },
            },
        }
        self.service.handle_update(self.messenger.pressed(update))
        return update

    def start(self) -> None:
        self.board()
        self.message(self.uids[0], GROUP, "/startgame")

    def board(self) -> None:
        """A lobby opened by the first player, every player aboard: the game not started."""
        self.message(self.uids[0], GROUP, "/newgame")
        chat = self.store.get(f"CHAT#{GROUP}")
        assert chat is not None
        self.gid = chat.doc["game"]
        for uid in self.uids:
            self.message(uid, uid, f"/start {self.gid}")

    def doc(self) -> dict[str, Any]:
        got = self.store.get(f"GAME#{self.gid}")
        assert got is not None
        return got.doc

    def state(self) -> engine.State:
        return engine.State.from_dict(self.doc()["engine"])

    def arrange(self, change: Callable[[engine.State], None]) -> None:
        """Set up a scenario by changing the stored game between commands."""
        got = self.store.get(f"GAME#{self.gid}")
        assert got is not None
        st = engine.State.from_dict(got.doc["engine"])
        change(st)
        got.doc["engine"] = st.to_dict()
        self.store.commit([Put(got.key, got.doc, got.version)])

    def give(self, st: engine.State, seat: int, card: str) -> None:
        """Arrange: ``seat`` holds ``card`` (swapped with one of its items or the occupation)."""
        me = st.players[seat]
        if card in OCCUPATIONS:
            other = next((p for p in st.players if p.occupation == card), None)
            if other is not None:
                other.occupation, me.occupation = me.occupation, card
            else:
                st.occ_deck[st.occ_deck.index(card)], me.occupation = me.occupation, card
            return
        if card in me.items:
            return
        mine = me.items[0]
        holder = next((p.items for p in st.players if card in p.items), st.pile)
        holder[holder.index(card)] = mine
        me.items[0] = card

    def prompt(self, seat: int) -> tuple[int, list[str]]:
        """The newest message in the seat's private chat carrying buttons for the decision."""
        st = self.state()
        assert st.pending is not None
        prefix = f"{self.gid}:{st.pending.id}:"
        for shown in reversed(self.messenger.in_chat(self.uids[seat])):
            data = [b[2] for row in shown.rows or [] for b in row if b[2].startswith(prefix)]
            if data:
                return shown.message_id, data
        ahead = self.doc().get("ahead") or {}  # "your turn is next" keeps its older buttons
        if ahead.get("msg") and ahead.get("seat") == seat:
            shown = self.messenger.messages[(self.uids[seat], ahead["msg"])]
            data = [b[2] for row in shown.rows or [] for b in row]
            if data:
                return shown.message_id, data
        raise AssertionError(f"seat {seat} has no prompt for decision {st.pending.id}")

    def press_payload(self, seat: int, wanted: str, *, prefix: bool = False) -> None:
        """Press the button of the seat's prompt whose payload is (or starts with) wanted."""
        message_id, data = self.prompt(seat)
        button = next(
            d
            for d in data
            if (p := d.split(":", 2)[2]) == wanted or (prefix and p.startswith(wanted))
        )
        self.press(self.uids[seat], message_id, button)

    def attack(self) -> None:
        """The player whose turn it is attacks someone: one tap on the turn's first page
        (issue 27; a table of more than five lists them on an "Attack…" page)."""
        seat = self.state().turn
        if self.n - 1 > INLINE_ATTACKS:
            self.press_payload(seat, "~at")
        self.press_payload(seat, "at", prefix=True)

    def offer(self, seat: int, partner: int, card: str) -> None:
        """``seat`` offers ``card`` to ``partner`` through the trade's page: each offer on it when
        they are few (issue 27), else whom first, then which item."""
        st = self.state()
        assert st.pending is not None
        offer = action_payloads.encode_action(
            Action("trade", seat, st.pending.id, target=partner, card=card)
        )
        self.press_payload(seat, action_payloads.nav("tr"))
        if not any(d.endswith(f":{offer}") for d in self.prompt(seat)[1]):
            self.press_payload(seat, action_payloads.nav("tr", partner))
        self.press_payload(seat, offer)

    def support_attacker_until(self, kind: str) -> None:
        """Every supporter asked sides with the attacker (who then wins), and every other wait
        runs to its deadline, until the game asks for a decision of ``kind``."""
        while (aw := engine.awaiting(self.state())) is not None and aw.kind != kind:
            self.support_attacker_until_next_step()

    def support_attacker_until_next_step(self) -> None:
        """One step of ``support_attacker_until``: the first supporter asked sides with the
        attacker, or else the pending wait runs to its deadline."""
        aw = engine.awaiting(self.state())
        assert aw is not None
        supporters = [
            s
            for s in aw.seats
            if (engine.view(self.state(), s)["decision"] or {}).get("kind") == "support"
        ]
        if supporters:
            self.press_payload(supporters[0], "su.ha", prefix=True)
        else:
            self.wait_until_due()

    def fire_timers(self) -> None:
        for request in self.timers.pop_due(self.clock.now()):
            self.service.handle_timer(request)

    def wait_until_due(self) -> None:
        due = self.doc()["due"]
        self.clock.advance(max(0.0, due["at"] - self.clock.now()) + 0.01)
        self.fire_timers()

    def flush_group(self) -> None:
        """The group's held-back edits (the status and story are edited at most once in a few
        seconds, issue 27) go out: time passes to their flush timers, and only those fire."""
        limit = self.clock.now() + LIVING_EVERY_SECONDS
        while True:
            due = [r for r in self.timers.requests if r.decision == FLUSH and r.due_at <= limit]
            if not due:
                return
            first = min(due, key=lambda r: r.due_at)
            self.clock.advance(max(0.0, first.due_at - self.clock.now()))
            self.timers.requests.remove(first)
            self.service.handle_timer(first)

    def group_texts(self) -> list[str]:
        return [m.text for m in self.messenger.in_chat(GROUP)]
