"""Fake AWS credentials and a moto-backed game table shared by the integration tests."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import boto3
import pytest
from moto import mock_aws

if TYPE_CHECKING:
    from mypy_boto3_dynamodb.client import DynamoDBClient

REGION = "eu-central-1"
TABLE = "games"


@pytest.fixture
def aws_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """Credentials that can only ever reach moto, whatever the developer's machine has set."""
    for name in (
        "AWS_PROFILE",
        "AWS_ENDPOINT_URL",
        "AWS_ENDPOINT_URL_DYNAMODB",
        "AWS_ENDPOINT_URL_SQS",
    ):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "testing")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "testing")
    monkeypatch.setenv("AWS_SESSION_TOKEN", "testing")
    monkeypatch.setenv("AWS_DEFAULT_REGION", REGION)
    monkeypatch.setenv("AWS_REGION", REGION)
    monkeypatch.setenv("AWS_CONFIG_FILE", "/dev/null")
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", "/dev/null")


def create_game_table(client: DynamoDBClient, name: str = TABLE) -> str:
    """The table template.yaml declares: on-demand, string key ``pk``, TTL on ``ttl``."""
    client.create_table(
        TableName=name,
        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
        BillingMode="PAY_PER_REQUEST",
    )
    client.get_waiter("table_exists").wait(TableName=name)
    client.update_time_to_live(
        TableName=name, TimeToLiveSpecification={"Enabled": True, "AttributeName": "ttl"}
    )
    return name


@pytest.fixture
def mocked_aws(aws_env: None) -> Iterator[None]:
    with mock_aws():
        yield


@pytest.fixture
def dynamodb(mocked_aws: None) -> DynamoDBClient:
    return boto3.client("dynamodb")


@pytest.fixture
def game_table(dynamodb: DynamoDBClient) -> str:
    return create_game_table(dynamodb)
