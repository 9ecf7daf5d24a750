"""The running game's commands: a decision button, "I am back", a player leaving the group, a
decision's timer. Each runs as one unit of work on the game: load, engine, render, commit."""

from __future__ import annotations

from typing import Any

from engine import Rejected
from handlers import action_payloads, lobby, prompts, refusals, unit_of_work
from handlers.callback_data import BackButton, GameButton
from handlers.context import Rooms
from handlers.game_end import after_play
from handlers.game_record import LOBBY, PLAYING, GameRecord
from handlers.game_runner import GameRunner
from handlers.i18n import negotiate, t
from handlers.pipeline import FLUSH, game_key
from handlers.presenter import Presenter
from handlers.refusals import AheadPaused, Illegal, NotInGame, Refusal, Stale
from handlers.unit_of_work import UnitOfWork
from handlers.updates import ButtonPress, MemberLeft
from infra.ports import Rows, TimerRequest


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

    def change(work: UnitOfWork) -> None:
        nonlocal outcome
        txn = work.txn
        navigates = isinstance(parsed, action_payloads.Nav)
        try:
            table, seat = _presser(rooms, work, press, decision, navigates)
        except Refusal as refused:
            txn.toast = refusals.toast(lang, refused)
            return
        plang = table.lang_of(seat)
        table.reachable_again(press.user.id)
        acting = table.state.pending.id if table.state.pending is not None else decision
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
        action = action_payloads.decode_action(parsed.payload, seat, acting)
        before = table.question(seat)
        ahead = table.chooses_ahead(seat)  # its next turn, chosen ahead
        try:
            table.apply(action)
        except Rejected:
            txn.toast = refusals.toast(plang, Illegal())
            return
        table.settle()
        # a turn chosen ahead is kept: its prompt stays open, showing the choice; so is a
        # support declared ahead of its turn, which may still change (one edit, issue 25)
        answered = {}
        if not ahead and not _kept_open(table, seat, acting, before[0]):
            answered[seat] = (press.message_id, prompts.render_answered(*before, action, plang))
        after_play(work, rooms.bot_username, table, answered)
        outcome = action.kind

    key = game_key(button.gid)
    done = unit_of_work.run(rooms.pipeline, key, change, press.update_id, query=press.query_id)
    if done is None:
        rooms.messenger.answer(press.query_id, refusals.text(lang, Stale()))
    elif menu:
        rooms.messenger.edit(press.chat_id, press.message_id, *menu[0])
    return outcome


def _kept_open(table: GameRunner, seat: int, decision: int, view: dict[str, Any]) -> bool:
    """A support declared ahead of its turn (R-A3): the seat is still asked the same decision,
    so its prompt is edited once to show what it keeps, not answered and then reopened."""
    own = view["decision"] or {}
    return table.asked_now(seat, decision) and own.get("kind") == "support"


def _presser(
    rooms: Rooms, work: UnitOfWork, press: ButtonPress, decision: int, navigates: bool
) -> tuple[GameRunner, int]:
    """The running game and the pressing player's seat, if the press is theirs to make now."""
    if work.game.phase != PLAYING:
        raise Stale
    table = GameRunner(work, rooms.scale)
    seat = table.seat_of(press.user.id)
    if seat is None:
        raise NotInGame
    ahead = table.chooses_ahead(seat)
    pending = table.state.pending
    # "your turn is next" is not edited for the decision id its buttons carry (issue 25 item
    # 7): a press on it as last shown counts for the decision pending
    shown = pending is not None and _on_ahead(work.game, seat, decision, press)
    if shown and not ahead:  # paused, its buttons still shown: the press is told why it waits
        raise AheadPaused(table.state.players[(seat - 1) % table.state.n].name)
    if not table.asked_now(seat, pending.id if shown and pending is not None else decision):
        raise Stale
    if not _on_own_prompt(work.game, seat, decision, press, navigates, ahead):
        raise Stale
    return table, seat


