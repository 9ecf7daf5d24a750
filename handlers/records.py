"""The chat and user records beside a game: reading them, and a game's pointers in them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from handlers.group_settings import GroupSettings
from handlers.i18n import negotiate
from handlers.pipeline import Txn, chat_key, game_key, user_key
from infra.ports import DocumentStore

ACTIVE = ("lobby", "playing")
LANGUAGE_CHOSEN = "language_chosen"  # in the chat document, once the group picked a language


def chat_settings(
    store: DocumentStore, chat_id: int
) -> tuple[GroupSettings, dict[str, Any], int | None]:
    """The group's settings, its record (a fresh one if it has none) and that record's version."""
    loaded = store.get(chat_key(chat_id))
    doc = loaded.doc if loaded else {"settings": {}, "scores": {}, "game": None}
    return (
        GroupSettings.model_validate(doc.get("settings", {})),
        doc,
        loaded.version if loaded else None,
    )


def user_lang(store: DocumentStore, uid: int, language_code: str | None) -> str:
    """The language the user chose with /language, else their Telegram language."""
    loaded = store.get(user_key(uid))
    if loaded and loaded.doc.get("lang"):
        return str(loaded.doc["lang"])
    return negotiate(language_code)


def running_game(store: DocumentStore, chat_doc: dict[str, Any]) -> dict[str, Any] | None:
    """The chat's game while it is a lobby or being played."""
    if not chat_doc.get("game"):
        return None
    g = store.get(game_key(chat_doc["game"]))
    return g.doc if g and g.doc.get("phase") in ACTIVE else None


def clear_pointer(records: Records, uid: int) -> None:
    """The user is no longer in the game of the records' transaction (may join another)."""
    user = records.user(uid)
    if user.game == records.txn.doc["gid"]:
        user.game = None


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


class Records:
    """The unit of work for the chat and user records a game's change reads and changes: each
    is read once per attempt (with its version), and ``commit`` puts those that changed (a new
    one only once something was set) into the game's transaction, version-checked, so they are
    written with the game or not at all."""

    def __init__(self, store: DocumentStore, txn: Txn) -> None:
        self.store = store
        self.txn = txn
        self._chats: dict[int, tuple[ChatRecord, dict[str, Any] | None, int | None]] = {}
        self._users: dict[int, tuple[UserRecord, dict[str, Any] | None, int | None]] = {}

    def chat(self, chat_id: int) -> ChatRecord:
        if chat_id not in self._chats:
            loaded = self.store.get(chat_key(chat_id))
            doc, version = (loaded.doc, loaded.version) if loaded else (None, None)
            self._chats[chat_id] = (ChatRecord.from_doc(doc), doc, version)
        return self._chats[chat_id][0]

    def user(self, uid: int) -> UserRecord:
        if uid not in self._users:
            loaded = self.store.get(user_key(uid))
            doc, version = (loaded.doc, loaded.version) if loaded else (None, None)
            self._users[uid] = (UserRecord.from_doc(doc), doc, version)
        return self._users[uid][0]

    def commit(self) -> None:
        for chat_id, (chat, before, version) in self._chats.items():
            if chat.to_doc() != ChatRecord.from_doc(before).to_doc():
                self.txn.put(chat_key(chat_id), chat.to_doc(), version)
        for uid, (user, before_user, version) in self._users.items():
            if user.to_doc() != UserRecord.from_doc(before_user).to_doc():
                self.txn.put(user_key(uid), user.to_doc(), version)
