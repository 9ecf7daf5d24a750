"""A table played through the webhook and timer Lambdas' handlers, a real ``telegram.Bot`` on the
fake Bot API, and a fake clock that every wait moves (flood control, timeouts, the limiter).

Each invocation gets a Lambda-like context whose remaining time counts down from the function
timeout on the fake clock; a function killed mid-way (``Killed``) is redelivered the way
Telegram (an update without 200) or SQS (a message not deleted) would. Every committed outbox
entry is recorded, so a test can hold what went out against what was promised.
"""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

import engine
from devtools.botapi import Killed, RecordingRequest
from devtools.botapi.updates import callback_update, message_update
from devtools.fakes import FakeClock, FakeTimers
from devtools.memory_store import MemoryStore
from engine.rng import Rng
from handlers import lobby, timer, webhook
from handlers.app import CoachRideBot
from handlers.delivery import RateLimiter
from infra.ports import Delete, DocumentStore, Put, TimerRequest
from infra.telegram_messenger import TelegramGateway, TelegramMessenger, make_bot
from infra.timers import timer_message

GROUP = -100777
BOT = "coachride_bot"
SECRET = "fault-secret"
FUNCTION_TIMEOUT = 30.0  # template.yaml's Globals.Function.Timeout
SQS_RETRY_SECONDS = 30.0


class FakeContext:
    def __init__(self, clock: FakeClock, timeout: float = FUNCTION_TIMEOUT) -> None:
        self.clock = clock
        self.end = clock.now() + timeout

    def get_remaining_time_in_millis(self) -> int:
        return int(max(0.0, self.end - self.clock.now()) * 1000)


class PromiseLog:
    """A DocumentStore wrapper that records every outbox entry any commit promised."""

    def __init__(self, store: DocumentStore) -> None:
        self.inner = store
        self.promised: dict[tuple[str, int], dict[str, Any]] = {}

    def commit(
        self, writes: Sequence[Put | Delete], update_id: int | None = None
    ) -> dict[str, int]:
        versions = self.inner.commit(writes, update_id)
        for w in writes:
            if isinstance(w, Put) and w.key.startswith("GAME#"):
                for e in w.doc.get("outbox", []):
                    # a prompt whose decision ended before it was sent is promised closed
                    closed = e.get("tag") == "closed" and e["op"] == "send"
                    if closed or (w.key, e["seq"]) not in self.promised:
                        self.promised[(w.key, e["seq"])] = e
        return versions

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


