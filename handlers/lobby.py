"""The lobby: /newgame, joining (/start <game> in private), leaving, starting, cancelling, and a
lobby that nobody touched for a while closing by itself."""

from __future__ import annotations

import secrets
from dataclasses import dataclass

import engine
from engine.rng import SEATING, stream
from engine.setup import MAX_PLAYERS, MIN_PLAYERS
from handlers import refusals, story, unit_of_work
from handlers.callback_data import LobbyButton
from handlers.context import Rooms
from handlers.game_end import finish_game
from handlers.game_record import CANCELLED, LOBBY, PLAYING, GameRecord, Player
from handlers.game_runner import GameRunner
from handlers.group_settings import GroupSettings
from handlers.i18n import t
from handlers.lobby_view import lobby_rows, lobby_text, lobby_version, refresh_lobby
from handlers.presenter import show
from handlers.refusals import (
    AlreadyJoined,
    AlreadyRunning,
    InOtherGame,
    LobbyFull,
    LobbyNotOpen,
    NoLobby,
    NotManager,
    NotMember,
    Refusal,
    Stale,
    TooFew,
)
from handlers.seat_names import seat_name
from handlers.store_keys import game_key, new_game_id
from handlers.unit_of_work import RecordReader, UnitOfWork, Work
from handlers.updates import ButtonPress, CommandMsg


def may_manage(rooms: Rooms, game: GameRecord | None, chat_id: int, uid: int) -> bool:
    """The game's creator and the group's admins start, cancel and configure."""
    return (game is not None and game.creator == uid) or rooms.is_admin(chat_id, uid)


# -- /newgame ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class Said:
    """A lobby command, the game it is about and the language it is answered in."""

    rooms: Rooms
    cmd: CommandMsg
    lang: str
    gid: str = ""


def cmd_newgame(rooms: Rooms, cmd: CommandMsg, lang: str) -> None:
    gid = new_game_id()
    new = GameRecord(
        gid=gid,
        chat=cmd.chat_id,
        creator=cmd.user.id,
        settings=GroupSettings(),
        touched=rooms.clock.now(),
    )
    create = {**new.to_doc(), "seq": 0, "outbox": []}
    with Work(rooms.pipeline, game_key(gid), cmd.update_id, create=create) as work:
        refused = work.run(open_lobby, Said(rooms, cmd, lang, gid))
    if refused is not None:
        rooms.messenger.send(cmd.chat_id, refusals.text(lang, refused))


def open_lobby(said: Said, work: UnitOfWork) -> Refusal | None:
    """/newgame: the group's lobby opens, unless a game runs there (then the refusal)."""
    rooms, cmd = said.rooms, said.cmd
    chat = work.chat(cmd.chat_id)
    if work.running_game(cmd.chat_id) is not None:
        return AlreadyRunning()
    settings = chat.group_settings
    if not chat.language_chosen:
        # Until the group picks a language (/settings, /language), it speaks its creator's.
        creator_lang = work.user_lang(cmd.user.id, cmd.user.language_code)
        settings = settings.changed(language=creator_lang)
        chat.settings = settings.model_dump()
    elif chat.is_new:
        chat.settings = settings.model_dump()
    chat.game = said.gid
    game = work.game
    game.settings = settings
    _lobby_due(work, settings)
    work.txn.send(cmd.chat_id, lobby_text(game), lobby_rows(rooms.bot_username, game), tag="lobby")
    return None


def _lobby_due(work: UnitOfWork, settings: GroupSettings) -> None:
    now = work.txn.now
    work.game.touched = now
    work.game.due = {"dec": 0, "at": now + settings.lobby_minutes * 60}


# -- joining and leaving ----------------------------------------------------------------------
def cmd_start_private(rooms: Rooms, cmd: CommandMsg, lang: str) -> None:
    """/start <game>: the lobby's join link opens the private chat with this."""
    gid = cmd.args
    if not gid:
        rooms.messenger.send(cmd.chat_id, t(lang, "bot.welcome", bot=rooms.bot_username))
        return

    group = unit_of_work.reading(rooms.store, lambda work: _lobby_chat(work, gid))
    if group is not None and not rooms.is_member(group, cmd.user.id):
        # a join link forwarded outside the group seats nobody from outside it
        rooms.messenger.send(cmd.chat_id, refusals.text(lang, NotMember()))
        return
    with Work(rooms.pipeline, game_key(gid), cmd.update_id) as work:
        work.run(join, Said(rooms, cmd, lang, gid))
    if work.txn is None:
        rooms.messenger.send(cmd.chat_id, refusals.text(lang, LobbyNotOpen()))


