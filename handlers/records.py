"""The records beside the games: a group's (settings, scores, its current game) and a user's
(the game they are in, their language). ``handlers.unit_of_work`` reads and commits them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from handlers.group_settings import GroupSettings

LANGUAGE_CHOSEN = "language_chosen"  # in the chat document, once the group picked a language


@dataclass
class ChatRecord:
    """A group: its settings, its scores, its current game."""

    settings: dict[str, Any] = field(default_factory=dict)
    scores: dict[str, dict[str, Any]] = field(default_factory=dict)
    game: str | None = None
    language_chosen: bool = False  # the group picked a language (/settings, /language)
    extra: dict[str, Any] = field(default_factory=dict)  # keys this code does not know
    is_new: bool = False

    @classmethod
    def from_doc(cls, doc: dict[str, Any] | None) -> ChatRecord:
        if doc is None:
            return cls(is_new=True)
        known = {"settings", "scores", "game", LANGUAGE_CHOSEN}
        return cls(
            settings=dict(doc.get("settings", {})),
            scores={k: dict(v) for k, v in doc.get("scores", {}).items()},
            game=doc.get("game"),
            language_chosen=bool(doc.get(LANGUAGE_CHOSEN)),
            extra={k: v for k, v in doc.items() if k not in known},
        )

    @property
    def group_settings(self) -> GroupSettings:
        return GroupSettings.model_validate(self.settings)

    def to_doc(self) -> dict[str, Any]:
        doc = {**self.extra, "settings": self.settings, "scores": self.scores, "game": self.game}
        if self.language_chosen:
            doc[LANGUAGE_CHOSEN] = True
        return doc


@dataclass
class UserRecord:
    """A Telegram user: the game they are in, the language they chose."""

    game: str | None = None
    lang: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def from_doc(cls, doc: dict[str, Any] | None) -> UserRecord:
        doc = doc or {}
        extra = {k: v for k, v in doc.items() if k not in ("game", "lang")}
        return cls(game=doc.get("game"), lang=doc.get("lang"), extra=extra)

    def to_doc(self) -> dict[str, Any]:
        doc = {**self.extra, "game": self.game}
        if self.lang is not None:
            doc["lang"] = self.lang
        return doc
