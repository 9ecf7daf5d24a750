"""The group's side of a game (``handlers.presenter``): the story with the living status at the
foot of its newest message (one message edited at most so often, never pinned: docs/rules.md,
R-V1), and the mention that tells a player in the group it is their turn. Only public events
and views reach it: the group never learns a secret (R-D1).
"""

from __future__ import annotations

import html
import math

import engine
from engine import EventKind
from engine.events import data_of
from engine.view_types import PublicView
from handlers import fmt, story
from handlers.game_record import Story
from handlers.game_runner import GameRunner, RunnerBound
from handlers.i18n import t

# A story message takes the next lines as long as it is this recent: a new group message (and a
# buzz) about every two minutes of play, never one per step. New messages follow the game's
# length: at 90 s a 5-player game whose players ignore 🔜 (40 min) made 27 (issue 25: <= 25).
STORY_MERGE_SECONDS = 120.0
STORY_MAX_CHARS = 3600
# The group's living message (the newest story message, the status at its foot: issue 27) is
# edited at most once in so many seconds: a change within them is held back until they are over,
# and what changes meanwhile joins it (one edit shows the newest text). The status had a message
# of its own, edited every 30 s, and the story every 45 s: 90 of a 5-player game's group calls
# (46.8 status, 43.0 story edits); one message edited every 30 s shows both, the story sooner.
# Every decision is asked in private; the foot follows the game up to 30 s late.
LIVING_EVERY_SECONDS = 30.0


