"""Configuration from the environment; see the README's table for the variables.

A plain dataclass rather than pydantic-settings: every Lambda cold start reads it, and importing
pydantic-settings cost about 100 ms of the first update's imports.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, field


def _env(name: str) -> str | None:
    # CloudFormation passes an empty parameter as "", which means "not configured".
    value = os.environ.get(name, "").strip()
    return value or None


def _scale() -> float:
    """The number read; whether it is a usable scale is checked once, in ``__post_init__``."""
    raw = _env("GAME_TIME_SCALE") or "1"
    try:
        return float(raw)
    except ValueError:
        raise ValueError(f"GAME_TIME_SCALE must be a number, not {raw!r}") from None


@dataclass(frozen=True)
class Settings:
    telegram_bot_token: str | None = field(
        default_factory=lambda: _env("TELEGRAM_BOT_TOKEN"), repr=False
    )
    telegram_webhook_secret: str | None = field(
        default_factory=lambda: _env("TELEGRAM_WEBHOOK_SECRET"), repr=False
    )
    telegram_api_base_url: str = field(
        default_factory=lambda: _env("TELEGRAM_API_BASE_URL") or "https://api.telegram.org"
    )
    game_time_scale: float = field(default_factory=_scale)
    table_name: str | None = field(default_factory=lambda: _env("GAME_TABLE_NAME"))
    timer_queue_url: str | None = field(default_factory=lambda: _env("TIMER_QUEUE_URL"))
    db_path: str = field(default_factory=lambda: _env("GAME_DB_PATH") or "coach-ride.sqlite3")
    # In AWS the token and the webhook secret live in Secrets Manager (see infra/bot_secrets.py).
    bot_token_secret_arn: str | None = field(default_factory=lambda: _env("BOT_TOKEN_SECRET_ARN"))
    webhook_secret_arn: str | None = field(default_factory=lambda: _env("WEBHOOK_SECRET_ARN"))

    def __post_init__(self) -> None:
        root = self.telegram_api_base_url.strip().rstrip("/")
        if not root.startswith(("https://", "http://")):
            raise ValueError("TELEGRAM_API_BASE_URL must be an http(s) URL")
        object.__setattr__(self, "telegram_api_base_url", root)
        if not math.isfinite(self.game_time_scale) or self.game_time_scale <= 0:
            raise ValueError(
                f"GAME_TIME_SCALE must be a positive number, not {self.game_time_scale!r}"
            )

    def bot_api_base_url(self) -> str:
        """The Bot API root plus ``/bot``; the client (infra.bot_api on the webhook path,
        python-telegram-bot's ``Bot`` on long polling) appends the token: ``{root}/bot{token}``."""
        return f"{self.telegram_api_base_url}/bot"
