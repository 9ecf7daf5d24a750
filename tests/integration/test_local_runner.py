"""`make run`'s pieces: no token means a clear explanation; timers come back after a restart."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from handlers.local import rearm_timers
from infra.ports import Put, TimerRequest
from infra.sqlite_store import SqliteStore
from infra.timers import FakeTimers

ROOT = Path(__file__).resolve().parents[2]


def test_without_a_token_it_explains_how_to_get_one_and_exits_non_zero() -> None:
    env = {"PATH": "/usr/bin:/bin", "TELEGRAM_BOT_TOKEN": ""}
    done = subprocess.run(
        [sys.executable, "-m", "handlers.local"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode != 0
    assert "@BotFather" in done.stderr and "/newbot" in done.stderr


def test_timers_of_running_games_are_rearmed_on_start(tmp_path: Path) -> None:
    store = SqliteStore(str(tmp_path / "g.sqlite3"))
    store.commit(
        [
            Put("GAME#a", {"phase": "playing", "due": {"dec": 7, "at": 123.0}}, None),
            Put("GAME#b", {"phase": "over", "due": None}, None),
            Put("CHAT#1", {"game": "a"}, None),
        ]
    )
    timers = FakeTimers()
    assert rearm_timers(store, timers) == 1
    assert timers.requests == [TimerRequest("GAME#a", 7, 123.0)]
