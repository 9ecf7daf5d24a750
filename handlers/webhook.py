"""The webhook Lambda: Telegram → (secret check) → the service → always 200.

Telegram redelivers on any other status, so failures are logged and answered 200 too. Any body
at all (not base64, not UTF-8, not JSON, nested past the parser's depth) is answered and never
raises; an event that is not even a mapping is 400.
"""

from __future__ import annotations

import base64
import binascii
import gc
import hmac
import json
import logging
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from infra import metrics

log = logging.getLogger("coachride")
_cold = True  # the first invocation of this container

SECRET_HEADER = "x-telegram-bot-api-secret-token"


@contextmanager
def collection_paused() -> Iterator[None]:
    """CPython's cyclic garbage collector paused while a cold container imports the service and
    makes its clients (the first update, webhook or timer). That builds ~88,000 tracked objects
    that live as long as the container (modules, classes, botocore's models), which the collector
    would otherwise walk again and again while they are made (~5% of the first update's CPU,
    ``devtools.bench``). Then they are frozen out of later collections (``gc.freeze``): a full
    collection in a warm container walks none of them (0.1 ms instead of ~34 ms). The price is
    the first update's own cyclic garbage (~500 objects), kept for the container's life."""
    if not gc.isenabled():  # nested, or paused by the caller: theirs to resume
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        gc.enable()


def _response(status: int) -> dict[str, Any]:
    return {"statusCode": status, "headers": {"content-type": "text/plain"}, "body": ""}


def secret_ok(headers: dict[str, Any] | None, expected: str | None) -> bool:
    if not expected:
        return False
    given = {str(k).lower(): v for k, v in (headers or {}).items()}.get(SECRET_HEADER)
    return isinstance(given, str) and hmac.compare_digest(given.encode(), expected.encode())


def parse_body(event: dict[str, Any]) -> Any:
    """The update, or None for a body that is not one; never raises."""
    try:
        body = event.get("body") or ""
        if event.get("isBase64Encoded"):
            body = base64.b64decode(body, validate=True).decode("utf-8", "replace")
        return json.loads(body)
    except (ValueError, TypeError, RecursionError, binascii.Error):
        return None


def seconds_left(context: Any) -> float | None:
    """What is left of the invocation (the function timeout minus what ran), if known."""
    remaining = getattr(context, "get_remaining_time_in_millis", None)
    try:
        return None if remaining is None else float(remaining()) / 1000.0
    except Exception:
        return None


def handle(
    event: Any, service_factory: Any, secret: str | None, context: Any = None
) -> dict[str, Any]:
    if not isinstance(event, dict):
        return _response(400)
    headers = event.get("headers")
    if not isinstance(headers, dict) or SECRET_HEADER not in {str(k).lower() for k in headers}:
        return _rejected(401)
    if not secret_ok(headers, secret):
        return _rejected(403)
    update = parse_body(event)
    try:
        service_factory().handle_update(update, seconds_left(context))
    except Exception:
        # The service writes each update's line itself; one that could not even be built (a
        # revoked token's getMe, Telegram down at a cold start) writes it here, or the Errors
        # alarm would never hear of a bot that fails every update.
        tally = metrics.unreported()
        fields = {"outcome": "error"}
        extra = metrics.line("update", fields, tally) if tally is not None else None
        log.exception("update handling failed", extra=extra)
    return _response(200)


def _rejected(status: int) -> dict[str, Any]:
    tally = metrics.adopt()
    fields = {"outcome": "rejected", "status": status}
    log.warning("update rejected", extra=metrics.line("update", fields, tally))
    return _response(status)


def handler(event: dict[str, Any], context: Any = None) -> dict[str, Any]:
    global _cold
    if _cold:
        _cold = False
        with collection_paused():
            return _handler(event, context, cold=True)
    return _handler(event, context)


def _handler(event: Any, context: Any, cold: bool = False) -> dict[str, Any]:
    from handlers import runtime

    tally = metrics.start()
    if cold:
        tally.fields["cold_start"] = True
    with metrics.timing("secrets"):
        secret = runtime.bot_secrets().webhook_secret
    headers = event.get("headers") if isinstance(event, dict) else None
    if isinstance(headers, dict) and not secret_ok(headers, secret):
        # Rotated since this container read it? Read again (at most once a minute).
        secret = runtime.bot_secrets(refresh=True).webhook_secret
    return handle(event, runtime.lambda_service, secret, context)
