"""A table of fake Telegram users playing through the real service and a fake Bot API.

Every outgoing call is validated against the Bot API spec by ``RecordingRequest``. The players
act only by pressing buttons the bot showed them; the engine is read only to know whose phone
to look at and to check the end.
"""

from __future__ import annotations

import itertools
import logging
from dataclasses import dataclass, field
from typing import Any

import engine
from devtools.botapi import RecordingRequest
from devtools.botapi.updates import callback_update, message_update
from devtools.fakes import FakeClock, FakeTimers
from devtools.memory_store import MemoryStore
from engine.rng import Rng
from handlers.app import CoachRideBot
from infra.telegram_messenger import TelegramGateway, TelegramMessenger, make_bot

GROUP = -100123
BOT = "coachride_bot"


@dataclass
class Player:
    uid: int
    name: str
    lang: str = "en"


@dataclass
class Harness:
    players: list[Player]
    seed: int = 1
    claim_from_round: int = 8
    group: int = GROUP  # the group's chat id (a test may move it: a group upgraded)
    group_type: str = "supergroup"
    clock: FakeClock = field(default_factory=FakeClock)
    timers: FakeTimers = field(default_factory=FakeTimers)

    def __post_init__(self) -> None:
        self.api = RecordingRequest(clock=self.clock.now)
        bot = make_bot("123456:TEST", "https://api.telegram.org/bot", self.api.transport)
        # The gateway's waits (pacing, flood control) pass on the clock the emulator's rate
        # limits run on, as they would on Telegram.
        self.messenger = TelegramMessenger(TelegramGateway(bot, sleep=self.clock.advance))
        self.store = MemoryStore(clock=self.clock)
        self.service = CoachRideBot(
            self.store, self.messenger, self.timers, self.clock, bot_username=BOT, time_scale=1.0
        )
        self.errors: list[logging.LogRecord] = []
        recorder = logging.Handler(level=logging.ERROR)
        recorder.emit = self.errors.append  # type: ignore[method-assign]
        logging.getLogger("coachride").addHandler(recorder)
        self.ids = itertools.count(1000)
        self.rng = Rng(self.seed)
        self.presses = 0

    # -- talking to the bot ------------------------------------------------------------------
    def command(self, player: Player, text: str, chat: int | None = None) -> None:
        chat_id = self.group if chat is None else chat
        kind = "private" if chat_id > 0 else self.group_type
        self.service.handle_update(
            message_update(
                next(self.ids),
                chat_id,
                kind,
                player.uid,
                player.name,
                text,
                player.lang,
                chat_title="Coach",
            )
        )

    def press(self, player: Player, chat: int, message_id: int, data: str) -> None:
        self.presses += 1
        self.service.handle_update(
            self.api.pressed(
                callback_update(
                    next(self.ids), player.uid, player.name, chat, message_id, data, player.lang
                )
            )
        )

    def fire_timers(self) -> None:
        for request in self.timers.pop_due(self.clock.now()):
            self.service.handle_timer(request)

    # -- the game through the store (read only) ------------------------------------------------
    def game_doc(self) -> dict[str, Any]:
        chat = self.store.get(f"CHAT#{self.group}")
        assert chat is not None
        gid = chat.doc.get("game") or self.last_gid
        got = self.store.get(f"GAME#{gid}")
        assert got is not None
        self.last_gid = gid
        return got.doc

    def state(self) -> engine.State:
        return engine.State.from_dict(self.game_doc()["engine"])

    # -- flows ------------------------------------------------------------------------------
    def open_lobby_and_join(self) -> None:
        creator = self.players[0]
        self.command(creator, "/newgame")
        lobby = self.api.last_message(self.group)
        join = next(
            url for label, url in lobby.buttons() if url and url.startswith("https://t.me/")
        )
        payload = join.split("start=", 1)[1]
        for p in self.players:
            self.command(p, f"/start {payload}", chat=p.uid)
        self.last_gid = payload

    def start(self) -> None:
        self.command(self.players[0], "/startgame")

    def prompt_buttons(self, player: Player, decision: int) -> tuple[int, list[str]]:
        prefix = f"{self.last_gid}:{decision}:"
        for msg in reversed(self.api.messages_in(player.uid)):
            data = [d for _, d in msg.buttons() if d and d.startswith(prefix)]
            if data:
                return msg.message_id, data
        raise AssertionError(f"no prompt for decision {decision} in {player.name}'s chat")

    def play_by_buttons(self, max_presses: int = 20000, stop: int | None = None) -> engine.State:
        """Random presses on the buttons shown; windows nobody can use end on their timer.
        ``stop``: return after so many steps (a press or a timer), the game not over."""
        for step in range(max_presses):
            st = self.state()
            if st.over or step == stop:
                return st
            aw = engine.awaiting(st)
            assert aw is not None
            by_uid = {p.uid: p for p in self.players}
            seated = self.game_doc()["players"]
            humans = [s for s in aw.seats if seated[s]["uid"] in by_uid and not st.players[s].away]
            if not humans:
                self.clock.advance(max(0.0, self.game_doc()["due"]["at"] - self.clock.now()) + 0.01)
                self.fire_timers()
                continue
            seat = humans[self.rng.below(len(humans))]
            player = by_uid[seated[seat]["uid"]]
            self.clock.advance(0.5)
            message_id, data = self.prompt_buttons(player, aw.decision)
            choices = [d for d in data if ":?" not in d]
            passes = [d for d in choices if d.endswith(":pa")]
            if aw.window and passes and self.rng.below(5):
                self.press(player, player.uid, message_id, passes[0])  # most let a window go
                continue
            late = st.round >= self.claim_from_round
            self.press(player, player.uid, message_id, self._pick(choices, late))
        raise AssertionError("the game did not end")

    def _pick(self, choices: list[str], late: bool) -> str:
        """Random, but seldom the buttons that end the game at once, so games have a middle;
        later on, a table that has seen enough heads for a claim (as real tables do)."""
        payloads = {c: c.split(":", 2)[2] for c in choices}
        enders = ("cl", "fo", "so", "~cl", "~fo", "~so")
        ends = [c for c, p in payloads.items() if p.startswith(enders)]
        if late:
            for wanted in (("cl", "fo", "so"), ("~",)):
                hits = [c for c in ends if payloads[c].startswith(wanted)]
                oks = [c for c in hits if payloads[c].endswith(".ok")]
                if oks or hits:
                    pool = oks or hits
                    return pool[self.rng.below(len(pool))]
        rest = [c for c in choices if c not in ends]
        if rest and (not ends or self.rng.below(6)):
            return rest[self.rng.below(len(rest))]
        return ends[self.rng.below(len(ends))]

    def play_by_timeouts(self, max_steps: int = 20000) -> engine.State:
        for _ in range(max_steps):
            st = self.state()
            if st.over:
                return st
            due = self.game_doc()["due"]
            self.clock.advance(max(0.0, due["at"] - self.clock.now()) + 0.01)
            self.fire_timers()
        raise AssertionError("the game did not end by timeouts")
