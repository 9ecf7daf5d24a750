"""`python -m devtools.bench`: figures for the webhook path, printed as JSON.

- cold import time of the webhook module, and the first update's cost before it reaches AWS:
  everything it imports (``handlers.runtime.FIRST_UPDATE_IMPORTS``) and its AWS clients'
  creation (``FIRST_UPDATE_SETUP``), with the garbage collector paused as the entry points pause
  it (``handlers.webhook.collection_paused``), wall and CPU, medians of fresh interpreters, next
  to the goal; once from a bare interpreter, once after the modules Lambda's Python runtime has
  imported itself before it imports the handler (``RUNTIME_IMPORTS``);
- per-update handling time p50/p99 over a whole 10-player game, with in-memory fakes;
- the stored game item's size at 10 players mid-game (and its largest);
- peak memory of this process over the game;
- store reads/writes per update: a state change, a stale press, a duplicate delivery.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from typing import Any

IMPORT_SNIPPET = (
    "import time\n{before}\nt=time.perf_counter(); c=time.process_time()\n{body}\n"
    "print((time.perf_counter()-t)*1000, (time.process_time()-c)*1000)"
)
# What the first update does besides importing, before its first request: the clients for the
# three AWS services it calls (runtime._build's store and timers, the secrets read).
FIRST_UPDATE_SETUP = (
    "from infra import aws; aws.client('dynamodb'); aws.client('sqs'); aws.client('secretsmanager')"
)
# What Lambda's Python runtime (its runtime interface client, awslambdaric: bootstrap.py and the
# modules it imports) has imported before it imports the handler's module: not the handler's cost.
RUNTIME_IMPORTS = (
    "importlib",
    "json",
    "logging",
    "traceback",
    "datetime",
    "enum",
    "decimal",
    "math",
    "concurrent.futures",
)


def first_update_body(imports: tuple[str, ...]) -> str:
    """The first update as a cold container runs it (``handlers.webhook.handler``): the webhook
    module, then, with the collector paused, what the update imports and its clients."""
    return (
        "import handlers.webhook\n"
        "with handlers.webhook.collection_paused():\n"
        f"    import {', '.join(imports)}\n"
        f"    {FIRST_UPDATE_SETUP}"
    )


# Credentials and region as Lambda sets them, so the clients never look further.
LAMBDA_ENVIRONMENT = {
    "AWS_ACCESS_KEY_ID": "ASIABENCH",
    "AWS_SECRET_ACCESS_KEY": "bench",
    "AWS_SESSION_TOKEN": "bench",
    "AWS_REGION": "eu-central-1",
    "AWS_DEFAULT_REGION": "eu-central-1",
    "PYDANTIC_DISABLE_PLUGINS": "__all__",  # as template.yaml sets it
}
FIRST_UPDATE_GOAL_MS = 450


CLAIM_FROM_ROUND = 8  # random presses, then a table that claims, as real tables do by then
ENDERS = ("cl", "fo", "so", "~cl", "~fo", "~so")


def _pick(choices: list[str], prefix: str, rng: Any, *, late: bool) -> str:
    payloads = {c: c[len(prefix) :] for c in choices}
    ends = [c for c, p in payloads.items() if p.startswith(ENDERS)]
    if late and ends:
        acts = [c for c in ends if not payloads[c].startswith("~")]
        oks = [c for c in ends if payloads[c].endswith(".ok")]
        pool = acts or oks or ends
        return str(pool[rng.below(len(pool))])
    rest = [c for c in choices if c not in ends] or choices
    return str(rest[rng.below(len(rest))])


def cold_import_ms(
    body: str, runs: int = 5, package: str | None = None, before: str = "pass"
) -> tuple[float, float]:
    """Median wall and CPU milliseconds to run ``body`` (imports) in fresh interpreters, after
    ``before`` (not timed). CPU time is the steadier figure on a machine shared with other work.
    From the checkout, byte code is cached (written on the first run). ``package``: a built
    Lambda package (``make bench-package``), whose modules, trimmed botocore and byte code are
    imported instead of the checkout's and the virtual environment's, none written: Lambda's
    /var/task is read-only, so a module shipped without byte code is compiled on every cold
    start, and measured so."""
    walls, cpus = [], []
    for _ in range(runs):
        out = subprocess.run(
            [sys.executable, "-c", IMPORT_SNIPPET.format(before=before, body=body)],
            capture_output=True,
            text=True,
            check=True,
            env=_fresh_interpreter_environment(package),
            cwd=package,  # first on the path, as /var/task is in Lambda
        )
        wall, cpu = map(float, out.stdout.split())
        walls.append(wall)
        cpus.append(cpu)
    return round(statistics.median(walls), 1), round(statistics.median(cpus), 1)


def _fresh_interpreter_environment(package: str | None = None) -> dict[str, str]:
    """The Lambda's variables. From the checkout, byte code written (a caller's
    PYTHONDONTWRITEBYTECODE, with stale caches beside the sources, would measure compiling every
    module instead of importing it); in a package, none (read-only, as in Lambda)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    if package:
        env["PYTHONPATH"] = package
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    return {**env, **LAMBDA_ENVIRONMENT}


