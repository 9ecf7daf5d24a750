"""The pace command's game driver: one game through the real service (in-memory store, a
counting messenger over the emulator, timers fired when the fake clock reaches them), played by
the brisk players of ``devtools.pace_players``. Someone the bot does not ask does nothing; every
other wait ends on its deadline (the defaults)."""

from __future__ import annotations

import itertools
import logging
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

import engine
from devtools.fakes import FakeClock, FakeTimers
from devtools.memory_messenger import Shown
from devtools.memory_store import MemoryStore
from devtools.pace_figures import GROUP, CountingMessenger, GameFigures, busiest
from devtools.pace_players import BriskPlayers, waiting_for
from handlers import lobby
from handlers.app import CoachRideBot

BOT = "pace_bot"
FIRST_UID = 7001
MAX_STEPS = 200_000


@dataclass
class Shared:
    """What a table plays through: one per table here, one for all in devtools.capacity."""

    clock: FakeClock
    store: MemoryStore
    timers: FakeTimers
    messenger: Any
    service: CoachRideBot

    @classmethod
    def alone(cls, clock: FakeClock, messenger: Any) -> Shared:
        """What one table plays through alone: its own store and timers on ``clock``, and a
        service over them that sends through ``messenger``."""
        store = MemoryStore(clock=clock)
        timers = FakeTimers()
        service = CoachRideBot(store, messenger, timers, clock, bot_username=BOT)
        return cls(clock, store, timers, messenger, service)


class _ErrorCount(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.count = 0

    def emit(self, record: logging.LogRecord) -> None:
        self.count += 1


class PaceTable(BriskPlayers):
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
        super().__init__(players, seed, ahead, first_uid)
        if shared is None:
            clock = FakeClock()
            messenger = CountingMessenger(clock=clock.now)
            messenger.kinds.outbox = self._outbox
            shared = Shared.alone(clock, messenger)
        self.clock = shared.clock
        self.timers = shared.timers
        self.store = shared.store
        self.messenger = shared.messenger
        self.service = shared.service
        self.group = group
        self.lang = lang
        self.ids = itertools.count(1)
        self.gid = ""
        self.waits: dict[str, float] = defaultdict(float)  # seconds of play waiting, by kind
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

    def _outbox(self) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
        """The game's outbox entries and engine state, for telling what a call was."""
        got = self.store.get(f"GAME#{self.gid}") if self.gid else None
        if got is None:
            return [], None
        return list(got.doc.get("outbox", [])), got.doc.get("engine")

    def state(self) -> engine.State:
        return engine.State.from_dict(self.doc()["engine"])

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
                self.waits[waiting_for(st, aw)] += max(0.0, timer - now)
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
            calls_by_kind=_call_kinds(self.messenger),
        )


def _call_kinds(messenger: Any) -> dict[str, int]:
    """What each send and edit was, when the messenger tells (``CountingMessenger``)."""
    kinds = messenger.kinds if isinstance(messenger, CountingMessenger) else None
    return dict(kinds.counts) if kinds is not None else {}
