"""template.yaml's alarms, as the person on call meets them: each name says what broke and its
description what to do; the README's runbook has a row for each name; every metric of the
service's own (namespace CoachRide) that an alarm reads is one the code emits; and what an
operator must hear about has an alarm: crashes, handled errors, throttles, the dead-letter
queue, timers late or not consumed, DynamoDB throttling and conflict storms, Telegram's 429s and
outages."""

from __future__ import annotations

import json
import logging
import re
from pathlib import Path
from typing import Any

import pytest

from infra import metrics
from infra.bot_api import BotApi, InvalidToken, NetworkError, RetryAfter, TimedOut
from infra.ports import TimerRequest
from infra.timers import timer_message
from tests.integration.test_template import expand_sam, load_template

ROOT = Path(__file__).resolve().parents[2]
STACK = {"Ref": "AWS::StackName"}


def alarms() -> dict[str, dict[str, Any]]:
    resources = load_template()["Resources"]
    return {
        k: r["Properties"] for k, r in resources.items() if r["Type"] == "AWS::CloudWatch::Alarm"
    }


def watched(alarm: dict[str, Any]) -> set[tuple[str, str, str]]:
    """(namespace, metric, first dimension's value) of every metric the alarm reads."""
    stats = [m["MetricStat"]["Metric"] for m in alarm.get("Metrics", []) if "MetricStat" in m]
    stats = stats or [alarm]
    return {
        (m["Namespace"], m["MetricName"], json.dumps(m["Dimensions"][0]["Value"])) for m in stats
    }


def alarm_name(alarm: dict[str, Any]) -> str:
    """The part of ``!Sub "${AWS::StackName}-<name>"`` after the stack's name."""
    text = alarm["AlarmName"]["Fn::Sub"]
    assert text.startswith("${AWS::StackName}-"), text
    return str(text.removeprefix("${AWS::StackName}-"))


def test_expanded_alarms_watch_what_an_operator_must_know(aws_env: None) -> None:
    resources = expand_sam(load_template())["Resources"]
    expanded = {
        k: r["Properties"] for k, r in resources.items() if r["Type"] == "AWS::CloudWatch::Alarm"
    }
    seen = set().union(*(watched(a) for a in expanded.values()))
    webhook, timer = json.dumps({"Ref": "WebhookFunction"}), json.dumps({"Ref": "TimerFunction"})
    for fn in (webhook, timer):
        for metric in ("Errors", "Throttles", "Duration"):
            assert ("AWS/Lambda", metric, fn) in seen
    dlq = json.dumps({"Fn::GetAtt": ["TimerDeadLetterQueue", "QueueName"]})
    assert ("AWS/SQS", "ApproximateNumberOfMessagesVisible", dlq) in seen
    queue = json.dumps({"Fn::GetAtt": ["TimerQueue", "QueueName"]})
    assert ("AWS/SQS", "ApproximateAgeOfOldestMessage", queue) in seen
    table = json.dumps({"Ref": "GameTable"})
    assert ("AWS/DynamoDB", "ReadThrottleEvents", table) in seen
    assert ("AWS/DynamoDB", "WriteThrottleEvents", table) in seen
    service = json.dumps(STACK)
    for metric in (
        "Errors",
        "GaveUps",
        "Conflicts",
        metrics.TELEGRAM_FLOODS,
        metrics.TELEGRAM_ERRORS,
        metrics.TELEGRAM_TOKEN_REFUSED,
        metrics.TIMER_LATE,
    ):
        assert ("CoachRide", metric, service) in seen, metric
    for name, alarm in expanded.items():
        assert alarm["AlarmActions"] == [{"Ref": "AlarmTopic"}], name
        # and when it is over: the on-call person learns the replay or the rollback worked
        assert alarm["OKActions"] == [{"Ref": "AlarmTopic"}], name
        assert alarm["TreatMissingData"] == "notBreaching", name
    dead = expanded["DeadLetterAlarm"]
    assert (dead["Threshold"], dead["ComparisonOperator"]) == (0, "GreaterThanThreshold")
    timeout_ms = load_template()["Globals"]["Function"]["Timeout"] * 1000
    assert 0.5 * timeout_ms <= expanded["WebhookDurationAlarm"]["Threshold"] < timeout_ms
    # SQS delays a timer 900 s at most: an older message is one the trigger does not take.
    stuck = expanded["TimerQueueStuckAlarm"]
    assert 900 < stuck["Threshold"] <= 1800
    subscription = resources["AlarmEmailSubscription"]
    assert subscription["Condition"] == "HasAlarmEmail"
    assert subscription["Properties"]["Endpoint"] == {"Ref": "AlarmEmail"}


