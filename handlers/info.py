"""Commands that only tell: /status, /rules, /help, /scores, /notes."""

from __future__ import annotations

import html
from typing import Protocol

import engine
from handlers import refusals, story, unit_of_work
from handlers.context import Reads, Replies
from handlers.game_record import LOBBY, PLAYING
from handlers.i18n import t
from handlers.lobby_view import lobby_rows, lobby_text
from handlers.refusals import NoGame
from handlers.rules_help import rules_text
from handlers.updates import CommandMsg

MAX_SCORE_LINES = 30


class Teller(Reads, Replies, Protocol):
    """What the info commands need: reads and direct replies."""

    @property
    def bot_username(self) -> str: ...


def cmd_status(bot: Teller, cmd: CommandMsg, lang: str) -> None:
    game = unit_of_work.reading(bot.store, lambda work: work.running_game(cmd.chat_id))
    if game is None:
        bot.messenger.send(cmd.chat_id, refusals.text(lang, NoGame()))
    elif game.phase == LOBBY:
        bot.messenger.send(cmd.chat_id, lobby_text(game), lobby_rows(bot.bot_username, game))
    else:
        shown = game.story.get("foot") if game.story else None  # as the group's is shown
        assert game.engine is not None  # a game being played has its state
        st = engine.State.from_dict(game.engine)
        bot.messenger.send(cmd.chat_id, shown or story.status_text(engine.public_view(st), lang))


def cmd_rules(bot: Replies, cmd: CommandMsg, lang: str) -> None:
    bot.messenger.send(cmd.chat_id, rules_text(lang, cmd.args))


def cmd_help(bot: Replies, cmd: CommandMsg, lang: str) -> None:
    key = "help.private" if cmd.chat_type == "private" else "help.group"
    bot.messenger.send(cmd.chat_id, t(lang, key))


def cmd_scores(bot: Teller, cmd: CommandMsg, lang: str) -> None:
    scores = unit_of_work.reading(bot.store, lambda work: work.chat(cmd.chat_id).scores)
    totals = sorted(scores.values(), key=lambda e: -e["points"])
    if not totals:
        bot.messenger.send(cmd.chat_id, t(lang, "scores.none"))
        return
    lines = [
        t(
            lang,
            "scores.line",
            rank=i + 1,
            name=html.escape(e["name"], quote=False),
            points=e["points"],
            games=e["games"],
        )
        for i, e in enumerate(totals[:MAX_SCORE_LINES])
    ]
    bot.messenger.send(cmd.chat_id, t(lang, "scores.title") + "\n" + "\n".join(lines))


def cmd_notes(bot: Teller, cmd: CommandMsg, lang: str) -> None:
    """The player's private notes of the game they are in."""
    game = unit_of_work.reading(
        bot.store, lambda work: work.other_game(work.user(cmd.user.id).game)
    )
    seat = game.seat_of(cmd.user.id) if game is not None and game.phase == PLAYING else None
    if game is None or game.engine is None or seat is None:
        bot.messenger.send(cmd.chat_id, t(lang, "notes.no_game"))
        return
    st = engine.State.from_dict(game.engine)
    bot.messenger.send(cmd.chat_id, story.notes_text(engine.view(st, seat), lang))
