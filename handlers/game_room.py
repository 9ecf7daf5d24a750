"""The running game's commands: a decision button, "I am back", a player leaving the group, a
decision's timer. Each runs as one unit of work on the game: load, engine, render, commit."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import TypeVar

from engine import Rejected
from handlers import action_payloads, lobby, prompts, refusals, unit_of_work
from handlers.ahead_message import kept_answer, pause_reason
from handlers.callback_data import AheadButton, BackButton, GameButton
from handlers.context import Rooms
from handlers.game_end import finish_game
from handlers.game_record import LOBBY, PLAYING, Ahead, GameRecord, OpenPrompt, StoredGameInvalid
from handlers.game_runner import GameRunner, Seen
from handlers.i18n import t
from handlers.presenter import Presenter, show
from handlers.refusals import AheadPaused, Illegal, NotInGame, Refusal, Stale
from handlers.store_keys import FLUSH, game_key, timer_target
from handlers.transaction import PageTurn
from handlers.unit_of_work import UnitOfWork, Work
from handlers.updates import ButtonPress, MemberLeft
from infra.ports import TimerRequest

C = TypeVar("C")


@dataclass(frozen=True)
class Pressed:
    """A decision button pressed: the press, the decision it answers and its parsed payload."""

    rooms: Rooms
    press: ButtonPress
    decision: int
    parsed: action_payloads.Parsed


@dataclass(frozen=True)
class Outcome:
    kind: str  # what the press did: an action's kind, "info", "nav", "stale"


def press(rooms: Rooms, press: ButtonPress, button: GameButton) -> str:
    """A decision button in a player's private chat. A refusal is said in the language the
    presser chose (/language), like every other answer in their private chat; read only then."""
    try:
        parsed = action_payloads.parse_payload(button.payload)
    except action_payloads.BadPayload:
        lang = rooms.user_lang(press.user.id, press.user.language_code)
        rooms.messenger.answer(press.query_id, refusals.text(lang, Stale()))
        return "garbage"
    cmd = Pressed(rooms, press, button.decision, parsed)
    key = game_key(button.gid)
    with Work(rooms.pipeline, key, press.update_id, query=press.query_id) as work:
        outcome = work.run(pressed, cmd) or Outcome("stale")
    if work.txn is None:
        lang = rooms.user_lang(press.user.id, press.user.language_code)
        rooms.messenger.answer(press.query_id, refusals.text(lang, Stale()))
    return outcome.kind


def pressed(cmd: Pressed, work: UnitOfWork) -> Outcome:
    """The press applied to the game: refused (a toast), an info or a navigation, or the
    action played and the table's messages queued."""
    rooms, press, decision, parsed = cmd.rooms, cmd.press, cmd.decision, cmd.parsed
    txn = work.txn
    navigates = isinstance(parsed, action_payloads.Nav)
    try:
        table, seat, acting = _presser(rooms, work, press, decision, navigates)
    except Refusal as refused:
        txn.toast = refusals.toast(_presser_lang(work, press), refused)
        return Outcome("stale")
    plang = table.lang_of(seat)
    table.reachable_again(press.user.id)
    if isinstance(parsed, action_payloads.Info):
        txn.toast = (prompts.render_info(plang, parsed), True)
        return Outcome("info")
    if isinstance(parsed, action_payloads.Nav):
        presenter = Presenter(table, rooms.bot_username)
        pr = presenter.prompt(seat, parsed.path)
        text = presenter.with_lead(seat, press.message_id, pr.text)
        # the page is drawn from the table as it is now: an edit of its message still held back
        # (a choice kept ahead, shown ``KEPT_WAIT_SECONDS`` later) would turn it back
        txn.drop_held(press.chat_id, press.message_id)
        rows = presenter.rows(decision, pr.rows)
        # the answer to the press: sent first, in the shared budget; a wait for it moves the
        # deadline of the decision it asks on, not of "your turn is next" (``handlers.page_turn``)
        asks = None if table.chooses_ahead(seat) else acting
        txn.page = PageTurn(press.chat_id, press.message_id, text, rows, asks, txn.now)
        return Outcome("nav")
    action = action_payloads.decode_action(parsed.payload, seat, acting)
    before = table.question(seat)
    ahead = table.chooses_ahead(seat)  # its next turn, chosen ahead
    try:
        table.apply(action)
    except Rejected:
        txn.toast = refusals.toast(plang, Illegal())
        return Outcome("stale")
    table.settle()
    # a turn chosen ahead is kept: its prompt stays open, showing the choice; so is a
    # support declared ahead of its turn, which may still change (one edit, issue 25)
    answered: dict[int, tuple[int, Seen]] = {}
    kept = not ahead and table.support_kept_open(seat, acting)
    if not kept and not ahead:
        answered[seat] = (press.message_id, Seen(*before, action))
    if ahead:  # said at once: its message shows it a little later (issue 27)
        txn.toast = kept_answer(table.question(seat)[0], plang)
    _after_play(work, rooms, table, answered, seat if kept else None)
    return Outcome(action.kind)


