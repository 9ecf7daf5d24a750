"""/settings: the group's settings menu. Its buttons change the chat record; an open lobby
shows (and its game later uses) the new settings. A press on a menu that shows other settings
than the group has now for the setting it changes is stale (two menus, or a change made
meanwhile)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from handlers import refusals, unit_of_work
from handlers.callback_data import SettingsButton, digits
from handlers.context import Rooms
from handlers.game_record import LOBBY, PLAYING, GameRecord
from handlers.group_settings import AI_FILL_CHOICES, DEADLINE_CHOICES, GroupSettings
from handlers.i18n import LANGUAGES, t
from handlers.lobby import may_manage
from handlers.lobby_view import SETTINGS_SETTLE_SECONDS, refresh_lobby
from handlers.refusals import NotAdmin, Refusal, Stale
from handlers.settings_view import (
    TOGGLES,
    button_version,
    settings_menu_text,
    settings_rows,
    settings_version,
)
from handlers.store_keys import chat_key, game_key
from handlers.unit_of_work import RecordReader, UnitOfWork, Work
from handlers.update_replies import rationed_edit
from handlers.updates import ButtonPress, CommandMsg


def cmd_settings(rooms: Rooms, cmd: CommandMsg, lang: str) -> None:
    s = unit_of_work.reading(rooms.store, lambda work: work.chat(cmd.chat_id).group_settings)
    in_lobby = _lobby_open(rooms, cmd.chat_id)
    rooms.messenger.send(
        cmd.chat_id, settings_menu_text(s, lang, in_lobby), settings_rows(s, lang, cmd.chat_id)
    )


def _lobby_open(rooms: Rooms, chat_id: int) -> bool:
    def read(work: RecordReader) -> bool:
        game = work.running_game(chat_id)
        return game is not None and game.phase == LOBBY

    return unit_of_work.reading(rooms.store, read)


def may_configure(rooms: Rooms, game: GameRecord | None, chat_id: int, uid: int) -> bool:
    """With no game open any member sets up the group's next one (issue 25: they were told
    "only the game's creator" with no game at all); with one open, its creator and the admins."""
    return game is None or may_manage(rooms, game, chat_id, uid)


def _next(values: tuple[int, ...], current: int) -> int:
    bigger = [v for v in values if v > current]
    return bigger[0] if bigger else values[0]


def changed(settings: GroupSettings, what: str) -> GroupSettings | None:
    """The settings after pressing ``what`` once (None: no such button)."""
    data = settings.model_dump()
    if what == "items":
        data["items"] = "beginner" if settings.items == "full" else "full"
    elif what in (*TOGGLES, "ai_takeover"):
        data[what] = not data[what]
    elif what == "ai_fill":  # a menu from before the choices had a button each
        data["ai_fill"] = _next(AI_FILL_CHOICES, settings.ai_fill)
    elif what.startswith("ai_fill.") and digits(what[8:]) and int(what[8:]) in AI_FILL_CHOICES:
        data["ai_fill"] = int(what[8:])
    elif what == "ai_level":
        data["ai_level"] = "expert" if settings.ai_level == "ai" else "ai"
    elif what.startswith("d.") and what[2:] in DEADLINE_CHOICES:
        k = what[2:]
        data["deadlines"][k] = _next(DEADLINE_CHOICES[k], settings.seconds(k))
    elif what.startswith("lang.") and what[5:] in LANGUAGES:
        data["language"] = what[5:]
    else:
        return None
    return GroupSettings.model_validate(data)


@dataclass(frozen=True)
class SettingsChange:
    """A press that changes the group's settings: a settings button's ``what`` (the language
    is ``lang.<code>``), answered with ``saved_key``; ``version``: the settings its menu showed
    (None: any)."""

    rooms: Rooms
    chat_id: int
    uid: int
    lang: str
    what: str
    version: str | None = None
    saved_key: str = "settings.saved"
    chose_language: bool = False


@dataclass(frozen=True)
class Saved:
    """What a settings change came to: its outcome, and the settings saved (None: refused or
    nothing to change)."""

    outcome: str
    new: GroupSettings | None = None
    playing: bool = False  # a game is being played in the chat (it keeps its own settings)


def save(cmd: SettingsChange, work: UnitOfWork) -> Saved:
    """The chat record holds the changed settings; the press is answered (in the new
    language) as soon as they are saved, or with why they are not."""
    chat = work.chat(cmd.chat_id)
    refused: Refusal | None = None
    game = work.running_game(cmd.chat_id)
    if not may_configure(cmd.rooms, game, cmd.chat_id, cmd.uid):
        refused, outcome = NotAdmin(), "denied"
    elif cmd.version is not None and cmd.version not in (
        button_version(chat.group_settings, cmd.what),
        settings_version(chat.group_settings),
    ):
        refused, outcome = Stale(), "stale"
    if refused is not None:
        work.txn.toast = refusals.toast(cmd.lang, refused)
        return Saved(outcome)
    base = chat.group_settings
    if not (chat.settings or chat.language_chosen):
        # the menu spoke the presser's language (``chat_lang``): a German newcomer's /settings
        # before any /newgame turned English at its first press
        base = base.changed(language=cmd.lang)
    new = changed(base, cmd.what)
    if new is None:
        return Saved("garbage")
    chat.settings = new.model_dump()
    chat.language_chosen = chat.language_chosen or cmd.chose_language
    work.txn.toast = (t(new.language, cmd.saved_key), False)
    return Saved("settings", new, game is not None and game.phase == PLAYING)


def save_settings(rooms: Rooms, cmd: SettingsChange, p: ButtonPress) -> Saved | None:
    """``save`` in the chat's unit of work; an open lobby shows (and later uses) the new
    settings. None for a redelivered press (or one that met only conflicts)."""
    create: dict[str, Any] = {"settings": {}, "scores": {}, "game": None}
    key = chat_key(cmd.chat_id)
    with Work(rooms.pipeline, key, p.update_id, create=create, query=p.query_id) as work:
        saved = work.run(save, cmd)
    if work.txn is None or saved is None:
        return None
    gid = work.txn.doc.get("game")  # the chat record as committed
    if gid and saved.new is not None:
        _show_in_lobby(rooms, gid)
    return saved


def press(rooms: Rooms, p: ButtonPress, button: SettingsButton) -> str:
    lang = rooms.user_lang(p.user.id, p.user.language_code)
    if button.chat_id != p.chat_id:
        rooms.messenger.answer(p.query_id)
        return "garbage"
    chat_id = p.chat_id
    chose = button.what.startswith("lang.")
    cmd = SettingsChange(
        rooms, chat_id, p.user.id, lang, button.what, button.version, chose_language=chose
    )
    saved = save_settings(rooms, cmd, p)
    if saved is None:
        return "duplicate"
    if saved.new is None:
        return saved.outcome
    new = saved.new
    text = settings_menu_text(new, new.language, _lobby_open(rooms, chat_id))
    rows = settings_rows(new, new.language, chat_id)
    if saved.playing and chat_id < 0:
        # Telegram counts a group's edits in its 20 messages a minute, which the game being
        # played there needs: the menu's edit is rationed as a reply (the press's answer has
        # said the change is saved; a menu left as it was is stale, /settings shows it anew)
        rationed_edit(rooms.pipeline, chat_id, p.message_id, text, rows)
    else:
        rooms.messenger.edit(chat_id, p.message_id, text, rows)
    return "settings"


def _show_in_lobby(rooms: Rooms, gid: str) -> None:
    """An open lobby shows (and its game will use) the group's new settings."""

    with Work(rooms.pipeline, game_key(gid), None) as work:
        work.run(lobby_settings, LobbySettings(rooms.bot_username))


@dataclass(frozen=True)
class LobbySettings:
    bot_username: str


def lobby_settings(cmd: LobbySettings, work: UnitOfWork) -> None:
    """An open lobby takes the group's new settings and shows them. A game being played keeps
    the rules and deadlines it started with, but speaks the group's new language from its next
    message (issue 25: a switch mid-game changed nothing and said nothing)."""
    game = work.game
    # the group's settings as they are now, not as this press saved them: another
    # press taken meanwhile (a button carries its own setting's version) may have committed its
    # change first, and this update, retried on the conflict, put it back
    new = work.chat(game.chat).group_settings
    if game.phase == LOBBY:
        game.settings = new
        refresh_lobby(cmd.bot_username, work.txn, game, settle=SETTINGS_SETTLE_SECONDS)
    elif game.phase == PLAYING and game.settings.language != new.language:
        game.settings = game.settings.model_copy(update={"language": new.language})
