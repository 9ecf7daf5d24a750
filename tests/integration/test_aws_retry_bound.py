"""The retry policy of every AWS call (infra.aws.POLICY) against an AWS that answers slowly and
throttles: botocore's standard retries, held to the invocation's remaining time, so an update
is never kept past the function's timeout; a transaction's idempotency token kept across the
retries of one call.

The slow AWS is moto's server behind a botocore ``before-send`` hook that moves a fake clock
by each answer's delay and answers some requests itself with DynamoDB's throttling error;
botocore's pauses between retries move the same clock. Nothing sleeps.
"""

from __future__ import annotations

import json
import math
import types
from collections.abc import Iterator
from typing import Any

import botocore.endpoint
import botocore.session
import pytest
from botocore.awsrequest import AWSResponse
from botocore.config import Config
from botocore.exceptions import ClientError

from devtools.botapi.messenger import EmulatedMessenger
from devtools.fakes import FakeClock, FakeTimers
from handlers.app import CoachRideBot
from infra import aws
from infra.dynamo_store import DynamoStore
from infra.ports import OutOfTime, Put, deadline_scope

FUNCTION_TIMEOUT = 30.0  # template.yaml's webhook timeout
THROTTLED = {
    "__type": "com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException",
    "message": "The level of configured provisioned throughput for the table was exceeded.",
}


class _Body:
    def __init__(self, data: bytes) -> None:
        self.data = data

    def stream(self, **_: Any) -> Iterator[bytes]:
        yield self.data


class SlowThrottlingAws:
    """Each answer takes ``answer_seconds`` of the fake clock; of every ``period`` requests all
    but the last are throttled, the last goes on to moto."""

    def __init__(self, clock: FakeClock, answer_seconds: float = 2.5, period: int = 4) -> None:
        self.clock = clock
        self.answer_seconds = answer_seconds
        self.period = period
        self.requests: list[dict[str, Any]] = []

    def attach(self, client: Any) -> Any:
        client.meta.events.register("before-send.dynamodb", self.before_send)
        return client

    def before_send(self, request: Any, **_: Any) -> AWSResponse | None:
        self.clock.advance(self.answer_seconds)
        target = request.headers.get("X-Amz-Target", b"")
        body = json.loads(request.body or b"{}")
        self.requests.append({"target": target, "body": body})
        if len(self.requests) % self.period:
            raw = json.dumps(THROTTLED).encode()
            headers = {"Content-Type": "application/x-amz-json-1.0"}
            return AWSResponse(request.url, 400, headers, _Body(raw))
        return None  # moto answers


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> FakeClock:
    fake = FakeClock()
    # botocore's pause between retries moves the fake clock instead of sleeping
    monkeypatch.setattr(botocore.endpoint, "time", types.SimpleNamespace(sleep=fake.advance))
    return fake


def bounded_client() -> Any:
    return aws.new_client(botocore.session.get_session(), "dynamodb", None, aws.POLICY)


def unbounded_client() -> Any:
    """botocore's standard mode as it comes: attempts and pauses, no deadline."""
    config = Config(
        connect_timeout=aws.POLICY.connect_timeout,
        read_timeout=aws.POLICY.read_timeout,
        retries={"mode": "standard", "total_max_attempts": aws.POLICY.attempts("dynamodb")},
    )
    return botocore.session.get_session().create_client("dynamodb", config=config)


def new_game_update(update_id: int = 1) -> dict[str, Any]:
    return {
        "update_id": update_id,
        "message": {
            "message_id": 1,
            "date": 0,
            "chat": {"id": -1001, "type": "supergroup"},
            "from": {"id": 101, "is_bot": False, "first_name": "P", "language_code": "en"},
            "text": "/newgame",
        },
    }