def _on_ahead(game: GameRecord, seat: int, decision: int, press: ButtonPress) -> bool:
    """The press is on the seat's "your turn is next" message, as last shown."""
    rec = game.ahead
    return bool(
        rec is not None
        and rec.get("seat") == seat
        and rec.get("dec") == decision
        and rec.get("msg") is not None
        and rec.get("msg") == press.message_id
        and press.chat_id == press.user.id
    )


def _on_own_prompt(
    game: GameRecord, seat: int, decision: int, press: ButtonPress, navigates: bool, ahead: bool
) -> bool:
    """Game buttons act only in the player's private chat, on the prompt they belong to (a
    navigation edits that message, so it must be it); ``ahead``: the seat's next turn, chosen
    ahead in a message of its own (engine.premove)."""
    if press.chat_id != press.user.id:
        return False
    if ahead:
        prompt = game.ahead if game.ahead is not None and game.ahead["seat"] == seat else None
    else:
        prompt = game.prompts.get(str(seat))
    if prompt is None or prompt.get("dec") != decision or prompt.get("msg") is None:
        return not navigates
    return bool(prompt["msg"] == press.message_id)


def back(rooms: Rooms, p: ButtonPress, button: BackButton) -> str:
    """R-D2: the player marked away is back; their decisions are theirs again."""
    lang = rooms.user_lang(p.user.id, p.user.language_code)
    if p.chat_id != p.user.id:  # the button lives in the player's private chat
        rooms.messenger.answer(p.query_id)
        return "garbage"

    def change(work: UnitOfWork) -> None:
        if work.game.phase != PLAYING:
            return
        table = GameRunner(work, rooms.scale)
        seat = table.seat_of(p.user.id)
        if seat is None or not table.come_back(seat):
            return
        table.reachable_again(p.user.id)
        table.settle()
        work.txn.edit(p.chat_id, p.message_id, t(lang, "bot.back_done"), None)
        after_play(work, rooms.bot_username, table)

    key = game_key(button.gid)
    if unit_of_work.run(rooms.pipeline, key, change, p.update_id, query=p.query_id) is None:
        rooms.messenger.answer(p.query_id)
    return "back"


def member_left(rooms: Rooms, cmd: MemberLeft) -> str:
    """A player who leaves the group is treated as away (R-D2)."""
    gid = unit_of_work.reading(rooms.store, lambda work: work.chat(cmd.chat_id).game)
    if not gid:
        return "no_game"

    def change(work: UnitOfWork) -> None:
        if work.game.phase == LOBBY:
            lobby.remove_player(rooms, work, cmd.user.id)
            return
        if work.game.phase != PLAYING:
            return
        table = GameRunner(work, rooms.scale)
        seat = table.seat_of(cmd.user.id)
        if seat is None or not table.mark_away(seat):
            return
        table.settle()
        after_play(work, rooms.bot_username, table)

    unit_of_work.run(rooms.pipeline, game_key(gid), change, cmd.update_id)
    return "left"


def timer(rooms: Rooms, req: TimerRequest) -> None:
    """A game's wake-up: a lobby that may have expired, a decision whose time may be up."""

    def change(work: UnitOfWork) -> None:
        if req.decision == FLUSH:
            return  # loading the game is enough: the pipeline resends what is overdue
        if work.game.phase == LOBBY:
            lobby.expire_if_due(work)
            return
        if work.game.phase != PLAYING:
            return
        table = GameRunner(work, rooms.scale)
        pending = table.state.pending
        if pending is None or pending.id != req.decision:
            return  # stale or duplicate timer: that decision is gone
        table.settle()
        if table.events:
            after_play(work, rooms.bot_username, table)
        elif table.reminders or table.mention is not None:
            Presenter(table, rooms.bot_username).send_reminders()

    unit_of_work.run(rooms.pipeline, req.game_key, change, None)
