"""One contract, three stores: in-memory, SQLite and DynamoDB (moto)."""

from __future__ import annotations

import json
import random
import string
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from botocore.exceptions import ClientError

from devtools.fakes import FakeClock
from devtools.memory_store import MemoryStore
from infra import aws, doc_bytes
from infra.dynamo_store import DynamoStore, marker_key
from infra.ports import (
    UPDATE_MARKER_TTL_SECONDS,
    Delete,
    DocumentStore,
    DuplicateUpdate,
    Put,
    VersionConflict,
)
from infra.sqlite_store import SqliteStore

if TYPE_CHECKING:
    from mypy_boto3_dynamodb.client import DynamoDBClient


@dataclass
class Backend:
    """Opens handles on one shared storage, the way two Lambda containers share a table."""

    name: str
    clock: FakeClock
    open: Callable[[], DocumentStore]


@pytest.fixture(params=["memory", "sqlite", "dynamo"])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Backend]:
    clock = FakeClock()
    if request.param == "memory":
        shared = MemoryStore(clock=clock)
        yield Backend("memory", clock, lambda: shared)
    elif request.param == "sqlite":
        handles: list[SqliteStore] = []

        def open_sqlite() -> DocumentStore:
            handles.append(SqliteStore(str(tmp_path / "games.sqlite3"), clock=clock))
            return handles[-1]

        yield Backend("sqlite", clock, open_sqlite)
        for handle in handles:
            handle.close()
    else:
        table = request.getfixturevalue("game_table")  # on moto's server, via infra.aws
        yield Backend("dynamo", clock, lambda: DynamoStore(table, clock=clock))


@pytest.fixture
def store(backend: Backend) -> DocumentStore:
    return backend.open()


def game(**fields: Any) -> dict[str, Any]:
    return {"phase": "lobby", "players": [], **fields}


def test_create_if_absent(store: DocumentStore) -> None:
    assert store.get("GAME#1") is None
    assert store.commit([Put("GAME#1", game(), None)]) == {"GAME#1": 1}
    stored = store.get("GAME#1")
    assert stored is not None
    assert (stored.key, stored.version, stored.doc) == ("GAME#1", 1, game())
    with pytest.raises(VersionConflict):
        store.commit([Put("GAME#1", game(phase="other"), None)])
    assert store.get("GAME#1") == stored


def test_versions_increment_by_one_per_commit(store: DocumentStore) -> None:
    store.commit([Put("GAME#1", game(step=0), None)])
    for version in range(1, 5):
        new = store.commit([Put("GAME#1", game(step=version), version)])
        assert new == {"GAME#1": version + 1}
    stored = store.get("GAME#1")
    assert stored is not None
    assert (stored.version, stored.doc["step"]) == (5, 4)


def test_stale_version_writes_nothing_across_the_batch(store: DocumentStore) -> None:
    store.commit([Put("GAME#1", game(n=1), None), Put("CHAT#1", {"game": "GAME#1"}, None)])
    store.commit([Put("GAME#1", game(n=2), 1)])

    with pytest.raises(VersionConflict):
        store.commit(
            [
                Put("CHAT#1", {"game": "GAME#2"}, 1),  # current, but must not land alone
                Put("GAME#1", game(n=3), 1),  # stale: version 2 is stored
                Put("USER#9", {"game": "GAME#1"}, None),
            ],
            update_id=41,
        )

    assert store.get_many(["GAME#1", "CHAT#1", "USER#9"]) == {
        "GAME#1": store.get("GAME#1"),
        "CHAT#1": store.get("CHAT#1"),
    }
    chat, stored = store.get("CHAT#1"), store.get("GAME#1")
    assert chat is not None and (chat.version, chat.doc) == (1, {"game": "GAME#1"})
    assert stored is not None and (stored.version, stored.doc) == (2, game(n=2))
    assert not store.seen_update(41)


