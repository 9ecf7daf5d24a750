"""A game's chats changing under it: its group upgraded to a supergroup (a new chat id), the bot
removed from the group and added back, a player unblocking the bot.

A group upgraded to a supergroup is a new chat: Telegram says so by a service message in each
chat (``migrate_to_chat_id`` in the old, ``migrate_from_chat_id`` in the new) and by refusing every
later call to the old id (400 "group chat was upgraded to a supergroup chat", with
``migrate_to_chat_id``). Whichever signal comes first moves the group, once: its record (settings,
scores, its game) goes to the new id and the old one remembers where it went; the game's chat
follows, its messages still to send go to the new chat, and its living messages (the lobby, the
status, the story) start anew there, as the old message ids do not exist in the new chat. Every
write is version-checked, so two signals at once move it once. The game's deadlines are its own:
nothing waits on the group, so none is lost.

The bot removed from the group (or its right to write taken away) mutes the game's group
(``handlers.holds.tell_muted``: its creator is told privately); nothing is sent there any more
(``handlers.txn_store``) until the bot may write there again (``my_chat_member``), when the
game's lobby or status is shown there anew. A player who blocked the bot is found out by the next
message's 403 (the game then decides for them, R-D1); unblocking it (``my_chat_member`` in their
private chat) makes them reachable again, as a press would.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass

from handlers import holds, unit_of_work
from handlers.context import Rooms
from handlers.game_end import finish_game
from handlers.game_record import ACTIVE, CANCELLED, LOBBY, PLAYING
from handlers.game_runner import GameRunner
from handlers.group_board import GroupBoard
from handlers.group_settings import GroupSettings
from handlers.i18n import t
from handlers.lobby_view import lobby_rows, lobby_text
from handlers.message_tags import Kind, tag_of
from handlers.presenter import show
from handlers.records import ChatRecord
from handlers.store_keys import chat_key, game_key
from handlers.transaction import Txn
from handlers.unit_of_work import UnitOfWork, Work
from handlers.updates import BotMembership, ChatMoved

log = logging.getLogger("coachride")

MOVED_TO = "moved_to"  # in the old group's record: the supergroup it became
MOVED_FROM = "moved_from"  # in the supergroup's record: the group it was
# what is sent to the old group and still means something in the new one: the story, notices
_RESENT_ELSEWHERE = (Kind.STATUS, Kind.LOBBY, Kind.TURN_REMINDER)


@dataclass(frozen=True)
class Move:
    old: int
    new: int
    bot_username: str
    scale: float


# -- a group upgraded to a supergroup -----------------------------------------------------------
def moved(rooms: Rooms, cmd: ChatMoved) -> str:
    """Either service message of an upgrade: the group and its game move to the new id."""
    return move(rooms, cmd.old, cmd.new, cmd.update_id)


def follow(rooms: Rooms, key: str, moved_to: dict[int, int]) -> None:
    """A send refused because the game's group became a supergroup: the game follows it. A
    direct reply refused so (``key``: the chat's replies) is given in the supergroup, and the
    group's record and game move there too."""
    for old, new in moved_to.items():
        log.warning(json.dumps({"event": "group_moved", "key": key, "old": old, "new": new}))
        if key.startswith("GAME#"):
            move(rooms, old, new, None, gid=key.removeprefix("GAME#"))
            continue
        move(rooms, old, new, None)
        with Work(rooms.pipeline, key, None) as work:
            work.run(_replies_follow, (old, new))


def _replies_follow(chats: tuple[int, int], work: UnitOfWork) -> None:
    """The chat's replies refused as upgraded go to the supergroup now: this invocation sent
    them (its lease), so it sends them again, not their flush timer a while later."""
    txn, (old, new) = work.txn, chats
    mine = {e["seq"] for e in txn.new_entries + txn.stale_entries}
    refused = [e for e in txn.doc.get("outbox", []) if e["chat"] == old and e["seq"] not in mine]
    _move_outbox(txn, old, new)
    for e in refused:
        if e in txn.doc["outbox"]:
            e["until"] = txn.until
            txn.stale_entries.append(e)


def move(rooms: Rooms, old: int, new: int, update_id: int | None, gid: str | None = None) -> str:
    """Move the group's record and its game (``gid``, else the record's) from ``old`` to
    ``new``: at most once, whoever asks first."""
    mv = Move(old, new, rooms.bot_username, rooms.scale)
    gid = gid or unit_of_work.reading(rooms.store, lambda work: work.chat(old).game)
    if gid:
        with Work(rooms.pipeline, game_key(gid), update_id) as work:
            work.run(move_game, mv)
        if work.txn is not None:
            return "moved"
    with Work(rooms.pipeline, chat_key(old), update_id) as work:
        work.run(move_records, mv)
    return "moved"


def move_game(mv: Move, work: UnitOfWork) -> None:
    """The game's chat follows its group, with what it still has to send there."""
    game = work.game
    if game.chat == mv.old:
        game.chat = mv.new
        _move_outbox(work.txn, mv.old, mv.new)
        # a mute was the old group's (its "bot left" may come before the upgrade's signal): the
        # supergroup is written to, and its own refusal would mute it again
        game.muted = False
        game.unreachable = [c for c in game.unreachable if c != mv.old]
        work.txn.doc["muted_told"] = False
        move_records(mv, work)
        if game.phase == LOBBY and work.chat(mv.new).game != game.gid:
            _close_lobby(work)
        elif game.active:
            show_anew(work, mv.bot_username, mv.scale)
        return
    move_records(mv, work)


def _close_lobby(work: UnitOfWork) -> None:
    """A lobby moved into a supergroup where a game is already being played (its service
    messages came late, and the supergroup went on meanwhile) does not take the chat (the game
    under way keeps it, ``_takes_the_chat``): shown there too, it could start a second game
    that /status and /cancel never reach. It is closed, and its players, free again, are told
    privately (the group has its game's messages to read)."""
    game = work.game
    game.phase = CANCELLED
    game.due = None
    for p in game.humans():
        work.clear_pointer(p.uid)
        work.txn.send(p.uid, t(p.lang or game.settings.language, "lobby.closed_by_move"))


def move_records(mv: Move, work: UnitOfWork) -> None:
    """The group's settings, scores and game go to the supergroup's record; the group's
    remembers where it went (so the move happens once)."""
    src = work.chat(mv.old)
    if src.is_new or src.extra.get(MOVED_TO) is not None:
        return
    dst = work.chat(mv.new)
    _merge(src, dst)
    if dst.game != src.game and _takes_the_chat(work, src.game, dst.game):
        dst.game = src.game
    dst.extra[MOVED_FROM] = mv.old
    src.extra[MOVED_TO] = mv.new
    src.game = None


def _takes_the_chat(work: UnitOfWork, ours: str | None, theirs: str | None) -> bool:
    """The supergroup already names a game of its own (a /newgame there handled before the
    upgrade's signal): the group's game, running, takes the chat unless the supergroup's game is
    itself under way, so /status, /startgame and /cancel there reach the game its players are
    in. A lobby opened there meanwhile is left to expire on its own deadline."""
    moving, other = work.other_game(ours), work.other_game(theirs)
    if moving is None or not moving.active:
        return False
    return other is None or other.phase != PLAYING


def _chosen_there(chat: ChatRecord) -> bool:
    """Whether the supergroup's settings were chosen there (a language picked, a setting
    changed), not only written as defaults by a /newgame there before the upgrade's signal
    (then the group's settings, chosen over its life, would be lost in the move)."""
    as_default = chat.group_settings.changed(language=GroupSettings().language)
    return chat.language_chosen or as_default != GroupSettings()


def _merge(src: ChatRecord, dst: ChatRecord) -> None:
    if dst.is_new or not _chosen_there(dst):
        dst.settings = dict(src.settings)
        dst.language_chosen = src.language_chosen
    for name, score in src.scores.items():
        dst.scores.setdefault(name, score)
    if dst.game is None:
        dst.game = src.game


def _move_outbox(txn: Txn, old: int, new: int) -> None:
    """What the game still has to send to the old group goes to the new one; an edit or a pin
    of an old message, and the living messages shown anew, are dropped (the old ids do not
    exist in the new chat)."""

    def dropped(e: dict[str, object]) -> bool:
        return e["chat"] == old and (e["op"] != "send" or tag_of(e).kind in _RESENT_ELSEWHERE)

    gone = {e["seq"] for e in txn.doc.get("outbox", []) if dropped(e)}
    if gone:
        txn.doc["outbox"] = [e for e in txn.doc["outbox"] if e["seq"] not in gone]
        txn.new_entries = [e for e in txn.new_entries if e["seq"] not in gone]
        txn.stale_entries = [e for e in txn.stale_entries if e["seq"] not in gone]
    for e in txn.doc.get("outbox", []):
        if e["chat"] == old:
            e["chat"] = new
    txn.changed = True


def show_anew(work: UnitOfWork, bot_username: str, scale: float) -> None:
    """The game's living messages in its group start anew: the lobby, or the status (the story
    goes on in a new message)."""
    game, txn = work.game, work.txn
    if game.phase == LOBBY:
        game.lobby_msg = None
        txn.send(game.chat, lobby_text(game), lobby_rows(bot_username, game), tag="lobby")
    elif game.phase == PLAYING:
        game.status = None
        game.story = None
        game.mention = None
        GroupBoard(GameRunner(work, scale), bot_username).update_status()


# -- the bot removed from the group and added back ----------------------------------------------
@dataclass(frozen=True)
class Membership:
    may_write: bool
    bot_username: str
    scale: float


def membership(rooms: Rooms, cmd: BotMembership) -> str:
    """The bot's membership of a group changed: its game's group is muted, or shown again; a
    player unblocked the bot: their game writes to them again."""
    if cmd.chat_id > 0:
        return unblocked(rooms, cmd) if cmd.may_write else "blocked"
    gid = unit_of_work.reading(rooms.store, lambda work: work.chat(cmd.chat_id).game)
    if not gid:
        return "no_game"
    change = Membership(cmd.may_write, rooms.bot_username, rooms.scale)
    with Work(rooms.pipeline, game_key(gid), cmd.update_id) as work:
        work.run(membership_changed, change)
    return "bot_back" if cmd.may_write else "bot_removed"


def membership_changed(change: Membership, work: UnitOfWork) -> None:
    game = work.game
    if game.phase not in ACTIVE:
        return
    muted = game.muted
    if not change.may_write:
        if not muted:
            holds.tell_muted(work.txn)  # the creator is told; the group's sends stop
            game.muted = True
        return
    if not muted:
        return
    game.muted = False
    game.unreachable = [c for c in game.unreachable if c != game.chat]
    work.txn.doc["muted_told"] = False  # removed again, the creator is told again
    show_anew(work, change.bot_username, change.scale)


@dataclass(frozen=True)
class Unblocked:
    uid: int
    bot_username: str
    scale: float


def unblocked(rooms: Rooms, cmd: BotMembership) -> str:
    """A player who blocked the bot (so the game stopped writing to them and decided for them
    by default) unblocked it: they are reachable again, as when they press a button, and the
    game shows them what it asks of them now (the prompt, or the away notice with its way
    back). Blocking needs no update of its own: the next message's 403 says it."""
    gid = unit_of_work.reading(rooms.store, lambda work: work.user(cmd.chat_id).game)
    if not gid:
        return "no_game"
    with Work(rooms.pipeline, game_key(gid), cmd.update_id) as work:
        work.run(reach_again, Unblocked(cmd.chat_id, rooms.bot_username, rooms.scale))
    return "unblocked"


def reach_again(cmd: Unblocked, work: UnitOfWork) -> None:
    game = work.game
    if game.phase != PLAYING or cmd.uid not in game.unreachable:
        return
    table = GameRunner(work, cmd.scale)
    seat = table.seat_of(cmd.uid)
    if seat is None:
        return
    table.reachable_again(cmd.uid)
    prompt = game.prompts.get(str(seat))
    if prompt is not None and prompt.get("msg") is None:
        del game.prompts[str(seat)]  # never shown: asked anew
    table.settle()
    show(table, cmd.bot_username)
    if table.state.over:
        finish_game(work, table)
