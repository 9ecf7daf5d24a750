"""What each audience sees of a command's run of the engine (``handlers.game_runner``).

The group has one living status message per game (the seat board, whose turn, what the table
waits for and until when), edited in place only when its text changes, which is only on public
events, and at most once in ``STATUS_EVERY_SECONDS``; the story carries only new lines, merged
into the newest story message while it is recent (its edits, too, at most once in
``STORY_EVERY_SECONDS``: lines that come sooner wait and go together). Each player gets
their private news and one prompt per decision they are asked (edited, not re-sent, when a boost
window asks again); answered or expired prompts are edited to show what
happened. A reminder goes to whoever is still asked shortly before a long deadline.

Texts come from views and public or addressed events; the presenter writes only the
presentation's bookkeeping (which messages show what) into the game record; the unit of work
commits it.

The group's side (story, status, its pin, turn mentions) is ``handlers.group_board``; the "your
turn is next" message is ``handlers.ahead_message``.
"""

from __future__ import annotations

import html

import engine
from engine import DecisionKind, premove
from engine.view_types import SeatView
from handlers import callback_data, fmt, prompts
from handlers.ahead_message import AheadMessage
from handlers.game_record import Ahead, OpenPrompt
from handlers.game_runner import REMIND_BEFORE_SECONDS, GameRunner, Seen
from handlers.group_board import (
    STATUS_EVERY_SECONDS,
    STORY_EVERY_SECONDS,
    STORY_MAX_CHARS,
    STORY_MERGE_SECONDS,
    GroupBoard,
)
from handlers.i18n import t
from handlers.message_tags import Kind, Tag
from handlers.outbox import answer_text
from handlers.private_news import PrivateNews
from handlers.prompts.closed import closed_text
from handlers.story.table import table_lines
from infra.ports import Rows

__all__ = [
    "STATUS_EVERY_SECONDS",
    "STORY_EVERY_SECONDS",
    "STORY_MAX_CHARS",
    "STORY_MERGE_SECONDS",
    "Presenter",
]