def test_duplicate_update_writes_nothing(store: DocumentStore) -> None:
    store.commit([Put("GAME#1", game(n=1), None)], update_id=7)
    assert store.seen_update(7)
    assert not store.seen_update(8)

    with pytest.raises(DuplicateUpdate):
        store.commit([Put("GAME#1", game(n=2), 1), Put("USER#1", {}, None)], update_id=7)
    # A redelivery usually also carries a stale version: "already applied" is the answer.
    with pytest.raises(DuplicateUpdate):
        store.commit([Put("GAME#1", game(n=2), 0)], update_id=7)

    assert store.get_many(["GAME#1", "USER#1"]).keys() == {"GAME#1"}
    stored = store.get("GAME#1")
    assert stored is not None and (stored.version, stored.doc) == (1, game(n=1))


def test_marker_alone_records_the_update(store: DocumentStore) -> None:
    assert store.commit([], update_id=99) == {}
    assert store.seen_update(99)
    with pytest.raises(DuplicateUpdate):
        store.commit([], update_id=99)


def test_empty_commit_is_a_no_op(store: DocumentStore) -> None:
    writes = store.stats.writes
    assert store.commit([]) == {}
    assert store.stats.writes == writes


def test_delete_checks_the_version(store: DocumentStore) -> None:
    store.commit([Put("GAME#1", game(), None)])
    store.commit([Put("GAME#1", game(n=1), 1)])

    with pytest.raises(VersionConflict):
        store.commit([Delete("GAME#1", 1)])
    assert store.get("GAME#1") is not None
    with pytest.raises(VersionConflict):
        store.commit([Delete("GAME#404", 1)])

    assert store.commit([Delete("GAME#1", 2)]) == {}
    assert store.get("GAME#1") is None
    assert store.commit([Put("GAME#1", game(), None)]) == {"GAME#1": 1}


def test_get_many_returns_only_existing_documents(store: DocumentStore) -> None:
    # 150 keys: DynamoDB reads them in batches of 100 and writes at most 100 items per commit.
    keys = [f"USER#{i}" for i in range(150)]
    store.commit([Put(key, {"i": i}, None) for i, key in enumerate(keys[:75])])
    store.commit([Put(key, {"i": i + 75}, None) for i, key in enumerate(keys[75:])])

    found = store.get_many([*keys, "USER#missing", keys[0]])

    assert sorted(found) == sorted(keys)
    assert all(found[key].doc == {"i": i} and found[key].version == 1 for i, key in enumerate(keys))
    assert store.get_many([]) == {}


def test_documents_round_trip_exactly(store: DocumentStore) -> None:
    rng = random.Random(3)
    noise = "".join(rng.choice(string.printable) for _ in range(60_000))  # compresses poorly
    doc = {
        "title": "魔城马车 · Die Kutschfahrt zur Teufelsburg — Straße 🐴🏰",
        "nested": {"list": [1, 2.5, -3e-9, True, False, None, "", {"deep": ["ü", "\u0000"]}]},
        "big_int": 2**62,
        "log": [{"step": i, "text": f"Spieler {i} tauscht 交易 {i}"} for i in range(3_000)],
        "noise": noise,
    }
    store.commit([Put("GAME#big", doc, None)])
    stored = store.get("GAME#big")
    assert stored is not None and stored.doc == doc
    assert list(stored.doc) == list(doc)  # key order survives too
    assert store.get_many(["GAME#big"])["GAME#big"].doc == doc


def test_returned_documents_are_copies(store: DocumentStore) -> None:
    doc = game()
    store.commit([Put("GAME#1", doc, None)])
    doc["players"].append("mallory")
    first = store.get("GAME#1")
    assert first is not None and first.doc == game()
    first.doc["players"].append("eve")
    again = store.get("GAME#1")
    assert again is not None and again.doc == game()


def test_expired_documents_read_as_absent(backend: Backend, store: DocumentStore) -> None:
    store.commit([Put("LOBBY#1", {"open": True}, None, ttl_seconds=60)])
    backend.clock.advance(59)
    assert store.get("LOBBY#1") is not None

    backend.clock.advance(2)
    assert store.get("LOBBY#1") is None
    assert store.get_many(["LOBBY#1"]) == {}
    with pytest.raises(VersionConflict):  # a writer that read it before it expired is stale
        store.commit([Put("LOBBY#1", {"open": False}, 1)])
    assert store.commit([Put("LOBBY#1", {"open": True}, None)]) == {"LOBBY#1": 1}
    backend.clock.advance(10**6)  # no ttl on the new write: it stays
    assert store.get("LOBBY#1") is not None


