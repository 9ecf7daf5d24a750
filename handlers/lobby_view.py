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


# Telegram counts a group's edits in its 20 messages a minute: the lobby message is edited at
# most this often in any 60 s (a lobby filling up needs about one per player); more wait for a
# slot, the newest text replacing the one waiting. A stranger joining by the lobby's link and
# leaving by its button 30 times in 15 s made Telegram hold the group 51 s, and the game's
# start with it.
LOBBY_EDITS_PER_MINUTE = 10
# A settings change shows in the lobby at once; one made less than this after the lobby's last
# edit shows this long after that edit, with any made meanwhile: a newcomer setting seven
# deadlines and the 🤖 number in 12 s cost the group two edits a press (the menu's and the
# lobby's), Telegram held it for 37 s and the coach departed that much later. (A Start or Leave
# pressed on a lobby whose edit waits acts on the lobby as it is, ``handlers.lobby``.)
SETTINGS_SETTLE_SECONDS = 10.0


def refresh_lobby(bot_username: str, txn: Txn, game: GameRecord, settle: float = 0.0) -> None:
    """Edit the lobby message to the lobby as it is now (send it if it has no id yet), at most
    ``LOBBY_EDITS_PER_MINUTE`` times a minute and, given ``settle``, no sooner than that after
    its last edit."""
    text, rows = lobby_text(game), lobby_rows(bot_username, game)
    if game.lobby_msg:
        after = _lobby_slot(txn, game, settle)
        txn.edit(game.chat, game.lobby_msg, text, rows, tag="lobby_edit", after=after)
    else:
        txn.send(game.chat, text, rows, tag="lobby")


def _lobby_slot(txn: Txn, game: GameRecord, settle: float = 0.0) -> float | None:
    """When the lobby message's next edit may go (None: now), from the times of its last
    ``LOBBY_EDITS_PER_MINUTE`` edits (``GameRecord.lobby_edits``), and no sooner than ``settle``
    after the last of them."""
    now = txn.now
    recent = [x for x in game.lobby_edits if x > now - 60.0]
    if recent and recent[-1] > now:
        return recent[-1]  # an edit waits for its slot: this one takes its place
    at = now if len(recent) < LOBBY_EDITS_PER_MINUTE else recent[-LOBBY_EDITS_PER_MINUTE] + 60.0
    if settle and recent:  # a burst: its first change at once, the rest together after
        at = max(at, recent[-1] + settle)
    game.lobby_edits = [*recent, at][-LOBBY_EDITS_PER_MINUTE:]
    return at if at > now else None