def handle_one_update(table: str, client: Any, clock: FakeClock) -> float:
    """Seconds of the fake clock one /newgame update took, from the webhook's start."""
    store = DynamoStore(table, client=client, clock=clock, sleep=clock.advance)
    bot = CoachRideBot(
        store, EmulatedMessenger(), FakeTimers(), clock, bot_username="b", sleep=clock.advance
    )
    started = clock.now()
    bot.handle_update(new_game_update(), seconds_left=FUNCTION_TIMEOUT)
    return clock.now() - started


def test_a_slow_throttling_aws_never_keeps_an_update_past_the_function_timeout(
    game_table: str, clock: FakeClock
) -> None:
    unbounded = SlowThrottlingAws(clock)
    overrun = handle_one_update(game_table, unbounded.attach(unbounded_client()), clock)
    assert overrun > FUNCTION_TIMEOUT  # the same AWS without the bound: the Lambda is killed

    aws_ = SlowThrottlingAws(clock)
    took = handle_one_update(game_table, aws_.attach(bounded_client()), clock)
    assert took <= FUNCTION_TIMEOUT - aws.POLICY.margin
    assert len(aws_.requests) > 4  # retried, within the time


def test_a_call_that_cannot_fit_one_attempt_is_not_sent(game_table: str, clock: FakeClock) -> None:
    aws_ = SlowThrottlingAws(clock)
    store = DynamoStore(game_table, client=aws_.attach(bounded_client()), clock=clock)
    left = aws.POLICY.attempt_seconds + aws.POLICY.margin - 0.1
    with deadline_scope(clock.now() + left, clock), pytest.raises(OutOfTime):
        store.get("GAME#1")
    assert aws_.requests == []


def test_retries_stop_when_the_next_would_not_fit(game_table: str, clock: FakeClock) -> None:
    aws_ = SlowThrottlingAws(clock, period=1000)  # throttles everything
    store = DynamoStore(game_table, client=aws_.attach(bounded_client()), clock=clock)
    deadline = clock.now() + 9.0
    with deadline_scope(deadline, clock), pytest.raises(ClientError) as raised:
        store.get("GAME#1")
    assert raised.value.response["Error"]["Code"] == "ProvisionedThroughputExceededException"
    assert 2 <= len(aws_.requests) < aws.POLICY.attempts("dynamodb")
    assert clock.now() <= deadline - aws.POLICY.margin


def test_outside_an_invocation_the_standard_attempts_apply(
    game_table: str, clock: FakeClock
) -> None:
    aws_ = SlowThrottlingAws(clock, answer_seconds=0.0, period=1000)
    with pytest.raises(ClientError):
        aws_.attach(bounded_client()).get_item(TableName=game_table, Key={"pk": {"S": "x"}})
    assert len(aws_.requests) == aws.POLICY.attempts("dynamodb") == 4


def test_a_transactions_token_is_kept_across_its_retries(game_table: str, clock: FakeClock) -> None:
    aws_ = SlowThrottlingAws(clock, answer_seconds=0.1, period=3)  # two throttled, then moto
    store = DynamoStore(game_table, client=aws_.attach(bounded_client()), clock=clock)
    with deadline_scope(clock.now() + FUNCTION_TIMEOUT, clock):
        store.commit([Put("GAME#1", {"n": 0}, None)], update_id=7)
        store.commit([Put("GAME#1", {"n": 1}, 1)], update_id=8)
    tokens = [r["body"]["ClientRequestToken"] for r in aws_.requests if "Transact" in str(r)]
    assert len(tokens) == 6
    assert len(set(tokens[:3])) == 1 and len(set(tokens[3:])) == 1  # one per call, kept
    assert tokens[0] != tokens[3]


def test_the_policy_fits_the_function_timeout() -> None:
    """One call at its worst (every attempt at its timeouts, the longest pauses) fits the
    call budget a call outside an invocation gets, and the budget fits the timeout."""
    policy = aws.POLICY
    attempts = policy.attempts("dynamodb")
    assert policy.attempt_seconds < policy.call_budget < FUNCTION_TIMEOUT
    assert math.isfinite(policy.call_budget) and attempts >= 3