def test_each_alarm_is_named_for_what_broke_and_says_what_to_do() -> None:
    """Alarms without AlarmName reach the e-mail as ``<stack>-WebhookErrorsAlarm-1A2B3C``; an
    on-call person needs the stack, what broke, and the next step in the notice itself."""
    names = []
    for logical, alarm in alarms().items():
        name = alarm_name(alarm)
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)+", name), (logical, name)
        description = alarm["AlarmDescription"]
        assert len(description) <= 1024, logical  # CloudFormation's limit
        assert "Do: " in description, logical
        assert "README" in description, logical
        names.append(name)
    assert len(names) == len(set(names))


def runbook_rows() -> dict[str, str]:
    """The README's Alarms table: each name in a row's first cell -> the row."""
    text = (ROOT / "README.md").read_text()
    section = text.split("### Alarms", 1)[1].split("\n### ", 1)[0]
    rows: dict[str, str] = {}
    for line in section.splitlines():
        if line.startswith("| `"):
            first = line.split("|")[1]
            for name in re.findall(r"`([^`]+)`", first):
                rows[name] = line
    return rows


def test_the_readme_runbook_has_a_row_for_each_alarm_name_and_no_other() -> None:
    rows = runbook_rows()
    assert set(rows) == {alarm_name(a) for a in alarms().values()}
    assert all(row.count("|") >= 4 for row in rows.values())


def emittable() -> set[str]:
    """Every metric name the embedded metric block can carry, from the function that writes it."""
    tally = metrics.Tally()
    outcomes = [*metrics.OUTCOME_METRICS, *metrics.IGNORED, "applied"]
    names: set[str] = set()
    for event in ("update", "timer"):
        for outcome in outcomes:
            block = metrics.embedded(event, outcome, 1.0, tally, "s", late_s=0.0)
            names |= {m["Name"] for m in block["_aws"]["CloudWatchMetrics"][0]["Metrics"]}
    return names


def counted_somewhere(constant: str) -> bool:
    """Whether a runtime module outside infra/metrics.py counts ``constant``."""
    pattern = re.compile(rf"count\((metrics\.)?{constant}\b")
    for folder in ("handlers", "infra"):
        for source in (ROOT / folder).rglob("*.py"):
            if source.name != "metrics.py" and pattern.search(source.read_text()):
                return True
    return False


def test_every_service_metric_an_alarm_reads_is_emitted_by_the_code() -> None:
    read = {
        metric
        for alarm in alarms().values()
        for namespace, metric, _ in watched(alarm)
        if namespace == metrics.NAMESPACE
    }
    assert read, "no alarm reads the service's own metrics"
    assert read <= emittable()
    constants = {
        value: name
        for name, value in vars(metrics).items()
        if name.isupper() and isinstance(value, str)
    }
    for metric in read & set(metrics.COUNTED):
        assert counted_somewhere(constants[metric]), f"nothing counts {metric}"


class Answer:
    def __init__(self, status: int, body: dict[str, Any] | None = None) -> None:
        self.status, self.body = status, body or {"ok": False, "description": "x"}

    def __call__(self, method: str, params: dict[str, Any], timeout: float) -> tuple[int, bytes]:
        return self.status, json.dumps(self.body).encode()


class Unreachable:
    def __init__(self, error: OSError) -> None:
        self.error = error

    def __call__(self, method: str, params: dict[str, Any], timeout: float) -> tuple[int, bytes]:
        raise self.error


