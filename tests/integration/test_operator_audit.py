"""template.yaml from the operator's chair: what would break in AWS while every test on moto
passes. Lambda stops a function that feeds its own trigger after about 16 hops unless told the
loop is meant; the timer does so by design."""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from typing import Any

import boto3
import pytest

from infra import aws, metrics
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


def evaluate(expression: str, values: dict[str, float]) -> float:
    """CloudWatch metric math as the alarm's expression uses it: IF, FILL, comparisons (1/0),
    arithmetic, on the sums of one period (an id with no data is absent, as in CloudWatch)."""
    assert re.fullmatch(r"[A-Za-z0-9_ ,.()+\-*/<>=]+", expression), expression

    def if_(condition: float, then: float, otherwise: float) -> float:
        return then if condition else otherwise

    def fill(value: float | None, default: float) -> float:
        return default if value is None else value

    names = {k: values.get(k) for k in re.findall(r"\b[a-z]\w*\b", expression)}
    code = expression.replace("IF(", "if_(").replace("FILL(", "fill(")
    return float(eval(code, {"if_": if_, "fill": fill, "__builtins__": {}}, names))


def period_sums(alarm: dict[str, Any], lines: list[dict[str, Any]]) -> dict[str, float]:
    """What each metric id of the alarm sums to over the lines (absent: no line had it)."""
    sums: dict[str, float] = {}
    for query in alarm["Metrics"]:
        if "MetricStat" in query:
            name = query["MetricStat"]["Metric"]["MetricName"]
            found = [line[name] for line in lines if name in line]
            if found:
                sums[query["Id"]] = float(sum(found))
    return sums


def breaches(alarm: dict[str, Any], lines: list[dict[str, Any]]) -> bool:
    (expression,) = [q["Expression"] for q in alarm["Metrics"] if q.get("ReturnData")]
    value = evaluate(expression, period_sums(alarm, lines))
    assert alarm["ComparisonOperator"] == "GreaterThanOrEqualToThreshold"
    return value >= alarm["Threshold"]


def webhook_lines(calls: Sequence[str | None], secret: str) -> list[dict[str, Any]]:
    """The update lines (embedded metrics included) the webhook writes for calls carrying
    these secret headers (None: no header); an accepted one fails in a service that cannot be
    built, which still writes its line."""
    from handlers import webhook

    def broken() -> Any:
        raise RuntimeError("no service here")

    records: list[logging.LogRecord] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            records.append(record)

    keep = Keep()
    logger = logging.getLogger("coachride")
    logger.addHandler(keep)
    try:
        for header in calls:
            headers = {} if header is None else {webhook.SECRET_HEADER: header}
            metrics.start()
            webhook.handle({"headers": headers, "body": "{}"}, broken, secret)
    finally:
        logger.removeHandler(keep)
    return [vars(r) for r in records if getattr(r, "event", None) == "update"]


