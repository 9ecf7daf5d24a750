"""A group's settings: game options (docs/rules.md §7), deadlines (§8), language, lobby expiry.

Plain dataclasses with pydantic's three method names (``model_validate``, ``model_dump``,
``model_copy``): every update reads a group's settings, and importing pydantic cost the Lambda
about 200 ms CPU of its cold start (and 9 MB of its package).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields, replace
from typing import Any, Literal, get_args

DEADLINE_KINDS = ("turn", "trade", "support", "window", "boost", "choice")

Language = Literal["en", "de", "zh-Hans"]
ItemSet = Literal["full", "beginner"]


class SettingsError(ValueError):
    """Stored or submitted settings that are out of range or of the wrong type."""


def _int(name: str, value: Any, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise SettingsError(f"{name}: not a number: {value!r}")
    try:
        number = int(value)
    except ValueError:
        raise SettingsError(f"{name}: not a whole number: {value!r}") from None
    if number != float(value) or not low <= number <= high:
        raise SettingsError(f"{name}: {value!r} is not a whole number in {low}..{high}")
    return number


def _choice(name: str, value: Any, allowed: tuple[str, ...]) -> str:
    if value not in allowed:
        raise SettingsError(f"{name}: {value!r} is not one of {allowed}")
    return str(value)


def _bool(name: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise SettingsError(f"{name}: not true or false: {value!r}")
    return value


# (default, lowest, highest) seconds
DEADLINE_BOUNDS: dict[str, tuple[int, int, int]] = {
    "turn": (90, 10, 3600),
    "trade": (45, 10, 3600),
    "support": (20, 5, 3600),
    "window": (8, 5, 120),  # Priest / Hypnotist / Doctor windows: always this long
    "window_min": (5, 1, 60),  # R-D1: no window (the boost too) closes sooner
    "boost": (30, 5, 600),
    "choice": (30, 10, 3600),
}


@dataclass(frozen=True)
class Deadlines:
    turn: int = 90
    trade: int = 45
    support: int = 20
    window: int = 8
    window_min: int = 5
    boost: int = 30
    choice: int = 30

    def __post_init__(self) -> None:
        for name, (_, low, high) in DEADLINE_BOUNDS.items():
            object.__setattr__(
                self, name, _int(f"deadlines.{name}", getattr(self, name), low, high)
            )

    @classmethod
    def model_validate(cls, data: Any) -> Deadlines:
        if isinstance(data, Deadlines):
            return data
        if not isinstance(data, dict):
            raise SettingsError(f"deadlines: not an object: {data!r}")
        return cls(**{k: v for k, v in data.items() if k in DEADLINE_BOUNDS})


@dataclass(frozen=True)
class GroupSettings:
    language: Language = "en"
    items: ItemSet = "full"
    smuggling: bool = False
    fortune_telling: bool = False
    advanced_three: bool = False
    personal_scores: bool = False
    deadlines: Deadlines = field(default_factory=Deadlines)
    lobby_minutes: int = 15
    ai_fill: int = 0  # fill the table with AI passengers up to this size
    ai_takeover: bool = True  # an AI plays for a player marked away (R-D2)
    ai_level: Literal["ai", "expert"] = "ai"  # how the AI passengers play (engine.ai)

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        set_(self, "language", _choice("language", self.language, get_args(Language)))
        set_(self, "items", _choice("items", self.items, get_args(ItemSet)))
        for name in ("smuggling", "fortune_telling", "advanced_three", "personal_scores"):
            set_(self, name, _bool(name, getattr(self, name)))
        set_(self, "ai_takeover", _bool("ai_takeover", self.ai_takeover))
        set_(self, "deadlines", Deadlines.model_validate(self.deadlines))
        set_(self, "lobby_minutes", _int("lobby_minutes", self.lobby_minutes, 1, 240))
        set_(self, "ai_fill", _int("ai_fill", self.ai_fill, 0, 10))

    @classmethod
    def model_validate(cls, data: Any) -> GroupSettings:
        """From a stored or edited dict; unknown keys are ignored, missing ones take defaults."""
        if isinstance(data, GroupSettings):
            return data
        if not isinstance(data, dict):
            raise SettingsError(f"settings: not an object: {data!r}")
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in known})

    def model_dump(self) -> dict[str, Any]:
        return asdict(self)

    def model_copy(self, update: dict[str, Any] | None = None) -> GroupSettings:
        return replace(self, **(update or {}))

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