def play(players: int, seed: int) -> dict[str, Any]:
    import engine
    from devtools.fakes import FakeClock, FakeTimers
    from devtools.memory_messenger import MemoryMessenger
    from devtools.memory_store import MemoryStore
    from engine.rng import Rng
    from handlers.app import CoachRideBot

    clock, timers, store, messenger = FakeClock(), FakeTimers(), MemoryStore(), MemoryMessenger()
    store.clock = clock
    svc = CoachRideBot(store, messenger, timers, clock, bot_username="bench_bot")
    group = -1001
    ids = iter(range(1, 10**9))
    rng = Rng(seed)

    def msg(uid: int, chat: int, text: str) -> dict[str, Any]:
        kind = "private" if chat > 0 else "supergroup"
        return {
            "update_id": next(ids),
            "message": {
                "message_id": 1,
                "date": 0,
                "chat": {"id": chat, "type": kind},
                "from": {
                    "id": uid,
                    "is_bot": False,
                    "first_name": f"P{uid}",
                    "language_code": "en",
                },
                "text": text,
            },
        }

    def press(uid: int, message_id: int, data: str, update_id: int | None = None) -> dict[str, Any]:
        return {
            "update_id": update_id or next(ids),
            "callback_query": {
                "id": f"q{uid}",
                "from": {
                    "id": uid,
                    "is_bot": False,
                    "first_name": f"P{uid}",
                    "language_code": "en",
                },
                "chat_instance": "x",
                "data": data,
                "message": {
                    "message_id": message_id,
                    "date": 0,
                    "chat": {"id": uid, "type": "private"},
                },
            },
        }

    uids = list(range(101, 101 + players))
    svc.handle_update(msg(uids[0], group, "/newgame"))
    gid = store.get(f"CHAT#{group}").doc["game"]  # type: ignore[union-attr]
    for uid in uids:
        svc.handle_update(msg(uid, uid, f"/start {gid}"))
    svc.handle_update(msg(uids[0], group, "/startgame"))
    key = f"GAME#{gid}"

    timings: list[float] = []
    change_io: list[tuple[int, int]] = []
    sizes: list[int] = []
    mid_size = 0
    stale_io = duplicate_io = (0, 0)
    last_press: dict[str, Any] | None = None
    for _ in range(50_000):
        doc = store.get(key).doc  # type: ignore[union-attr]
        st = engine.State.from_dict(doc["engine"])
        if st.over:
            break
        size = store.stored_size(key) or 0
        sizes.append(size)
        if st.round == 3 and not mid_size:
            mid_size = size
        aw = engine.awaiting(st)
        assert aw is not None
        if not aw.seats:
            clock.advance(max(0.0, doc["due"]["at"] - clock.now()) + 0.01)
            for request in timers.pop_due(clock.now()):
                svc.handle_timer(request)
            continue
        seat = aw.seats[rng.below(len(aw.seats))]
        uid = uids[seat]
        prefix = f"{gid}:{aw.decision}:"
        shown = next(
            m
            for m in reversed(messenger.in_chat(uid))
            if m.rows and any(b[2].startswith(prefix) for row in m.rows for b in row)
        )
        choices = [
            b[2]
            for row in shown.rows or []
            for b in row
            if b[2].startswith(prefix) and ":?" not in b[2]
        ]
        data = _pick(choices, prefix, rng, late=st.round >= CLAIM_FROM_ROUND)
        clock.advance(0.3)
        update = press(uid, shown.message_id, data)
        before = (store.stats.reads, store.stats.writes)
        started = time.perf_counter()
        svc.handle_update(update)
        timings.append((time.perf_counter() - started) * 1000)
        io = (store.stats.reads - before[0], store.stats.writes - before[1])
        if not data[len(prefix) :].startswith("~"):
            change_io.append(io)
            last_press = update
    if last_press is not None:
        before = (store.stats.reads, store.stats.writes)
        svc.handle_update(last_press)  # Telegram delivering the same update again
        duplicate_io = (store.stats.reads - before[0], store.stats.writes - before[1])
        stale = dict(last_press, update_id=next(ids))
        before = (store.stats.reads, store.stats.writes)
        svc.handle_update(stale)  # an old button pressed again
        stale_io = (store.stats.reads - before[0], store.stats.writes - before[1])
    timings.sort()
    return {
        "players": players,
        "updates": len(timings),
        "update_ms_p50": round(timings[len(timings) // 2], 3),
        "update_ms_p99": round(timings[int(len(timings) * 0.99)], 3),
        "item_bytes_mid_game": mid_size,
        "item_bytes_max": max(sizes),
        "reads_per_change": round(statistics.mean(r for r, _ in change_io), 2),
        "writes_per_change": round(statistics.mean(w for _, w in change_io), 2),
        "stale_press_reads_writes": stale_io,
        "duplicate_reads_writes": duplicate_io,
        "bot_api_calls": dict(messenger.calls),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=10)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--runs", type=int, default=9, help="fresh interpreters per import figure")
    parser.add_argument("--imports-only", action="store_true", help="skip the game")
    parser.add_argument(
        "--package", help="measure the imports in this built Lambda package (make bench-package)"
    )
    args = parser.parse_args(argv)
    from handlers.runtime import FIRST_UPDATE_IMPORTS

    package = os.path.abspath(args.package) if args.package else None
    first_update = first_update_body(FIRST_UPDATE_IMPORTS)
    runtime = f"import {', '.join(RUNTIME_IMPORTS)}"
    # writes the checkout's byte code caches (a package has its own)
    cold_import_ms(first_update, runs=1, package=package)
    webhook_wall, webhook_cpu = cold_import_ms("import handlers.webhook", args.runs, package)
    first_wall, first_cpu = cold_import_ms(first_update, args.runs, package)
    _, after_runtime_cpu = cold_import_ms(first_update, args.runs, package, before=runtime)
    report: dict[str, Any] = {
        "imported_from": package or "checkout and virtual environment",
        "cold_import_ms_webhook_module": webhook_wall,
        "cold_import_cpu_ms_webhook_module": webhook_cpu,
        "cold_ms_first_update_imports_and_aws_clients": first_wall,
        "cold_cpu_ms_first_update_imports_and_aws_clients": first_cpu,
        "cold_cpu_ms_first_update_after_the_runtimes_imports": after_runtime_cpu,
        "first_update_goal_ms": FIRST_UPDATE_GOAL_MS,
        "load_average_1min": round(os.getloadavg()[0], 2),
    }
    if args.imports_only:
        print(json.dumps(report, indent=1))
        return 0
    report.update(play(args.players, args.seed))
    report["peak_memory_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