def test_a_webhook_secret_telegram_no_longer_sends_raises_an_alarm(
    aws_env: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The webhook secret changed in Secrets Manager without register_webhook: Telegram keeps
    sending the old one, every update is refused (403), Telegram retries, then drops it. No
    Lambda error, no handled error: before, no alarm fired while the bot heard nothing. A
    stranger's calls without the secret beside real traffic, or too few to mean anything, must
    not raise it."""
    monkeypatch.setenv("AWS_LAMBDA_FUNCTION_NAME", "stack-WebhookFunction-x")
    monkeypatch.setenv("METRICS_SERVICE", "stack")
    resources = expand_sam(load_template())["Resources"]
    alarms = [
        r["Properties"]
        for r in resources.values()
        if r["Type"] == "AWS::CloudWatch::Alarm"
        and any(
            q.get("MetricStat", {}).get("Metric", {}).get("MetricName") == "Rejected"
            for q in r["Properties"].get("Metrics", [])
        )
    ]
    assert len(alarms) == 1, "no alarm reads the webhook's Rejected calls"
    (alarm,) = alarms
    secret = "s" * 40
    stale = webhook_lines(["old" * 12] * 4, secret)
    assert [line["status"] for line in stale] == [403] * 4
    assert breaches(alarm, stale)
    assert breaches(alarm, webhook_lines([None] * 3, secret))  # setWebhook without the secret
    assert not breaches(alarm, webhook_lines(["old" * 12] * 4 + [secret], secret))
    assert not breaches(alarm, webhook_lines([None, "x" * 40], secret))  # two stray calls
    assert not breaches(alarm, [])  # a quiet quarter hour
    assert alarm["AlarmActions"] == [{"Ref": "AlarmTopic"}]


def effective_timeout(resources: dict[str, Any], function: str) -> int:
    """The function's timeout in seconds as deployed (its own, else the Globals', else
    Lambda's 3 s): what the SQS visibility and the duration alarms must be measured against."""
    timeout = resources[function]["Properties"].get("Timeout", 3)
    assert isinstance(timeout, int), (function, timeout)
    return timeout


def test_queues_and_duration_alarms_fit_each_functions_own_timeout(aws_env: None) -> None:
    """Lambda's SQS trigger asks a visibility of at least six times the timeout of the function
    it invokes (else a message still being handled is delivered again); a duration alarm at or
    above the timeout never fires before the function is killed. Measured against the timeout
    each function gets once expanded, not the Globals' alone (a function may set its own)."""
    resources = expand_sam(load_template())["Resources"]
    aliases = {
        name: r["Properties"]["FunctionName"]["Ref"]
        for name, r in resources.items()
        if r["Type"] == "AWS::Lambda::Alias"
    }
    mappings = [r for r in resources.values() if r["Type"] == "AWS::Lambda::EventSourceMapping"]
    assert mappings
    for mapping in mappings:
        target = mapping["Properties"]["FunctionName"]["Ref"]
        function = aliases.get(target, target)
        queue = mapping["Properties"]["EventSourceArn"]["Fn::GetAtt"][0]
        visibility = resources[queue]["Properties"]["VisibilityTimeout"]
        window = mapping["Properties"].get("MaximumBatchingWindowInSeconds", 0)
        assert visibility >= 6 * effective_timeout(resources, function) + window, queue
    durations = {
        name: r["Properties"]
        for name, r in resources.items()
        if r["Type"] == "AWS::CloudWatch::Alarm" and r["Properties"].get("MetricName") == "Duration"
    }
    assert len(durations) == 2
    for name, props in durations.items():
        function = props["Dimensions"][0]["Value"]["Ref"]
        timeout_ms = effective_timeout(resources, function) * 1000
        assert 0.5 * timeout_ms <= props["Threshold"] < timeout_ms, name


def test_the_game_table_cannot_be_deleted_by_hand(aws_env: None) -> None:
    """DeletionPolicy Retain keeps the games when the stack is deleted, not when someone deletes
    the table itself (the console, a script given the wrong name): deletion protection refuses
    that until it is turned off; point-in-time recovery restores a bad write."""
    table = expand_sam(load_template())["Resources"]["GameTable"]
    assert table["Properties"]["DeletionProtectionEnabled"] is True
    assert table["Properties"]["PointInTimeRecoverySpecification"] == {
        "PointInTimeRecoveryEnabled": True
    }
    assert (table["DeletionPolicy"], table["UpdateReplacePolicy"]) == ("Retain", "Retain")


def test_the_shipped_code_writes_no_delete_item_the_roles_would_refuse() -> None:
    """The roles grant PutItem for the store's transactions (test_template's CALL_ACTIONS);
    a Delete in a transaction needs dynamodb:DeleteItem, which no role has: AccessDenied in
    AWS, while moto (no IAM) takes it. The stores may carry one (check_writes allows it); no
    module of the Lambda package may make one."""
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    makers = []
    for package in ("handlers", "infra", "engine"):
        for source in (root / package).rglob("*.py"):
            for node in ast.walk(ast.parse(source.read_text())):
                if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Delete":
                    makers.append(f"{source.relative_to(root)}:{node.lineno}")
    assert makers == []