class GroupBoard(RunnerBound):
    """Queues the group's story, status and turn mentions in the transaction's outbox."""

    def __init__(self, run: GameRunner, bot_username: str) -> None:
        super().__init__(run)
        self.bot_username = bot_username
        self.settings = run.settings
        self.scale = run.scale
        self.chat_of = run.chat_of
        self.deadline_at = run.deadline_at

    def mention_turn(self, seat: int, seconds: int) -> None:
        """One short group message that notifies the player (a mention; edits never notify)."""
        lang = self.settings.language
        name = html.escape(self.state.players[seat].name, quote=False)
        mention = f'<a href="tg://user?id={self.chat_of(seat)}">{name}</a>'
        text = t(lang, "bot.turn_reminder", mention=mention, seconds=seconds)
        self.txn.send(self.game.chat, text, tag="turn_reminder")
        p = self.state.pending
        self.game.mention = {
            "seq": self.txn.seq,
            "msg": None,
            "seat": seat,
            "dec": p.id if p is not None else None,
        }

    def end_mention(self, final: bool = False) -> None:
        """The group's "it is your turn: 15 s left" says the turn is over once it is (issue 24:
        it stayed, counting down a turn long gone)."""
        rec = self.game.mention
        if not rec:
            return
        p = self.state.pending
        if not final and not self.state.over and p is not None and p.id == rec["dec"]:
            return  # still that turn
        msg = rec["msg"]
        if msg is None:
            if final or self.state.over:
                self.game.mention = None  # never shown (dropped at the end) or unknown
            return  # still being sent: the next command edits it
        lang = self.settings.language
        name = html.escape(self.state.players[rec["seat"]].name, quote=False)
        self.txn.edit(self.game.chat, msg, t(lang, "bot.turn_reminder_over", name=name))
        self.game.mention = None

    def update(self, table: PublicView) -> None:
        """The group's side of a command: its new story lines, with the players it cannot write
        to (``unreachable_notes``), and the status at the foot of the living message."""
        self.retire_status()
        self.living(fmt.lines(self.story_text(table), self.unreachable_notes()))

    def unreachable_notes(self) -> str:
        """Tell the group once about each player the bot cannot write to, when a public decision
        of theirs runs out: never next to a window, which would tell who was asked in it."""
        noted = self.game.unreachable_noted
        lines = []
        for seat, p in enumerate(self.game.players):
            if seat not in self.run.ran_out:
                continue
            if p.uid in self.game.unreachable and p.uid not in noted:
                noted.append(p.uid)
                name = f"<b>{html.escape(self.state.players[seat].name, quote=False)}</b>"
                lines.append(
                    t(self.settings.language, "bot.unreachable", name=name, bot=self.bot_username)
                )
        return "\n".join(lines)

    def story_text(self, table: PublicView) -> str | None:
        """New story lines only: whose turn it is lives in the status, windows always end by
        their time (so "time is up" would say nothing), and an AI standing in is said so."""
        lang = self.settings.language
        told = [
            e
            for e in engine.public_events(self.events)
            if e.kind != EventKind.TURN
            and not ((d := data_of(e, EventKind.DEADLINE)) and d["window"])
            and not (e.kind == EventKind.AWAY and self.settings.ai_takeover)
        ]
        lines = [story.public_text(told, table, lang)]
        for e in self.events:
            away = data_of(e, EventKind.AWAY)
            if away is not None and e.to is None and self.settings.ai_takeover:
                name = fmt.name(table, away["seat"])
                lines.append(t(lang, "bot.ai_stands_in", name=name))
        return fmt.lines(*lines) or None

    def living(self, lines: str, foot: str | None = None, at_once: bool = False) -> None:
        """The newest story message takes ``lines`` while it is recent and short, with the
        status at its foot (``foot``: that text instead); else the lines go in a new message
        that takes the foot, and the one before keeps its lines alone (one status in the chat,
        never a stale one). Edited at most once in ``LIVING_EVERY_SECONDS``; only when its text
        changes; the end (the reveal, or ``at_once``) at once."""
        s: Story = self.game.story or {}
        foot = self.status_text() if foot is None else foot
        if s and not lines and s.get("foot") == foot:
            return  # nothing new to show
        body, shown = s.get("body", ""), s.get("msg")
        fits = fmt.size(body) + fmt.size(lines) + fmt.size(foot) < STORY_MAX_CHARS
        recent = self.txn.now - s.get("at", 0) < self._merge_window
        if shown and (not lines or not body or (fits and recent)):  # never left with no line
            self._edit(s, fmt.lines(body, lines), foot, at_once)
            return
        if s and not shown and not lines and not s.get("uncertain"):
            if self.txn.take_back(s.get("seq")) is None:
                return  # its send is under way: the next change edits it
            self._send(body, foot, at=s.get("at", self.txn.now))  # still unsent: sent anew
            return
        # a new message; the one before may never have been shown (uncertain: its lines come
        # again), or it is still unsent (held back under pressure, issue 27): one for all lines,
        # or, too long for one, its lines alone first
        if s and not shown and (s.get("uncertain") or self.txn.take_back(s.get("seq"))):
            if fits or not body:
                lines = fmt.lines(body, lines)
            else:
                self.txn.send(self.game.chat, body, tag="story")
        elif shown and s.get("foot"):
            # its foot goes no later than the new message comes (one status in the chat): an
            # edit made anyway, at once rather than held back, and before the send in the queue
            self._edit(s, body, "", at_once=True)
        self._send(lines, foot, at=self.txn.now)

    @property
    def _merge_window(self) -> float:
        return STORY_MERGE_SECONDS * self.scale

    def _send(self, body: str, foot: str, at: float) -> None:
        self.txn.send(self.game.chat, living_text(body, foot), tag="story")
        self.game.story = {"msg": None, "body": body, "foot": foot, "at": at, "seq": self.txn.seq}

    def _edit(self, s: Story, body: str, foot: str, at_once: bool) -> None:
        """Edit the shown message ``s`` to ``body`` over ``foot``, throttled (``_throttle``):
        a held edit shows the status as it is when the edit goes (``status_text``)."""
        msg = s.get("msg")
        assert msg is not None
        over = at_once or self.state.over
        after = None if over else self._throttle(s, LIVING_EVERY_SECONDS)
        if after is not None and foot and foot == self.status_text():
            foot = self.status_text(after)
        self.txn.edit(self.game.chat, msg, living_text(body, foot), tag="story", after=after)
        s["body"], s["foot"] = body, foot

    def status_text(self, shown_at: float | None = None) -> str:
        """The living status: public information only, the deadline as a clock time, unless it
        is past when the text is shown (``shown_at``: a held edit's time) or a window's, over in
        seconds while the status follows up to ``LIVING_EVERY_SECONDS`` late (issue 25). Nothing
        once the game is over: the reveal above says it all."""
        lang = self.settings.language
        table = engine.public_view(self.state)
        if table["over"]:
            return ""
        deadline, pending = self.deadline_at(), table["pending"]
        if (pending is not None and pending["window"]) or (deadline or 0) <= (shown_at or 0):
            deadline = None
        until = t(lang, "game.status.until", time=fmt.clock(deadline)) if deadline else None
        return fmt.lines(story.status_text(table, lang), until)

    def update_status(self) -> None:
        """The status at the foot of the living message, when no line is new (a game shown
        anew in a group, ``handlers.chat_moves``)."""
        self.living("")

    def current_status(self) -> str:
        """What the group's status shows (its foot as queued), for /status."""
        s = self.game.story
        return (s.get("foot") if s else None) or self.status_text()

    def _throttle(self, shown: Story, every: float) -> float | None:
        """When the next edit of a group message may go (None: now): at most one in ``every``
        seconds; one still held back takes the newer text. Only public events edit these
        messages, so their timing tells nothing hidden either (R-D1)."""
        now = self.txn.now
        last = float(shown.get("edit_at", -math.inf))
        if last > now:  # an edit is held back until then: this one replaces it
            return last
        at = max(now, last + every * self.scale)
        shown["edit_at"] = at
        return at if at > now else None

    def retire_status(self) -> None:
        """A game begun before the status moved to the foot of the story (issue 27) has a
        status message of its own, maybe pinned: it says once where the status is now, is
        unpinned, and is not edited again."""
        status = self.game.status
        if status is None:
            return
        msg = status.get("msg")
        chat = self.game.chat
        if msg:
            self.txn.edit(chat, msg, t(self.settings.language, "game.status.moved"), tag="status")
            if status.get("pinned") and not status.get("pin_refused"):
                self.txn.pin(chat, msg, False, tag="status_pin")
        else:
            self.txn.take_back(status.get("seq"))  # never shown: not sent at all
        self.game.status = None


def living_text(body: str, foot: str) -> str:
    """The living message: the story's lines, a blank line, the status (issue 27)."""
    return fmt.truncate("\n\n".join(x for x in (body, foot) if x))
