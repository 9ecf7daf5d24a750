"""The timer Lambda: SQS messages name a game, a decision and its deadline.

Early messages (waits over SQS's 900 s) are re-enqueued for the rest; the service ignores
stale and duplicate ones. Failures are reported per message so only those are retried; a
message that keeps failing goes to the dead-letter queue (see the README to replay it), which
alarms the operators, so only a transient fault (the store unavailable) is a failure: a body
that is no timer message, or a request whose key names no game (forged, malformed, a game
already gone, a document not a game's shape) can never succeed and is acknowledged, logged
once with what it was. Each message gets one log line with its outcome and timings.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from infra import logs, metrics
from infra.timers import parse_timer_message, requeue_if_early

log = logging.getLogger("coachride")
# outcomes of a request no retry can apply (``handlers.game_room.TimerOutcome``)
_NEVER_APPLIED = frozenset({"gone", "not_a_game", "invalid"})
_cold = True  # the first invocation of this container


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
        if not isinstance(record, dict):  # SQS never sends one; it must not fail the batch
            record = {"body": record}
        tally = metrics.start()
        fields: dict[str, Any] = {"message_id": record.get("messageId")}
        try:
            request = parse_timer_message(record["body"])
        except Exception as error:
            fields["outcome"] = "malformed"
            fields["body"] = repr(record.get("body"))[:200]
            fields["why"] = str(error)[:200]
            log.warning(
                "dropping malformed timer message", extra=metrics.line("timer", fields, tally)
            )
            continue
        fields.update(game=request.game_key, decision=request.decision)
        fields["late_s"] = round(max(0.0, now - request.due_at), 3)
        try:
            if requeue_if_early(timers, request, now):
                outcome = service.handle_timer(request, seconds_left())
                fields["outcome"] = str(outcome or "applied")
            else:
                fields["outcome"] = "requeued"
        except Exception:
            log.exception("timer failed", extra={"game": request.game_key})
            failures.append({"itemIdentifier": record.get("messageId", "")})
            fields["outcome"] = "failed"
        if fields["outcome"] in _NEVER_APPLIED:  # acknowledged: a retry would fail the same
            log.warning("dropping timer message", extra=metrics.line("timer", fields, tally))
            continue
        log.info("timer", extra=metrics.line("timer", fields, tally))
    return {"batchItemFailures": failures}


def handler(event: dict[str, Any], context: Any = None) -> dict[str, Any]:
    global _cold
    from handlers.webhook import collection_paused

    if _cold:
        _cold = False
        with collection_paused():  # the imports and clients, as the webhook's first update
            return _handler(event, context)
    return _handler(event, context)


def _handler(event: dict[str, Any], context: Any) -> dict[str, Any]:
    from handlers.runtime import lambda_service
    from handlers.webhook import seconds_left

    try:
        service = lambda_service()
    except Exception as error:
        # The batch must fail (SQS delivers it again, then dead-letters it), but what escapes
        # a handler is printed by the Lambda runtime itself, past the log's redaction: the
        # error is logged (redacted) and what escapes holds only its redacted text.
        log.exception("the timer service could not be built")
        raise RuntimeError(logs.redact(f"{type(error).__name__}: {error}")) from None
    return handle(
        event, service, service.timers, service.clock.now(), lambda: seconds_left(context)
    )