def test_telegram_429s_and_outages_are_counted_for_their_alarms() -> None:
    """Each Bot API answer the Telegram alarms watch is counted where it is met: a 429, a
    5xx, a timeout, a connection refused, the token refused (401, or Telegram's 404 for a token
    it does not know). (Nothing counted them before: an outage of minutes, or a revoked token
    in warm containers, showed only as SendFailures, which a user blocking the bot also
    raises: no alarm fired while the bot sent nothing.)"""
    flood = {"ok": False, "description": "Too Many Requests", "parameters": {"retry_after": 3}}
    cases: list[tuple[Any, type[Exception], str]] = [
        (Answer(429, flood), RetryAfter, metrics.TELEGRAM_FLOODS),
        (Answer(502), NetworkError, metrics.TELEGRAM_ERRORS),
        (Unreachable(TimeoutError("timed out")), TimedOut, metrics.TELEGRAM_ERRORS),
        (Unreachable(ConnectionRefusedError("refused")), NetworkError, metrics.TELEGRAM_ERRORS),
        (Answer(401), InvalidToken, metrics.TELEGRAM_TOKEN_REFUSED),
        (Answer(404), InvalidToken, metrics.TELEGRAM_TOKEN_REFUSED),
    ]
    for transport, error, metric in cases:
        tally = metrics.start()
        with pytest.raises(error):
            BotApi("https://t.invalid/bot1:k/", transport).call("sendMessage", chat_id=1)
        assert tally.counts == {metric: 1}, (transport, tally.counts)
    tally = metrics.start()
    with pytest.raises(Exception, match="x"):
        BotApi("https://t.invalid/bot1:k/", Answer(400)).call("sendMessage", chat_id=1)
    assert tally.counts == {}  # a refusal is the chat's, not Telegram's trouble


class AppliesAll:
    def handle_timer(self, request: TimerRequest, seconds_left: float | None) -> str:
        return "applied"


class NoTimers:
    def schedule(self, request: TimerRequest) -> None:
        raise AssertionError("a due timer is not scheduled again")


def test_a_late_timer_reports_how_late_it_ran_as_a_metric(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from handlers import timer

    monkeypatch.setenv("AWS_LAMBDA_FUNCTION_NAME", "stack-TimerFunction-x")
    monkeypatch.setenv("METRICS_SERVICE", "stack")
    body = timer_message(TimerRequest(game_key="GAME#1", decision=3, due_at=1000.0))
    event = {"Records": [{"messageId": "m1", "body": body}]}
    with caplog.at_level(logging.INFO, logger="coachride"):
        assert timer.handle(event, AppliesAll(), NoTimers(), now=1095.5) == {
            "batchItemFailures": []
        }
    (record,) = [r for r in caplog.records if getattr(r, "event", None) == "timer"]
    fields = vars(record)
    declared = {m["Name"]: m["Unit"] for m in fields["_aws"]["CloudWatchMetrics"][0]["Metrics"]}
    assert declared[metrics.TIMER_LATE] == "Seconds"
    assert fields[metrics.TIMER_LATE] == 95.5


def test_an_update_that_fails_inside_the_webhook_raises_an_alarm(
    aws_env: None, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The webhook answers 200 when handling an update raised (so AWS/Lambda Errors stays 0) and
    the timer reports failed messages instead of raising: what reaches an operator is the
    service's own Errors metric, which an alarm must watch. The service that cannot even be
    built (a revoked token: getMe answers 401 on every cold start; Telegram down at a cold
    start) still writes its update line with outcome "error": before, it logged a traceback
    only, no metric, and a bot dead on every update raised no alarm."""
    from handlers import webhook

    monkeypatch.setenv("AWS_LAMBDA_FUNCTION_NAME", "stack-WebhookFunction-x")
    monkeypatch.setenv("METRICS_SERVICE", "stack")

    def broken() -> Any:
        raise RuntimeError("the service cannot be built")

    event = {"headers": {webhook.SECRET_HEADER: "s"}, "body": "{}"}
    metrics.start()  # as webhook.handler does before it calls handle
    with caplog.at_level(logging.INFO):
        assert webhook.handle(event, broken, "s")["statusCode"] == 200
    lines = [vars(r) for r in caplog.records if getattr(r, "event", None) == "update"]
    assert [(line["outcome"], line.get("Errors")) for line in lines] == [("error", 1)]
    assert metrics.outcome_metric("error") == metrics.outcome_metric("failed") == "Errors"
    resources = expand_sam(load_template())["Resources"]
    watching = [
        r["Properties"]
        for r in resources.values()
        if r["Type"] == "AWS::CloudWatch::Alarm"
        and r["Properties"].get("Namespace") == metrics.NAMESPACE
        and r["Properties"].get("MetricName") == "Errors"
    ]
    assert watching, "no alarm on the service's own Errors metric"
    alarm = watching[0]
    assert alarm["Dimensions"] == [{"Name": "Service", "Value": STACK}]
    assert alarm["AlarmActions"] == [{"Ref": "AlarmTopic"}]
    assert (alarm["Threshold"], alarm["ComparisonOperator"]) == (
        1,
        "GreaterThanOrEqualToThreshold",
    )
