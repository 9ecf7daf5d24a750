"""The lobby's group message: who has joined, the settings the game will use, its buttons."""

from __future__ import annotations

import html
from typing import Any

from engine.setup import MAX_PLAYERS
from handlers import callback_data
from handlers.group_settings import GroupSettings
from handlers.i18n import t
from handlers.messenger import Rows
from handlers.pipeline import Txn
from handlers.settings_view import settings_summary


def lobby_text(doc: dict[str, Any]) -> str:
    settings = GroupSettings.model_validate(doc["settings"])
    lang = settings.language
    names = "\n".join(
        f"{i + 1}. {html.escape(p['name'], quote=False)}" for i, p in enumerate(doc["players"])
    ) or t(lang, "lobby.nobody")
    return "\n\n".join(
        [
            t(lang, "lobby.title"),
            t(lang, "lobby.players", count=len(doc["players"]), max=MAX_PLAYERS) + "\n" + names,
            settings_summary(settings, lang),
            *([t(lang, "lobby.ai_fill", count=settings.ai_fill)] if settings.ai_fill else []),
            t(lang, "lobby.how_to_join", minutes=settings.lobby_minutes),
        ]
    )


def lobby_rows(bot_username: str, doc: dict[str, Any]) -> Rows:
    lang = GroupSettings.model_validate(doc["settings"]).language
    gid = doc["gid"]
    return [
        [[t(lang, "lobby.join"), "u", f"https://t.me/{bot_username}?start={gid}"]],
        [
            [t(lang, "lobby.leave"), "d", callback_data.lobby(gid, "leave")],
            [t(lang, "lobby.start"), "d", callback_data.lobby(gid, "start")],
        ],
    ]


def refresh_lobby(bot_username: str, txn: Txn) -> None:
    """Edit the lobby message to the lobby as it is now (send it if it has no id yet)."""
    text, rows = lobby_text(txn.doc), lobby_rows(bot_username, txn.doc)
    msg = txn.doc.get("lobby_msg")
    if msg:
        txn.edit(txn.doc["chat"], msg, text, rows, tag="lobby_edit")
    else:
        txn.send(txn.doc["chat"], text, rows, tag="lobby")
