"""A group's settings: game options (docs/rules.md §7), deadlines (§8), language, lobby expiry."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

DEADLINE_KINDS = ("turn", "trade", "support", "window", "boost", "choice")


class Deadlines(BaseModel):
    turn: int = Field(90, ge=10, le=3600)
    trade: int = Field(45, ge=10, le=3600)
    support: int = Field(20, ge=5, le=3600)
    window: int = Field(8, ge=5, le=120)  # Priest / Hypnotist / Doctor windows: always this long
    window_min: int = Field(5, ge=1, le=60)  # R-D1: no window (the boost too) closes sooner
    boost: int = Field(30, ge=5, le=600)
    choice: int = Field(30, ge=10, le=3600)


class GroupSettings(BaseModel):
    language: Literal["en", "de", "zh-Hans"] = "en"
    items: Literal["full", "beginner"] = "full"
    smuggling: bool = False
    fortune_telling: bool = False
    advanced_three: bool = False
    personal_scores: bool = False
    deadlines: Deadlines = Field(default_factory=lambda: Deadlines())
    lobby_minutes: int = Field(15, ge=1, le=240)
    ai_fill: int = Field(0, ge=0, le=10)  # fill the table with AI passengers up to this size
    ai_takeover: bool = True  # an AI plays for a player marked away (R-D2)

    def engine_options(self) -> dict[str, Any]:
        return {
            "items": self.items,
            "smuggling": self.smuggling,
            "fortune_telling": self.fortune_telling,
            "advanced_three": self.advanced_three,
            "personal_scores": self.personal_scores,
        }

    def seconds(self, deadline_kind: str) -> int:
        return int(getattr(self.deadlines, deadline_kind))


AI_FILL_CHOICES = (0, 3, 4, 5, 6, 8, 10)

# Values offered on the /settings buttons for each deadline.
DEADLINE_CHOICES: dict[str, tuple[int, ...]] = {
    "turn": (45, 90, 180, 600),
    "trade": (20, 45, 90, 300),
    "support": (10, 20, 40, 120),
    "window": (5, 8, 12, 20),
    "boost": (15, 30, 60),
    "choice": (15, 30, 60, 300),
}