def test_update_markers_live_at_least_a_day(backend: Backend, store: DocumentStore) -> None:
    assert UPDATE_MARKER_TTL_SECONDS >= 24 * 3600
    store.commit([Put("GAME#1", game(), None)], update_id=5)
    backend.clock.advance(24 * 3600)
    assert store.seen_update(5)
    backend.clock.advance(UPDATE_MARKER_TTL_SECONDS)
    assert not store.seen_update(5)
    store.commit([Put("GAME#1", game(n=1), 1)], update_id=5)


def test_conflict_from_a_second_writer_between_read_and_write(backend: Backend) -> None:
    mine, theirs = backend.open(), backend.open()
    mine.commit([Put("GAME#1", {"applied": []}, None)])

    read = mine.get("GAME#1")
    assert read is not None
    their_read = theirs.get("GAME#1")
    assert their_read is not None
    theirs.commit([Put("GAME#1", {"applied": ["theirs"]}, their_read.version)], update_id=2)

    with pytest.raises(VersionConflict):
        mine.commit([Put("GAME#1", {"applied": ["mine"]}, read.version)], update_id=1)
    assert not mine.seen_update(1)

    # The service's answer to a conflict: reload, apply again, commit.
    reread = mine.get("GAME#1")
    assert reread is not None
    mine.commit([Put("GAME#1", {"applied": [*reread.doc["applied"], "mine"]}, 2)], update_id=1)
    final = theirs.get("GAME#1")
    assert final is not None and (final.version, final.doc) == (3, {"applied": ["theirs", "mine"]})


def test_invalid_batches_are_rejected_before_writing(store: DocumentStore) -> None:
    with pytest.raises(ValueError, match="twice"):
        store.commit([Put("GAME#1", {}, None), Delete("GAME#1", 1)])
    with pytest.raises(ValueError, match="reserved"):
        store.commit([Put(marker_key(1), {}, None)])
    assert store.get("GAME#1") is None


def test_stats_count_requests(store: DocumentStore) -> None:
    store.get("GAME#1")
    store.get_many(["GAME#1", "GAME#2"])
    store.seen_update(1)
    store.commit([Put("GAME#1", game(), None)], update_id=1)
    with pytest.raises(DuplicateUpdate):
        store.commit([Put("GAME#1", game(), 1)], update_id=1)
    assert (store.stats.reads, store.stats.writes) == (3, 2)


# --- codec ---------------------------------------------------------------------------------


def test_codec_keeps_small_documents_plain_and_compresses_large_ones() -> None:
    small = {"a": 1}
    large = {"log": ["the coach rolls on"] * 500}
    assert doc_bytes.encode(small) == b'J{"a":1}'
    packed = doc_bytes.encode(large)
    assert packed[:1] == b"Z"
    assert len(packed) < len(json.dumps(large, separators=(",", ":"))) // 50
    assert doc_bytes.decode(doc_bytes.encode(small)) == small
    assert doc_bytes.decode(packed) == large


def test_codec_rejects_what_it_did_not_write() -> None:
    with pytest.raises(ValueError):
        doc_bytes.decode(b"?{}")
    with pytest.raises(ValueError):
        doc_bytes.decode(b"J[1,2]")
    with pytest.raises(ValueError):
        doc_bytes.encode({"x": float("nan")})


# --- store-specific behaviour ----------------------------------------------------------------


