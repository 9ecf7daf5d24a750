"""infra.aws_json: Signature V4 as botocore signs, the standard retry mode, errors, endpoints.

botocore (a dev dependency) is the oracle for the signatures; the Lambda path never imports it.
"""

from __future__ import annotations

import base64
import datetime
import json
import threading
from collections.abc import Iterator, Mapping
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import botocore.auth
import pytest
from botocore.awsrequest import AWSRequest
from botocore.credentials import Credentials as BotoCredentials

from infra import aws_json
from infra.aws_json import (
    DYNAMODB,
    SECRETS_MANAGER,
    SQS,
    AwsError,
    Credentials,
    DynamoDB,
    JsonClient,
    Sqs,
)

NOW = datetime.datetime(2026, 12, 1, 6, 30, 5, tzinfo=datetime.UTC)
KEYS = Credentials("AKIDEXAMPLE", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY")
SESSION = Credentials("ASIAEXAMPLE", "c2VjcmV0", "FQoGZXIvYXdzEJr//////////wEaDNgD+token=")

SIGNED_REQUESTS = [
    pytest.param(
        "POST",
        "https://dynamodb.eu-central-1.amazonaws.com/",
        {"Content-Type": "application/x-amz-json-1.0", "X-Amz-Target": "DynamoDB_20120810.GetItem"},
        b'{"TableName":"games","Key":{"pk":{"S":"GAME#1"}},"ConsistentRead":true}',
        KEYS,
        "eu-central-1",
        "dynamodb",
        id="dynamodb-get-item",
    ),
    pytest.param(
        "POST",
        "https://sqs.us-east-1.amazonaws.com/",
        {"Content-Type": "application/x-amz-json-1.0", "X-Amz-Target": "AmazonSQS.SendMessage"},
        json.dumps({"QueueUrl": "https://sqs/1/t", "MessageBody": "{}"}).encode(),
        SESSION,
        "us-east-1",
        "sqs",
        id="sqs-session-token",
    ),
    pytest.param(
        "GET",
        "https://secretsmanager.eu-west-1.amazonaws.com/a/./b//../c/?b=2&a=%2F&a=1&empty=",
        {"X-Amz-Target": "secretsmanager.GetSecretValue", "X-Custom": "  two   spaces  "},
        b"",
        SESSION,
        "eu-west-1",
        "secretsmanager",
        id="query-string-path-and-spaces",
    ),
    pytest.param(
        "POST",
        "http://127.0.0.1:4566/",
        {"Content-Type": "application/x-amz-json-1.1", "User-Agent": "not signed"},
        "ünïcode body".encode(),
        KEYS,
        "cn-north-1",
        "secretsmanager",
        id="local-endpoint-port",
    ),
]


@pytest.mark.parametrize(
    ("method", "url", "headers", "body", "credentials", "region", "service"), SIGNED_REQUESTS
)
def test_signature_equals_botocores(
    monkeypatch: pytest.MonkeyPatch,
    method: str,
    url: str,
    headers: dict[str, str],
    body: bytes,
    credentials: Credentials,
    region: str,
    service: str,
) -> None:
    monkeypatch.setattr(botocore.auth, "get_current_datetime", lambda: NOW.replace(tzinfo=None))
    expected = AWSRequest(method=method, url=url, headers=dict(headers), data=body)
    boto_credentials = BotoCredentials(*credentials)
    botocore.auth.SigV4Auth(boto_credentials, service, region).add_auth(expected)

    signed = aws_json.sign(
        method, url, headers, body, credentials, region, service, NOW.timestamp()
    )

    assert signed["Authorization"] == expected.headers["Authorization"]
    assert signed["X-Amz-Date"] == expected.headers["X-Amz-Date"] == "20261201T063005Z"
    assert signed.get("X-Amz-Security-Token") == expected.headers.get("X-Amz-Security-Token")
    assert "user-agent" not in signed["Authorization"]


def test_signature_matches_the_published_get_vanilla_example() -> None:
    """AWS's Signature V4 test suite, "get-vanilla" (independent of botocore)."""
    moment = datetime.datetime(2015, 8, 30, 12, 36, tzinfo=datetime.UTC).timestamp()
    signed = aws_json.sign(
        "GET", "https://example.amazonaws.com/", {}, b"", KEYS, "us-east-1", "service", moment
    )
    assert signed["Authorization"] == (
        "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, "
        "SignedHeaders=host;x-amz-date, "
        "Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31"
    )


# --- where and as whom ----------------------------------------------------------------------


def test_endpoints_resolve_the_standard_way() -> None:
    region = "eu-central-1"
    assert aws_json.endpoint_url("DynamoDB", "dynamodb", region, {}) == (
        "https://dynamodb.eu-central-1.amazonaws.com"
    )
    assert aws_json.endpoint_url("SQS", "sqs", "cn-north-1", {}) == (
        "https://sqs.cn-north-1.amazonaws.com.cn"
    )
    everywhere = {"AWS_ENDPOINT_URL": "http://localhost:4566"}
    assert aws_json.endpoint_url("SQS", "sqs", region, everywhere) == "http://localhost:4566"
    own = {**everywhere, "AWS_ENDPOINT_URL_SECRETS_MANAGER": "http://sm:1"}
    assert aws_json.endpoint_url("Secrets Manager", "secretsmanager", region, own) == "http://sm:1"
    assert aws_json.endpoint_url("DynamoDB", "dynamodb", region, own) == "http://localhost:4566"
    ignored = {**own, "AWS_IGNORE_CONFIGURED_ENDPOINT_URLS": "true"}
    assert aws_json.endpoint_url("SQS", "sqs", region, ignored).startswith("https://sqs.")


def test_region_from_aws_region_then_default_region() -> None:
    both = {"AWS_REGION": "eu-west-3", "AWS_DEFAULT_REGION": "us-east-1"}
    assert aws_json.region_name(both) == "eu-west-3"
    assert aws_json.region_name({"AWS_DEFAULT_REGION": "us-east-1"}) == "us-east-1"


def test_lambda_credentials_come_from_the_environment() -> None:
    environ = {
        "AWS_ACCESS_KEY_ID": "ASIA1",
        "AWS_SECRET_ACCESS_KEY": "s",
        "AWS_SESSION_TOKEN": "t",
    }
    assert aws_json.credential_source(environ)() == Credentials("ASIA1", "s", "t")
    assert aws_json.env_credentials({"AWS_ACCESS_KEY_ID": "A"}) is None


def test_without_environment_credentials_botocores_chain_is_asked(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    for name in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_PROFILE"):
        monkeypatch.delenv(name, raising=False)
    shared = tmp_path / "credentials"
    shared.write_text("[default]\naws_access_key_id = AKIDFILE\naws_secret_access_key = sk\n")
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", str(shared))
    monkeypatch.setenv("AWS_CONFIG_FILE", str(tmp_path / "none"))
    assert aws_json.credential_source({})() == Credentials("AKIDFILE", "sk", None)


# --- answers, errors, retries ---------------------------------------------------------------


class FakeAws:
    """A transport that answers from a script: (status, body) pairs or exceptions."""

    def __init__(self, *answers: tuple[int, Any] | AwsError) -> None:
        self.answers = list(answers)
        self.requests: list[tuple[str, dict[str, str], bytes]] = []

    def __call__(
        self, url: str, headers: dict[str, str], body: bytes
    ) -> tuple[int, Mapping[str, str], bytes]:
        self.requests.append((url, headers, body))
        answer = self.answers.pop(0)
        if isinstance(answer, AwsError):
            raise answer
        status, payload = answer
        return status, {}, json.dumps(payload).encode()


def client_on(fake: FakeAws, sleeps: list[float], protocol: Any = DYNAMODB) -> JsonClient:
    return JsonClient(
        protocol,
        region="eu-central-1",
        credentials=lambda: SESSION,
        transport=fake,
        sleep=sleeps.append,
    )


THROTTLED = (
    400,
    {"__type": "com.amazonaws.dynamodb.v20120810#ThrottlingException", "message": "slow"},
)


def test_throttling_is_retried_with_jittered_exponential_backoff() -> None:
    fake, sleeps = FakeAws(THROTTLED, (503, {}), (200, {"Item": {"pk": {"S": "a"}}})), []
    client = client_on(fake, sleeps)

    assert DynamoDB(client).get_item(TableName="t", Key={}) == {"Item": {"pk": {"S": "a"}}}
    assert len(fake.requests) == 3 and client.retries == 2
    assert 0 <= sleeps[0] <= 1 and 0 <= sleeps[1] <= 2
    url, headers, body = fake.requests[0]
    assert url == "https://dynamodb.eu-central-1.amazonaws.com/"
    assert headers["X-Amz-Target"] == "DynamoDB_20120810.GetItem"
    assert headers["X-Amz-Security-Token"] == SESSION.token
    assert json.loads(body) == {"TableName": "t", "Key": {}}


def test_three_attempts_at_most_then_the_error() -> None:
    fake, sleeps = FakeAws(THROTTLED, THROTTLED, THROTTLED, (200, {})), []
    with pytest.raises(AwsError) as raised:
        client_on(fake, sleeps).call("GetItem", {})
    assert (raised.value.code, raised.value.message, raised.value.status) == (
        "ThrottlingException",
        "slow",
        400,
    )
    assert len(fake.requests) == 3 and len(sleeps) == 2


def test_connection_errors_are_retried() -> None:
    lost = AwsError("POST", aws_json.UNREACHABLE, "ReadTimeoutError")
    fake, sleeps = FakeAws(lost, (200, {"MessageId": "m"})), []
    assert Sqs(client_on(fake, sleeps, SQS)).send_message(QueueUrl="q", MessageBody="b") == {
        "MessageId": "m"
    }
    assert len(fake.requests) == 2


def test_a_failed_condition_is_never_retried() -> None:
    failed = (
        400,
        {
            "__type": "com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException",
            "message": "The conditional request failed",
        },
    )
    fake, sleeps = FakeAws(failed, (200, {})), []
    with pytest.raises(AwsError) as raised:
        client_on(fake, sleeps).call("PutItem", {})
    assert raised.value.code == "ConditionalCheckFailedException"
    assert len(fake.requests) == 1 and sleeps == []


def test_a_cancelled_transaction_is_never_retried_and_carries_its_reasons() -> None:
    cancelled = (
        400,
        {
            "__type": "com.amazonaws.dynamodb.v20120810#TransactionCanceledException",
            "Message": "Transaction cancelled [None, ConditionalCheckFailed]",
            "CancellationReasons": [{"Code": "None"}, {"Code": "ConditionalCheckFailed"}],
        },
    )
    fake, sleeps = FakeAws(cancelled), []
    with pytest.raises(AwsError) as raised:
        DynamoDB(client_on(fake, sleeps)).transact_write_items(TransactItems=[{}, {}])
    assert raised.value.cancellation_reasons == ["None", "ConditionalCheckFailed"]
    assert raised.value.message.startswith("Transaction cancelled")
    assert len(fake.requests) == 1


def test_a_transaction_keeps_one_idempotency_token_across_retries() -> None:
    fake, sleeps = FakeAws((500, {}), (200, {})), []
    DynamoDB(client_on(fake, sleeps)).transact_write_items(TransactItems=[])
    tokens = {json.loads(body)["ClientRequestToken"] for _, _, body in fake.requests}
    assert len(fake.requests) == 2 and len(tokens) == 1
    fake.answers.append((200, {}))
    DynamoDB(client_on(fake, sleeps)).transact_write_items(TransactItems=[])
    assert json.loads(fake.requests[-1][2])["ClientRequestToken"] not in tokens


def test_sqs_error_codes_are_the_query_protocols() -> None:
    error = aws_json.error_from(
        "SendMessage",
        400,
        {"x-amzn-query-error": "AWS.SimpleQueueService.NonExistentQueue;Sender"},
        b'{"__type": "com.amazonaws.sqs#QueueDoesNotExist", "message": "no queue"}',
    )
    assert (error.code, error.message) == ("AWS.SimpleQueueService.NonExistentQueue", "no queue")
    unreadable = aws_json.error_from("GetSecretValue", 502, {}, b"<html>bad gateway</html>")
    assert (unreadable.code, unreadable.retryable) == ("HTTP502", True)


def test_binary_attributes_travel_as_base64_and_come_back_as_bytes() -> None:
    stored = base64.b64encode(b"\x00\xffdoc").decode()
    item = {"pk": {"S": "B"}, "body": {"B": stored}, "m": {"M": {"B": {"BS": [stored]}}}}
    fake, sleeps = FakeAws((200, {"Item": item})), []
    answer = DynamoDB(client_on(fake, sleeps)).get_item(Key={"body": {"B": b"\x01bytes"}})
    assert (
        json.loads(fake.requests[0][2])["Key"]["body"]["B"]
        == base64.b64encode(b"\x01bytes").decode()
    )
    assert answer["Item"] == {
        "pk": {"S": "B"},
        "body": {"B": b"\x00\xffdoc"},
        "m": {"M": {"B": {"BS": [b"\x00\xffdoc"]}}},
    }


def test_secrets_manager_speaks_json_1_1() -> None:
    fake, sleeps = FakeAws((200, {"SecretString": "s"})), []
    client = client_on(fake, sleeps, SECRETS_MANAGER)
    assert aws_json.SecretsManager(client).get_secret_value(SecretId="arn") == {"SecretString": "s"}
    headers = fake.requests[0][1]
    assert headers["Content-Type"] == "application/x-amz-json-1.1"
    assert headers["X-Amz-Target"] == "secretsmanager.GetSecretValue"


# --- over a socket ----------------------------------------------------------------------------


class ThrottlingServer(ThreadingHTTPServer):
    """Answers ``throttles`` requests with DynamoDB's throttling error, then a GetItem result."""

    def __init__(self, throttles: int) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.throttles = throttles
        self.seen: list[dict[str, str]] = []


class _Handler(BaseHTTPRequestHandler):
    server: ThrottlingServer

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers["Content-Length"]))
        self.server.seen.append(dict(self.headers))
        if self.server.throttles > 0:
            self.server.throttles -= 1
            status, body = 400, {"__type": "x#ProvisionedThroughputExceededException"}
        else:
            status, body = 200, {"Item": {"pk": {"S": "GAME#1"}}}
        raw = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/x-amz-json-1.0")
        self.send_header("Content-Length", str(len(raw)))
        self.end_headers()
        self.wfile.write(raw)

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def throttling_server() -> Iterator[ThrottlingServer]:
    server = ThrottlingServer(throttles=2)
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


