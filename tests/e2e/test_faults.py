"""Whole games through the webhook and timer Lambdas on moto and the fake Bot API on Telegram's
bad days (issue 10): flood control of 5-40 s, network timeouts, a muted group, functions killed
between two sends, and every update delivered twice. Every game finishes, every promised message
reaches its chat exactly once, every press is answered exactly once, and no invocation runs past
the function timeout. The clock is fake: every wait moves it, nothing sleeps."""

from __future__ import annotations

import random
import uuid
from collections.abc import Iterator

import boto3
import pytest
from moto import mock_aws

from devtools.botapi import Chaos, RateLimits
from infra.dynamo_store import DynamoStore
from infra.rate_limit import SharedRateLimiter
from tests.integration.conftest import aws_env, create_game_table  # noqa: F401
from tests.service.webhook_table import FUNCTION_TIMEOUT, BotTable


@pytest.fixture
def dynamo_table(aws_env: None) -> Iterator[str]:  # noqa: F811
    with mock_aws():
        yield create_game_table(boto3.client("dynamodb"), name=f"faults-{uuid.uuid4().hex}")


@pytest.mark.parametrize(("n", "seed"), [(4, 1), (6, 2)])
def test_games_finish_and_every_message_arrives_once_on_bad_days(
    dynamo_table: str, n: int, seed: int
) -> None:
    client = boto3.client("dynamodb")  # moto's in-process mock: no request leaves
    bot = BotTable(
        n, seed, store=lambda clock: DynamoStore(dynamo_table, client, clock=clock), twice=True
    )
    bot.service.pipeline.limiter = SharedRateLimiter(bot.store.inner)
    bot.api.limits = RateLimits()
    chaos = Chaos(
        random.Random(seed),
        flood=0.04,
        flood_seconds=(5, 40),
        timeout=0.04,
        refuse=0.3,  # group sends are few now (one living status): enough refusals to matter
        kill=0.02,
        advance=bot.clock.advance,
    )
    bot.api.chaos = chaos
    bot.start()
    final = bot.play()
    for _ in range(6):  # what is still held back goes out on its flush timers
        bot.clock.advance(60)
        bot.fire_timers()
    print(f"\nfaults injected: {dict(chaos.counts)}; functions killed: {bot.killed}")
    assert final.over
    assert all(chaos.counts[kind] > 0 for kind in ("429", "timeout", "refused", "killed"))
    assert bot.duplicates() == []
    assert bot.missing() == []
    answered = bot.answered()
    assert bot.presses and all(answered[q] == 1 for q in bot.presses)
    assert bot.longest <= FUNCTION_TIMEOUT
    assert not bot.api.violations
