"""Real parallelism on one document: every command applied exactly once, no version skipped.

Each command is a read-modify-commit loop that retries on VersionConflict, the way the service
handles a Telegram update; every command is also delivered a second time, like a redelivered
update, and that second delivery must change nothing.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import boto3
import pytest

from infra.dynamo_store import DynamoStore
from infra.ports import DocumentStore, DuplicateUpdate, Put, VersionConflict
from infra.sqlite_store import SqliteStore

from .conftest import create_game_table

THREADS = 8
COMMANDS_PER_THREAD = 6
KEY = "GAME#race"


def apply_command(store: DocumentStore, update_id: int) -> int:
    """Append ``update_id`` to the game; returns how many conflicts it had to retry."""
    conflicts = 0
    while True:
        if store.seen_update(update_id):
            return conflicts
        current = store.get(KEY)
        applied = [] if current is None else current.doc["applied"]
        time.sleep(0.001)  # engine.apply takes a moment; let the other threads interleave
        version = None if current is None else current.version
        write = Put(KEY, {"applied": [*applied, update_id]}, version)
        try:
            store.commit([write], update_id=update_id)
            return conflicts
        except VersionConflict:
            conflicts += 1
        except DuplicateUpdate:
            return conflicts


def run_race(open_store: Callable[[], DocumentStore]) -> tuple[list[int], int, int]:
    """Runs every thread's commands (each twice); returns applied ids, version, conflicts."""
    start = threading.Barrier(THREADS)
    conflicts: list[int] = []
    errors: list[BaseException] = []

    def worker(thread: int) -> None:
        store = open_store()
        try:
            start.wait()
            for n in range(COMMANDS_PER_THREAD):
                update_id = thread * 1000 + n
                conflicts.append(apply_command(store, update_id))
                conflicts.append(apply_command(store, update_id))  # the redelivery
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not errors, errors
    final = open_store().get(KEY)
    assert final is not None
    return final.doc["applied"], final.version, sum(conflicts)


def expected_ids() -> list[int]:
    return sorted(t * 1000 + n for t in range(THREADS) for n in range(COMMANDS_PER_THREAD))


@pytest.mark.parametrize("shared", [True, False], ids=["one-store", "store-per-thread"])
def test_sqlite_applies_every_command_exactly_once(tmp_path: Path, shared: bool) -> None:
    path = str(tmp_path / "race.sqlite3")
    store = SqliteStore(path)
    applied, version, conflicts = run_race(lambda: store if shared else SqliteStore(path))

    assert sorted(applied) == expected_ids()
    assert version == THREADS * COMMANDS_PER_THREAD
    assert conflicts > 0, "the threads never raced; the test proves nothing"


def test_dynamodb_applies_every_command_exactly_once(moto_server: str) -> None:
    table = create_game_table(boto3.client("dynamodb"))
    # Each thread gets its own store and a client built from the environment (AWS_ENDPOINT_URL),
    # like concurrent Lambda containers.
    stores: list[Any] = []

    def open_store() -> DocumentStore:
        stores.append(DynamoStore(table))
        return stores[-1]

    applied, version, conflicts = run_race(open_store)

    assert sorted(applied) == expected_ids()
    assert version == THREADS * COMMANDS_PER_THREAD
    assert conflicts > 0, "the threads never raced; the test proves nothing"
