"""/settings: the group's settings menu. Its buttons change the chat record; an open lobby
shows (and its game later uses) the new settings. A press on a menu that shows other settings
than the group has now is stale (two menus, or a change made meanwhile)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from handlers import refusals, unit_of_work
from handlers.callback_data import SettingsButton
from handlers.context import Rooms
from handlers.game_record import LOBBY, GameRecord
from handlers.group_settings import AI_FILL_CHOICES, DEADLINE_CHOICES, GroupSettings
from handlers.i18n import LANGUAGES, t
from handlers.lobby import may_manage
from handlers.lobby_view import refresh_lobby
from handlers.refusals import NotAdmin, Refusal, Stale
from handlers.settings_view import TOGGLES, settings_menu_text, settings_rows, settings_version
from handlers.store_keys import chat_key, game_key
from handlers.unit_of_work import RecordReader, UnitOfWork
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
    elif what.startswith("ai_fill.") and what[8:].isdigit() and int(what[8:]) in AI_FILL_CHOICES:
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


def press(rooms: Rooms, p: ButtonPress, button: SettingsButton) -> str:
    lang = rooms.user_lang(p.user.id, p.user.language_code)
    if button.chat_id != p.chat_id:
        rooms.messenger.answer(p.query_id)
        return "garbage"
    chat_id = p.chat_id
    outcome = "garbage"

    def decide(work: UnitOfWork) -> GroupSettings | None:
        nonlocal outcome
        chat = work.chat(chat_id)
        if not may_configure(rooms, work.running_game(chat_id), chat_id, p.user.id):
            outcome = "denied"
            raise NotAdmin
        if button.version is not None and button.version != settings_version(chat.group_settings):
            outcome = "stale"
            raise Stale
        new = changed(chat.group_settings, button.what)
        outcome = "garbage" if new is None else "settings"
        return new

    chose = button.what.startswith("lang.")
    new = save_settings(rooms, chat_id, decide, p, lang, "settings.saved", chose_language=chose)
    if new is None:
        return outcome if outcome != "settings" else "duplicate"
    rooms.messenger.edit(
        chat_id,
        p.message_id,
        settings_menu_text(new, new.language, _lobby_open(rooms, chat_id)),
        settings_rows(new, new.language, chat_id),
    )
    return "settings"


def save_settings(
    rooms: Rooms,
    chat_id: int,
    decide: Callable[[UnitOfWork], GroupSettings | None],
    p: ButtonPress,
    lang: str,
    saved_key: str,
    *,
    chose_language: bool = False,
) -> GroupSettings | None:
    """The chat record holds the settings ``decide`` finds (None: leave them; a ``Refusal``:
    answered with its toast); an open lobby shows (and later uses) them. The press is answered
    (``saved_key`` in the new language) as soon as they are saved. The new settings, or None
    (refused, nothing to do, or a redelivered press)."""
    saved: list[GroupSettings] = []

    def change(work: UnitOfWork) -> None:
        saved.clear()
        try:
            new = decide(work)
        except Refusal as refused:
            work.txn.toast = refusals.toast(lang, refused)
            return
        if new is None:
            return
        chat = work.chat(chat_id)
        chat.settings = new.model_dump()
        chat.language_chosen = chat.language_chosen or chose_language
        work.txn.toast = (t(new.language, saved_key), False)
        saved.append(new)

    create: dict[str, Any] = {"settings": {}, "scores": {}, "game": None}
    key = chat_key(chat_id)
    done = unit_of_work.run(
        rooms.pipeline, key, change, p.update_id, create=create, query=p.query_id
    )
    if done is None or not saved:
        return None
    gid = done.doc.get("game")  # the chat record as committed
    if gid:
        _show_in_lobby(rooms, gid, saved[0])
    return saved[0]


def _show_in_lobby(rooms: Rooms, gid: str, new: GroupSettings) -> None:
    """An open lobby shows (and its game will use) the group's new settings."""

    def change(work: UnitOfWork) -> None:
        game = work.game
        if game.phase == LOBBY:
            game.settings = new
            refresh_lobby(rooms.bot_username, work.txn, game)

    unit_of_work.run(rooms.pipeline, game_key(gid), change, None)
