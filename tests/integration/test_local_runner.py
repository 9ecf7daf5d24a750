"""`make run`'s pieces: without a token the local table, a wrong token or no network ends in
one sentence, timers come back after a restart."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from devtools.fakes import FakeTimers
from devtools.local import rearm_timers
from devtools.localtable.chats import Table
from devtools.localtable.server import TableServer
from handlers.i18n import t
from handlers.store_keys import FLUSH, reply_key
from infra.ports import Put, TimerRequest
from infra.sqlite_store import SqliteStore
from tests.browser.process import TableProcess, free_port

ROOT = Path(__file__).resolve().parents[2]


def run_bot(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "devtools.local"],
        cwd=ROOT,
        env={
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "GAME_DB_PATH": str(tmp_path / "bot.sqlite3"),
            **env,
        },
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.fixture
def other_bot_api(tmp_path: Path) -> Iterator[str]:
    """A Bot API that knows another token (the local table's server)."""
    server = TableServer(("127.0.0.1", 0), Table(str(tmp_path / "t.sqlite3")), "1:right")
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.port}"
    server.shutdown()


def test_a_wrong_token_ends_in_one_sentence(tmp_path: Path, other_bot_api: str) -> None:
    done = run_bot(tmp_path, TELEGRAM_BOT_TOKEN="1:wrong", TELEGRAM_API_BASE_URL=other_bot_api)
    assert done.returncode == 2
    assert done.stderr.strip() == t("en", "local.bad_token")


def test_no_network_ends_in_one_sentence(tmp_path: Path) -> None:
    nowhere = f"http://127.0.0.1:{free_port()}"  # nothing listens there
    done = run_bot(tmp_path, TELEGRAM_BOT_TOKEN="1:token", TELEGRAM_API_BASE_URL=nowhere)
    assert done.returncode == 2
    assert done.stderr.strip() == t("en", "local.no_network", url=nowhere)
    assert "Traceback" not in done.stderr


def test_without_a_token_it_serves_the_table_and_prints_its_address(tmp_path: Path) -> None:
    table = TableProcess(tmp_path / "table.sqlite3", free_port())
    table.start()
    try:
        printed = "".join(table.log)
        assert table.url in printed and "@BotFather" not in printed
        with urllib.request.urlopen(table.url, timeout=10) as page:
            html = page.read().decode()
        assert page.status == 200 and '<script src="/static/app.js"' in html
        with urllib.request.urlopen(table.url + "static/api.js", timeout=10) as script:
            assert b"SEAT_KEY" in script.read()
    finally:
        table.stop()


def test_a_busy_port_ends_in_one_sentence(tmp_path: Path, other_bot_api: str) -> None:
    port = int(other_bot_api.rsplit(":", 1)[1])
    started = time.monotonic()
    done = run_bot(tmp_path, PORT=str(port))
    assert done.returncode == 2 and time.monotonic() - started < 30
    busy = t("en", "local.port_busy", host="127.0.0.1", port=port, reason="Address already in use")
    assert done.stderr.strip() == busy


def test_a_second_table_on_the_same_file_ends_in_one_sentence(tmp_path: Path) -> None:
    """`make run` twice with the same GAME_DB_PATH (another port): the second is refused, not
    a second table firing the same games' timers (issue 25, a newcomer's set-up)."""
    db = tmp_path / "bot.sqlite3"
    table = TableProcess(db, free_port())
    table.start()
    try:
        done = run_bot(tmp_path, PORT=str(free_port()))
        assert done.returncode == 2
        assert done.stderr.strip() == t("en", "local.db_busy", db=str(db))
        assert "Traceback" not in done.stderr
        with urllib.request.urlopen(table.url, timeout=10) as page:
            assert page.status == 200  # the first table still runs
    finally:
        table.stop()


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


def test_messages_a_dead_process_left_unsent_are_flushed_on_start(tmp_path: Path) -> None:
    """A finished game's last messages and a direct reply still in their outboxes when the
    process died are sent after a restart: each gets a flush timer at once."""
    store = SqliteStore(str(tmp_path / "g.sqlite3"))
    unsent = [{"seq": 1, "op": "send", "chat": 5, "text": "…"}]
    store.commit(
        [
            Put("GAME#over", {"phase": "over", "due": None, "outbox": unsent}, None),
            Put("GAME#done", {"phase": "over", "due": None, "outbox": []}, None),
            Put(reply_key(5), {"seq": 1, "outbox": unsent}, None),
            Put(reply_key(6), {"seq": 1, "outbox": []}, None),
        ]
    )
    timers = FakeTimers()
    assert rearm_timers(store, timers) == 2
    assert sorted(timers.requests, key=lambda r: r.game_key) == [
        TimerRequest("GAME#over", FLUSH, 0.0),
        TimerRequest(reply_key(5), FLUSH, 0.0),
    ]


@pytest.mark.parametrize("port", ["99999", "-1"])
def test_a_port_out_of_range_ends_in_one_sentence(tmp_path: Path, port: str) -> None:
    """PORT=99999 ended in bind()'s OverflowError and its traceback, not the sentence a busy
    port or PORT=abc gets."""
    done = run_bot(tmp_path, PORT=port)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    reason = "a port is a number from 0 to 65535"
    assert done.stderr.strip() == t(
        "en", "local.port_busy", host="127.0.0.1", port=port, reason=reason
    )


def test_the_files_a_table_writes_beside_its_own_are_ignored_by_git(tmp_path: Path) -> None:
    """`make run` in a fresh clone keeps its chats in ``coach-ride.sqlite3``; SQLite writes
    ``-wal`` and ``-shm`` files beside it, which a stopped table may leave (a newcomer's
    `git status` listed both as untracked). Every file the running table holds is ignored."""
    from fnmatch import fnmatch

    patterns = [
        line.strip()
        for line in (ROOT / ".gitignore").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]
    table = TableProcess(tmp_path / "coach-ride.sqlite3", free_port())
    table.start()
    try:
        held = sorted(path.name for path in tmp_path.iterdir())
    finally:
        table.stop()
    assert "coach-ride.sqlite3-wal" in held  # what the check is about: SQLite's write-ahead log
    assert [name for name in held if not any(fnmatch(name, p) for p in patterns)] == []
