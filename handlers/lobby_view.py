"""The lobby's group message: who has joined, the settings the game will use, its buttons."""

from __future__ import annotations

import html

from engine.setup import MAX_PLAYERS
from handlers import callback_data
from handlers.game_record import GameRecord
from handlers.i18n import t
from handlers.messenger import Rows
from handlers.pipeline import Txn
from handlers.settings_view import settings_summary


def lobby_text(game: GameRecord) -> str:
    settings = game.group_settings
    lang = settings.language
    names = "\n".join(
        f"{i + 1}. {html.escape(p.name, quote=False)}" for i, p in enumerate(game.players)
    ) or t(lang, "lobby.nobody")
    return "\n\n".join(
        [
            t(lang, "lobby.title"),
            t(lang, "lobby.players", count=len(game.players), max=MAX_PLAYERS) + "\n" + names,
            settings_summary(settings, lang),
            *([t(lang, "lobby.ai_fill", count=settings.ai_fill)] if settings.ai_fill else []),
            t(lang, "lobby.how_to_join", minutes=settings.lobby_minutes),
        ]
    )


def lobby_version(game: GameRecord) -> str:
    """The version the lobby's buttons carry: who has joined and the settings it shows."""
    return callback_data.version_of([[p.uid for p in game.players], game.settings])


def lobby_rows(bot_username: str, game: GameRecord) -> Rows:
    lang = game.group_settings.language
    gid, version = game.gid, lobby_version(game)
    return [
        [[t(lang, "lobby.join"), "u", f"https://t.me/{bot_username}?start={gid}"]],
        [
            [t(lang, "lobby.leave"), "d", callback_data.lobby(gid, "leave", version)],
            [t(lang, "lobby.start"), "d", callback_data.lobby(gid, "start", version)],
        ],
    ]


def refresh_lobby(bot_username: str, txn: Txn, game: GameRecord) -> None:
    """Edit the lobby message to the lobby as it is now (send it if it has no id yet)."""
    text, rows = lobby_text(game), lobby_rows(bot_username, game)
    if game.lobby_msg:
        txn.edit(game.chat, game.lobby_msg, text, rows, tag="lobby_edit")
    else:
        txn.send(game.chat, text, rows, tag="lobby")
