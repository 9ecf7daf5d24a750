"""`python -m devtools.load`: N concurrent games through the service, DynamoDB on a moto server
and the fake Bot API with Telegram's limits (30 messages a second per bot, 20 a minute per group).

Every game runs in its own thread with its own bot object, store client and bot, the way concurrent
Lambda containers do; they share the table (and in it the bot's rate-limit bucket) and the Bot
API. Players press a button as soon as their prompt shows. For each N it prints the messages per
second Telegram accepted, the 429s it answered, and the time from a press to the next prompt
(p50/p99). Needs the dev dependencies (moto) and the Bot API spec the fake validates against.
"""

from __future__ import annotations

import argparse
import itertools
import math
import random
import statistics
import threading
import time
from dataclasses import dataclass, field
from typing import Any

COUNTER = itertools.count(1)


@dataclass
class Figures:
    presses: int = 0
    latencies: list[float] = field(default_factory=list)
    games_finished: int = 0
    errors: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)


class _Timers:
    """One game's timers, fired by its own thread when due (SQS in production)."""

    def __init__(self) -> None:
        self.due: list[Any] = []
        self.lock = threading.Lock()

    def schedule(self, request: Any) -> None:
        with self.lock:
            self.due.append(request)

    def pop_due(self, now: float) -> list[Any]:
        with self.lock:
            ready = sorted((r for r in self.due if r.due_at <= now), key=lambda r: r.due_at)
            self.due = [r for r in self.due if r.due_at > now]
        return ready


def _delivered(api: Any) -> int:
    """Messages Telegram accepted: sends and edits that did not fail."""
    with api.lock:
        edits = sum(1 for m, _ in api.calls if m == "editMessageText")
        failed = sum(1 for m, _, _ in api.errors if m == "editMessageText")
        return len(api.sent) + edits - failed


def _game_thread(
    n: int,
    api: Any,
    table: str,
    window: dict[str, float],
    ready: threading.Barrier,
    figures: Figures,
    limiter_on: bool,
    scale: float,
) -> None:
    from devtools.botapi.updates import callback_update, message_update
    from handlers.app import CoachRideBot
    from infra.dynamo_store import DynamoStore
    from infra.rate_limit import SharedRateLimiter
    from infra.telegram_messenger import TelegramGateway, TelegramMessenger, make_bot
    from infra.timers import SystemClock

    clock = SystemClock()
    gid = ""
    store = DynamoStore(table, clock=clock)
    bot = make_bot("123456:LOAD", "https://api.telegram.org/bot", api.transport)
    messenger = TelegramMessenger(TelegramGateway(bot))
    timers = _Timers()
    svc = CoachRideBot(
        store,
        messenger,
        timers,
        clock,
        bot_username="coachride_bot",
        time_scale=scale,
        limiter=SharedRateLimiter(store) if limiter_on else None,
    )
    rng = random.Random(n)
    group = -(10**12) - n
    uids = [10_000 * (n + 1) + i for i in range(5)]

    def say(uid: int, chat: int, text: str) -> None:
        kind = "private" if chat > 0 else "supergroup"
        svc.handle_update(message_update(next(COUNTER), chat, kind, uid, f"P{uid}", text, "en"))

    def fire() -> None:
        for request in timers.pop_due(clock.now()):
            svc.handle_timer(request)

    def newest_prompt() -> tuple[int, int, int, list[str]] | None:
        """(decision, uid, message id, buttons) of the newest open prompt of this game."""
        best = None
        for uid in uids:
            with api.lock:
                shown = list(api.messages_in(uid))[-4:]  # a prompt is among the newest
            for message in shown:
                data = [d for _, d in message.buttons() if d and d.startswith(f"{gid}:")]
                if data:
                    decision = int(data[0].split(":", 2)[1])
                    if best is None or decision > best[0]:
                        best = (decision, uid, message.message_id, data)
        return best

    stop_at = math.inf
    while time.time() < stop_at:
        say(uids[0], group, "/newgame")
        chat = store.get(f"CHAT#{group}")
        if chat is None or not chat.doc.get("game"):
            figures.errors += 1
            ready.abort()  # the others must not wait for this table
            return
        gid = chat.doc["game"]
        for uid in uids:
            say(uid, uid, f"/start {gid}")
        say(uids[0], group, "/startgame")
        if math.isinf(stop_at):  # every table is set up: the measured time starts
            try:
                ready.wait(timeout=900)
            except threading.BrokenBarrierError:
                return
            stop_at = window["stop"]
        idle = 0
        while time.time() < stop_at:
            fire()
            found = newest_prompt()
            if found is None or idle > 20:
                got = store.get(f"GAME#{gid}")
                if got is None or got.doc.get("phase") != "playing":
                    with figures.lock:
                        figures.games_finished += got is not None and got.doc["phase"] == "over"
                    break
                idle = 0
            if found is None:
                idle += 1
                time.sleep(0.05)
                continue
            decision, uid, message_id, data = found
            choices = [d for d in data if ":?" not in d] or data
            ends = [d for d in choices if d.split(":", 2)[2].startswith(("cl", "fo", "so"))]
            pick = rng.choice(ends if decision > 60 and ends else choices)
            started = time.time()
            press = callback_update(next(COUNTER), uid, f"P{uid}", uid, message_id, pick, "en")
            svc.handle_update(api.pressed(press))
            with figures.lock:
                figures.presses += 1
            while time.time() < min(stop_at, started + 60):  # the next prompt shows
                after = newest_prompt()
                if after is not None and after[0] > decision:
                    with figures.lock:
                        figures.latencies.append(time.time() - started)
                    break
                idle += 1
                if idle > 20:
                    break
                fire()
                time.sleep(0.02)


