"""SQS timers against moto, the in-process timer thread, and the test doubles."""

from __future__ import annotations

import json
import threading
import time
from typing import TYPE_CHECKING, Any

import boto3
import pytest

from devtools.fakes import FakeClock, FakeTimers
from infra import aws
from infra.ports import TimerRequest
from infra.timers import (
    LocalTimers,
    SqsTimers,
    parse_timer_message,
    requeue_if_early,
    sqs_delay,
)

from .conftest import unique

if TYPE_CHECKING:
    from mypy_boto3_sqs.client import SQSClient


class SentMessages:
    """Records the parameters of every SendMessage call; the call still goes to moto through
    the container's client."""

    def __init__(self) -> None:
        self.inner = aws.client("sqs")
        self.params: list[dict[str, Any]] = []

    def send_message(self, **params: Any) -> Any:
        self.params.append(dict(params))
        return self.inner.send_message(**params)

    @property
    def delays(self) -> list[int]:
        return [int(p["DelaySeconds"]) for p in self.params]


@pytest.fixture
def sqs(moto_server: str) -> SQSClient:
    return boto3.client("sqs")


@pytest.fixture
def queue_url(sqs: SQSClient) -> str:
    return sqs.create_queue(QueueName=unique("timers"))["QueueUrl"]


def receive(sqs: SQSClient, queue_url: str) -> list[str]:
    messages = sqs.receive_message(QueueUrl=queue_url, MaxNumberOfMessages=10).get("Messages", [])
    for message in messages:
        sqs.delete_message(QueueUrl=queue_url, ReceiptHandle=message["ReceiptHandle"])
    return [message["Body"] for message in messages]


def test_delay_is_rounded_up_and_clamped() -> None:
    assert sqs_delay(100.0, 100.0) == 0
    assert sqs_delay(90.0, 100.0) == 0
    assert sqs_delay(100.2, 100.0) == 1
    assert sqs_delay(1000.0, 100.0) == 900
    assert sqs_delay(10**9, 0.0) == 900


def test_due_timer_is_delivered_now_and_parses_back(sqs: SQSClient, queue_url: str) -> None:
    clock = FakeClock(time.time())
    sent = SentMessages()
    request = TimerRequest("GAME#ab12", 17, clock.now() - 1)

    SqsTimers(queue_url, client=sent, clock=clock).schedule(request)

    assert sent.delays == [0]
    bodies = receive(sqs, queue_url)
    assert [parse_timer_message(body) for body in bodies] == [request]
    assert json.loads(bodies[0]) == {"game": "GAME#ab12", "decision": 17, "due_at": request.due_at}


def test_long_wait_is_capped_at_900_seconds_and_not_visible_yet(
    sqs: SQSClient, queue_url: str
) -> None:
    clock = FakeClock(time.time())
    sent = SentMessages()
    timers = SqsTimers(queue_url, client=sent, clock=clock)

    timers.schedule(TimerRequest("GAME#1", 1, clock.now() + 3600))
    timers.schedule(TimerRequest("GAME#1", 2, clock.now() + 20.5))

    assert sent.delays == [900, 21]
    assert receive(sqs, queue_url) == []


def test_early_message_goes_round_again_until_due(sqs: SQSClient, queue_url: str) -> None:
    clock = FakeClock(time.time())
    sent = SentMessages()
    timers = SqsTimers(queue_url, client=sent, clock=clock)
    request = TimerRequest("GAME#1", 3, clock.now() + 2000)
    timers.schedule(request)

    clock.advance(900)  # the first delivery
    arrived = parse_timer_message(sent.params[-1]["MessageBody"])
    assert timers.requeue_if_early(arrived) is False
    clock.advance(900)
    assert timers.requeue_if_early(arrived) is False
    clock.advance(200)
    assert timers.requeue_if_early(arrived) is True

    assert sent.delays == [900, 900, 200]
    assert {parse_timer_message(p["MessageBody"]) for p in sent.params} == {request}


def test_requeue_works_with_any_timers() -> None:
    timers = FakeTimers()
    request = TimerRequest("GAME#1", 1, 1000.0)
    assert requeue_if_early(timers, request, now=999.0) is False
    assert timers.requests == [request]
    assert requeue_if_early(timers, request, now=1000.0) is True
    assert timers.requests == [request]


def test_sqs_client_comes_from_the_standard_environment(sqs: SQSClient, queue_url: str) -> None:
    SqsTimers(queue_url).schedule(TimerRequest("GAME#1", 1, 0.0))
    assert len(receive(sqs, queue_url)) == 1


@pytest.mark.parametrize(
    "body",
    [
        "",
        "not json",
        "[]",
        '{"game": "GAME#1", "decision": 1}',
        '{"game": "", "decision": 1, "due_at": 1}',
        '{"game": 5, "decision": 1, "due_at": 1}',
        '{"game": "GAME#1", "decision": "1", "due_at": 1}',
        '{"game": "GAME#1", "decision": true, "due_at": 1}',
        '{"game": "GAME#1", "decision": 1, "due_at": "soon"}',
        '{"game": "GAME#1", "decision": 1, "due_at": Infinity}',
    ],
)
def test_malformed_timer_messages_are_rejected(body: str) -> None:
    with pytest.raises(ValueError):
        parse_timer_message(body)


def test_fake_timers_hand_out_what_is_due() -> None:
    timers = FakeTimers()
    late, early = TimerRequest("GAME#1", 2, 20.0), TimerRequest("GAME#1", 1, 10.0)
    timers.schedule(late)
    timers.schedule(early)
    assert timers.pop_due(5.0) == []
    assert timers.pop_due(20.0) == [early, late]
    assert timers.requests == []


def test_fake_clock_advances() -> None:
    clock = FakeClock(100.0)
    clock.advance(2.5)
    assert clock.now() == 102.5


def test_local_timers_fire_in_due_order() -> None:
    fired: list[TimerRequest] = []
    done = threading.Event()

    def callback(request: TimerRequest) -> None:
        fired.append(request)
        if len(fired) == 4:
            done.set()

    now = time.time()
    requests = [
        TimerRequest("GAME#1", 3, now + 0.15),
        TimerRequest("GAME#1", 1, now - 5),  # already due
        TimerRequest("GAME#1", 2, now + 0.05),
        TimerRequest("GAME#2", 4, now + 0.25),
    ]
    with LocalTimers(callback) as timers:
        for request in requests:
            timers.schedule(request)
        assert done.wait(5)
        assert timers.pending() == 0
    assert [r.decision for r in fired] == [1, 2, 3, 4]
    assert time.time() >= now + 0.25


def test_local_timers_survive_a_failing_callback_and_cancel() -> None:
    fired: list[int] = []
    second = threading.Event()

    def callback(request: TimerRequest) -> None:
        fired.append(request.decision)
        if request.decision == 1:
            raise RuntimeError("handler failed")
        second.set()

    timers = LocalTimers(callback)
    timers.schedule(TimerRequest("GAME#1", 1, 0.0))
    timers.schedule(TimerRequest("GAME#1", 2, time.time() + 0.05))
    assert second.wait(5)

    timers.schedule(TimerRequest("GAME#1", 3, time.time() + 60))
    timers.cancel_all()
    assert timers.pending() == 0
    timers.close()
    assert fired == [1, 2]
    with pytest.raises(RuntimeError):
        timers.schedule(TimerRequest("GAME#1", 4, 0.0))
