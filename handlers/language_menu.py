"""/language: a user's own language (private chat) or the group's (like every other setting)."""

from __future__ import annotations

from handlers import callback_data, refusals
from handlers.callback_data import LanguageButton
from handlers.context import Rooms
from handlers.i18n import LANGUAGES, t
from handlers.messenger import Rows
from handlers.pipeline import Txn, game_key, user_key
from handlers.refusals import NotAdmin
from handlers.settings_menu import managed_running, save_settings
from handlers.updates import ButtonPress, CommandMsg


def language_rows(chat_id: int | None) -> Rows:
    """One button per language; ``chat_id`` None: the user's own language."""
    return [
        [
            [t(code, "language.name"), "d", callback_data.language(chat_id, code)]
            for code in LANGUAGES
        ]
    ]


def cmd_language(rooms: Rooms, cmd: CommandMsg, lang: str) -> None:
    target = None if cmd.chat_type == "private" else cmd.chat_id
    rooms.messenger.send(cmd.chat_id, t(lang, "language.choose"), language_rows(target))


def press(rooms: Rooms, p: ButtonPress, button: LanguageButton) -> str:
    lang = rooms.user_lang(p.user.id, p.user.language_code)
    code = button.code
    if code not in LANGUAGES:
        rooms.messenger.answer(p.query_id)
        return "garbage"
    chosen = (t(code, "language.set"), False)
    if button.chat_id is None and p.chat_id == p.user.id:
        if not _set_user_language(rooms, p, code, chosen):
            return "duplicate"
    elif button.chat_id == p.chat_id:
        if not managed_running(rooms, p.chat_id, p.user.id):
            rooms.messenger.answer(p.query_id, *refusals.toast(lang, NotAdmin()))
            return "denied"
        settings, _, _ = rooms.chat_settings(p.chat_id)
        new = settings.model_copy(update={"language": code})
        if not save_settings(
            rooms, p.chat_id, new, p.update_id, p.query_id, chosen, chose_language=True
        ):
            return "duplicate"
    else:
        rooms.messenger.answer(p.query_id)
        return "garbage"
    rooms.messenger.edit(p.chat_id, p.message_id, t(code, "language.set"), None)
    return "language"


def _set_user_language(rooms: Rooms, p: ButtonPress, code: str, chosen: tuple[str, bool]) -> bool:
    """The user record keeps the choice; False for a redelivered press."""

    def change(txn: Txn) -> None:
        txn.doc["lang"] = code
        txn.toast = chosen
        txn.changed = True

    done = rooms.pipeline.run(
        user_key(p.user.id), change, p.update_id, create={"game": None}, query=p.query_id
    )
    if done is None:
        return False
    gid = done.doc.get("game")
    if gid:

        def in_game(txn: Txn) -> None:
            """Prompts and news of a running game follow the new language from now on."""
            for player in txn.doc.get("players", []):
                if player["uid"] == p.user.id and player.get("lang") != code:
                    player["lang"] = code
                    txn.changed = True

        rooms.pipeline.run(game_key(gid), in_game, None)
    return True
