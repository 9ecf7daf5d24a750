"""What each audience sees of a command's run of the engine (``handlers.game_runner``).

The group has a story of new lines only, the living status at the foot of its newest message
(``handlers.group_board``: edited only on public events, at most once in
``LIVING_EVERY_SECONDS``). Each player gets their private news (in the prompt sent with them,
if any) and one prompt per decision they are asked (edited, not re-sent, when a boost window
asks again); answered or expired prompts are edited to show what happened. A reminder goes to
whoever is still asked shortly before a long deadline; "your turn is next" is
``handlers.ahead_message``.

Texts come from views and public or addressed events; the presenter writes only the
presentation's bookkeeping (which messages show what) into the game record; the unit of work
commits it.
"""

from __future__ import annotations

import engine
from engine import State, premove
from engine.view_types import SeatView
from handlers import fmt, prompts, reminders
from handlers.ahead_message import AheadMessage
from handlers.game_record import Ahead, OpenPrompt
from handlers.game_runner import REMIND_BEFORE_SECONDS, GameRunner, Seen
from handlers.group_board import (
    LIVING_EVERY_SECONDS,
    STORY_MAX_CHARS,
    STORY_MERGE_SECONDS,
    GroupBoard,
)
from handlers.i18n import t
from handlers.late_prompts import close_answered_elsewhere, close_unsent
from handlers.message_tags import Kind, Tag
from handlers.outbox import answer_text
from handlers.private_news import PrivateNews, join_news
from handlers.prompt_versions import Timing, buttons, prompt_version, send_order, shown_deadline
from handlers.prompts.closed import closed_text
from infra.ports import Rows

