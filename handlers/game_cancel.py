"""/cancel: a lobby is closed by its creator or a group admin; a game under way ends by a group
admin's /cancel, or by a majority of its players': its creator alone, losing, cannot end it for
the others. Nobody needs to end a game to free the group: its deadlines end it without them."""

from __future__ import annotations

import engine
from handlers import fmt, refusals, story, unit_of_work
from handlers.context import Rooms
from handlers.game_record import PLAYING
from handlers.game_runner import GameRunner
from handlers.i18n import t
from handlers.late_prompts import close_queued, close_unsent
from handlers.lobby import Said, close, may_manage
from handlers.presenter import Presenter
from handlers.refusals import CancelVote, NoGame, NotManager, Refusal
from handlers.store_keys import game_key
from handlers.story.table import table_lines
from handlers.unit_of_work import UnitOfWork, Work
from handlers.updates import CommandMsg

CANCEL_VOTE_SECONDS = 300.0


def cmd_cancel(rooms: Rooms, cmd: CommandMsg, lang: str) -> None:
    gid = unit_of_work.reading(rooms.store, lambda work: work.chat(cmd.chat_id).game)
    if not gid:
        rooms.messenger.send(cmd.chat_id, refusals.text(lang, NoGame()))
        return

    with Work(rooms.pipeline, game_key(gid), cmd.update_id) as work:
        refused = work.run(cancel, Said(rooms, cmd, lang, gid))
    if refused is not None:  # a reply, under the group's budget (``handlers.reply_budget``)
        rooms.messenger.send(cmd.chat_id, refusals.text(lang, refused))


def cancel(said: Said, work: UnitOfWork) -> Refusal | None:
    """/cancel by the game's creator or an admin: the lobby or the game ends without a result;
    anyone else's returns why not."""
    rooms, cmd, lang = said.rooms, said.cmd, said.lang
    game, txn = work.game, work.txn
    if not game.active:
        return None
    # muted in its group (handlers.holds.tell_muted), its creator is told to end it: nobody
    # there could follow the game, nor a vote
    creator_alone = game.muted and game.creator == cmd.user.id
    if game.phase == PLAYING and not creator_alone and not rooms.is_admin(cmd.chat_id, cmd.user.id):
        refused = _cancel_vote(work, cmd.user.id)
        if refused is not None:
            return refused
    elif not may_manage(rooms, game, cmd.chat_id, cmd.user.id):
        return NotManager()
    if game.phase == PLAYING:
        table = GameRunner(work, rooms.scale)
        close_table(Presenter(table, rooms.bot_username))
        txn.send(cmd.chat_id, story.final_text(engine.public_view(table.state), lang))
    close(work, "lobby.cancelled")
    return None


def _cancel_vote(work: UnitOfWork, uid: int) -> Refusal | None:
    """A game under way ends by /cancel of a group admin, or of a majority of its players
    within ``CANCEL_VOTE_SECONDS``: its creator alone, losing, cannot end it for the others
    (a game never waits for anyone: its deadlines end it without them). A player marked away
    (one who left the group, R-D2) is left out of the majority unless they vote: the players
    still at the table are not held to votes nobody there can cast. None: enough."""
    game, now = work.game, work.txn.now
    humans = {p.uid for p in game.humans()}
    if uid not in humans:
        return NotManager()
    votes = {
        k: at
        for k, at in game.cancel_votes.items()
        if int(k) in humans and now - at < CANCEL_VOTE_SECONDS
    }
    votes[str(uid)] = now
    assert game.engine is not None  # a game under way has its state
    seats = engine.State.from_dict(game.engine).players
    away = {p.uid for p, s in zip(game.players, seats, strict=True) if s.away}
    counted = (humans - away) | {int(k) for k in votes}
    need = len(counted) // 2 + 1
    if len(votes) >= need:
        return None
    game.cancel_votes = votes
    return CancelVote(len(votes), need)


def close_table(presenter: Presenter) -> None:
    """The game ends outside the engine (/cancel): every open prompt says so, and so does
    the foot of the group's living message, at once (no deadline stays on show)."""
    presenter.group.retire_status()
    _close_all_prompts(presenter, "prompt.closed.cancelled")
    presenter.group.end_mention(final=True)
    presenter.close_away_notices()
    presenter.ahead.offered_again()  # no "🔜 Offer my turn ahead again" stays
    if presenter.game.story:
        lang = presenter.settings.language
        public = engine.public_view(presenter.state)
        text = fmt.lines(t(lang, "lobby.cancelled"), *table_lines(public, lang))
        presenter.group.living("", foot=text, at_once=True)


def _close_all_prompts(presenter: Presenter, why: str) -> None:
    """Every open prompt closes, saying why."""
    for seat_s, prompt in presenter.game.prompts.items():
        msg, seat = prompt.get("msg"), int(seat_s)
        if msg and not prompt.get("closed"):
            text = presenter.with_lead(seat, msg, presenter.closed_text(seat, prompt, why))
            presenter.txn.edit(presenter.chat_of(seat), msg, text, None, tag="closed")
        elif not msg:  # its send still waits, or another process is at it: it arrives closed
            text = presenter.closed_text(seat, prompt, why)
            chat = presenter.chat_of(seat)
            close_unsent(presenter.txn, chat, seat, prompt["dec"], text, prompt.get("lead"))
    presenter.game.prompts = {}
    rec = presenter.game.ahead
    if rec is not None and rec["msg"]:
        text = presenter.with_lead(
            rec["seat"], rec["msg"], presenter.closed_text(rec["seat"], rec, why)
        )
        presenter.txn.edit(presenter.chat_of(rec["seat"]), rec["msg"], text, None, tag="closed")
    elif rec is not None:
        text, lead = presenter.closed_text(rec["seat"], rec, why), rec.get("lead")
        close_queued(
            presenter.txn, rec.get("seq"), fmt.truncate(fmt.lines(lead, "", text)) if lead else text
        )
    presenter.game.ahead = None
