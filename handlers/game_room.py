"""The running game's commands: a decision button, "I am back", a player leaving the group, a
decision's timer. Each runs as one change of the game document: load, engine, render, commit."""

from __future__ import annotations

from typing import Any

import engine
from engine import Rejected
from handlers import action_payloads, lobby, prompts, refusals
from handlers.callback_data import BackButton, GameButton
from handlers.context import Rooms
from handlers.game_end import after_play
from handlers.game_runner import GameRunner
from handlers.i18n import negotiate, t
from handlers.messenger import Rows
from handlers.pipeline import FLUSH, Txn, chat_key, game_key
from handlers.presenter import Presenter
from handlers.refusals import Illegal, NotInGame, Stale
from handlers.updates import ButtonPress, MemberLeft
from infra.ports import TimerRequest


def press(rooms: Rooms, press: ButtonPress, button: GameButton) -> str:
    """A decision button in a player's private chat."""
    lang = negotiate(press.user.language_code)
    try:
        parsed = action_payloads.parse_payload(button.payload)
    except action_payloads.BadPayload:
        rooms.messenger.answer(press.query_id, refusals.text(lang, Stale()))
        return "garbage"
    decision = button.decision
    outcome = "stale"
    menu: list[tuple[str, Rows]] = []  # a navigation's new prompt, shown after the answer

    def change(txn: Txn) -> None:
        nonlocal outcome
        doc = txn.doc
        if doc.get("phase") != "playing":
            txn.toast = refusals.toast(lang, Stale())
            return
        table = GameRunner(txn, rooms.scale)
        seat = table.seat_of(press.user.id)
        if seat is None:
            txn.toast = refusals.toast(lang, NotInGame())
            return
        st = table.state
        if st.pending is None or st.pending.id != decision or seat not in st.pending.actors:
            txn.toast = refusals.toast(lang, Stale())
            return
        if not _on_own_prompt(doc, seat, decision, press, isinstance(parsed, action_payloads.Nav)):
            txn.toast = refusals.toast(lang, Stale())
            return
        plang = table.lang_of(seat)
        table.reachable_again(press.user.id)
        if isinstance(parsed, action_payloads.Info):
            txn.toast = (prompts.render_info(plang, parsed), True)
            outcome = "info"
            return
        if isinstance(parsed, action_payloads.Nav):
            presenter = Presenter(table, rooms.bot_username)
            pr = presenter.prompt(seat, parsed.path)
            menu[:] = [(pr.text, presenter.rows(decision, pr.rows))]
            outcome = "nav"
            return
        action = action_payloads.decode_action(parsed.payload, seat, decision)
        before = engine.view(st, seat), engine.legal_actions(st, seat)
        try:
            table.apply(action)
        except Rejected:
            txn.toast = refusals.toast(plang, Illegal())
            return
        table.settle()
        answered = {seat: (press.message_id, prompts.render_answered(*before, action, plang))}
        after_play(rooms.store, rooms.bot_username, txn, table, answered)
        outcome = action.kind

    key = game_key(button.gid)
    done = rooms.pipeline.run(key, change, press.update_id, query=press.query_id)
    if done is None:
        rooms.messenger.answer(press.query_id, refusals.text(lang, Stale()))
    elif menu:
        rooms.messenger.edit(press.chat_id, press.message_id, *menu[0])
    return outcome


def _on_own_prompt(
    doc: dict[str, Any], seat: int, decision: int, press: ButtonPress, navigates: bool
) -> bool:
    """Game buttons act only in the player's private chat, on the prompt they belong to (a
    navigation edits that message, so it must be it)."""
    if press.chat_id != press.user.id:
        return False
    prompt = doc.get("prompts", {}).get(str(seat))
    if prompt is None or prompt.get("dec") != decision or prompt.get("msg") is None:
        return not navigates
    return bool(prompt["msg"] == press.message_id)


def back(rooms: Rooms, p: ButtonPress, button: BackButton) -> str:
    """R-D2: the player marked away is back; their decisions are theirs again."""
    lang = rooms.user_lang(p.user.id, p.user.language_code)
    if p.chat_id != p.user.id:  # the button lives in the player's private chat
        rooms.messenger.answer(p.query_id)
        return "garbage"

    def change(txn: Txn) -> None:
        if txn.doc.get("phase") != "playing":
            return
        table = GameRunner(txn, rooms.scale)
        seat = table.seat_of(p.user.id)
        if seat is None or not table.come_back(seat):
            return
        table.reachable_again(p.user.id)
        table.settle()
        txn.edit(p.chat_id, p.message_id, t(lang, "bot.back_done"), None)
        after_play(rooms.store, rooms.bot_username, txn, table)

    if rooms.pipeline.run(game_key(button.gid), change, p.update_id, query=p.query_id) is None:
        rooms.messenger.answer(p.query_id)
    return "back"


def member_left(rooms: Rooms, cmd: MemberLeft) -> str:
    """A player who leaves the group is treated as away (R-D2)."""
    chat = rooms.store.get(chat_key(cmd.chat_id))
    gid = chat.doc.get("game") if chat else None
    if not gid:
        return "no_game"

    def change(txn: Txn) -> None:
        if txn.doc.get("phase") == "lobby":
            lobby.remove_player(rooms, txn, cmd.user.id)
            return
        if txn.doc.get("phase") != "playing":
            return
        table = GameRunner(txn, rooms.scale)
        seat = table.seat_of(cmd.user.id)
        if seat is None or not table.mark_away(seat):
            return
        table.settle()
        after_play(rooms.store, rooms.bot_username, txn, table)

    rooms.pipeline.run(game_key(gid), change, cmd.update_id)
    return "left"


def timer(rooms: Rooms, req: TimerRequest) -> None:
    """A game's wake-up: a lobby that may have expired, a decision whose time may be up."""

    def change(txn: Txn) -> None:
        doc = txn.doc
        if req.decision == FLUSH:
            return  # loading the game is enough: the pipeline resends what is overdue
        if doc["phase"] == "lobby":
            lobby.expire_if_due(rooms, txn)
            return
        if doc["phase"] != "playing":
            return
        table = GameRunner(txn, rooms.scale)
        pending = table.state.pending
        if pending is None or pending.id != req.decision:
            return  # stale or duplicate timer: that decision is gone
        table.settle()
        if table.events:
            after_play(rooms.store, rooms.bot_username, txn, table)
        elif table.reminders or table.mention is not None:
            Presenter(table, rooms.bot_username).send_reminders()

    rooms.pipeline.run(req.game_key, change, None)