__all__ = [
    "LIVING_EVERY_SECONDS",
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
        self.group = GroupBoard(run, bot_username)
        self.ahead = AheadMessage(run)

    def render(self, answered: dict[int, tuple[int, Seen]] | None = None) -> None:
        """Queue this command's messages. ``answered`` maps a seat to (prompt message id, what
        it was asked and chose) for the button press that caused the command."""
        st = self.state
        answered = answered or {}
        self.group.end_mention()
        self.send_reminders()
        table = engine.public_view(st)
        news = self._news(st, table, answered)
        # every prompt the command shows, rendered in one call (the answered and the asked ones;
        # a seat's own deadline is added here), then the messages queued
        opening = self._opening(st, answered)
        owner = self._ahead_owner()
        asked = {s: self._question(s) for s in {*opening, *([] if owner is None else [owner])}}
        shown = prompts.render_all(
            {s: self._answered(s, seen) for s, (_, seen) in answered.items()}, asked
        )
        dated = {s: self._dated(s, asked[s].view, pr) for s, pr in shown.prompts.items()}
        opening = {s: opening[s] for s in send_order({s: asked[s].view for s in opening})}
        texts = {s: (m, self._why(s, seen, shown.answers[s])) for s, (m, seen) in answered.items()}
        chosen = {s: shown.answers[s].chosen for s in answered}
        # The presser is looking at the prompt they pressed (issue 27): what the press told them
        # privately joins its answer (one edit, not an edit and a message), and a follow-up of
        # the press (``FOLLOW_UPS``) replaces it in place, under the answers and news given in it
        # (issue 25). The news stay a message of their own next to a prompt that may ask again (a
        # boost window): an edit would take them away. A turn or a fight's decision comes anew.
        follow = self._follow_ups(st, texts)
        for seat, (msg, text) in list(texts.items()):
            told = news.get(seat)
            if seat in follow:
                del texts[seat]
                follow[seat] = (msg, fmt.lines(self.lead(seat, msg), chosen[seat], told))
                news.pop(seat, None)
            elif (
                told
                and not self._asked_again(st, seat)
                and fmt.size(fmt.lines(text, told)) <= fmt.MAX_TEXT
            ):
                texts[seat] = (msg, fmt.lines(text, told))
                del news[seat]
        self._close_prompts(texts, follow, {s: answer_text(c) for s, c in chosen.items()})
        self.group.update(table)
        self._away_notices()
        # first: "🔜" closed says "see the new message below"; news go in a prompt or "🔜" sent
        # anew to the seat (issue 27), the others on their own
        self._open_prompts(opening, dated, follow, news)
        self.ahead.update(self._ahead_prompt(owner, dated), news)
        for seat, text in news.items():
            self.txn.send(self.chat_of(seat), text)
        self.run.events = []

    def send_reminders(self) -> None:
        """Shortly before a long deadline: whoever is still asked, in person (the time left)."""
        due = self.deadline_at()
        left = due - self.run.now if due is not None else REMIND_BEFORE_SECONDS * self.scale
        seconds = max(1, round(left))
        for seat, kind in self.run.reminders:
            lang = self.lang_of(seat)
            text = t(lang, "bot.reminder", what=t(lang, f"game.kind.{kind}"), seconds=seconds)
            if self._prompt_last(seat):  # a reply to it notifies: no edit (issue 27)
                p, pr, rec = self.state.pending, self.prompt(seat), self.game.prompts[str(seat)]
                assert p is not None
                rows, tag = self.rows(p.id, pr.rows), Tag.prompt(seat, p.id)
                reminders.in_reply(self.txn, self.chat_of(seat), text, rec, pr.text, rows, tag)
                continue
            if not self._remind_with_prompt(seat, text):
                self.txn.send(self.chat_of(seat), text, tag="reminder")
        self.run.reminders = []
        if self.run.mention is not None:
            self.group.mention_turn(self.run.mention, seconds)
            self.run.mention = None

    def _remind_with_prompt(self, seat: int, reminder: str) -> bool:
        """The reminder carries the prompt and its buttons, the one shown closed (issue 25: no
        "⏰ 15 s left" stays below it answered), or sent anew if uncertain (handlers.pipeline)."""
        prompt, p = self.game.prompts.get(str(seat)), self.state.pending
        if prompt is None or p is None or prompt["dec"] != p.id or prompt.get("closed"):
            return False
        if shown := prompt["msg"]:
            moved = fmt.lines(prompt.get("title"), "", t(self.lang_of(seat), "prompt.closed.moved"))
            self.txn.edit(
                self.chat_of(seat), shown, self.with_lead(seat, shown, moved), tag="closed"
            )
            prompt["msg"], _ = None, prompt.pop("lead", None)
        elif not prompt.get("uncertain"):
            return False  # its first send is on its way
        pr = self.prompt(seat)  # under the news sent in it (``join_news``): maybe never shown
        text = reminders.with_prompt(reminder, prompt.get("lead"), pr.text)
        self.txn.send(
            self.chat_of(seat), text, self.rows(p.id, pr.rows), tag=Tag.prompt(seat, p.id)
        )
        prompt["uncertain"] = False
        prompt["v"] = prompt_version(self.state, seat, self._timing())
        return True

    def _prompt_last(self, seat: int) -> bool:
        """The seat's open prompt is the newest message the game sent in its chat, nothing else
        on its way there (a direct reply, such as /notes, is not counted: the prompt is then a
        little higher up)."""
        prompt, p = self.game.prompts.get(str(seat)), self.state.pending
        if prompt is None or p is None or prompt["dec"] != p.id or prompt.get("closed"):
            return False
        chat = self.chat_of(seat)
        if not prompt["msg"] or self.game.newest.get(str(chat)) != prompt["msg"]:
            return False
        return not any(
            e["op"] == "send" and e["chat"] == chat for e in self.txn.doc.get("outbox", [])
        )

    def _question(self, seat: int) -> prompts.Question:
        """What the seat is asked now."""
        st = self.state
        return prompts.Question(
            engine.view(st, seat), engine.legal_actions(st, seat), self.lang_of(seat)
        )

    def _opening(self, st: State, answered: dict[int, tuple[int, Seen]]) -> dict[int, str]:
        """The asked seats whose prompt ``_open_prompts`` may send or edit, with its version
        (``prompt_version``): all but one on show as it is, which closing the answered prompts
        leaves as it is (``_close_prompts``)."""
        p = st.pending
        if p is None:
            return {}
        asked, timing, out = engine.asked(st), self._timing(), {}
        for seat in p.actors:
            if not self.asks(seat):
                continue
            version = prompt_version(st, seat, timing)
            rec = self.game.prompts.get(str(seat))
            if (
                rec is None
                or rec["dec"] != p.id
                or rec.get("closed")
                or rec.get("v") != version
                or seat not in asked
                or seat in answered
            ):
                out[seat] = version
        return out

    def prompt(self, seat: int, nav: str = "", *, deadline: bool = True) -> prompts.Prompt:
        """The seat's prompt on page ``nav``, rendered from its own view and legal actions,
        with the decision's deadline as a clock time."""
        q = self._question(seat)
        pr = prompts.render_prompt(q.view, q.legal, q.lang, nav)
        return self._dated(seat, q.view, pr) if deadline else pr

    def _dated(self, seat: int, view: SeatView, pr: prompts.Prompt) -> prompts.Prompt:
        """``pr`` with the seat's deadline as a clock time, if it has one."""
        due = shown_deadline(self.state, seat, view, self._timing())
        if due is None:
            return pr
        until = t(self.lang_of(seat), "game.status.until", time=fmt.clock(due))
        return prompts.Prompt(fmt.truncate(fmt.lines(pr.text, until)), pr.rows)

    def _timing(self) -> Timing:
        """What the seats' own deadlines are counted from (``prompt_versions.Timing``)."""
        dec = self.game.dec
        opened = float(dec["opened"]) if dec is not None else None
        return Timing(self.deadline_at(), opened, self.settings, self.scale)

    def rows(self, decision: int, rows: list[list[tuple[str, str]]]) -> Rows:
        return buttons(self.game.gid, decision, rows)

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
                led, chat = self.with_lead(seat, msg, text), self.chat_of(seat)
                # under pressure the edit may wait: the press's answer then says the choice
                self.txn.edit(chat, msg, led, None, tag=Kind.ANSWERED, answer=chosen[seat])
                if msg == prompt.get("msg"):
                    # A boost window may ask again after a card is played: the same message
                    # then gets the buttons back.
                    prompt["closed"] = True
                elif not still and close_answered_elsewhere(self.txn, chat, seat, prompt, text):
                    same = False  # its send arrives closed: if asked again, a prompt anew
                if not same:
                    del open_prompts[seat_s]
                continue
            if still or (same and prompt.get("closed")):
                continue
            shown, chat = prompt["msg"], self.chat_of(seat)
            if not prompt.get("closed"):
                closed = self._closing_text(seat) or self.closed_text(seat, prompt)
                if shown:
                    self.txn.edit(chat, shown, self.with_lead(seat, shown, closed), tag="closed")
                else:  # its send still waits (Telegram failed it): it arrives closed
                    close_unsent(self.txn, chat, seat, prompt["dec"], closed, prompt.get("lead"))
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
        a = self._answered(seat, seen)
        return self._why(seat, seen, prompts.answer(a.asked, a.action, a.now))

    def _answered(self, seat: int, seen: Seen) -> prompts.Answered:
        """A prompt answered, as ``prompts`` renders it: what it asked and what was chosen
        (``seen.action``), its fight and hand as they are now."""
        assert seen.action is not None
        asked = prompts.Question(seen.view, seen.legal, self.lang_of(seat))
        return prompts.Answered(asked, seen.action, engine.view(self.state, seat))

    def _why(self, seat: int, seen: Seen, answer: prompts.Answer) -> str:
        """The answered prompt's text, with why when the choice was made for the seat."""
        return answer.text(t(self.lang_of(seat), seen.why) if seen.why else None)

    def closed_text(self, seat: int, prompt: OpenPrompt | Ahead, why: str | None = None) -> str:
        """A prompt someone else's move closed (``handlers.prompts.closed``)."""
        table = engine.public_view(self.state)
        title = prompt.get("title", "")
        return closed_text(title, seat, self.lang_of(seat), table, self.events, why)

    def _open_prompts(
        self,
        opening: dict[int, str],
        dated: dict[int, prompts.Prompt],
        follow: dict[int, tuple[int, str]],
        news: dict[int, str],
    ) -> None:
        """Send (or edit, when its facts changed) each asked seat's prompt (``opening``: seat ->
        its version; ``dated``: its prompt); a follow-up of a press (``follow``: seat -> the
        pressed message, its answer) replaces that message; a prompt sent anew carries the
        seat's news of the command above it (taken out of ``news``: ``join_news``)."""
        p = self.state.pending
        if p is None:
            return
        open_prompts = self.game.prompts
        for seat, version in opening.items():
            if not self.asks(seat):
                continue  # told unreachable just now (``GroupBoard.unreachable_notes``)
            current = open_prompts.get(str(seat))
            same = current is not None and current["dec"] == p.id
            shown = same and current is not None and not current.get("closed")
            if shown and current is not None and current.get("v") == version:
                continue
            pr = dated[seat]
            rows = self.rows(p.id, pr.rows)
            title = pr.text.split("\n", 1)[0]
            if current is not None and same and current["msg"]:
                # buttons back (a boost window asks again) or a deadline that starts now are a
                # prompt; other facts on buttons shown may wait under pressure (issue 27)
                timer = version.rpartition(":")[2] != str(current.get("v", "")).rpartition(":")[2]
                again = Tag.prompt(seat, p.id) if current.get("closed") or timer else Kind.RESHOWN
                after = self._kept_wait(seat, str(current.get("v", "")), version)
                text = self.with_lead(seat, current["msg"], pr.text)
                self.txn.edit(
                    self.chat_of(seat), current["msg"], text, rows, tag=again, after=after
                )
                current["v"], current["closed"], current["title"] = version, False, title
                continue
            if same:
                continue  # its message is still being sent; the next command edits it
            msg, lead = None, None
            if current is None and seat in follow:
                msg, lead = follow[seat]
                text = fmt.truncate(fmt.lines(lead, "", pr.text))
                self.txn.edit(self.chat_of(seat), msg, text, rows, tag=Tag.prompt(seat, p.id))
            else:
                lead = join_news(self.txn, self.chat_of(seat), seat, news, pr.text)
                text = fmt.lines(lead, "", pr.text) if lead else pr.text
                self.txn.send(self.chat_of(seat), text, rows, tag=Tag.prompt(seat, p.id))
            open_prompts[str(seat)] = {
                "dec": p.id,
                "msg": msg,
                "v": version,
                "title": title,
                "closed": False,
            }
            if lead:
                open_prompts[str(seat)]["lead"] = lead

    def _ahead_owner(self) -> int | None:
        """The seat offered to choose its next turn ahead now (engine.premove)."""
        st = self.state
        owner = premove.owner(st)
        if owner is None or st.pending is None or not self.asks(owner):
            return None
        if self.game.ahead is None and not self.ahead.offered(owner):
            return None  # closed unused too often: offered again on request (issue 27)
        nt = engine.view(st, owner)["next_turn"]
        if nt is None or not nt["open"]:
            return None  # paused: handlers.ahead_message says why, its buttons kept (issue 27)
        return owner

    def _ahead_prompt(
        self, owner: int | None, dated: dict[int, prompts.Prompt]
    ) -> tuple[int, prompts.Prompt, Rows] | None:
        """The seat offered to choose its next turn ahead (``_ahead_owner``), its prompt and
        buttons, rendered with every prompt (``handlers.ahead_message`` shows it)."""
        p = self.state.pending
        if owner is None or p is None or not self.asks(owner):
            return None
        return owner, dated[owner], self.rows(p.id, dated[owner].rows)


def show(
    run: GameRunner,
    bot_username: str,
    answered: dict[int, tuple[int, Seen]] | None = None,
    kept: int | None = None,
) -> None:
    """A command's messages queued (``Presenter.render``: ``answered``, the press's prompt;
    ``kept``: a presser whose support declared ahead is kept, the answer says so); at the
    game's end, the away notices closed too."""
    presenter = Presenter(run, bot_username)
    presenter.render(answered)
    if kept is not None:
        presenter.kept_toast(kept)
    if run.state.over:
        presenter.close_away_notices()
        presenter.ahead.offered_again()  # no "🔜 Offer my turn ahead again" stays
