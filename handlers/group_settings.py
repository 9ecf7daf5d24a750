"""A group's settings: game options (docs/rules.md §7), deadlines (§8), language, lobby expiry.

pydantic models: a stored or edited value that is out of range or of the wrong type is refused
with a ``pydantic.ValidationError`` naming the field (strict types: no ``"yes"`` for a switch,
no ``True`` for a number, no ``90.5`` seconds). Unknown stored keys (settings since removed)
are ignored; missing ones take their defaults.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

DEADLINE_KINDS = ("turn", "trade", "support", "window", "boost", "choice")

Language = Literal["en", "de", "zh-Hans"]
ItemSet = Literal["full", "beginner"]
AiLevel = Literal["ai", "expert"]

# (default, lowest, highest). Defaults measured with ``python -m devtools.pace`` (issue 9): each
# is about twice the longest think time of a brisk player, so a thinking player is never cut
# off, and three turns in a row let run out (R-D2) cost the table 3 minutes at most. Windows keep
# R-D1's minimum; the boost window lasts the same for everyone, so it is short.
DEADLINE_BOUNDS: dict[str, tuple[int, int, int]] = {
    "turn": (60, 10, 3600),  # think 8-35 s; 3 x 60 s before an AI stands in
    "trade": (30, 10, 3600),  # think 5-20 s
    # think 3-12 s; a newcomer also reads the fight and the declarations told before theirs
    # (issue 25: 15 s cut a newcomer off), so the trade answer's 30 s, reminded 15 s before
    "support": (30, 5, 3600),
    "window": (5, 5, 120),  # Priest / Hypnotist / Doctor windows: always this long
    "window_min": (5, 1, 60),  # R-D1: no window closes sooner
    "boost": (10, 5, 600),  # think 2-10 s; a card played adds a window's time
    "choice": (30, 10, 3600),
}

_CONFIG = ConfigDict(frozen=True, strict=True, extra="ignore")


def _seconds(kind: str) -> Any:
    default, low, high = DEADLINE_BOUNDS[kind]
    return Field(default=default, ge=low, le=high)


class Deadlines(BaseModel):
    model_config = _CONFIG

    turn: int = _seconds("turn")
    trade: int = _seconds("trade")
    support: int = _seconds("support")
    window: int = _seconds("window")
    window_min: int = _seconds("window_min")
    boost: int = _seconds("boost")
    choice: int = _seconds("choice")


class GroupSettings(BaseModel):
    model_config = _CONFIG

    language: Language = "en"
    items: ItemSet = "full"
    smuggling: bool = False
    fortune_telling: bool = False
    advanced_three: bool = False
    personal_scores: bool = False
    deadlines: Deadlines = Field(default_factory=Deadlines)
    lobby_minutes: Annotated[int, Field(ge=1, le=240)] = 15
    ai_fill: Annotated[int, Field(ge=0, le=10)] = 0  # fill the table with AI passengers to this
    ai_takeover: bool = True  # an AI plays for a player marked away (R-D2)
    ai_level: AiLevel = "ai"  # how the AI passengers play (engine.ai)

    def changed(self, **update: Any) -> GroupSettings:
        """A copy with ``update`` applied, validated like a stored value (pydantic's own
        ``model_copy`` does not validate)."""
        return GroupSettings.model_validate({**self.model_dump(), **update})

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
    "support": (10, 15, 20, 30, 60, 120),
    "window": (5, 8, 12, 20),
    "boost": (10, 15, 30, 60),
    "choice": (15, 30, 60, 300),
}