def run(counts: list[int], seconds: float, limiter_on: bool, scale: float) -> list[dict[str, Any]]:
    import os

    import boto3
    from moto.server import ThreadedMotoServer

    from devtools.botapi import RateLimits, RecordingRequest
    from devtools.moto_serial import OneRequestAtATime

    for name, value in {
        "AWS_ACCESS_KEY_ID": "testing",
        "AWS_SECRET_ACCESS_KEY": "testing",
        "AWS_DEFAULT_REGION": "eu-central-1",
    }.items():
        os.environ[name] = value
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    assert server._server is not None
    server._server.app = OneRequestAtATime(server._server.app)
    host, port = server.get_host_and_port()
    os.environ["AWS_ENDPOINT_URL"] = f"http://{host}:{port}"
    rows = []
    try:
        for n in counts:
            table = f"load{n}x{int(time.time())}"
            client = boto3.client("dynamodb")
            client.create_table(
                TableName=table,
                AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                BillingMode="PAY_PER_REQUEST",
            )
            api = RecordingRequest(clock=time.time)
            api.limits = RateLimits()
            figures = Figures()
            window: dict[str, float] = {}

            def measure_from_now(window: dict[str, float] = window, api: Any = api) -> None:
                window["start"] = time.time()
                window["stop"] = window["start"] + seconds
                window["before"] = _delivered(api)
                window["limited"] = api.limits.limited

            ready = threading.Barrier(n, action=measure_from_now)
            threads = [
                threading.Thread(
                    target=_game_thread,
                    args=(i, api, table, window, ready, figures, limiter_on, scale),
                    daemon=True,
                )
                for i in range(n)
            ]
            for th in threads:
                th.start()
            for th in threads:
                th.join(seconds + 600)
            elapsed = time.time() - window["start"]
            delivered = _delivered(api) - window["before"]
            lat = sorted(figures.latencies)
            rows.append(
                {
                    "games": n,
                    "seconds": round(elapsed, 1),
                    "msgs_per_s": round(delivered / elapsed, 1),
                    "429s": api.limits.limited,
                    "429_overall": api.limits.by_reason["overall"],
                    "429_group": api.limits.by_reason["group"],
                    "429_private": api.limits.by_reason["private"],
                    "presses": figures.presses,
                    "p50_ms": round(statistics.median(lat) * 1000) if lat else None,
                    "p99_ms": round(lat[min(len(lat) - 1, int(len(lat) * 0.99))] * 1000)
                    if lat
                    else None,
                    "finished": figures.games_finished,
                }
            )
            print(_line(rows[-1]), flush=True)
    finally:
        server.stop()
    return rows


def _line(row: dict[str, Any]) -> str:
    return (
        f"{row['games']:>5} {row['seconds']:>7} {row['msgs_per_s']:>9} {row['429s']:>5} "
        f"{row['429_overall']:>7} {row['429_group']:>5} {row['429_private']:>7} "
        f"{row['presses']:>7} {row['p50_ms']!s:>7} {row['p99_ms']!s:>7} {row['finished']:>8}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--games", default="1,2,4,8,16,32", help="comma-separated values of N")
    parser.add_argument("--seconds", type=float, default=20.0, help="run time per N")
    parser.add_argument("--scale", type=float, default=0.1, help="game time scale (deadlines)")
    parser.add_argument("--no-limiter", action="store_true", help="without the shared limiter")
    args = parser.parse_args(argv)
    import logging

    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    logging.getLogger("coachride").setLevel(logging.CRITICAL)
    logging.getLogger("infra.telegram_messenger").setLevel(logging.CRITICAL)
    import warnings

    warnings.simplefilter("ignore")
    counts = [int(x) for x in args.games.split(",") if x.strip()]
    print(f"limiter: {'off' if args.no_limiter else 'on'}; {args.seconds:.0f} s per N")
    print("games seconds msgs_per_s  429s overall group private presses  p50_ms  p99_ms finished")
    rows = run(counts, args.seconds, not args.no_limiter, args.scale)
    clean = [r["games"] for r in rows if r["429s"] == 0]
    print(f"largest N with no 429: {max(clean) if clean else 'none'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
