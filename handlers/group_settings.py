"""A group's settings: game options (docs/rules.md §7), deadlines (§8), language, lobby expiry."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

DEADLINE_KINDS = ("turn", "trade", "support", "window", "boost", "choice")


class Deadlines(BaseModel):
    """Defaults measured with ``python -m handlers.pace`` (issue 9): each is about twice the
    longest think time of a brisk player, so a thinking player is never cut off, and three
    turns in a row let run out (R-D2) cost the table 3 minutes at most. Windows keep R-D1's
    minimum; the boost window lasts the same for everyone, so it is short."""

    turn: int = Field(60, ge=10, le=3600)  # think 8-35 s; 3 x 60 s before an AI stands in
    trade: int = Field(30, ge=10, le=3600)  # think 5-20 s
    support: int = Field(15, ge=5, le=3600)  # think 3-12 s
    window: int = Field(5, ge=5, le=120)  # Priest / Hypnotist / Doctor windows: always this long
    window_min: int = Field(5, ge=1, le=60)  # R-D1: no window closes sooner
    boost: int = Field(10, ge=5, le=600)  # think 2-10 s; a card played adds a window's time
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
    "turn": (45, 60, 90, 180, 600),
    "trade": (20, 30, 45, 90, 300),
    "support": (10, 15, 20, 40, 120),
    "window": (5, 8, 12, 20),
    "boost": (10, 15, 30, 60),
    "choice": (15, 30, 60, 300),
}
