"""Fake AWS credentials and a moto-backed game table shared by the integration tests.

The stores, timers and secrets talk to AWS through the container's botocore clients
(``infra.aws``), over HTTP to moto's server (one per test process, names unique per test),
reached the standard way (``AWS_ENDPOINT_URL``), so every request is signed, sent and parsed as
in Lambda. Tests set up and inspect through boto3 on the same server.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import TYPE_CHECKING

import boto3
import pytest
from moto.server import ThreadedMotoServer

from devtools.moto_serial import OneRequestAtATime

if TYPE_CHECKING:
    from mypy_boto3_dynamodb.client import DynamoDBClient

REGION = "eu-central-1"


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


def unique(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:12]}"


def create_game_table(client: DynamoDBClient, name: str | None = None) -> str:
    """The table template.yaml declares: on-demand, string key ``pk``, TTL on ``ttl``."""
    name = name or unique("games")
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


@pytest.fixture(scope="session")
def moto_endpoint() -> Iterator[str]:
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    wsgi = server._server
    assert wsgi is not None
    wsgi.app = OneRequestAtATime(wsgi.app)
    host, port = server.get_host_and_port()
    try:
        yield f"http://{host}:{port}"
    finally:
        server.stop()


@pytest.fixture
def moto_server(aws_env: None, moto_endpoint: str, monkeypatch: pytest.MonkeyPatch) -> str:
    """moto's server as every AWS service, for the container's clients and boto3's alike."""
    monkeypatch.setenv("AWS_ENDPOINT_URL", moto_endpoint)
    return moto_endpoint


@pytest.fixture
def dynamodb(moto_server: str) -> DynamoDBClient:
    return boto3.client("dynamodb")


@pytest.fixture
def game_table(dynamodb: DynamoDBClient) -> str:
    return create_game_table(dynamodb)
