"""The lobby: /newgame, joining (/start <game> in private), leaving, starting, cancelling, and a
lobby that nobody touched for a while closing by itself."""

from __future__ import annotations

from typing import Any

import engine
from engine.setup import MAX_PLAYERS, MIN_PLAYERS
from handlers import refusals, story
from handlers.callback_data import LobbyButton
from handlers.context import Rooms
from handlers.game_end import after_play
from handlers.game_runner import GameRunner
from handlers.group_settings import GroupSettings
from handlers.i18n import t
from handlers.lobby_view import lobby_rows, lobby_text, refresh_lobby
from handlers.pipeline import Txn, game_key, new_game_id, user_key
from handlers.presenter import Presenter
from handlers.records import ACTIVE, LANGUAGE_CHOSEN, Records, clear_pointer
from handlers.refusals import (
    AlreadyJoined,
    AlreadyRunning,
    InOtherGame,
    LobbyFull,
    LobbyNotOpen,
    NoGame,
    NoLobby,
    NotManager,
    Refusal,
    TooFew,
)
from handlers.updates import ButtonPress, CommandMsg


def may_manage(rooms: Rooms, doc: dict[str, Any] | None, chat_id: int, uid: int) -> bool:
    """The game's creator and the group's admins start, cancel and configure."""
    return (doc is not None and doc.get("creator") == uid) or rooms.is_admin(chat_id, uid)


# -- /newgame ---------------------------------------------------------------------------------
def cmd_newgame(rooms: Rooms, cmd: CommandMsg, lang: str) -> None:
    settings, chat_doc, _ = rooms.chat_settings(cmd.chat_id)
    if chat_doc.get("game"):
        running = rooms.store.get(game_key(chat_doc["game"]))
        if running and running.doc.get("phase") in ACTIVE:
            rooms.messenger.send(cmd.chat_id, refusals.text(lang, AlreadyRunning()))
            return
    if not chat_doc.get(LANGUAGE_CHOSEN):
        # Until the group picks a language (/settings, /language), it speaks its creator's.
        creator_lang = rooms.user_lang(cmd.user.id, cmd.user.language_code)
        settings = settings.model_copy(update={"language": creator_lang})
    gid = new_game_id()
    doc = {
        "gid": gid,
        "chat": cmd.chat_id,
        "phase": "lobby",
        "creator": cmd.user.id,
        "players": [],
        "settings": settings.model_dump(),
        "touched": rooms.clock.now(),
        "engine": None,
        "seq": 0,
        "outbox": [],
    }

    def change(txn: Txn) -> None:
        records = Records(rooms.store, txn)
        chat = records.chat(cmd.chat_id)
        chat.game = gid
        if not chat.language_chosen or chat.is_new:
            chat.settings = settings.model_dump()
        records.commit()
        _lobby_due(txn, settings)
        txn.send(
            cmd.chat_id, lobby_text(txn.doc), lobby_rows(rooms.bot_username, txn.doc), tag="lobby"
        )

    rooms.pipeline.run(game_key(gid), change, cmd.update_id, create=doc)


def _lobby_due(txn: Txn, settings: GroupSettings) -> None:
    txn.doc["touched"] = txn.now
    txn.doc["due"] = {"dec": 0, "at": txn.now + settings.lobby_minutes * 60}


# -- joining and leaving ----------------------------------------------------------------------
def cmd_start_private(rooms: Rooms, cmd: CommandMsg, lang: str) -> None:
    """/start <game>: the lobby's join link opens the private chat with this."""
    gid = cmd.args
    if not gid:
        rooms.messenger.send(cmd.chat_id, t(lang, "bot.welcome", bot=rooms.bot_username))
        return
    user = rooms.store.get(user_key(cmd.user.id))
    other = user.doc.get("game") if user else None
    if other and other != gid:
        busy = rooms.store.get(game_key(other))
        if busy and busy.doc.get("phase") in ACTIVE:
            rooms.messenger.send(cmd.chat_id, refusals.text(lang, InOtherGame()))
            return

    def change(txn: Txn) -> None:
        doc = txn.doc
        try:
            _check_join(doc, cmd.user.id)
        except Refusal as refused:
            txn.send(cmd.chat_id, refusals.text(lang, refused))
            return
        doc["players"].append({"uid": cmd.user.id, "name": cmd.user.name, "lang": lang})
        records = Records(rooms.store, txn)
        records.user(cmd.user.id).game = gid
        records.commit()
        _lobby_due(txn, GroupSettings.model_validate(doc["settings"]))
        txn.send(cmd.chat_id, t(lang, "lobby.joined"))
        refresh_lobby(rooms.bot_username, txn)

    if rooms.pipeline.run(game_key(gid), change, cmd.update_id) is None:
        rooms.messenger.send(cmd.chat_id, refusals.text(lang, LobbyNotOpen()))


