"""/language: a user's own language (private chat) or the group's (like every other setting)."""

from __future__ import annotations

from dataclasses import dataclass

from handlers import callback_data
from handlers.callback_data import LanguageButton
from handlers.context import Rooms
from handlers.i18n import LANGUAGES, t
from handlers.settings_menu import SettingsChange, save_settings
from handlers.store_keys import game_key, user_key
from handlers.unit_of_work import UnitOfWork, Work
from handlers.updates import ButtonPress, CommandMsg
from infra.ports import Rows


def language_rows(chat_id: int | None, current: str | None = None) -> Rows:
    """One button per language, the ``current`` one marked; ``chat_id`` None: the user's own
    language."""
    return [
        [[_label(code, current), "d", callback_data.language(chat_id, code)] for code in LANGUAGES]
    ]


def _label(code: str, current: str | None) -> str:
    name = t(code, "language.name")
    return t(code, "language.current", name=name) if code == current else name


def cmd_language(rooms: Rooms, cmd: CommandMsg, lang: str) -> None:
    target = None if cmd.chat_type == "private" else cmd.chat_id
    rows = language_rows(target, lang)
    rooms.messenger.send(cmd.chat_id, t(lang, "language.choose"), rows)


def press(rooms: Rooms, p: ButtonPress, button: LanguageButton) -> str:
    lang = rooms.user_lang(p.user.id, p.user.language_code)
    code = button.code
    if code not in LANGUAGES:
        rooms.messenger.answer(p.query_id)
        return "garbage"
    in_game: bool | None = False
    if button.chat_id is None and p.chat_id == p.user.id:
        in_game = _set_user_language(rooms, p, code)
        if in_game is None:
            return "duplicate"
    elif button.chat_id == p.chat_id:
        what = f"lang.{code}"
        cmd = SettingsChange(
            rooms, p.chat_id, p.user.id, lang, what, saved_key="language.set", chose_language=True
        )
        saved = save_settings(rooms, cmd, p)
        if saved is None:
            return "duplicate"
        if saved.new is None:
            return saved.outcome
    else:
        rooms.messenger.answer(p.query_id)
        return "garbage"
    done = t(code, "language.set")
    if in_game:  # said, as the messages already shown keep their language
        done = f"{done}\n{t(code, 'language.set_in_game')}"
    rooms.messenger.edit(p.chat_id, p.message_id, done, None)
    return "language"


@dataclass(frozen=True)
class UserLanguage:
    """A user chose their own language."""

    uid: int
    code: str


def user_language(cmd: UserLanguage, work: UnitOfWork) -> None:
    """The user record keeps the choice; the press is answered in it."""
    work.user(cmd.uid).lang = cmd.code
    work.txn.toast = (t(cmd.code, "language.set"), False)


def seat_language(cmd: UserLanguage, work: UnitOfWork) -> bool:
    """Prompts and news of the user's running game follow the new language from now on;
    whether the user has a seat in it."""
    seat = work.game.seat_of(cmd.uid)
    if seat is None:
        return False
    work.game.players[seat].lang = cmd.code
    return True


def _set_user_language(rooms: Rooms, p: ButtonPress, code: str) -> bool | None:
    """The user's own language; None for a redelivered press, else whether the user plays in
    a running game (its prompts and news follow from the next message)."""
    cmd = UserLanguage(p.user.id, code)
    key, create = user_key(p.user.id), {"game": None}
    with Work(rooms.pipeline, key, p.update_id, create=create, query=p.query_id) as work:
        work.run(user_language, cmd)
    if work.txn is None:
        return None
    gid = work.txn.doc.get("game")  # the user record as committed
    if not gid:
        return False
    with Work(rooms.pipeline, game_key(gid), None) as seating:
        seated = seating.run(seat_language, cmd)
    return bool(seated)
