"""Driving the engine inside a command: apply, let due defaults happen, render what changed.

The group gets one story message per command (edited into the previous one when they come in
quick succession, so a busy table stays far below Telegram's ~20 messages a minute); each player
gets their private news and a prompt for every decision they are asked; answered or expired
prompts are edited to show the outcome, without buttons.
"""

from __future__ import annotations

import html
from typing import Any

import engine
from engine import TIMEOUT, Action, Event, State
from engine.ai import AiPolicy, ExpertPolicy
from engine.rng import Rng, seed_state
from handlers import prompts, story
from handlers.group_settings import GroupSettings
from handlers.i18n import t
from handlers.messenger import Rows
from handlers.service import Txn

# By the group's /settings AI level.
AI: dict[str, AiPolicy | ExpertPolicy] = {"ai": AiPolicy(), "expert": ExpertPolicy()}
AI_TURN_PAUSE_SECONDS = 3.0
STORY_MERGE_SECONDS = 6.0
STORY_MAX_CHARS = 3600
MAX_AUTO_STEPS = 400


class Table:
    """The running game inside a game document."""

    def __init__(self, txn: Txn, time_scale: float, bot_username: str = "") -> None:
        self.txn = txn
        self.bot_username = bot_username
        self.doc = txn.doc
        self.scale = time_scale
        self.settings = GroupSettings.model_validate(self.doc["settings"])
        self.state = State.from_dict(self.doc["engine"])
        self.events: list[Event] = []
        self.timed_out: set[int] = set()  # seats whose public decision ran out in this command

    # -- who is who ------------------------------------------------------------------------
    @property
    def players(self) -> list[dict[str, Any]]:
        return list(self.doc["players"])

    def seat_of(self, uid: int) -> int | None:
        for seat, p in enumerate(self.doc["players"]):
            if p["uid"] == uid:
                return seat
        return None

    def lang_of(self, seat: int) -> str:
        return str(self.doc["players"][seat].get("lang") or self.settings.language)

    def chat_of(self, seat: int) -> int:
        return int(self.doc["players"][seat]["uid"])

    def is_ai(self, seat: int) -> bool:
        return bool(self.doc["players"][seat].get("ai"))

    def ai_plays(self, seat: int) -> bool:
        """AI passengers, and an AI standing in for a player marked away (R-D2) if allowed."""
        return self.is_ai(seat) or (self.state.players[seat].away and self.settings.ai_takeover)

    def no_chat(self, seat: int) -> bool:
        """An AI passenger, or a player the bot cannot write to."""
        return self.is_ai(seat) or self.chat_of(seat) in self.doc.get("unreachable", [])

    def asks(self, seat: int) -> bool:
        """Whether the seat gets prompts: not when its decisions are taken for it."""
        return not (self.no_chat(seat) or self.defaults_at_once(seat) or self.ai_plays(seat))

    def defaults_at_once(self, seat: int) -> bool:
        """R-D2 away players, and players the table was told the bot cannot reach, decide by
        default at once. Until that notice a player the bot cannot reach just times out: when
        the bot learnt it (maybe from a window prompt) must not show in the game's pace."""
        if self.ai_plays(seat):
            return False
        p = self.state.players[seat]
        return p.away or self.chat_of(seat) in self.doc.get("unreachable_noted", [])

    def _ai_waits_until(self, aw: engine.Awaiting) -> float | None:
        """An AI takes its turn after a short pause, so the table can follow the story; it
        answers everything else at once (windows still last their minimum, R-D1)."""
        if aw.kind != "turn" or not any(self.ai_plays(s) for s in aw.seats):
            return None
        return float(self.doc["dec"]["opened"] + AI_TURN_PAUSE_SECONDS * self.scale)

    def _ai_action(self, seat: int) -> Action:
        st = self.state
        rng = Rng(seed_state(st.rng ^ (st.step << 8) ^ seat))
        ai = AI[self.settings.ai_level]
        return ai.choose(engine.view(st, seat), engine.legal_actions(st, seat), rng)

    # -- deadlines -------------------------------------------------------------------------
    def due_at(self) -> float | None:
        aw = engine.awaiting(self.state)
        if aw is None:
            return None
        ai_turn = self._ai_waits_until(aw)
        if ai_turn is not None:
            return ai_turn
        opened = self.doc["dec"]["opened"]
        d = self.settings.deadlines
        if aw.window and aw.kind != "boost":
            # R-D1: a window whose askees are hidden lasts the same time whether someone could
            # use it and thought about it, passed at once, or nobody could: only a use ends it.
            seconds = max(d.window, d.window_min)
        elif aw.closable:
            seconds = d.window_min
        else:
            seconds = self.settings.seconds(aw.deadline)
        return float(opened + seconds * self.scale)

    def seconds_left(self) -> int | None:
        due = self.due_at()
        return None if due is None else max(0, round(due - self.txn.now))

    def _track_decision(self) -> None:
        p = self.state.pending
        if p is None:
            self.doc["dec"] = None
            self.doc["due"] = None
            return
        if not self.doc.get("dec") or self.doc["dec"]["id"] != p.id:
            self.doc["dec"] = {"id": p.id, "opened": self.txn.now}
        due = self.due_at()
        self.doc["due"] = None if due is None else {"dec": p.id, "at": due}

    # -- applying ----------------------------------------------------------------------------
    def apply(self, action: Action, stand_in: bool = False) -> None:
        p = self.state.pending
        if action.kind == TIMEOUT and action.seat is None and p is not None and not p.window:
            self.timed_out.update(p.actors)
        self.state, events = engine.apply(self.state, action, inplace=True, stand_in=stand_in)
        self.events += events
        self._track_decision()

    def settle(self) -> None:
        """Apply what needs nobody: defaults of away players, and deadlines already passed."""
        self._track_decision()
        for _ in range(MAX_AUTO_STEPS):
            aw = engine.awaiting(self.state)
            if aw is None:
                return
            auto = [s for s in aw.seats if self.defaults_at_once(s)]
            if auto:
                self.apply(Action(TIMEOUT, auto[0], aw.decision))
                continue
            ai = [s for s in aw.seats if self.ai_plays(s)]
            ai_turn = self._ai_waits_until(aw)
            if ai and (ai_turn is None or self.txn.now >= ai_turn):
                self.apply(self._ai_action(ai[0]), stand_in=not self.is_ai(ai[0]))
                continue
            due = self.due_at()
            if due is not None and self.txn.now >= due:
                self.apply(engine.timeout_action(self.state))
                continue
            return

    # -- rendering ---------------------------------------------------------------------------
    def render(self, answered: dict[int, tuple[int, str]] | None = None) -> None:
        """Queue this command's messages. ``answered`` maps a seat to (prompt message id, the
        text showing their choice) for the button press that caused the command."""
        st = self.state
        self.doc["engine"] = st.to_dict()
        answered = answered or {}
        self._close_prompts(answered)
        group_lang = self.settings.language
        table = engine.public_view(st)
        told = story.public_text(engine.public_events(self.events), table, group_lang)
        public = "\n".join(filter(None, [told, self._unreachable_notes()]))
        if public or self.txn.changed:
            self._story(public)
        self._away_notices()
        for seat in range(st.n):
            mine = engine.events_for(self.events, seat)
            text = story.private_text(mine, table, self.lang_of(seat)) if mine else None
            if text and not self.no_chat(seat):
                self.txn.send(self.chat_of(seat), text)
        self._open_prompts()
        self.events = []

    def _away_notices(self) -> None:
        """R-D2: a player just marked away hears it privately, with a way back."""
        for e in self.events:
            if e.kind != "away" or self.no_chat(e.data["seat"]):
                continue
            seat = e.data["seat"]
            lang = self.lang_of(seat)
            stand_in = t(lang, "bot.away_ai" if self.settings.ai_takeover else "bot.away_defaults")
            rows = [[[t(lang, "bot.back_button"), "d", f"B:{self.doc['gid']}"]]]
            self.txn.send(self.chat_of(seat), t(lang, "bot.away_notice", stand_in=stand_in), rows)

    def come_back(self, seat: int) -> bool:
        if not self.state.players[seat].away:
            return False
        self.events += engine.come_back(self.state, seat)
        return True

    def _unreachable_notes(self) -> str:
        """Tell the group once about each player the bot cannot write to, when a public decision
        of theirs runs out: never next to a window, which would tell who was asked in it."""
        noted = self.doc.setdefault("unreachable_noted", [])
        lines = []
        for seat, p in enumerate(self.doc["players"]):
            if seat not in self.timed_out:
                continue
            if p["uid"] in self.doc.get("unreachable", []) and p["uid"] not in noted:
                noted.append(p["uid"])
                name = f"<b>{html.escape(self.state.players[seat].name, quote=False)}</b>"
                lines.append(
                    t(self.settings.language, "bot.unreachable", name=name, bot=self.bot_username)
                )
        return "\n".join(lines)

    def reachable_again(self, uid: int) -> None:
        """A player pressing a button can be written to again."""
        for key in ("unreachable", "unreachable_noted"):
            if uid in self.doc.get(key, []):
                self.doc[key].remove(uid)

    def _story(self, public: str | None) -> None:
        st = self.state
        lang = self.settings.language
        table = engine.public_view(st)
        status = story.status_text(table, lang, self.seconds_left()) if not st.over else ""
        s = self.doc.setdefault("story", {})
        # R-D1: the group's message changes only on public changes. A private press (a pass in
        # a window) leaves it alone, so the countdown shown is set by public events alone.
        shown = _public_mark(table, lang)
        if not public and s.get("shown") == shown:
            return
        s["shown"] = shown
        chat = int(self.doc["chat"])
        body = public or ""
        merge = (
            s.get("msg")
            and self.txn.now - s.get("at", 0) < STORY_MERGE_SECONDS
            and len(s.get("body", "")) + len(body) + len(status) < STORY_MAX_CHARS
        )
        if merge and body:
            s["body"] = f"{s['body']}\n{body}" if s.get("body") else body
            self.txn.edit(chat, s["msg"], _join(s["body"], status), tag="story")
        elif body:
            self.txn.send(chat, _join(body, status), tag="story")
            self.doc["story"] = {
                "msg": None,
                "body": body,
                "at": self.txn.now,
                "seq": self.doc["seq"],
                "shown": shown,
            }
        elif s.get("msg"):
            self.txn.edit(chat, s["msg"], _join(s.get("body", ""), status), tag="story")

    def _close_prompts(self, answered: dict[int, tuple[int, str]]) -> None:
        p = self.state.pending
        open_prompts: dict[str, Any] = self.doc.setdefault("prompts", {})
        for seat_s, prompt in list(open_prompts.items()):
            seat = int(seat_s)
            still = p is not None and p.id == prompt["dec"] and seat in p.actors
            if seat in answered:
                msg, text = answered[seat]
                self.txn.edit(self.chat_of(seat), msg, text, None, tag="closed")
                if not still or msg == prompt.get("msg"):
                    del open_prompts[seat_s]
                continue
            if still:
                continue
            if prompt.get("msg"):
                closed = t(self.lang_of(seat), "prompt.closed")
                self.txn.edit(
                    self.chat_of(seat),
                    prompt["msg"],
                    f"{prompt.get('title', '')}\n\n{closed}",
                    None,
                    tag="closed",
                )
            del open_prompts[seat_s]

    def _open_prompts(self) -> None:
        p = self.state.pending
        if p is None:
            return
        open_prompts: dict[str, Any] = self.doc.setdefault("prompts", {})
        version = _prompt_version(self.state)
        for seat in p.actors:
            if not self.asks(seat):
                continue
            current = open_prompts.get(str(seat))
            if current is not None and current["dec"] == p.id and current.get("v") == version:
                continue
            pr = self.prompt(seat, "")
            rows = self.rows(p.id, pr.rows)
            title = pr.text.split("\n", 1)[0]
            if current is not None and current["dec"] == p.id and current.get("msg"):
                self.txn.edit(self.chat_of(seat), current["msg"], pr.text, rows, tag="prompt")
                current["v"] = version
                continue
            self.txn.send(self.chat_of(seat), pr.text, rows, tag=f"prompt:{seat}:{p.id}")
            open_prompts[str(seat)] = {"dec": p.id, "msg": None, "v": version, "title": title}

    def prompt(self, seat: int, nav: str) -> prompts.Prompt:
        """The seat's decision rendered from its own view and legal actions."""
        st = self.state
        view, legal = engine.view(st, seat), engine.legal_actions(st, seat)
        return prompts.render_prompt(view, legal, self.lang_of(seat), nav, self.seconds_left())

    def rows(self, decision: int, rows: list[list[tuple[str, str]]]) -> Rows:
        gid = self.doc["gid"]
        return [
            [[label, "d", f"{gid}:{decision}:{payload}"] for label, payload in row] for row in rows
        ]


def _prompt_version(st: State) -> int:
    """Prompts of the boost window change as cards are played: re-render them then."""
    fight = next((f for f in reversed(st.frames) if f["t"] == "fight"), None)
    return len(fight.get("played", [])) if fight else 0


def _public_mark(table: dict[str, Any], lang: str) -> str:
    """What the group's status shows but its countdown, and the public decision it is about."""
    pending = table["pending"]
    return f"{pending['id'] if pending else ''}|{story.status_text(table, lang, None)}"


def _join(body: str, status: str) -> str:
    return f"{body}\n\n{status}" if status and body else body or status
