"""The timer Lambda: SQS messages name a game, a decision and its deadline.

Early messages (waits over SQS's 900 s) are re-enqueued for the rest; the service ignores
stale and duplicate ones. Failures are reported per message so only those are retried.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from handlers import webhook
from infra.timers import parse_timer_message, requeue_if_early

log = logging.getLogger("coachride")


def handle(
    event: dict[str, Any],
    service: Any,
    timers: Any,
    now: float,
    seconds_left: Callable[[], float | None] = lambda: None,
) -> dict[str, Any]:
    """``seconds_left``: what remains of the invocation, asked before each message."""
    failures = []
    for record in event.get("Records", []):
        try:
            request = parse_timer_message(record["body"])
        except Exception:
            log.warning("dropping malformed timer message")
            continue
        try:
            if not requeue_if_early(timers, request, now):
                continue
            service.handle_timer(request, seconds_left())
        except Exception:
            log.exception("timer failed")
            failures.append({"itemIdentifier": record.get("messageId", "")})
    return {"batchItemFailures": failures}


def handler(event: dict[str, Any], context: Any = None) -> dict[str, Any]:
    from handlers.runtime import lambda_service

    service = lambda_service()
    return handle(
        event, service, service.timers, service.clock.now(), lambda: webhook.seconds_left(context)
    )