def _lobby_chat(work: RecordReader, gid: str) -> int | None:
    """The group whose open lobby ``gid`` is (None: no such lobby)."""
    game = work.other_game(gid)
    return game.chat if game is not None and game.phase == LOBBY else None


def join(said: Said, work: UnitOfWork) -> None:
    """The user takes a seat in the lobby, or is told why not."""
    cmd, lang, txn = said.cmd, said.lang, work.txn
    try:
        other = work.user(cmd.user.id).game
        busy = work.other_game(other) if other != said.gid else None
        if busy is not None and busy.active:
            raise InOtherGame
        _check_join(work.game, cmd.user.id)
    except Refusal as refused:
        txn.send(cmd.chat_id, refusals.text(lang, refused))
        return
    game = work.game
    # told apart from the others at the table, and unable to reorder the lines it is shown in
    name = seat_name(cmd.user.name, (p.name for p in game.players))
    game.players.append(Player(cmd.user.id, name, lang))
    work.user(cmd.user.id).game = said.gid
    _lobby_due(work, game.settings)
    txn.send(cmd.chat_id, t(lang, "lobby.joined"))
    refresh_lobby(said.rooms.bot_username, txn, game)


def _check_join(game: GameRecord, uid: int) -> None:
    if game.phase != LOBBY:
        raise LobbyNotOpen
    if game.seat_of(uid) is not None:
        raise AlreadyJoined
    if len(game.players) >= MAX_PLAYERS:
        raise LobbyFull


def remove_player(rooms: Rooms, work: UnitOfWork, uid: int) -> None:
    game = work.game
    if game.seat_of(uid) is None:
        return
    game.players = [p for p in game.players if p.uid != uid]
    work.clear_pointer(uid)
    refresh_lobby(rooms.bot_username, work.txn, game)


def press(rooms: Rooms, p: ButtonPress, button: LobbyButton) -> str:
    """The lobby message's Leave and Start buttons; a press on a lobby message that shows
    other players or settings than the lobby has now is stale."""
    lang = rooms.user_lang(p.user.id, p.user.language_code)
    if button.what == "start":
        _start(rooms, button.gid, p.chat_id, p.user.id, p.update_id, lang, p.query_id, button)
        return "lobby_start"

    leaving = Pressed(rooms, p, button, lang)
    with Work(rooms.pipeline, game_key(button.gid), p.update_id, query=p.query_id) as work:
        work.run(leave, leaving)
    if work.txn is None:
        rooms.messenger.answer(p.query_id)
    return "lobby_leave"


@dataclass(frozen=True)
class Pressed:
    """A lobby button pressed, and the language it is answered in."""

    rooms: Rooms
    press: ButtonPress
    button: LobbyButton
    lang: str


def leave(pressed: Pressed, work: UnitOfWork) -> None:
    """The Leave button: the player leaves the lobby as it is shown."""
    game = work.game
    if game.phase != LOBBY or game.chat != pressed.press.chat_id:
        return
    if not _current(game, pressed.button) and not _lobby_behind(work):
        work.txn.toast = refusals.toast(pressed.lang, Stale())
        return
    remove_player(pressed.rooms, work, pressed.press.user.id)


def _current(game: GameRecord, button: LobbyButton | None) -> bool:
    """Whether the pressed lobby message shows the lobby as it is (a button from before
    versions is taken as it is)."""
    return button is None or button.version is None or button.version == lobby_version(game)


def _lobby_behind(work: UnitOfWork) -> bool:
    """Whether the lobby message shows an older lobby by the bot's own doing: an edit of it is
    still in the outbox (waiting for its slot, ``LOBBY_EDITS_PER_MINUTE`` or a burst of
    settings, or for flood control to let the group go). A Start pressed on it then starts the
    lobby as it is (its first message names everyone aboard): a newcomer who set a few
    deadlines, the 🤖 number and joined within a minute was told "That button is no longer
    active." for as long as Telegram held the group."""
    game = work.game
    return any(
        e.get("op") == "edit" and e.get("chat") == game.chat and e.get("msg") == game.lobby_msg
        for e in work.txn.doc.get("outbox", [])
    )


# -- starting -----------------------------------------------------------------------------------
def cmd_startgame(rooms: Rooms, cmd: CommandMsg, lang: str) -> None:
    gid = unit_of_work.reading(rooms.store, lambda work: work.chat(cmd.chat_id).game)
    if not gid:
        rooms.messenger.send(cmd.chat_id, refusals.text(lang, NoLobby()))
        return
    _start(rooms, gid, cmd.chat_id, cmd.user.id, cmd.update_id, lang, None)