def _check_join(doc: dict[str, Any], uid: int) -> None:
    if doc["phase"] != "lobby":
        raise LobbyNotOpen
    if any(p["uid"] == uid for p in doc["players"]):
        raise AlreadyJoined
    if len(doc["players"]) >= MAX_PLAYERS:
        raise LobbyFull


def remove_player(rooms: Rooms, txn: Txn, uid: int) -> None:
    doc = txn.doc
    before = len(doc["players"])
    doc["players"] = [p for p in doc["players"] if p["uid"] != uid]
    if len(doc["players"]) == before:
        return
    records = Records(rooms.store, txn)
    clear_pointer(records, uid)
    records.commit()
    refresh_lobby(rooms.bot_username, txn)


def press(rooms: Rooms, p: ButtonPress, button: LobbyButton) -> str:
    """The lobby message's Leave and Start buttons."""
    lang = rooms.user_lang(p.user.id, p.user.language_code)
    if button.what == "start":
        _start(rooms, button.gid, p.chat_id, p.user.id, p.update_id, lang, p.query_id)
        return "lobby_start"

    def change(txn: Txn) -> None:
        if txn.doc["phase"] == "lobby" and txn.doc["chat"] == p.chat_id:
            remove_player(rooms, txn, p.user.id)

    if rooms.pipeline.run(game_key(button.gid), change, p.update_id, query=p.query_id) is None:
        rooms.messenger.answer(p.query_id)
    return "lobby_leave"


# -- starting -----------------------------------------------------------------------------------
def cmd_startgame(rooms: Rooms, cmd: CommandMsg, lang: str) -> None:
    _, chat_doc, _ = rooms.chat_settings(cmd.chat_id)
    gid = chat_doc.get("game")
    if not gid:
        rooms.messenger.send(cmd.chat_id, refusals.text(lang, NoLobby()))
        return
    _start(rooms, gid, cmd.chat_id, cmd.user.id, cmd.update_id, lang, None)


def _start(
    rooms: Rooms, gid: str, chat_id: int, uid: int, update_id: int, lang: str, query: str | None
) -> None:
    """Start the lobby's game: by command (refusals said in the group) or button (toasts)."""

    def change(txn: Txn) -> None:
        doc = txn.doc
        try:
            _check_start(rooms, doc, chat_id, uid)
        except LobbyNotOpen as refused:
            txn.toast = refusals.toast(lang, refused)
            return
        except Refusal as refused:
            txn.toast = refusals.toast(lang, refused)
            if query is None:
                txn.send(chat_id, refusals.text(lang, refused))
            return
        start_game(rooms, txn)

    if rooms.pipeline.run(game_key(gid), change, update_id, query=query) is None and query:
        rooms.messenger.answer(query, refusals.text(lang, LobbyNotOpen()))


def _check_start(rooms: Rooms, doc: dict[str, Any], chat_id: int, uid: int) -> None:
    if doc["phase"] != "lobby" or doc["chat"] != chat_id:
        raise LobbyNotOpen
    if not may_manage(rooms, doc, doc["chat"], uid):
        raise NotManager
    fill = GroupSettings.model_validate(doc["settings"]).ai_fill
    if max(len(doc["players"]), fill) < MIN_PLAYERS or not doc["players"]:
        raise TooFew


