"""Logging for the bot: one JSON object per line in Lambda, readable lines locally, no secret.

Lambda's Python runtime, with the template's ``LoggingConfig: LogFormat: JSON``, installs its own
root handler that writes JSON with the request id and every ``extra=`` field at the top level;
it is kept, and only gets the redaction filter. Locally a plain handler writes the message and
its fields. Either way the HTTP client and Telegram library loggers stay at WARNING: httpx logs
every request URL at INFO, and python-telegram-bot's URLs carry the bot token
(``…/bot<TOKEN>/sendMessage``) while its DEBUG lines carry message texts. The redaction filter
sits on the root handlers as a second guard: any line that still holds the token or the webhook
secret has it replaced, in the message, its fields and its traceback.
"""

from __future__ import annotations

import json
import logging
import os
import sys
import threading
import traceback
from typing import Any, TextIO

QUIET_LOGGERS = (
    "httpx",
    "httpcore",
    "telegram",
    "botocore",
    "boto3",
    "urllib3",
    "infra.http_pool",
    "asyncio",
)
REDACTED = "[redacted]"
# Attributes every LogRecord has; anything else on a record came in through ``extra=``.
_STANDARD = set(vars(logging.LogRecord("", 0, "", 0, "", None, None))) | {"message", "asctime"}


def in_lambda() -> bool:
    return bool(os.environ.get("AWS_LAMBDA_FUNCTION_NAME"))


def extra_fields(record: logging.LogRecord) -> dict[str, Any]:
    return {k: v for k, v in vars(record).items() if k not in _STANDARD and not k.startswith("_")}


class Redactor(logging.Filter):
    """Replaces known secrets in a record before any handler formats it."""

    def __init__(self) -> None:
        super().__init__()
        self._secrets: tuple[str, ...] = ()
        self._lock = threading.Lock()

    def protect(self, *secrets: str | None) -> None:
        """Add secrets to hide. A bot token ``<id>:<key>`` also hides its key part alone."""
        found = set(self._secrets)
        for secret in secrets:
            if not secret or len(secret) < 8:
                continue
            found.add(secret)
            _, _, key = secret.partition(":")
            if len(key) >= 16:
                found.add(key)
        with self._lock:
            self._secrets = tuple(sorted(found, key=len, reverse=True))

    def redact(self, text: str) -> str:
        for secret in self._secrets:
            if secret in text:
                text = text.replace(secret, REDACTED)
        return text

    def filter(self, record: logging.LogRecord) -> bool:
        if not self._secrets:
            return True
        message = record.getMessage()
        if record.exc_info and record.exc_info[1] is not None:
            # The runtime's JSON formatter prints str(exception) itself, which may hold a URL
            # with the token: the traceback moves into the message, redacted.
            error = record.exc_info[1]
            record.error_type = type(error).__name__
            message += "\n" + "".join(traceback.format_exception(*record.exc_info)).rstrip()
            record.exc_info = None
            record.exc_text = None
        record.msg, record.args = self.redact(message), None
        for name, value in extra_fields(record).items():
            if isinstance(value, str):
                setattr(record, name, self.redact(value))
            elif isinstance(value, dict | list | tuple):
                setattr(record, name, json.loads(self.redact(json.dumps(value, default=str))))
            elif value is not None and not isinstance(value, int | float):
                # The runtime's formatter prints any other value with str(): an exception, a
                # request object whose text holds a URL with the token.
                text = str(value)
                if (hidden := self.redact(text)) != text:
                    setattr(record, name, hidden)
        return True


REDACTOR = Redactor()


def _redacting_excepthook(kind: type[BaseException], error: BaseException, tb: Any) -> None:
    """What escapes to the interpreter is printed as it would be, with the secrets hidden."""
    sys.stderr.write(REDACTOR.redact("".join(traceback.format_exception(kind, error, tb))))


class FieldsFormatter(logging.Formatter):
    """Local lines: ``time level logger: message {fields as JSON}``."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s: %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        line = super().format(record)
        fields = extra_fields(record)
        return f"{line} {json.dumps(fields, default=str, ensure_ascii=False)}" if fields else line


def configure_logging(level: int = logging.INFO, stream: TextIO | None = None) -> None:
    """Idempotent. In Lambda keep the runtime's JSON handler; elsewhere install a plain one."""
    root = logging.getLogger()
    if not root.handlers or (stream is not None and not in_lambda()):
        handler = logging.StreamHandler(stream or sys.stderr)
        handler.setFormatter(FieldsFormatter())
        root.handlers = [h for h in root.handlers if not getattr(h, "_coachride", False)]
        handler._coachride = True  # type: ignore[attr-defined]
        root.addHandler(handler)
    if not in_lambda():
        # In Lambda the runtime sets the level from the function's ApplicationLogLevel.
        root.setLevel(level)
    for installed in root.handlers:
        if REDACTOR not in installed.filters:
            installed.addFilter(REDACTOR)
    for name in QUIET_LOGGERS:
        logging.getLogger(name).setLevel(logging.WARNING)
    if not in_lambda():
        sys.excepthook = _redacting_excepthook


def protect(*secrets: str | None) -> None:
    REDACTOR.protect(*secrets)


def redact(text: str) -> str:
    return REDACTOR.redact(text)


__all__ = ["REDACTOR", "Redactor", "configure_logging", "extra_fields", "protect", "redact"]
