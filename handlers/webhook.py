"""The webhook Lambda: Telegram → (secret check) → the service → always 200.

Telegram redelivers on any other status, so failures are logged and answered 200 too.
"""

from __future__ import annotations

import base64
import hmac
import json
import logging
from typing import Any

from infra import metrics

log = logging.getLogger("coachride")
_cold = True  # the first invocation of this container

SECRET_HEADER = "x-telegram-bot-api-secret-token"


def _response(status: int) -> dict[str, Any]:
    return {"statusCode": status, "headers": {"content-type": "text/plain"}, "body": ""}


def secret_ok(headers: dict[str, Any] | None, expected: str | None) -> bool:
    if not expected:
        return False
    given = {str(k).lower(): v for k, v in (headers or {}).items()}.get(SECRET_HEADER)
    return isinstance(given, str) and hmac.compare_digest(given.encode(), expected.encode())


def parse_body(event: dict[str, Any]) -> Any:
    body = event.get("body") or ""
    if event.get("isBase64Encoded"):
        body = base64.b64decode(body).decode("utf-8", "replace")
    try:
        return json.loads(body)
    except (ValueError, TypeError):
        return None


def handle(event: dict[str, Any], service_factory: Any, secret: str | None) -> dict[str, Any]:
    headers = event.get("headers") if isinstance(event, dict) else None
    if not isinstance(headers, dict) or SECRET_HEADER not in {str(k).lower() for k in headers}:
        return _rejected(401)
    if not secret_ok(headers, secret):
        return _rejected(403)
    update = parse_body(event)
    try:
        service_factory().handle_update(update)
    except Exception:
        log.exception("update handling failed")
    return _response(200)


def _rejected(status: int) -> dict[str, Any]:
    tally = metrics.adopt()
    fields = {"outcome": "rejected", "status": status}
    log.warning("update rejected", extra=metrics.line("update", fields, tally))
    return _response(status)


def handler(event: dict[str, Any], context: Any = None) -> dict[str, Any]:
    global _cold
    from handlers import runtime

    tally = metrics.start()
    if _cold:
        tally.fields["cold_start"] = True
        _cold = False
    with metrics.timing("secrets"):
        secret = runtime.bot_secrets().webhook_secret
    headers = event.get("headers") if isinstance(event, dict) else None
    if isinstance(headers, dict) and not secret_ok(headers, secret):
        # Rotated since this container read it? Read again (at most once a minute).
        secret = runtime.bot_secrets(refresh=True).webhook_secret
    return handle(event, runtime.lambda_service, secret)
