"""The operator's recovery of a stuck game (README, Operating the bot in AWS: A stuck game):
`python -m devtools.wake_game --stack <stack> --region <region> --chat <group chat id>` against
a deployed stack (a CloudFormation stack on moto with the template's GameTableName and
TimerQueueUrl outputs): the timer of the decision the game waits on, and a flush, reach the
timer queue as the timer function reads them; nothing is written to the table."""

from __future__ import annotations

import io
import json
import time
from contextlib import redirect_stderr, redirect_stdout

import boto3

from devtools import wake_game
from handlers.store_keys import FLUSH, chat_key, game_key, timer_target
from infra.dynamo_store import DynamoStore
from infra.ports import Put
from infra.timers import parse_timer_message
from tests.integration.conftest import REGION, create_game_table, unique


def deploy_stack(table: str, queue_url: str) -> str:
    template = {
        "Resources": {"TimerQueue": {"Type": "AWS::SQS::Queue"}},
        "Outputs": {"GameTableName": {"Value": table}, "TimerQueueUrl": {"Value": queue_url}},
    }
    stack = unique("coach")
    boto3.client("cloudformation").create_stack(StackName=stack, TemplateBody=json.dumps(template))
    return stack


def run(argv: list[str]) -> tuple[int, str]:
    out = io.StringIO()
    with redirect_stdout(out), redirect_stderr(out):
        code = wake_game.main(argv)
    return code, out.getvalue()


def queued(url: str) -> list[tuple[str, int, float]]:
    sqs = boto3.client("sqs")
    found = sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=10, WaitTimeSeconds=0)
    requests = [parse_timer_message(m["Body"]) for m in found.get("Messages", [])]
    return sorted((r.game_key, r.decision, r.due_at) for r in requests)


def test_a_stuck_game_is_woken_by_its_group_or_its_id(moto_server: str) -> None:
    table = create_game_table(boto3.client("dynamodb"))
    url = boto3.client("sqs").create_queue(QueueName=unique("timers"))["QueueUrl"]
    stack = deploy_stack(table, url)
    store = DynamoStore(table)
    past = time.time() - 600  # its deadline ran out ten minutes ago; its timer was lost
    game = {"due": {"dec": 7, "at": past}, "timer": [7, past]}
    store.commit([Put(chat_key(-100123), {"game": "abc"}, None), Put(game_key("abc"), game, None)])
    versions = {k: store.get(k).version for k in (chat_key(-100123), game_key("abc"))}  # type: ignore[union-attr]

    code, printed = run(["--stack", stack, "--region", REGION, "--chat", "-100123", "--dry-run"])
    assert code == 0, printed
    assert "would send GAME#abc: decision 7, now" in printed
    assert queued(url) == []

    code, printed = run(["--stack", stack, "--region", REGION, "--chat", "-100123"])
    assert code == 0, printed
    sent = queued(url)
    assert [(k, d) for k, d, _ in sent] == [("GAME#abc", FLUSH), ("GAME#abc", 7)]
    assert [at for _, d, at in sent if d == 7] == [past]
    assert all(timer_target(k, d) for k, d, _ in sent)  # what the timer function accepts
    assert {k: store.get(k).version for k in versions} == versions  # type: ignore[union-attr]

    code, printed = run(["--stack", stack, "--region", REGION, "--game", "GAME#abc"])
    assert code == 0 and "sent GAME#abc: decision 7" in printed, printed

    code, printed = run(["--stack", stack, "--region", REGION, "--chat", "-100999"])
    assert code == 1 and "chat -100999 has no game" in printed, printed
