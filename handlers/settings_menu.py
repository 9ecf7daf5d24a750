"""/settings: the group's settings menu. Its buttons change the chat record; an open lobby
shows (and its game later uses) the new settings."""

from __future__ import annotations

from handlers import refusals
from handlers.callback_data import SettingsButton
from handlers.context import Rooms
from handlers.group_settings import AI_FILL_CHOICES, DEADLINE_CHOICES, GroupSettings
from handlers.i18n import LANGUAGES, t
from handlers.lobby import may_manage
from handlers.lobby_view import refresh_lobby
from handlers.pipeline import Txn, chat_key, game_key
from handlers.records import LANGUAGE_CHOSEN, running_game
from handlers.refusals import NotAdmin
from handlers.settings_view import TOGGLES, settings_rows, settings_summary
from handlers.updates import ButtonPress, CommandMsg


def cmd_settings(rooms: Rooms, cmd: CommandMsg, lang: str) -> None:
    s, _, _ = rooms.chat_settings(cmd.chat_id)
    rooms.messenger.send(
        cmd.chat_id, settings_summary(s, lang), settings_rows(s, lang, cmd.chat_id)
    )


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
    elif what == "ai_fill":
        data["ai_fill"] = _next(AI_FILL_CHOICES, settings.ai_fill)
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
    settings, chat_doc, _ = rooms.chat_settings(chat_id)
    lobby_doc = None
    if chat_doc.get("game"):
        g = rooms.store.get(game_key(chat_doc["game"]))
        lobby_doc = g.doc if g else None
    if not may_manage(rooms, lobby_doc, chat_id, p.user.id):
        rooms.messenger.answer(p.query_id, *refusals.toast(lang, NotAdmin()))
        return "denied"
    new = changed(settings, button.what)
    if new is None:
        rooms.messenger.answer(p.query_id)
        return "garbage"
    saved = (t(new.language, "settings.saved"), False)
    chose = button.what.startswith("lang.")
    if not save_settings(rooms, chat_id, new, p.update_id, p.query_id, saved, chose_language=chose):
        return "duplicate"
    rooms.messenger.edit(
        chat_id,
        p.message_id,
        settings_summary(new, new.language),
        settings_rows(new, new.language, chat_id),
    )
    return "settings"


def save_settings(
    rooms: Rooms,
    chat_id: int,
    new: GroupSettings,
    update_id: int,
    query: str,
    toast: tuple[str, bool],
    *,
    chose_language: bool = False,
) -> bool:
    """The chat document holds the settings; an open lobby shows (and later uses) them.
    The press is answered as soon as they are saved. False for a redelivered press."""

    def change(txn: Txn) -> None:
        txn.doc["settings"] = new.model_dump()
        if chose_language:
            txn.doc[LANGUAGE_CHOSEN] = True
        txn.toast = toast
        txn.changed = True

    done = rooms.pipeline.run(
        chat_key(chat_id),
        change,
        update_id,
        create={"settings": {}, "scores": {}, "game": None},
        query=query,
    )
    if done is None:
        return False
    _, chat_doc, _ = rooms.chat_settings(chat_id)
    gid = chat_doc.get("game")
    if gid:

        def lobby_change(txn: Txn) -> None:
            if txn.doc["phase"] == "lobby":
                txn.doc["settings"] = new.model_dump()
                refresh_lobby(rooms.bot_username, txn)

        rooms.pipeline.run(game_key(gid), lobby_change, None)
    return True


def managed_running(rooms: Rooms, chat_id: int, uid: int) -> bool:
    """Whether ``uid`` may change the group's settings (the running game's creator, an admin)."""
    _, chat_doc, _ = rooms.chat_settings(chat_id)
    return may_manage(rooms, running_game(rooms.store, chat_doc), chat_id, uid)
