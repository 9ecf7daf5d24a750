"""Configuration from the environment; see the README's table for the variables."""

from __future__ import annotations

from pydantic import Field, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    model_config = SettingsConfigDict(
        case_sensitive=False, extra="ignore", populate_by_name=True, frozen=True
    )

    # Field names match their variables (case-insensitively) unless an alias says otherwise.
    telegram_bot_token: str | None = Field(default=None, repr=False)
    telegram_webhook_secret: str | None = Field(default=None, repr=False)
    telegram_api_base_url: str = "https://api.telegram.org"
    game_time_scale: float = Field(default=1.0, gt=0, allow_inf_nan=False)
    table_name: str | None = Field(default=None, validation_alias="GAME_TABLE_NAME")
    timer_queue_url: str | None = None
    db_path: str = Field(default="coach-ride.sqlite3", validation_alias="GAME_DB_PATH")

    @field_validator(
        "telegram_bot_token",
        "telegram_webhook_secret",
        "table_name",
        "timer_queue_url",
        mode="before",
    )
    @classmethod
    def _blank_is_unset(cls, value: object) -> object:
        # CloudFormation passes an empty parameter as "", which means "not configured".
        if isinstance(value, str) and not value.strip():
            return None
        return value.strip() if isinstance(value, str) else value

    @field_validator("telegram_api_base_url")
    @classmethod
    def _api_root(cls, value: str) -> str:
        root = value.strip().rstrip("/")
        if not root.startswith(("https://", "http://")):
            raise ValueError("TELEGRAM_API_BASE_URL must be an http(s) URL")
        return root

    def bot_api_base_url(self) -> str:
        """python-telegram-bot's ``base_url``; it appends the token: ``{root}/bot{token}``."""
        return f"{self.telegram_api_base_url}/bot"

    def bot_file_base_url(self) -> str:
        """python-telegram-bot's ``base_file_url``."""
        return f"{self.telegram_api_base_url}/file/bot"