def _after_play(
    work: UnitOfWork,
    rooms: Rooms,
    table: GameRunner,
    answered: dict[int, tuple[int, Seen]] | None = None,
    kept: int | None = None,
) -> None:
    """After the engine ran: what happened shown (``answered``: the pressing seat's prompt
    message, what it was asked and chose; ``kept``: the presser whose support declared ahead
    keeps its prompt open), and a game that is over closed."""
    show(table, rooms.bot_username, answered, kept)
    if table.state.over:
        finish_game(work, table)


def _presser_lang(work: UnitOfWork, press: ButtonPress) -> str:
    """The language the presser chose (/language): a seated player's as the game keeps it (the
    choice follows them into it), no read; anyone else's from their record (read only then)."""
    seat = work.game.seat_of(press.user.id)
    lang = work.game.players[seat].lang if seat is not None else None
    return lang or work.user_lang(press.user.id, press.user.language_code)


def _presser(
    rooms: Rooms, work: UnitOfWork, press: ButtonPress, decision: int, navigates: bool
) -> tuple[GameRunner, int, int]:
    """The running game, the pressing player's seat and the decision the press answers, if the
    press is theirs to make now: the decision its buttons carry, or the one pending for a press
    on "your turn is next" as last shown."""
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
    if shown and not ahead:  # paused since the press was made: told why it waits
        key, words = pause_reason(table.question(seat)[0])
        raise AheadPaused(words.pop("name"), key, words)
    answers = pending.id if shown and pending is not None else decision
    if not table.asked_now(seat, answers):
        raise Stale
    if not _on_own_prompt(work.game, seat, decision, press, navigates, ahead):
        raise Stale
    return table, seat, answers


