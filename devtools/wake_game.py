"""Wake a stuck game: send its timer again (README, Operating the bot in AWS: A stuck game).

    python -m devtools.wake_game --stack <stack> --region <region> --chat <group chat id>
    python -m devtools.wake_game --stack <stack> --region <region> --game <game id>

A game waits on a deadline (``due``: its decision and when) and a timer message in the timer
queue that wakes the timer function then. Its timer is sent before each commit, so only a
message lost afterwards leaves a game stuck: one purged from either queue by hand, or taken by
a timer that did nothing by a fault of the bot's (a dead-lettered one is replayed instead:
README, Replay a dead-lettered timer). This reads the game (from the group's chat record, or by its
id) from the stack's table and sends the timer for its current decision, and a flush that
resends what its outbox still holds. Both are safe to send any number of times: a timer for a
decision that is gone is ignored, one not yet due waits (or goes round again) until its time.
Nothing is written to the table; ``--dry-run`` only says what it would send.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

from handlers.store_keys import FLUSH, chat_key, game_key
from infra.ports import DocumentStore, TimerRequest


def find_game(
    store: DocumentStore, chat: int | None, game: str | None
) -> tuple[str, dict[str, Any]]:
    """The game's key and document: by id, or the one the group's chat record points at."""
    if game is None:
        record = store.get(chat_key(int(chat or 0)))
        if record is None or not record.doc.get("game"):
            raise LookupError(f"chat {chat} has no game in the table")
        game = str(record.doc["game"])
    key = game if game.startswith("GAME#") else game_key(game)
    found = store.get(key)
    if found is None:
        raise LookupError(f"{key} is not in the table (ended more than 14 days ago, or no game)")
    return key, found.doc


def wake_requests(key: str, doc: dict[str, Any], now: float) -> list[TimerRequest]:
    """The game's flush, and the timer of the decision it waits on (if it waits on one)."""
    requests = [TimerRequest(key, FLUSH, now)]
    due = doc.get("due")
    if isinstance(due, dict) and isinstance(due.get("dec"), int):
        requests.append(TimerRequest(key, due["dec"], float(due.get("at") or now)))
    return requests


def describe(request: TimerRequest, now: float) -> str:
    if request.decision == FLUSH:
        return f"{request.game_key}: flush of its outbox, now"
    wait = request.due_at - now
    when = f"in {wait:.0f} s" if wait > 0 else f"now ({-wait:.0f} s past its deadline)"
    return f"{request.game_key}: decision {request.decision}, {when}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--stack", required=True, help="the deployed stack's name")
    parser.add_argument("--region", help="the stack's region (default: the AWS configuration's)")
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument("--chat", type=int, help="the group's chat id (negative)")
    which.add_argument("--game", help="the game's id (GAME#<id> or <id>, in the log lines)")
    parser.add_argument("--dry-run", action="store_true", help="say what it would send")
    args = parser.parse_args(argv)

    from devtools.register_webhook import stack_outputs
    from infra import aws
    from infra.dynamo_store import DynamoStore
    from infra.timers import SqsTimers

    outputs = stack_outputs(args.stack, args.region)
    store = DynamoStore(outputs["GameTableName"], client=aws.client("dynamodb", args.region))
    try:
        key, doc = find_game(store, args.chat, args.game)
    except LookupError as error:
        print(f"nothing to wake: {error}", file=sys.stderr)
        return 1
    now = time.time()
    requests = wake_requests(key, doc, now)
    if len(requests) == 1:
        print(f"{key} waits on no deadline (ended, or between two steps): flush only")
    timers = SqsTimers(outputs["TimerQueueUrl"], client=aws.client("sqs", args.region))
    for request in requests:
        if not args.dry_run:
            timers.schedule(request)
        print(("would send " if args.dry_run else "sent ") + describe(request, now))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
