"""The group's side of a game (``handlers.presenter``): the story, the living status with its
pin, both edited at most so often, and the mention that tells a player in the group it is their
turn. Only public events and views reach it: the group never learns a secret (R-D1).
"""

from __future__ import annotations

import html
import math

import engine
from engine import EventKind
from engine.events import data_of
from engine.view_types import PublicView
from handlers import fmt, story
from handlers.game_record import Status, Story
from handlers.game_runner import GameRunner, RunnerBound
from handlers.i18n import t
from handlers.story.table import table_lines

# A story message takes the next lines as long as it is this recent: a new group message (and a
# buzz) about every two minutes of play, never one per step. New messages follow the game's
# length: at 90 s a 5-player game whose players ignore 🔜 (40 min) made 27 (issue 25: <= 25).
STORY_MERGE_SECONDS = 120.0
STORY_MAX_CHARS = 3600
# The group's living status and story message are edited at most once in so many seconds (issue
# 27: the group's 20 calls a minute, and 0.3 calls a second per game): a change within them is
# held back until they are over, and what changes meanwhile joins it (one edit shows the newest
# text). At 15 s (status) and 12 s (story) they were 193 of a 5-player game's 963 calls; at 30 s
# 101; with the story at 45 s, 90 (several story lines go into one edit). The status, which shows
# the fight as it stands, follows the game up to 30 s late, the story (its log) up to 45 s; every
# decision is asked in private.
STATUS_EVERY_SECONDS = 30.0
STORY_EVERY_SECONDS = 45.0


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
        to (``unreachable_notes``), then its living status."""
        public = fmt.lines(self.story_text(table), self.unreachable_notes())
        if public:
            self.story(public)
        self.update_status()

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

    def story(self, body: str) -> None:
        """Append to the newest story message while it is recent and short, else send anew."""
        s: Story = self.game.story or {}
        chat = self.game.chat
        shown = s.get("msg")
        merge = (
            shown
            and self.txn.now - s.get("at", 0) < STORY_MERGE_SECONDS * self.scale
            and fmt.size(s.get("body", "")) + fmt.size(body) < STORY_MAX_CHARS
        )
        if merge and shown:
            s["body"] = f"{s['body']}\n{body}"
            # the end (the reveal) goes at once, and takes any held-back lines with it
            after = None if self.state.over else self._throttle(s, STORY_EVERY_SECONDS)
            self.txn.edit(chat, shown, s["body"], tag="story", after=after)
            return
        # its lines may never have been shown, or it is still unsent (held back under pressure,
        # issue 27): one message for all its lines
        held = (
            not shown
            and fmt.size(s.get("body", "")) + fmt.size(body) < STORY_MAX_CHARS
            and self.txn.take_back(s.get("seq")) is not None
        )
        if (s.get("uncertain") and not s.get("msg")) or held:
            body = fmt.lines(s.get("body", ""), body)
        self.txn.send(chat, body, tag="story")
        self.game.story = {"msg": None, "body": body, "at": self.txn.now, "seq": self.txn.seq}

    def status_text(self, shown_at: float | None = None) -> str:
        """The living status: public information only, the deadline as a clock time, unless it
        is past when the text is shown (``shown_at``: a held edit's time) or a window's, over in
        seconds while the status follows up to ``STATUS_EVERY_SECONDS`` late (issue 25)."""
        lang = self.settings.language
        table = engine.public_view(self.state)
        if table["over"]:
            return fmt.lines(t(lang, "game.status.over"), *table_lines(table, lang))
        deadline, pending = self.deadline_at(), table["pending"]
        if (pending is not None and pending["window"]) or (deadline or 0) <= (shown_at or 0):
            deadline = None
        until = t(lang, "game.status.until", time=fmt.clock(deadline)) if deadline else None
        return fmt.lines(story.status_text(table, lang), until)

    def update_status(self) -> None:
        """Send the status once, then edit it only when its text changes (public changes). With
        its first edit it is pinned, quietly, where the bot may pin; unpinned at the end."""
        status = self.game.status
        text = self.status_text()
        chat = self.game.chat
        msg = status.get("msg") if status else None
        lost = status and status.get("uncertain") and not msg and status.get("text") != text
        if not status or lost:  # a status whose send was uncertain is sent anew when it changes
            self.txn.send(chat, text, tag="status")
            self.game.status = {"msg": None, "seq": self.txn.seq, "text": text}
        elif msg and status.get("text") != text:
            over = self.state.over
            after = None if over else self._throttle(status, STATUS_EVERY_SECONDS)
            text = text if after is None else self.status_text(after)
            self.txn.edit(chat, msg, text, tag="status", after=after)
            status["text"] = text
            self.pin_status(not over)

    def _throttle(self, shown: Status | Story, every: float) -> float | None:
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

    def pin_status(self, pinned: bool) -> None:
        """Once each way; a refusal (no right to pin) is not retried."""
        status = self.game.status
        msg = status.get("msg") if status else None
        if not status or not msg or status.get("pinned", False) == pinned:
            return
        if status.get("pin_refused"):
            return
        self.txn.pin(self.game.chat, msg, pinned, tag="status_pin")
        status["pinned"] = pinned