def _on_ahead(game: GameRecord, seat: int, decision: int, press: ButtonPress) -> bool:
    """The press is on the seat's "your turn is next" message, as last shown."""
    rec = game.ahead
    return bool(
        rec is not None
        and rec.get("seat") == seat
        and decision in (rec.get("dec"), rec.get("was"))
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
    prompt: OpenPrompt | Ahead | None
    shown: tuple[int | None, ...] = ()  # the decisions its buttons may carry
    if ahead:
        prompt = game.ahead if game.ahead is not None and game.ahead["seat"] == seat else None
        shown = (prompt["dec"], prompt.get("was")) if prompt is not None else ()
    else:
        prompt = game.prompts.get(str(seat))
        shown = (prompt["dec"],) if prompt is not None else ()
    if prompt is None or decision not in shown or prompt.get("msg") is None:
        return not navigates
    return bool(prompt["msg"] == press.message_id)


@dataclass(frozen=True)
class Back:
    """The "I am back" button pressed in a player's private chat."""

    rooms: Rooms
    press: ButtonPress
    lang: str


def back(rooms: Rooms, p: ButtonPress, button: BackButton) -> str:
    """R-D2: the player marked away is back; their decisions are theirs again."""
    lang = rooms.user_lang(p.user.id, p.user.language_code)
    return _in_private(rooms, p, button.gid, "back", came_back, Back(rooms, p, lang))


def _in_private(
    rooms: Rooms,
    p: ButtonPress,
    gid: str,
    outcome: str,
    room: Callable[[C, UnitOfWork], None],
    command: C,
) -> str:
    """A button that lives in the player's private chat, run on game ``gid``; pressed anywhere
    else it does nothing. Every press is answered."""
    if p.chat_id != p.user.id:
        rooms.messenger.answer(p.query_id)
        return "garbage"
    with Work(rooms.pipeline, game_key(gid), p.update_id, query=p.query_id) as work:
        work.run(room, command)
    if work.txn is None:
        rooms.messenger.answer(p.query_id)
    return outcome


def came_back(cmd: Back, work: UnitOfWork) -> None:
    rooms, p = cmd.rooms, cmd.press
    if work.game.phase != PLAYING:
        return
    table = GameRunner(work, rooms.scale)
    seat = table.seat_of(p.user.id)
    if seat is None or not table.come_back(seat):
        return
    table.reachable_again(p.user.id)
    table.settle()
    work.txn.edit(p.chat_id, p.message_id, t(cmd.lang, "bot.back_done"), None)
    _after_play(work, rooms, table)


@dataclass(frozen=True)
class AheadAgain:
    """ "🔜 Offer my turn ahead again" pressed in a player's private chat."""

    rooms: Rooms
    press: ButtonPress


def ahead_again(rooms: Rooms, p: ButtonPress, button: AheadButton) -> str:
    """The player who let "your turn is next" close unused (``handlers.ahead_message``) wants it
    offered again: from now on, at once if it is open to them now. Their chat alone changes."""
    return _in_private(rooms, p, button.gid, "ahead_again", offered_again, AheadAgain(rooms, p))


def offered_again(cmd: AheadAgain, work: UnitOfWork) -> None:
    rooms, p = cmd.rooms, cmd.press
    if work.game.phase != PLAYING:
        work.txn.toast = refusals.toast(_presser_lang(work, p), Stale())
        return
    table = GameRunner(work, rooms.scale)
    seat = table.seat_of(p.user.id)
    if seat is None:
        return
    presenter = Presenter(table, rooms.bot_username)
    presenter.ahead.offered_again(seat)
    work.txn.toast = (t(table.lang_of(seat), "bot.ahead_again_done"), False)
    presenter.render()


@dataclass(frozen=True)
class Left:
    rooms: Rooms
    left: MemberLeft


def member_left(rooms: Rooms, cmd: MemberLeft) -> str:
    """A player who leaves the group is treated as away (R-D2)."""
    gid = unit_of_work.reading(rooms.store, lambda work: work.chat(cmd.chat_id).game)
    if not gid:
        return "no_game"
    with Work(rooms.pipeline, game_key(gid), cmd.update_id) as work:
        work.run(went_away, Left(rooms, cmd))
    return "left"


def went_away(cmd: Left, work: UnitOfWork) -> None:
    rooms = cmd.rooms
    if work.game.phase == LOBBY:
        lobby.remove_player(rooms, work, cmd.left.user.id)
        return
    if work.game.phase != PLAYING:
        return
    table = GameRunner(work, rooms.scale)
    seat = table.seat_of(cmd.left.user.id)
    if seat is None or not table.mark_away(seat):
        return
    table.settle()
    _after_play(work, rooms, table)


class TimerOutcome(StrEnum):
    """What a timer request came to; all but ``APPLIED`` can never succeed on a retry."""

    APPLIED = "applied"  # run (a stale or duplicate decision does nothing, as it should)
    GONE = "gone"  # its document no longer exists (a game expired, a reply outbox emptied)
    NOT_A_GAME = "not_a_game"  # its key names no game (forged, malformed, another record)
    INVALID = "invalid"  # its document is not a game's shape

    @property
    def permanent(self) -> bool:
        return self is not TimerOutcome.APPLIED


@dataclass(frozen=True)
class Woke:
    rooms: Rooms
    request: TimerRequest


def timer(rooms: Rooms, req: TimerRequest) -> TimerOutcome:
    """A game's wake-up: a lobby that may have expired, a decision whose time may be up. A
    request no retry can ever apply (its key names no game or outbox, its game is gone or not a
    game's shape) says so instead of raising: the timer Lambda acknowledges it, logged once,
    rather than retrying it into the dead-letter queue. A transient fault still raises."""
    if not timer_target(req.game_key, req.decision):
        return TimerOutcome.NOT_A_GAME
    try:
        with Work(rooms.pipeline, req.game_key, None) as work:
            work.run(woke, Woke(rooms, req))
    except StoredGameInvalid:
        return TimerOutcome.INVALID
    return TimerOutcome.APPLIED if work.txn is not None else TimerOutcome.GONE


def woke(cmd: Woke, work: UnitOfWork) -> None:
    rooms, req = cmd.rooms, cmd.request
    if req.decision == FLUSH:
        return  # loading the game is enough: the load resends what is overdue
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
        _after_play(work, rooms, table)
    elif table.reminders or table.mention is not None:
        Presenter(table, rooms.bot_username).send_reminders()
