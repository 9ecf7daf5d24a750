"""template.yaml from the operator's chair: what would break in AWS while every test on moto
passes. Lambda stops a function that feeds its own trigger after about 16 hops unless told the
loop is meant; the timer does so by design."""

from __future__ import annotations

from typing import Any

import boto3
import pytest

from infra import aws
from infra.ports import TimerRequest
from infra.timers import SqsTimers
from tests.integration.conftest import unique
from tests.integration.test_template import as_list, expand_sam, load_template


def self_fed_functions(resources: dict[str, Any]) -> set[str]:
    """Functions that may send to a queue whose event source mapping invokes them (through
    their alias): a Lambda -> SQS -> Lambda loop, as Lambda's recursion detection sees it."""
    fed: set[str] = set()
    aliases = {
        name: r["Properties"]["FunctionName"]["Ref"]
        for name, r in resources.items()
        if r["Type"] == "AWS::Lambda::Alias"
    }
    for mapping in resources.values():
        if mapping["Type"] != "AWS::Lambda::EventSourceMapping":
            continue
        target = mapping["Properties"]["FunctionName"]["Ref"]
        function = aliases.get(target, target)
        role = resources[function]["Properties"]["Role"]["Fn::GetAtt"][0]
        statements = [
            st
            for policy in resources[role]["Properties"]["Policies"]
            for st in policy["PolicyDocument"]["Statement"]
        ]
        if any(
            "sqs:SendMessage" in as_list(st["Action"])
            and mapping["Properties"]["EventSourceArn"] in as_list(st["Resource"])
            for st in statements
        ):
            fed.add(function)
    return fed


def test_the_timer_that_feeds_its_own_queue_is_allowed_to_loop(aws_env: None) -> None:
    """Each timer may arm the next (an AI passenger's turn, a deadline that ran out, a wait
    past SQS's 900 s sent again): with Lambda's default ``RecursiveLoop: Terminate`` the
    chain stops after ~16 hops and its message is dead-lettered, so a game of AI passengers
    stalls in AWS, never on moto."""
    resources = expand_sam(load_template())["Resources"]
    fed = self_fed_functions(resources)
    assert fed == {"TimerFunction"}
    for function in fed:
        assert resources[function]["Properties"].get("RecursiveLoop") == "Allow", function


def test_a_timer_sent_inside_lambda_carries_the_invocations_trace_header(
    moto_server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Why the loop is visible to Lambda at all: in a Lambda the SDK copies the invocation's
    trace id (``_X_AMZN_TRACE_ID``) into every request, SendMessage included, and SQS hands it
    to the next invocation (``AWSTraceHeader``), hop after hop. The clients of infra.aws keep
    botocore's handler that does it (the lean session drops only other services' handlers)."""
    trace = "Root=1-65f00000-0123456789abcdef01234567;Parent=0123456789abcdef;Sampled=0;Lineage=1"
    monkeypatch.setenv("AWS_LAMBDA_FUNCTION_NAME", "stack-TimerFunction-x")
    monkeypatch.setenv("_X_AMZN_TRACE_ID", trace)
    url = boto3.client("sqs").create_queue(QueueName=unique("timers"))["QueueUrl"]
    aws.reset()
    client = aws.client("sqs")
    sent: list[dict[str, str]] = []

    def record(request: Any, **_: Any) -> None:
        sent.append(dict(request.headers))

    client.meta.events.register("before-send.sqs.SendMessage", record)
    try:
        SqsTimers(url, client=client).schedule(TimerRequest("GAME#1", 3, 0.0))
    finally:
        client.meta.events.unregister("before-send.sqs.SendMessage", record)
        aws.reset()
    (headers,) = sent
    assert "Lineage=1" in str(headers.get("X-Amzn-Trace-Id")), headers
