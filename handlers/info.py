"""Commands that only tell: /status, /rules, /help, /scores, /notes."""

from __future__ import annotations

import html
from typing import Protocol

import engine
from handlers import refusals, story
from handlers.context import Reads, Replies
from handlers.i18n import t
from handlers.lobby_view import lobby_rows, lobby_text
from handlers.pipeline import game_key, user_key
from handlers.records import running_game
from handlers.refusals import NoGame
from handlers.rules_help import rules_text
from handlers.updates import CommandMsg

MAX_SCORE_LINES = 30


class Teller(Reads, Replies, Protocol):
    """What the info commands need: reads and direct replies."""

    @property
    def bot_username(self) -> str: ...


def cmd_status(bot: Teller, cmd: CommandMsg, lang: str) -> None:
    _, chat_doc, _ = bot.chat_settings(cmd.chat_id)
    doc = running_game(bot.store, chat_doc)
    if doc is None:
        bot.messenger.send(cmd.chat_id, refusals.text(lang, NoGame()))
    elif doc["phase"] == "lobby":
        bot.messenger.send(cmd.chat_id, lobby_text(doc), lobby_rows(bot.bot_username, doc))
    else:
        shown = (doc.get("status") or {}).get("text")
        st = engine.State.from_dict(doc["engine"])
        bot.messenger.send(cmd.chat_id, shown or story.status_text(engine.public_view(st), lang))


def cmd_rules(bot: Replies, cmd: CommandMsg, lang: str) -> None:
    bot.messenger.send(cmd.chat_id, rules_text(lang, cmd.args))


def cmd_help(bot: Replies, cmd: CommandMsg, lang: str) -> None:
    key = "help.private" if cmd.chat_type == "private" else "help.group"
    bot.messenger.send(cmd.chat_id, t(lang, key))


def cmd_scores(bot: Teller, cmd: CommandMsg, lang: str) -> None:
    _, chat_doc, _ = bot.chat_settings(cmd.chat_id)
    totals = sorted(chat_doc.get("scores", {}).values(), key=lambda e: -e["points"])
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
    user = bot.store.get(user_key(cmd.user.id))
    gid = user.doc.get("game") if user else None
    g = bot.store.get(game_key(gid)) if gid else None
    if g is None or g.doc.get("phase") != "playing":
        bot.messenger.send(cmd.chat_id, t(lang, "notes.no_game"))
        return
    seat = next((i for i, p in enumerate(g.doc["players"]) if p["uid"] == cmd.user.id), None)
    if seat is None:
        bot.messenger.send(cmd.chat_id, t(lang, "notes.no_game"))
        return
    st = engine.State.from_dict(g.doc["engine"])
    bot.messenger.send(cmd.chat_id, story.notes_text(engine.view(st, seat), lang))