class BotTable:
    def __init__(
        self,
        n: int = 4,
        seed: int = 3,
        store: Callable[[FakeClock], DocumentStore] | None = None,
        *,
        twice: bool = False,
        limiter: RateLimiter | None = None,
    ) -> None:
        self.clock = FakeClock()
        self.timers = FakeTimers()
        self.api = RecordingRequest(clock=self.clock.now)

        def sleep(seconds: float) -> None:
            self.clock.advance(seconds)

        bot = make_bot("123456:TEST", "https://api.telegram.org/bot", self.api.transport)
        self.messenger = TelegramMessenger(TelegramGateway(bot, sleep=sleep))
        self.store = PromiseLog(store(self.clock) if store else MemoryStore(clock=self.clock))
        self.service = CoachRideBot(
            self.store,  # type: ignore[arg-type]
            self.messenger,
            self.timers,
            self.clock,
            bot_username=BOT,
            limiter=limiter,
            sleep=self.clock.advance,
            # The same table number deals the same cards: a failure replays (the bot's own
            # seeds come from the operating system).
            deal_seeds=lambda: random.Random(seed).getrandbits(lobby.DEAL_SEED_BITS),
        )
        self.twice = twice
        self.ids = itertools.count(1)
        self.uids = [2001 + i for i in range(n)]
        self.rng = Rng(seed)
        self.gid = ""
        self.longest = 0.0  # the longest invocation, in fake seconds
        self.killed = 0
        self.redeliver: list[dict[str, Any]] = []
        self.presses: list[str] = []  # callback query ids sent

    # -- the Lambdas ------------------------------------------------------------------------
    def deliver(self, update: dict[str, Any]) -> None:
        for _ in range(2 if self.twice else 1):
            self._invoke(update)

    def _invoke(self, update: dict[str, Any]) -> None:
        event = {"headers": {webhook.SECRET_HEADER: SECRET}, "body": json.dumps(update)}
        started = self.clock.now()
        try:
            reply = webhook.handle(event, lambda: self.service, SECRET, FakeContext(self.clock))
            assert reply["statusCode"] == 200
        except Killed:
            self.killed += 1
            self.redeliver.append(update)  # no 200: Telegram sends it again
        finally:
            self.longest = max(self.longest, self.clock.now() - started)

    def fire_timers(self) -> None:
        while self.redeliver:
            self._invoke(self.redeliver.pop(0))
        for request in self.timers.pop_due(self.clock.now()):
            self._timer(request)

    def _timer(self, request: TimerRequest) -> None:
        event = {"Records": [{"messageId": "m", "body": timer_message(request)}]}
        context = FakeContext(self.clock)
        started = self.clock.now()
        try:
            result = timer.handle(
                event,
                self.service,
                self.timers,
                self.clock.now(),
                lambda: webhook.seconds_left(context),
            )
            failed = bool(result["batchItemFailures"])
        except Killed:
            self.killed += 1
            failed = True
        finally:
            self.longest = max(self.longest, self.clock.now() - started)
        if failed:  # SQS hands the message out again after its visibility timeout
            self.timers.schedule(
                TimerRequest(request.game_key, request.decision, self.clock.now() + 30)
            )

    # -- players ------------------------------------------------------------------------------
    def message(self, uid: int, chat: int, text: str) -> None:
        kind = "private" if chat > 0 else "supergroup"
        self.deliver(message_update(next(self.ids), chat, kind, uid, f"P{uid}", text, "en"))

    def press(self, uid: int, message_id: int, data: str) -> None:
        update = callback_update(next(self.ids), uid, f"P{uid}", uid, message_id, data, "en")
        self.api.pressed(update)
        self.presses.append(update["callback_query"]["id"])
        self.deliver(update)

    def start(self) -> None:
        self.message(self.uids[0], GROUP, "/newgame")
        chat = self.store.get(f"CHAT#{GROUP}")
        assert chat is not None
        self.gid = str(chat.doc["game"])
        for uid in self.uids:
            self.message(uid, uid, f"/start {self.gid}")
        self.message(self.uids[0], GROUP, "/startgame")

    # -- what happened ------------------------------------------------------------------------
    def doc(self) -> dict[str, Any]:
        got = self.store.get(f"GAME#{self.gid}")
        assert got is not None
        return got.doc

    def state(self) -> engine.State:
        return engine.State.from_dict(self.doc()["engine"])

    def outbox(self) -> list[dict[str, Any]]:
        return list(self.doc().get("outbox", []))

    def pending_outbox(self) -> list[dict[str, Any]]:
        """Entries not acknowledged yet (acknowledged ones leave with the next change)."""
        acks = self.store.get(f"ACK#GAME#{self.gid}")
        done = set(acks.doc["acks"]) if acks else set()
        return [e for e in self.outbox() if str(e["seq"]) not in done]

    def answers(self) -> int:
        return len(self.api.calls_to("answerCallbackQuery"))

    def answered(self) -> Counter[str]:
        return Counter(p["callback_query_id"] for p in self.api.calls_to("answerCallbackQuery"))

    def prompt(self, seat: int) -> tuple[int, list[str]] | None:
        st = self.state()
        if st.pending is None:
            return None
        prefix = f"{self.gid}:{st.pending.id}:"
        for shown in reversed(self.api.messages_in(self.uids[seat])):
            data = [d for _, d in shown.buttons() if d and d.startswith(prefix)]
            if data:
                return shown.message_id, data
        return None

    def press_turn_pass(self) -> None:
        seat = self.state().turn
        found = self.prompt(seat)
        assert found is not None
        message_id, data = found
        self.press(self.uids[seat], message_id, next(d for d in data if d.endswith(":pa")))

    def timeout_once(self) -> None:
        due = self.doc().get("due")
        at = due["at"] if due else self.clock.now() + 5
        self.clock.advance(max(0.0, at - self.clock.now()) + 0.01)
        self.fire_timers()

    def promised_sends(self) -> Counter[tuple[int, str]]:
        """Every send the game queued; a prompt queued to go anew only if the reminder's reply
        to it is refused (``handlers.reminders``) only when its message is gone."""
        return Counter(
            (e["chat"], e["text"])
            for e in self.store.promised.values()
            if e["op"] == "send"
            and (
                e.get("if_gone") is None
                or self.api.chats.get(int(e["chat"]), int(e["replaces"])) is None
            )
        )

    def delivered(self) -> Counter[tuple[int, str]]:
        return Counter(self.api.sent)

    def duplicates(self) -> list[tuple[int, str]]:
        """Messages shown more often than the game promised them."""
        promised = self.promised_sends()
        return [k for k, n in self.delivered().items() if n > promised[k]]

    def missing(self) -> list[tuple[int, str]]:
        """Promised messages a player never saw (refused for good excepted)."""
        delivered = self.delivered()
        refused = Counter(self.api.chaos.refused) if self.api.chaos else Counter()
        return [k for k, n in self.promised_sends().items() if delivered[k] + refused[k] < n]

    # -- a whole game ----------------------------------------------------------------------
    def play(self, max_steps: int = 3000) -> engine.State:
        """Players press what their phones show; when nobody can, the clock runs on."""
        for _ in range(max_steps):
            st = self.state()
            if st.over:
                return st
            aw = engine.awaiting(st)
            seats = [s for s in (aw.seats if aw else []) if not st.players[s].away]
            found = None
            if seats and self.rng.below(4):
                seat = seats[self.rng.below(len(seats))]
                found = self.prompt(seat)
            if found is None:
                self.timeout_once()
                continue
            message_id, data = found
            self.clock.advance(0.5)
            self.press(self.uids[seat], message_id, self._pick(data, st.round >= 5))
        raise AssertionError("the game did not end")

    def _pick(self, data: list[str], late: bool) -> str:
        choices = [d for d in data if ":?" not in d] or data
        ends = [d for d in choices if d.split(":", 2)[2].startswith(("cl", "fo", "so"))]
        if late and ends:
            return ends[self.rng.below(len(ends))]
        rest = [d for d in choices if d not in ends] or choices
        return rest[self.rng.below(len(rest))]