class Presenter(PrivateNews):
    """Queues a command's messages in its transaction's outbox."""

    def __init__(self, run: GameRunner, bot_username: str) -> None:
        super().__init__(run)
        self.bot_username = bot_username
        self.settings = run.settings
        self.scale = run.scale
        self.lang_of = run.lang_of
        self.chat_of = run.chat_of
        self.no_chat = run.no_chat
        self.asks = run.asks
        self.deadline_at = run.deadline_at
        self.group = GroupBoard(run)
        self.ahead = AheadMessage(run)

    @property
    def ran_out(self) -> set[int]:
        return self.run.ran_out

    def render(self, answered: dict[int, tuple[int, Seen]] | None = None) -> None:
        """Queue this command's messages. ``answered`` maps a seat to (prompt message id, what
        it was asked and chose) for the button press that caused the command."""
        st = self.state
        answered = answered or {}
        self.group.end_mention()
        self.send_reminders()
        table = engine.public_view(st)
        news = self._news(st, table, answered)
        # The presser is looking at the prompt they pressed (issue 27): what the press told them
        # privately joins its answer (one edit, not an edit and a message), and a follow-up of
        # the press (``FOLLOW_UPS``) replaces it in place, under the answers and news given in it
        # (issue 25). The news stay a message of their own next to a prompt that may ask again (a
        # boost window): an edit would take them away. A turn or a fight's decision comes anew.
        texts = {s: (msg, self._answered_text(s, chose)) for s, (msg, chose) in answered.items()}
        chosen = {s: answer_text(text.rpartition("\n")[2]) for s, (_, text) in texts.items()}
        follow = self._follow_ups(st, texts)
        for seat, (msg, text) in list(texts.items()):
            told = news.get(seat)
            if seat in follow:
                del texts[seat]
                follow[seat] = (msg, fmt.lines(self.lead(seat, msg), text.split("\n")[-1], told))
                news.pop(seat, None)
            elif (
                told
                and not self._asked_again(st, seat)
                and fmt.size(fmt.lines(text, told)) <= fmt.MAX_TEXT
            ):
                texts[seat] = (msg, fmt.lines(text, told))
                del news[seat]
        self._close_prompts(texts, follow, chosen)
        self.group.update(table, self._unreachable_notes())
        self._away_notices()
        for seat, text in news.items():
            self.txn.send(self.chat_of(seat), text)
        self._open_prompts(follow)  # first: "🔜" closed says "see the new message below"
        self.ahead.update(self._ahead_prompt())
        self.run.events = []

    def send_reminders(self) -> None:
        """Shortly before a long deadline: whoever is still asked, in person (the time left)."""
        due = self.deadline_at()
        left = due - self.run.now if due is not None else REMIND_BEFORE_SECONDS * self.scale
        seconds = max(1, round(left))
        for seat, kind in self.run.reminders:
            lang = self.lang_of(seat)
            what = t(lang, f"game.kind.{kind}")
            text = t(lang, "bot.reminder", what=what, seconds=seconds)
            if not self._remind_with_prompt(seat, text):
                self.txn.send(self.chat_of(seat), text, tag="reminder")
        self.run.reminders = []
        if self.run.mention is not None:
            self.group.mention_turn(self.run.mention, seconds)
            self.run.mention = None

    def _remind_with_prompt(self, seat: int, reminder: str) -> bool:
        """A prompt whose send was uncertain (handlers.pipeline) is shown again by its reminder
        only: the reminder then carries the prompt and its buttons."""
        prompt = self.game.prompts.get(str(seat))
        p = self.state.pending
        if prompt is None or not prompt.get("uncertain") or p is None or prompt["dec"] != p.id:
            return False
        pr = self.prompt(seat)
        text = fmt.truncate(fmt.lines(reminder, "", pr.text))
        self.txn.send(
            self.chat_of(seat), text, self.rows(p.id, pr.rows), tag=Tag.prompt(seat, p.id)
        )
        prompt["uncertain"] = False
        prompt["v"] = self._prompt_version(seat)
        return True

    def status_text(self) -> str:
        """The living status (``handlers.group_board``)."""
        return self.group.status_text()

    def _close_prompts(
        self,
        answered: dict[int, tuple[int, str]],
        follow: dict[int, tuple[int, str]],
        chosen: dict[int, str],
    ) -> None:
        """``answered``: seat -> (the pressed prompt, its answer's text); ``follow``: prompts
        that the next one replaces in place (``_open_prompts``); ``chosen``: seat -> the
        answer's last line as plain text (the press's callback answer when the edit waits)."""
        p = self.state.pending
        open_prompts = self.game.prompts
        asked = engine.asked(self.state)
        for seat_s, prompt in list(open_prompts.items()):
            seat = int(seat_s)
            if seat in follow:
                del open_prompts[seat_s]
                continue
            same = p is not None and p.id == prompt["dec"]
            still = same and seat in asked
            if seat in answered:
                msg, text = answered[seat]
                text = self.with_lead(seat, msg, text)
                # under pressure the edit may wait: the press's answer then says the choice
                self.txn.edit(
                    self.chat_of(seat), msg, text, None, tag=Kind.ANSWERED, answer=chosen[seat]
                )
                if msg == prompt.get("msg"):
                    # A boost window may ask again after a card is played: the same message
                    # then gets the buttons back.
                    prompt["closed"] = True
                if not same:
                    del open_prompts[seat_s]
                continue
            if still or (same and prompt.get("closed")):
                continue
            shown = prompt["msg"]
            if shown and not prompt.get("closed"):
                closed = self._closing_text(seat) or self.closed_text(seat, prompt)
                closed = self.with_lead(seat, shown, closed)
                self.txn.edit(self.chat_of(seat), shown, closed, None, tag="closed")
            del open_prompts[seat_s]

    def _closing_text(self, seat: int) -> str | None:
        """What the run noted for the seat's open prompt: the choice made for it and why, or
        the fight as it stands (a boost window with nothing left to play)."""
        seen = self.run.closing.get(seat)
        if seen is None:
            return None
        if seen.action is None:
            lang = self.lang_of(seat)
            return prompts.render_prompt(seen.view, seen.legal, lang, "", frozen=True).text
        return self._answered_text(seat, seen)

    def _answered_text(self, seat: int, seen: Seen) -> str:
        """A prompt answered: what it asked and what was chosen (``seen.action``), with why
        when it was chosen for the seat."""
        lang = self.lang_of(seat)
        assert seen.action is not None
        now = engine.view(self.state, seat)
        text = prompts.render_answered(seen.view, seen.legal, seen.action, lang, now)
        if not seen.why:
            return text
        asked, _, chosen = text.rpartition("\n")
        return fmt.lines(asked, t(lang, seen.why), chosen)

    def closed_text(self, seat: int, prompt: OpenPrompt | Ahead, why: str | None = None) -> str:
        """A prompt someone else's move closed (``handlers.prompts.closed``)."""
        table = engine.public_view(self.state)
        title = prompt.get("title", "")
        return closed_text(title, seat, self.lang_of(seat), table, self.events, why)

    def cancel(self) -> None:
        """The game ends outside the engine (/cancel): every open prompt says so, the status
        is unpinned."""
        self.group.pin_status(False)
        self.close_all_prompts("prompt.closed.cancelled")
        self.group.end_mention(final=True)
        self.close_away_notices()
        status = self.game.status
        msg = status.get("msg") if status else None
        if status and msg:  # no deadline stays on show
            lang = self.settings.language
            table = engine.public_view(self.state)
            text = fmt.lines(t(lang, "lobby.cancelled"), *table_lines(table, lang))
            self.txn.edit(self.game.chat, msg, text, tag="status")
            status["text"] = text

    def close_all_prompts(self, why: str) -> None:
        """Every open prompt closes, saying why."""
        for seat_s, prompt in self.game.prompts.items():
            msg = prompt.get("msg")
            if msg and not prompt.get("closed"):
                seat = int(seat_s)
                text = self.with_lead(seat, msg, self.closed_text(seat, prompt, why))
                self.txn.edit(self.chat_of(seat), msg, text, None, tag="closed")
        self.game.prompts = {}
        rec = self.game.ahead
        if rec is not None and rec["msg"]:
            text = self.closed_text(rec["seat"], rec, why)
            self.txn.edit(self.chat_of(rec["seat"]), rec["msg"], text, None, tag="closed")
        self.game.ahead = None

    def _open_prompts(self, follow: dict[int, tuple[int, str]] | None = None) -> None:
        """Send (or edit, when its facts changed) each asked seat's prompt; a follow-up of a
        press (``follow``: seat -> the pressed message, its answer) replaces that message."""
        follow = follow or {}
        p = self.state.pending
        if p is None:
            return
        open_prompts = self.game.prompts
        for seat in p.actors:
            if not self.asks(seat):
                continue
            version = self._prompt_version(seat)
            current = open_prompts.get(str(seat))
            same = current is not None and current["dec"] == p.id
            shown = same and current is not None and not current.get("closed")
            if shown and current is not None and current.get("v") == version:
                continue
            pr = self.prompt(seat)
            rows = self.rows(p.id, pr.rows)
            title = pr.text.split("\n", 1)[0]
            if current is not None and same and current["msg"]:
                # buttons back (a boost window asks again) or a deadline that starts now are a
                # prompt; other facts on buttons shown may wait under pressure (issue 27)
                timer = version.rpartition(":")[2] != str(current.get("v", "")).rpartition(":")[2]
                again = Kind.PROMPT if current.get("closed") or timer else Kind.RESHOWN
                after = self._kept_wait(seat, str(current.get("v", "")), version)
                text = self.with_lead(seat, current["msg"], pr.text)
                self.txn.edit(
                    self.chat_of(seat), current["msg"], text, rows, tag=again, after=after
                )
                current["v"], current["closed"], current["title"] = version, False, title
                continue
            if same:
                continue  # its message is still being sent; the next command edits it
            msg = None
            if current is None and seat in follow:
                msg, answer = follow[seat]
                text = fmt.truncate(fmt.lines(answer, "", pr.text))
                self.txn.edit(self.chat_of(seat), msg, text, rows, tag="prompt")
            else:
                self.txn.send(self.chat_of(seat), pr.text, rows, tag=Tag.prompt(seat, p.id))
            open_prompts[str(seat)] = {
                "dec": p.id,
                "msg": msg,
                "v": version,
                "title": title,
                "closed": False,
            }
            if msg is not None:
                open_prompts[str(seat)]["lead"] = follow[seat][1]

    def _ahead_prompt(self) -> tuple[int, prompts.Prompt, Rows] | None:
        """The seat offered to choose its next turn ahead (engine.premove), its prompt and
        buttons, rendered here like every prompt (``handlers.ahead_message`` shows it)."""
        st = self.state
        owner = premove.owner(st)
        if owner is None or st.pending is None or not self.asks(owner):
            return None
        nt = engine.view(st, owner)["next_turn"]
        if nt is None or not nt["open"]:
            return None  # paused: handlers.ahead_message says why, without buttons
        pr = self.prompt(owner)
        return owner, pr, self.rows(st.pending.id, pr.rows)

    def prompt(self, seat: int, nav: str = "", *, deadline: bool = True) -> prompts.Prompt:
        """The seat's prompt on page ``nav``, rendered from its own view and legal actions,
        with the decision's deadline as a clock time."""
        lang = self.lang_of(seat)
        st = self.state
        view, legal = engine.view(st, seat), engine.legal_actions(st, seat)
        pr = prompts.render_prompt(view, legal, lang, nav)
        due = self._shown_deadline(seat, view) if deadline else None
        if due is None:
            return pr
        until = t(lang, "game.status.until", time=fmt.clock(due))
        return prompts.Prompt(fmt.truncate(fmt.lines(pr.text, until)), pr.rows)

    def _shown_deadline(self, seat: int, view: SeatView) -> float | None:
        """The seat's own deadline. R-A3: none before one's turn, none for a turn chosen ahead
        (engine.premove). One's own decision asked in a window does not have the window's
        (issue 25): a reward asked in the Doctor window shows the one it goes on under once
        the window closes; a support asked in the Priest window, none until its turn."""
        aw = engine.awaiting(self.state)
        if aw is not None and (seat in aw.ahead or seat == aw.premove):
            return None
        own = view["decision"]
        due = self.deadline_at()
        if own is None or not own["data"].get("early"):
            return due
        if own["kind"] != DecisionKind.REWARD or due is None:
            return None
        # counted from when it was asked (``deadline_at``), and not before the window closes
        dec = self.game.dec
        assert dec is not None  # a decision is pending
        own_due = float(dec["opened"]) + self.settings.seconds(own["deadline"]) * self.scale
        return max(due, own_due)

    def _prompt_version(self, seat: int) -> str:
        """What the seat's open prompt shows, beyond its decision: re-rendered when it changes.
        Prompts of the boost window change as cards are played, support prompts when the seat's
        own turn to declare comes (R-A3: with every declaration before it told, and its deadline)
        or it declares ahead of it, and a decision asked during a window goes on under its own
        deadline once the window closes. A decision asked during a window is the seat's own kind
        all along (what it asks and offers), so the window's close alone edits only a prompt that
        gets its deadline then; the others keep their message until their facts change (issue
        27: about 36 edits per 5-player game). A declaration told while the seat's turn has not
        come changes neither its buttons nor what it must do: its prompt stays as it was (true
        when shown), and shows every declaration told when its turn comes (issue 27: 12.5 edits
        per 5-player game)."""
        st = self.state
        fight = engine.current_fight(st)
        played = len(fight.get("played", [])) if fight else 0
        view = engine.view(st, seat)
        own = view["decision"]
        kind = own["kind"] if own is not None else ""
        declared = own["data"].get("declared") if own is not None and fight else None
        due = self._shown_deadline(seat, view)
        # a reward asked in the Doctor window: edited at its close only if its deadline moved
        reward = due is not None and kind == DecisionKind.REWARD
        timed = fmt.clock(due) if reward and due is not None else due is not None
        return f"{kind}:{played}:{declared}:{timed}"  # timed last: _open_prompts

    def _unreachable_notes(self) -> str:
        """Tell the group once about each player the bot cannot write to, when a public decision
        of theirs runs out: never next to a window, which would tell who was asked in it."""
        noted = self.game.unreachable_noted
        lines = []
        for seat, p in enumerate(self.game.players):
            if seat not in self.ran_out:
                continue
            if p.uid in self.game.unreachable and p.uid not in noted:
                noted.append(p.uid)
                name = f"<b>{html.escape(self.state.players[seat].name, quote=False)}</b>"
                lines.append(
                    t(self.settings.language, "bot.unreachable", name=name, bot=self.bot_username)
                )
        return "\n".join(lines)

    def rows(self, decision: int, rows: list[list[tuple[str, str]]]) -> Rows:
        gid = self.game.gid
        return [
            [[label, "d", callback_data.game(gid, decision, payload)] for label, payload in row]
            for row in rows
        ]


def show(
    run: GameRunner, bot_username: str, answered: dict[int, tuple[int, Seen]] | None = None
) -> None:
    """A command's messages queued (``Presenter.render``: ``answered``, the press's prompt), in
    one call to the presenter; at the game's end, the away notices closed too."""
    presenter = Presenter(run, bot_username)
    presenter.render(answered)
    if run.state.over:
        presenter.close_away_notices()
