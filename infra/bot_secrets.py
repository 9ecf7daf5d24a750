"""The bot token and the webhook secret: from Secrets Manager in AWS, the environment locally.

Read once per container and kept; read again only after ``max_age`` (so a rotated token reaches
every warm container within that time) or when the caller asks because a request carried a
secret that the kept one does not match (a webhook secret rotated a moment ago).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from infra import logs
from infra.settings import Settings

MAX_AGE_SECONDS = 900.0
REFRESH_AT_MOST_EVERY_SECONDS = 60.0


@dataclass(frozen=True)
class BotSecrets:
    """The bot token and the webhook secret; never in its ``repr`` (a log line or a traceback
    that shows the value shows no secret)."""

    token: str | None = field(repr=False)
    webhook_secret: str | None = field(repr=False)


def secrets_manager_value(arn: str) -> str:
    from infra import aws

    return str(aws.client("secretsmanager").get_secret_value(SecretId=arn)["SecretString"])


class SecretSource:
    def __init__(
        self,
        settings: Settings,
        fetch: Callable[[str], str] = secrets_manager_value,
        clock: Callable[[], float] = time.monotonic,
        max_age: float = MAX_AGE_SECONDS,
    ) -> None:
        self.settings = settings
        self._fetch = fetch
        self._clock = clock
        self._max_age = max_age
        self._lock = threading.Lock()
        self._value: BotSecrets | None = None
        self._read_at = 0.0
        self.reads = 0

    def get(self) -> BotSecrets:
        with self._lock:
            if self._value is None or self._clock() - self._read_at > self._max_age:
                self._read()
            assert self._value is not None
            return self._value

    def refresh(self) -> BotSecrets:
        """Read again unless the kept value is younger than a minute; the (new) value."""
        with self._lock:
            if self._value is None or (
                self._clock() - self._read_at > REFRESH_AT_MOST_EVERY_SECONDS
            ):
                self._read()
            assert self._value is not None
            return self._value

    def _read(self) -> None:
        s = self.settings
        token = self._fetch(s.bot_token_secret_arn) if s.bot_token_secret_arn else None
        secret = self._fetch(s.webhook_secret_arn) if s.webhook_secret_arn else None
        self._value = BotSecrets(
            (token or s.telegram_bot_token or "").strip() or None,
            (secret or s.telegram_webhook_secret or "").strip() or None,
        )
        self._read_at = self._clock()
        self.reads += 1
        logs.protect(self._value.token, self._value.webhook_secret)
