"""Per-update log fields and CloudWatch embedded metrics; secrets read once per container."""

from __future__ import annotations

import json

import pytest

from devtools.memory_store import MemoryStore
from infra import metrics, timed
from infra.bot_secrets import REFRESH_AT_MOST_EVERY_SECONDS, BotSecrets, SecretSource
from infra.ports import Put, VersionConflict
from infra.settings import Settings


def test_line_in_lambda_carries_embedded_metrics(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AWS_LAMBDA_FUNCTION_NAME", "stack-WebhookFunction-x")
    monkeypatch.setenv("METRICS_SERVICE", "coach-ride")
    tally = metrics.start()
    metrics.count(metrics.CONFLICTS, 2)
    metrics.count(metrics.GAVE_UPS)
    with metrics.timing("store"):
        pass
    fields = metrics.line("update", {"update_id": 7, "outcome": "stale"}, tally)
    json.dumps(fields)  # one JSON object per line
    directive = fields["_aws"]["CloudWatchMetrics"][0]
    assert directive["Namespace"] == "CoachRide" and directive["Dimensions"] == [["Service"]]
    names = {m["Name"] for m in directive["Metrics"]}
    assert {"Updates", "Stale", "LatencyMs", "Conflicts", "GaveUps", "SendFailures"} <= names
    assert all(name in fields for name in names)  # every declared metric has its value
    assert (fields["Service"], fields["Conflicts"], fields["GaveUps"]) == ("coach-ride", 2, 1)
    assert fields["outcome"] == "stale" and "store_ms" in fields and fields["ms"] >= 0
    assert metrics.adopt() is not tally  # a reported tally is not reused


def test_line_outside_lambda_has_no_metric_block(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("AWS_LAMBDA_FUNCTION_NAME", raising=False)
    fields = metrics.line("timer", {"outcome": "applied"}, metrics.start())
    assert "_aws" not in fields and fields["event"] == "timer"


@pytest.mark.parametrize(
    ("outcome", "metric"),
    [
        ("error", "Errors"),
        ("duplicate", "Duplicates"),
        ("rejected", "Rejected"),
        ("garbage", "Ignored"),
        ("newgame", "Applied"),
        ("pa", "Applied"),
    ],
)
def test_outcomes_map_to_a_bounded_set_of_metrics(outcome: str, metric: str) -> None:
    assert metrics.outcome_metric(outcome) == metric


def test_timed_store_counts_version_conflicts() -> None:
    store = timed.TimedStore(MemoryStore())
    tally = metrics.start()
    store.commit([Put("k", {"a": 1}, None)])
    with pytest.raises(VersionConflict):
        store.commit([Put("k", {"a": 2}, None)])
    assert tally.counts == {metrics.CONFLICTS: 1} and tally.ms["store"] > 0


def test_secrets_are_read_once_then_again_only_when_old_or_asked() -> None:
    reads: list[str] = []
    now = [0.0]
    values = {"arn:token": "1:tok", "arn:hook": "h" * 40}

    def fetch(arn: str) -> str:
        reads.append(arn)
        return values[arn]

    settings = Settings(bot_token_secret_arn="arn:token", webhook_secret_arn="arn:hook")
    source = SecretSource(settings, fetch=fetch, clock=lambda: now[0], max_age=900)
    assert source.get().token == "1:tok" and source.get().webhook_secret == "h" * 40
    assert source.reads == 1
    values["arn:hook"] = "n" * 40
    now[0] = REFRESH_AT_MOST_EVERY_SECONDS / 2
    assert source.refresh().webhook_secret == "h" * 40  # too soon: a flood cannot force reads
    now[0] = REFRESH_AT_MOST_EVERY_SECONDS + 1
    assert source.refresh().webhook_secret == "n" * 40 and source.reads == 2
    now[0] += 901
    source.get()
    assert source.reads == 3


def test_the_secrets_repr_shows_neither_secret() -> None:
    """Issue 26 faulted a credentials repr that showed the secret key: the bot's secrets'
    repr (a log line's or a traceback's) shows neither the token nor the webhook secret."""
    secrets = BotSecrets("123456:AAH-token-value", "webhook-secret-value")
    assert "token-value" not in repr(secrets) and "webhook-secret-value" not in repr(secrets)
    assert secrets == BotSecrets("123456:AAH-token-value", "webhook-secret-value")