def test_dynamo_items_have_the_documented_shape(game_table: str, dynamodb: DynamoDBClient) -> None:
    clock = FakeClock()
    store = DynamoStore(game_table, clock=clock)  # writes through infra.aws, read by boto3
    store.commit([Put("GAME#1", game(), None, ttl_seconds=3600)], update_id=123)

    item = dynamodb.get_item(TableName=game_table, Key={"pk": {"S": "GAME#1"}})["Item"]
    assert item["version"] == {"N": "1"}
    assert doc_bytes.decode(item["body"]["B"]) == game()
    assert int(item["ttl"]["N"]) == int(clock.now()) + 3600
    marker = dynamodb.get_item(TableName=game_table, Key={"pk": {"S": marker_key(123)}})["Item"]
    assert int(marker["ttl"]["N"]) >= clock.now() + 24 * 3600
    ttl = dynamodb.describe_time_to_live(TableName=game_table)["TimeToLiveDescription"]
    assert ttl.get("AttributeName") == "ttl"


def test_dynamo_client_comes_from_the_standard_environment(game_table: str) -> None:
    store = DynamoStore(game_table)  # region, credentials and endpoint from the environment
    store.commit([Put("GAME#1", game(), None)])
    assert store.get("GAME#1") is not None


class _ContendedClient:
    """Answers the first ``conflicts`` transactions the way DynamoDB does when another
    transaction holds one of the items, then passes through to the container's client."""

    def __init__(self, conflicts: int) -> None:
        self.inner = aws.client("dynamodb")
        self.conflicts = conflicts

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def transact_write_items(self, **kwargs: Any) -> Any:
        if self.conflicts > 0:
            self.conflicts -= 1
            reasons = [{"Code": "TransactionConflict"}] + [{"Code": "None"}] * (
                len(kwargs["TransactItems"]) - 1
            )
            answer: Any = {
                "Error": {"Code": "TransactionCanceledException", "Message": ""},
                "CancellationReasons": reasons,
            }
            raise ClientError(answer, "TransactWriteItems")
        return self.inner.transact_write_items(**kwargs)


def test_dynamo_retries_transaction_conflicts(game_table: str) -> None:
    client: Any = _ContendedClient(conflicts=2)
    sleeps: list[float] = []
    store = DynamoStore(game_table, client=client, sleep=sleeps.append)

    assert store.commit([Put("GAME#1", game(), None)], update_id=1) == {"GAME#1": 1}
    assert len(sleeps) == 2 and store.stats.extra["transaction_retries"] == 2

    client.conflicts = 10
    with pytest.raises(VersionConflict):
        store.commit([Put("GAME#1", game(n=1), 1)], update_id=2)
    assert not store.seen_update(2)


def test_memory_store_hooks_inject_conflicts_and_crashes() -> None:
    store = MemoryStore()
    store.commit([Put("GAME#1", {"n": 0}, None)])

    def second_writer(writes: object, update_id: int | None) -> None:
        store.before_commit = None
        store.commit([Put("GAME#1", {"n": "theirs"}, 1)])

    store.before_commit = second_writer
    with pytest.raises(VersionConflict):
        store.commit([Put("GAME#1", {"n": "mine"}, 1)], update_id=1)
    assert not store.seen_update(1)

    def crash(writes: object, update_id: int | None) -> None:
        raise RuntimeError("process died after the write")

    store.after_commit = crash
    with pytest.raises(RuntimeError):
        store.commit([Put("GAME#1", {"n": "mine"}, 2)], update_id=1)
    stored = store.get("GAME#1")
    assert stored is not None and stored.doc == {"n": "mine"}
    assert store.seen_update(1)
    assert store.stored_size("GAME#1") == len(doc_bytes.encode({"n": "mine"}))


def test_sqlite_store_is_shared_between_processes(tmp_path: Path) -> None:
    import subprocess
    import sys

    path = str(tmp_path / "games.sqlite3")
    SqliteStore(path).commit([Put("GAME#1", {"by": "parent"}, None)])
    script = (
        "import sys; from infra.sqlite_store import SqliteStore; from infra.ports import Put;"
        "s = SqliteStore(sys.argv[1]); v = s.get('GAME#1');"
        "s.commit([Put('GAME#1', {'by': v.doc['by'] + '+child'}, v.version)], update_id=1)"
    )
    subprocess.run([sys.executable, "-c", script, path], check=True, timeout=30)
    store = SqliteStore(path)
    stored = store.get("GAME#1")
    assert stored is not None and (stored.version, stored.doc) == (2, {"by": "parent+child"})
    assert store.seen_update(1)