def start_game(rooms: Rooms, txn: Txn) -> None:
    doc = txn.doc
    settings = GroupSettings.model_validate(doc["settings"])
    seed = int.from_bytes(doc["gid"].encode()[:8], "big") ^ int(txn.now * 1000)
    add_ai_passengers(doc, settings, seed)
    names = [p["name"] for p in doc["players"]]
    state, events = engine.new_game(names, seed, settings.engine_options())
    doc["phase"] = "playing"
    doc["engine"] = state.to_dict()
    doc["due"] = None
    if doc.get("lobby_msg"):
        txn.edit(
            doc["chat"],
            doc["lobby_msg"],
            lobby_text(doc) + "\n\n" + t(settings.language, "lobby.started"),
            None,
            tag="lobby_edit",
        )
    table = GameRunner(txn, rooms.scale)
    txn.send(
        doc["chat"],
        story.seat_order_text(engine.public_view(state), settings.language),
        tag="start",
    )
    for seat in range(state.n):
        if table.is_ai(seat):
            continue  # an AI passenger has no chat: writing to it would mark it unreachable
        txn.send(
            table.chat_of(seat),
            story.dossier_text(engine.view(state, seat), table.lang_of(seat)),
            tag="dossier",
        )
    table.events = [e for e in events if e.kind not in ("game_started", "dealt")]
    table.settle()
    after_play(rooms.store, rooms.bot_username, txn, table)


def add_ai_passengers(doc: dict[str, Any], settings: GroupSettings, seed: int) -> None:
    """Fill the table up to the chosen size with AI passengers, marked and named as such.
    They sit among the humans at random, so the seat gives nothing away."""
    lang = settings.language
    names = t(lang, "ai.names").split(",")
    missing = max(0, min(MAX_PLAYERS, settings.ai_fill) - len(doc["players"]))
    for i in range(missing):
        name = t(lang, "ai.marker", name=names[(seed + i) % len(names)])
        slot = (seed >> (4 * i)) % (len(doc["players"]) + 1)
        doc["players"].insert(slot, {"uid": -(i + 1), "name": name, "lang": lang, "ai": True})


# -- ending without a result -----------------------------------------------------------------
def expire_if_due(rooms: Rooms, txn: Txn) -> None:
    doc = txn.doc
    settings = GroupSettings.model_validate(doc["settings"])
    if txn.now < doc["touched"] + settings.lobby_minutes * 60:
        return
    _cancel(rooms, txn, "lobby.expired")


def _cancel(rooms: Rooms, txn: Txn, key: str) -> None:
    doc = txn.doc
    lang = GroupSettings.model_validate(doc["settings"]).language
    doc["phase"] = "cancelled"
    doc["due"] = None
    records = Records(rooms.store, txn)
    chat = records.chat(doc["chat"])
    if chat.game == doc["gid"]:
        chat.game = None
    for p in doc["players"]:
        if not p.get("ai"):
            clear_pointer(records, p["uid"])
    records.commit()
    if doc.get("lobby_msg") and doc.get("engine") is None:
        txn.edit(doc["chat"], doc["lobby_msg"], lobby_text(doc), None, tag="lobby_edit")
    txn.send(doc["chat"], t(lang, key))


def cmd_cancel(rooms: Rooms, cmd: CommandMsg, lang: str) -> None:
    _, chat_doc, _ = rooms.chat_settings(cmd.chat_id)
    gid = chat_doc.get("game")
    if not gid:
        rooms.messenger.send(cmd.chat_id, refusals.text(lang, NoGame()))
        return

    def change(txn: Txn) -> None:
        if txn.doc["phase"] not in ACTIVE:
            return
        if not may_manage(rooms, txn.doc, cmd.chat_id, cmd.user.id):
            txn.send(cmd.chat_id, refusals.text(lang, NotManager()))
            return
        if txn.doc["phase"] == "playing":
            table = GameRunner(txn, rooms.scale)
            Presenter(table, rooms.bot_username).cancel()
            txn.send(cmd.chat_id, story.final_text(engine.public_view(table.state), lang))
        _cancel(rooms, txn, "lobby.cancelled")

    rooms.pipeline.run(game_key(gid), change, cmd.update_id)
