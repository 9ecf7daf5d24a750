"""The container's botocore clients (infra.aws) against moto's server: what DynamoDB, SQS and
Secrets Manager answer, as the stores, timers and secrets read them (the store contract and the
timers run on them too)."""

from __future__ import annotations

import boto3
import pytest
from botocore.exceptions import ClientError

from infra import aws
from infra.bot_secrets import SecretSource
from infra.dynamo_store import DynamoStore, cancellation_reasons
from infra.ports import Put, VersionConflict
from infra.settings import Settings

from .conftest import unique


def put(table: str, key: str, condition: str | None = None) -> dict[str, object]:
    item: dict[str, object] = {"TableName": table, "Item": {"pk": {"S": key}}}
    if condition:
        item["ConditionExpression"] = condition
    return {"Put": item}


def test_a_cancelled_transaction_names_the_item_that_failed(game_table: str) -> None:
    client = aws.client("dynamodb")
    client.transact_write_items(TransactItems=[put(game_table, "GAME#taken")])
    absent = "attribute_not_exists(pk)"
    with pytest.raises(ClientError) as raised:
        client.transact_write_items(
            TransactItems=[
                put(game_table, "GAME#new", absent),
                put(game_table, "GAME#taken", absent),
                put(game_table, "CHAT#new", absent),
            ]
        )
    assert raised.value.response["Error"]["Code"] == "TransactionCanceledException"
    assert cancellation_reasons(raised.value) == ["None", "ConditionalCheckFailed", "None"]
    assert "Item" not in client.get_item(TableName=game_table, Key={"pk": {"S": "GAME#new"}})


def test_a_version_conflict_through_the_store_names_its_key(game_table: str) -> None:
    first, second = DynamoStore(game_table), DynamoStore(game_table)
    first.commit([Put("CHAT#1", {"n": 0}, None), Put("GAME#1", {"n": 0}, None)])
    second.commit([Put("GAME#1", {"n": 1}, 1)])
    with pytest.raises(VersionConflict) as raised:
        first.commit([Put("CHAT#1", {"n": 1}, 1), Put("GAME#1", {"n": 1}, 1)])
    assert raised.value.args[0] == "GAME#1"
    chat = first.get("CHAT#1")
    assert chat is not None and chat.version == 1  # nothing of the batch was written


def test_a_batch_get_past_dynamodbs_hundred_keys(game_table: str) -> None:
    store = DynamoStore(game_table)
    keys = [f"USER#{n}" for n in range(130)]
    for start in range(0, len(keys), 25):  # a transaction holds at most 100 items
        store.commit([Put(key, {"k": key}, None) for key in keys[start : start + 25]])
    found = store.get_many([*keys, "USER#missing"])
    assert sorted(found) == sorted(keys)
    assert found["USER#129"].doc == {"k": "USER#129"}
    assert store.stats.reads == 2  # two BatchGetItem requests


def test_an_unknown_table_is_refused_at_once_with_its_code(moto_server: str) -> None:
    client = aws.client("dynamodb")
    with pytest.raises(ClientError) as raised:
        client.get_item(TableName=unique("missing"), Key={"pk": {"S": "x"}})
    assert raised.value.response["Error"]["Code"] == "ResourceNotFoundException"
    assert raised.value.response["ResponseMetadata"]["RetryAttempts"] == 0


def test_a_timer_message_sent_is_held_by_the_queue(moto_server: str) -> None:
    sqs = boto3.client("sqs")
    queue_url = sqs.create_queue(QueueName=unique("timers"))["QueueUrl"]
    timers = aws.client("sqs")
    timers.send_message(QueueUrl=queue_url, MessageBody='{"game":"GAME#1"}', DelaySeconds=0)
    messages = sqs.receive_message(QueueUrl=queue_url, MaxNumberOfMessages=10)["Messages"]
    assert [m["Body"] for m in messages] == ['{"game":"GAME#1"}']
    with pytest.raises(ClientError) as raised:
        timers.send_message(QueueUrl=queue_url + "-gone", MessageBody="x")
    assert raised.value.response["Error"]["Code"] in (
        "AWS.SimpleQueueService.NonExistentQueue",
        "QueueDoesNotExist",
    )


def test_the_bot_secrets_are_read_from_secrets_manager(
    moto_server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    secrets = boto3.client("secretsmanager")
    token = secrets.create_secret(Name=unique("token"), SecretString="123:token\n")["ARN"]
    hook = secrets.create_secret(Name=unique("hook"), SecretString="w" * 40)["ARN"]
    monkeypatch.setenv("BOT_TOKEN_SECRET_ARN", token)
    monkeypatch.setenv("WEBHOOK_SECRET_ARN", hook)
    read = SecretSource(Settings()).get()
    assert (read.token, read.webhook_secret) == ("123:token", "w" * 40)


def test_the_container_keeps_one_client_per_service(moto_server: str) -> None:
    """Made once per container: the second update reuses the first one's connections."""
    assert aws.client("dynamodb") is aws.client("dynamodb")
    assert aws.client("sqs") is not aws.client("dynamodb")
    config = aws.client("dynamodb").meta.config
    assert (config.connect_timeout, config.read_timeout) == (
        aws.POLICY.connect_timeout,
        aws.POLICY.read_timeout,
    )
    assert config.retries["mode"] == "standard"
