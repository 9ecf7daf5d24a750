"""The chat and user records beside a game: reading them, and a game's pointers in them."""

from __future__ import annotations

from typing import Any

from handlers.group_settings import GroupSettings
from handlers.i18n import negotiate
from handlers.service import Txn, chat_key, game_key, user_key
from infra.ports import DocumentStore

ACTIVE = ("lobby", "playing")


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


def clear_pointer(store: DocumentStore, txn: Txn, uid: int) -> None:
    """The user is no longer in the game of ``txn`` (so they may join another)."""
    user = store.get(user_key(uid))
    if user and user.doc.get("game") == txn.doc["gid"]:
        txn.put(user_key(uid), {**user.doc, "game": None}, user.version)
    txn.changed = True
