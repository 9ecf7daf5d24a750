"""DocumentStore on one DynamoDB table keyed by the string ``pk``.

A document item holds ``pk``, ``version`` (N), ``body`` (B, codec bytes) and optionally ``ttl``
(N, epoch seconds, the table's TTL attribute). DynamoDB deletes expired items only eventually,
so reads and conditions treat ``ttl <= now`` as absent themselves.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from botocore.exceptions import ClientError

from infra import aws, doc_bytes
from infra.ports import (
    UPDATE_MARKER_PREFIX,
    UPDATE_MARKER_TTL_SECONDS,
    Clock,
    Delete,
    DuplicateUpdate,
    Put,
    StoreStats,
    VersionConflict,
    Versioned,
    check_writes,
    expires_at,
    is_live,
)
from infra.timers import SystemClock

if TYPE_CHECKING:
    from mypy_boto3_dynamodb.client import DynamoDBClient
    from mypy_boto3_dynamodb.type_defs import TransactWriteItemTypeDef

_BATCH_GET_LIMIT = 100
# Reason codes after which the same transaction may simply be sent again ("None" = item was fine).
# botocore retries requests (infra.aws.POLICY); a transaction DynamoDB cancelled because another
# one touched the same items, or throttled, is built and sent again here (new token, new ``now``),
# each request held to the invocation's time by the client.
_RETRYABLE = {"None", "TransactionConflict", "ThrottlingError", "ProvisionedThroughputExceeded"}
_ABSENT = "attribute_not_exists(pk) OR #ttl <= :now"
_AT_VERSION = "#version = :v AND (attribute_not_exists(#ttl) OR #ttl > :now)"


def marker_key(update_id: int) -> str:
    return f"{UPDATE_MARKER_PREFIX}{update_id}"


class DynamoStore:
    def __init__(
        self,
        table_name: str,
        client: DynamoDBClient | None = None,
        clock: Clock | None = None,
        max_attempts: int = 3,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.table_name = table_name
        self.stats = StoreStats()
        self.clock: Clock = clock or SystemClock()
        self._client = client
        self._max_attempts = max_attempts
        self._sleep = sleep
        self._lock = threading.Lock()  # guards lazy client creation and stats

    @property
    def client(self) -> DynamoDBClient:
        if self._client is None:
            with self._lock:
                if self._client is None:
                    self._client = aws.client("dynamodb")  # the container's, made on first use
        return self._client

    def get(self, key: str) -> Versioned | None:
        self._record(reads=1)
        response = self.client.get_item(
            TableName=self.table_name, Key={"pk": {"S": key}}, ConsistentRead=True
        )
        return self._versioned(response.get("Item"))

    def get_many(self, keys: Sequence[str]) -> dict[str, Versioned]:
        pending: list[dict[str, Any]] = [{"pk": {"S": key}} for key in dict.fromkeys(keys)]
        found: dict[str, Versioned] = {}
        attempt = 0
        while pending:
            batch, pending = pending[:_BATCH_GET_LIMIT], pending[_BATCH_GET_LIMIT:]
            self._record(reads=1)
            response = self.client.batch_get_item(
                RequestItems={self.table_name: {"Keys": batch, "ConsistentRead": True}}
            )
            for item in response.get("Responses", {}).get(self.table_name, []):
                if (doc := self._versioned(item)) is not None:
                    found[doc.key] = doc
            unprocessed = response.get("UnprocessedKeys", {}).get(self.table_name)
            if unprocessed:
                attempt += 1
                if attempt >= self._max_attempts * 2:
                    raise RuntimeError("BatchGetItem kept returning unprocessed keys")
                pending = list(unprocessed["Keys"]) + pending
                self._backoff(attempt)
        return found

    def seen_update(self, update_id: int) -> bool:
        self._record(reads=1)
        response = self.client.get_item(
            TableName=self.table_name,
            Key={"pk": {"S": marker_key(update_id)}},
            ConsistentRead=True,
        )
        item = response.get("Item")
        return item is not None and is_live(_ttl(item), self.clock.now())

    def commit(
        self, writes: Sequence[Put | Delete], update_id: int | None = None
    ) -> dict[str, int]:
        check_writes(writes)
        if not writes and update_id is None:
            return {}
        bodies = {w.key: doc_bytes.encode(w.doc) for w in writes if isinstance(w, Put)}
        for attempt in range(1, self._max_attempts + 1):
            items = self._transaction(writes, bodies, update_id, self.clock.now())
            self._record(writes=1)
            try:
                self.client.transact_write_items(TransactItems=items)
            except ClientError as exc:
                reasons = cancellation_reasons(exc)
                if reasons is not None and len(reasons) != len(items):
                    reasons = None
                if reasons is None:
                    raise
                if update_id is not None and reasons[-1] == "ConditionalCheckFailed":
                    raise DuplicateUpdate(update_id) from exc
                for write, reason in zip(writes, reasons, strict=False):
                    if reason == "ConditionalCheckFailed":
                        raise VersionConflict(write.key) from exc
                if not set(reasons) <= _RETRYABLE:
                    raise
                if attempt == self._max_attempts:
                    # Other transactions kept touching these items: a concurrent writer.
                    raise VersionConflict(writes[0].key if writes else "") from exc
                self._record(transaction_retries=1)
                self._backoff(attempt)
            else:
                self._record(bytes_written=sum(len(body) for body in bodies.values()))
                return {w.key: (w.expected_version or 0) + 1 for w in writes if isinstance(w, Put)}
        raise AssertionError("unreachable: the last attempt returns or raises")

    def _transaction(
        self,
        writes: Sequence[Put | Delete],
        bodies: dict[str, bytes],
        update_id: int | None,
        now: float,
    ) -> list[TransactWriteItemTypeDef]:
        table = self.table_name
        items: list[Any] = []
        for write in writes:
            if isinstance(write, Delete):
                key = {"pk": {"S": write.key}}
                items.append(
                    {"Delete": {"TableName": table, "Key": key, **_at_version(write, now)}}
                )
                continue
            item: dict[str, Any] = {
                "pk": {"S": write.key},
                "version": {"N": str((write.expected_version or 0) + 1)},
                "body": {"B": bodies[write.key]},
            }
            if write.ttl_seconds is not None:
                item["ttl"] = {"N": str(expires_at(now, write.ttl_seconds))}
            condition = _absent(now) if write.expected_version is None else _at_version(write, now)
            items.append({"Put": {"TableName": table, "Item": item, **condition}})
        if update_id is not None:
            marker = {
                "pk": {"S": marker_key(update_id)},
                "ttl": {"N": str(expires_at(now, UPDATE_MARKER_TTL_SECONDS))},
            }
            items.append({"Put": {"TableName": table, "Item": marker, **_absent(now)}})
        return items

    def _versioned(self, item: dict[str, Any] | None) -> Versioned | None:
        if item is None or not is_live(_ttl(item), self.clock.now()):
            return None
        return Versioned(
            item["pk"]["S"], int(item["version"]["N"]), doc_bytes.decode(item["body"]["B"])
        )

    def _record(self, reads: int = 0, writes: int = 0, **extra: int) -> None:
        with self._lock:
            self.stats.reads += reads
            self.stats.writes += writes
            for name, amount in extra.items():
                self.stats.count(name, amount)

    def _backoff(self, attempt: int) -> None:
        self._sleep(random.uniform(0, 0.02 * 2**attempt))


def cancellation_reasons(error: ClientError) -> list[str] | None:
    """A cancelled transaction's reason code per item (``"None"``: that item was fine)."""
    if error.response.get("Error", {}).get("Code") != "TransactionCanceledException":
        return None
    reasons: Any = error.response.get("CancellationReasons")
    if not isinstance(reasons, list):
        return None
    return [str(r.get("Code") or "None") if isinstance(r, dict) else "None" for r in reasons]


def _ttl(item: dict[str, Any]) -> int | None:
    ttl = item.get("ttl")
    return None if ttl is None else int(ttl["N"])


def _absent(now: float) -> dict[str, Any]:
    return {
        "ConditionExpression": _ABSENT,
        "ExpressionAttributeNames": {"#ttl": "ttl"},
        "ExpressionAttributeValues": {":now": {"N": str(int(now))}},
    }


def _at_version(write: Put | Delete, now: float) -> dict[str, Any]:
    return {
        "ConditionExpression": _AT_VERSION,
        "ExpressionAttributeNames": {"#version": "version", "#ttl": "ttl"},
        "ExpressionAttributeValues": {
            ":v": {"N": str(write.expected_version)},
            ":now": {"N": str(int(now))},
        },
    }
