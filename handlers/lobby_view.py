"""The lobby's group message: who has joined, the settings the game will use, its buttons."""

from __future__ import annotations

import html

from engine.setup import MAX_PLAYERS
from handlers import callback_data
from handlers.game_record import GameRecord
from handlers.i18n import t
from handlers.settings_view import settings_summary
from handlers.transaction import Txn
from infra.ports import Rows


def lobby_text(game: GameRecord, closed: str | None = None) -> str:
    """Who will play: the passengers who joined and, with the AI fill on, the AI passengers who
    take the seats left at Start (issue 25: "1/10" read as one player while five would ride).
    ``closed``: the lobby is over (started, cancelled): this line instead of how to join, which
    read as an invitation after the coach had left (issue 25, read in a whole game)."""
    settings = game.settings
    lang = settings.language
    humans = [html.escape(p.name, quote=False) for p in game.players]
    ai = max(0, min(settings.ai_fill, MAX_PLAYERS) - len(humans))
    seats = humans + [t(lang, "lobby.ai_seat")] * ai
    names = "\n".join(f"{i + 1}. {name}" for i, name in enumerate(seats)) or t(lang, "lobby.nobody")
    if ai:
        count = t(lang, "lobby.players_ai", count=len(seats), max=MAX_PLAYERS, ai=ai)
    else:
        count = t(lang, "lobby.players", count=len(seats), max=MAX_PLAYERS)
    return "\n\n".join(
        [
            t(lang, "lobby.title"),
            count + "\n" + names,
            settings_summary(settings, lang),
            closed or t(lang, "lobby.how_to_join", minutes=settings.lobby_minutes),
        ]
    )


def lobby_version(game: GameRecord) -> str:
    """The version the lobby's buttons carry: who has joined and the settings it shows."""
    return callback_data.version_of([[p.uid for p in game.players], game.settings_doc()])


def lobby_rows(bot_username: str, game: GameRecord) -> Rows:
    lang = game.settings.language
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