def _start(
    rooms: Rooms,
    gid: str,
    chat_id: int,
    uid: int,
    update_id: int,
    lang: str,
    query: str | None,
    button: LobbyButton | None = None,
) -> None:
    """Start the lobby's game: by command (refusals said in the group) or button (toasts)."""
    starting = Start(rooms, chat_id, uid, lang, query, button)
    with Work(rooms.pipeline, game_key(gid), update_id, query=query) as work:
        refused = work.run(start, starting)
    if refused is not None:  # a reply, under the group's budget (``handlers.reply_budget``)
        rooms.messenger.send(chat_id, refusals.text(lang, refused))
    if work.txn is None and query:
        rooms.messenger.answer(query, refusals.text(lang, LobbyNotOpen()))


@dataclass(frozen=True)
class Start:
    """/startgame or the Start button (``query``: its callback query)."""

    rooms: Rooms
    chat_id: int
    uid: int
    lang: str
    query: str | None
    button: LobbyButton | None


def start(cmd: Start, work: UnitOfWork) -> Refusal | None:
    """The game starts; a refused /startgame returns why, to be told as a direct reply."""
    txn, lang = work.txn, cmd.lang
    try:
        _check_start(cmd.rooms, work, cmd.chat_id, cmd.uid, cmd.button)
    except LobbyNotOpen as refused:
        txn.toast = refusals.toast(lang, refused)
        return None
    except Refusal as refused:
        txn.toast = refusals.toast(lang, refused)
        return refused if cmd.query is None else None
    start_game(cmd.rooms, work)
    return None


def _check_start(
    rooms: Rooms, work: UnitOfWork, chat_id: int, uid: int, button: LobbyButton | None
) -> None:
    game = work.game
    if game.phase != LOBBY or game.chat != chat_id:
        raise LobbyNotOpen
    if not _current(game, button) and not _lobby_behind(work):
        raise Stale
    if not may_manage(rooms, game, game.chat, uid):
        raise NotManager
    if max(len(game.players), game.settings.ai_fill) < MIN_PLAYERS or not game.players:
        raise TooFew


# The game's secret: 256 bits from the operating system's cryptographic generator, kept only in
# the stored game (its engine state). Nothing public (game id, chat, clock) goes into it.
DEAL_SEED_BITS = 256


def new_deal_seed() -> int:
    return secrets.randbits(DEAL_SEED_BITS)


def start_game(rooms: Rooms, work: UnitOfWork) -> None:
    game, txn = work.game, work.txn
    settings = game.settings
    seed = rooms.deal_seeds()
    add_ai_passengers(game, settings, seed)
    table = GameRunner(work, rooms.scale)
    table.deal(seed)
    state = table.state
    game.phase = PLAYING
    game.due = None
    if game.lobby_msg:
        txn.edit(
            game.chat,
            game.lobby_msg,
            lobby_text(game, t(settings.language, "lobby.started")),
            None,
            tag="lobby_edit",
        )
    txn.send(
        game.chat,
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
    table.settle()
    show(table, rooms.bot_username)
    if table.state.over:
        finish_game(work, table)


def add_ai_passengers(game: GameRecord, settings: GroupSettings, seed: int) -> None:
    """Fill the table up to the chosen size with AI passengers, marked and named as such.
    They sit among the humans at random, so the seat gives nothing away. Names and seats come
    from a stream of their own keyed by the game's secret ``seed`` (engine.rng), so they show
    nothing about the deal."""
    lang = settings.language
    names = t(lang, "ai.names").split(",")
    rng = stream(seed, SEATING)
    rng.shuffle(names)
    missing = max(0, min(MAX_PLAYERS, settings.ai_fill) - len(game.players))
    for i in range(missing):
        name = t(lang, "ai.marker", name=names[i % len(names)])
        slot = rng.below(len(game.players) + 1)
        game.players.insert(slot, Player(-(i + 1), name, lang, ai=True))


# -- ending without a result -----------------------------------------------------------------
def expire_if_due(work: UnitOfWork) -> None:
    game = work.game
    settings = game.settings
    if work.txn.now < game.touched + settings.lobby_minutes * 60:
        return
    close(work, "lobby.expired")


def close(work: UnitOfWork, key: str) -> None:
    game, txn = work.game, work.txn
    lang = game.settings.language
    game.phase = CANCELLED
    game.due = None
    chat = work.chat(game.chat)
    if chat.game == game.gid:
        chat.game = None
    for p in game.humans():
        work.clear_pointer(p.uid)
    if game.lobby_msg and game.engine is None:
        txn.edit(game.chat, game.lobby_msg, lobby_text(game, t(lang, key)), None, tag="lobby_edit")
    txn.send(game.chat, t(lang, key))
