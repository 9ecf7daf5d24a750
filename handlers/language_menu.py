"""/language: a user's own language (private chat) or the group's (like every other setting)."""

from __future__ import annotations

from handlers import callback_data, unit_of_work
from handlers.callback_data import LanguageButton
from handlers.context import Rooms
from handlers.group_settings import GroupSettings
from handlers.i18n import LANGUAGES, t
from handlers.refusals import NotAdmin
from handlers.settings_menu import may_configure, save_settings
from handlers.store_keys import game_key, user_key
from handlers.unit_of_work import UnitOfWork
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
        outcome = "language"

        def decide(work: UnitOfWork) -> GroupSettings:
            nonlocal outcome
            if not may_configure(rooms, work.running_game(p.chat_id), p.chat_id, p.user.id):
                outcome = "denied"
                raise NotAdmin
            return work.chat(p.chat_id).group_settings.changed(language=code)

        chosen = save_settings(
            rooms, p.chat_id, decide, p, lang, "language.set", chose_language=True
        )
        if chosen is None:
            return "duplicate" if outcome == "language" else outcome
    else:
        rooms.messenger.answer(p.query_id)
        return "garbage"
    done = t(code, "language.set")
    if in_game:  # said, as the messages already shown keep their language
        done = f"{done}\n{t(code, 'language.set_in_game')}"
    rooms.messenger.edit(p.chat_id, p.message_id, done, None)
    return "language"


def _set_user_language(rooms: Rooms, p: ButtonPress, code: str) -> bool | None:
    """The user record keeps the choice; None for a redelivered press, else whether the user
    plays in a running game (its prompts and news follow from the next message)."""

    def change(work: UnitOfWork) -> None:
        work.user(p.user.id).lang = code
        work.txn.toast = (t(code, "language.set"), False)

    done = unit_of_work.run(
        rooms.pipeline,
        user_key(p.user.id),
        change,
        p.update_id,
        create={"game": None},
        query=p.query_id,
    )
    if done is None:
        return None
    gid = done.doc.get("game")  # the user record as committed
    seated = False
    if gid:

        def in_game(work: UnitOfWork) -> None:
            """Prompts and news of a running game follow the new language from now on."""
            nonlocal seated
            seat = work.game.seat_of(p.user.id)
            if seat is not None:
                work.game.players[seat].lang = code
                seated = True

        unit_of_work.run(rooms.pipeline, game_key(gid), in_game, None)
    return seated