def test_throttling_answers_over_http_are_retried(throttling_server: ThrottlingServer) -> None:
    host, port = throttling_server.server_address[:2]
    sleeps: list[float] = []
    client = JsonClient(
        DYNAMODB,
        region="eu-central-1",
        endpoint=f"http://{host!s}:{port}",
        credentials=lambda: KEYS,
        sleep=sleeps.append,
    )
    assert DynamoDB(client).get_item(TableName="t", Key={}) == {"Item": {"pk": {"S": "GAME#1"}}}
    assert len(throttling_server.seen) == 3 and len(sleeps) == 2
    assert throttling_server.seen[0]["Host"] == f"{host!s}:{port}"
    assert throttling_server.seen[0]["Authorization"].startswith("AWS4-HMAC-SHA256 Credential=")


def test_an_unreachable_endpoint_is_tried_three_times() -> None:
    with ThreadingHTTPServer(("127.0.0.1", 0), _Handler) as closed:
        port = closed.server_address[1]  # bound, then closed: nothing listens there
    sleeps: list[float] = []
    client = JsonClient(
        SQS,
        region="eu-central-1",
        endpoint=f"http://127.0.0.1:{port}",
        credentials=lambda: KEYS,
        sleep=sleeps.append,
    )
    with pytest.raises(AwsError) as raised:
        Sqs(client).send_message(QueueUrl="q", MessageBody="b")
    assert raised.value.code == aws_json.UNREACHABLE and raised.value.retryable
    assert len(sleeps) == 2
