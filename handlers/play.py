"""Driving the engine inside a command: apply, let due defaults happen, render what changed.

The group has one living status message per game (the seat board, whose turn, what the table
waits for and until when), edited in place only when its text changes, which is only on public
events; the story carries only new lines, merged into the newest story message while it is
recent. Each player gets their private news and one prompt per decision they are asked (edited,
not re-sent, when a boost window asks again); answered or expired prompts are edited to show what
happened. A reminder goes to whoever is still asked shortly before a long deadline.
"""

from __future__ import annotations

import functools
import html
from typing import TYPE_CHECKING, Any

import engine
from engine import TIMEOUT, Action, Event, State
from engine.cards import DOCTOR, POISON_MIXER, PRIEST
from engine.rng import Rng, seed_state
from handlers import fmt, prompts, story
from handlers.cards import occupation_label
from handlers.group_settings import GroupSettings
from handlers.i18n import t
from handlers.messenger import Rows
from handlers.service import Txn
from handlers.story.table import table_lines

if TYPE_CHECKING:
    from engine.ai import AiPolicy, ExpertPolicy


@functools.cache
def ai_for(level: str) -> AiPolicy | ExpertPolicy:
    """The AI of the group's /settings AI level. Imported when an AI first plays: most cold
    starts need none (issue 12's first-update import time)."""
    from engine.ai import AiPolicy, ExpertPolicy

    return ExpertPolicy() if level == "expert" else AiPolicy()


AI_TURN_PAUSE_SECONDS = 3.0
# A story message takes the next lines as long as it is this recent: a new group message (and a
# buzz) about once a minute of play, never one per step.
STORY_MERGE_SECONDS = 90.0
STORY_MAX_CHARS = 3600
MAX_AUTO_STEPS = 400
REMIND_BEFORE_SECONDS = 15.0  # the private reminder, for deadlines of at least twice this


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
        self.ran_out: set[int] = set()  # seats whose public decision ran out in this command
        self.notes: list[tuple[int, str]] = []  # private texts without buttons, by seat
        self.closing: dict[int, str] = {}  # seat -> what its closed prompt says happened

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
        ai = ai_for(self.settings.ai_level)
        return ai.choose(engine.view(st, seat), engine.legal_actions(st, seat), rng)

    # -- deadlines -------------------------------------------------------------------------
    def deadline_at(self) -> float | None:
        """When the pending decision's default is taken. Public information alone sets it
        (R-D1): the decision, when it opened, and in the boost window when a card was played."""
        aw = engine.awaiting(self.state)
        if aw is None:
            return None
        ai_turn = self._ai_waits_until(aw)
        if ai_turn is not None:
            return ai_turn
        dec = self.doc["dec"]
        d = self.settings.deadlines
        window = max(d.window, d.window_min) * self.scale
        if aw.kind == "boost":
            # The same length for everyone, whoever could play and whoever passed; a card played
            # gives the table a window's time to answer it.
            at = dec["opened"] + max(d.boost, d.window_min) * self.scale
            played = dec.get("played")
            return float(max(at, played + window) if played is not None else at)
        if aw.window:
            # Only a use ends it: passing, thinking or nobody able to act all look the same.
            return float(dec["opened"] + window)
        return float(dec["opened"] + self.settings.seconds(aw.deadline) * self.scale)

    def remind_at(self) -> float | None:
        """Shortly before a long deadline, once per decision, if someone is asked in person."""
        aw = engine.awaiting(self.state)
        deadline = self.deadline_at()
        if aw is None or deadline is None or aw.window or self.doc["dec"].get("reminded"):
            return None
        before = REMIND_BEFORE_SECONDS * self.scale
        if deadline - self.doc["dec"]["opened"] < 2 * before:
            return None
        if aw.kind == "turn" and self._mention_in_group(aw.seats[0]):
            return deadline - before
        if not any(self.asks(s) for s in aw.seats):
            return None
        return deadline - before

    def due_at(self) -> float | None:
        """The next moment the game needs a timer for: a reminder or the deadline."""
        remind = self.remind_at()
        return remind if remind is not None else self.deadline_at()

    def seconds_left(self) -> int | None:
        due = self.deadline_at()
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
        deadline = self.deadline_at()
        self.doc["due"] = None if due is None else {"dec": p.id, "at": due, "deadline": deadline}

    # -- applying ----------------------------------------------------------------------------
    def apply(self, action: Action, stand_in: bool = False) -> None:
        p = self.state.pending
        if action.kind == TIMEOUT and action.seat is None and p is not None and not p.window:
            self.ran_out.update(p.actors)
        self.state, events = engine.apply(self.state, action, inplace=True, stand_in=stand_in)
        self.events += events
        dec = self.doc.get("dec")
        if dec and any(e.kind == "played" for e in events):
            dec["played"] = self.txn.now
        self._track_decision()

    def settle(self) -> None:
        """Apply what needs nobody: defaults of away players, boost passes of players with
        nothing to play, AI decisions, deadlines already passed; send a reminder that is due."""
        self._track_decision()
        for _ in range(MAX_AUTO_STEPS):
            aw = engine.awaiting(self.state)
            if aw is None:
                return
            auto = [s for s in aw.seats if self.defaults_at_once(s)]
            if auto:
                self._note_defaults(aw, [auto[0]], "prompt.away_default")
                self.apply(Action(TIMEOUT, auto[0], aw.decision))
                continue
            quiet = self._nothing_to_play(aw)
            if quiet is not None:
                self._tell_fight(quiet)
                self.apply(Action("pass", quiet, aw.decision), stand_in=True)
                continue
            ai = [s for s in aw.seats if self.ai_plays(s)]
            ai_turn = self._ai_waits_until(aw)
            if ai and (ai_turn is None or self.txn.now >= ai_turn):
                action = self._ai_action(ai[0])
                if not self.is_ai(ai[0]):
                    self._note_choice(ai[0], action, "prompt.ai_chose")
                self.apply(action, stand_in=not self.is_ai(ai[0]))
                continue
            due = self.deadline_at()
            if due is not None and self.txn.now >= due:
                self._note_defaults(aw)
                self.apply(engine.timeout_action(self.state))
                continue
            remind = self.remind_at()
            if remind is not None and self.txn.now >= remind:
                self._remind(aw)
            return

    def _nothing_to_play(self, aw: engine.Awaiting) -> int | None:
        """A player asked in the boost window who can only pass is not asked to tap Done."""
        if aw.kind != "boost":
            return None
        for seat in aw.seats:
            if self.asks(seat) and len(engine.legal_actions(self.state, seat)) == 1:
                return seat
        return None

    def _tell_fight(self, seat: int) -> None:
        """Once per boost window: the fight as it stands, and that it closes by itself. A seat
        whose prompt is still open (a card played took away what it could play) reads it there."""
        told = self.doc["dec"].setdefault("told", [])
        if seat in told:
            return
        told.append(seat)
        text = self.prompt(seat, deadline=False).text
        if self._prompt_open(seat):
            self.closing[seat] = text
        else:
            self.notes.append((seat, text))

    def _prompt_open(self, seat: int) -> bool:
        prompt = self.doc.get("prompts", {}).get(str(seat))
        return bool(prompt and prompt.get("msg") and not prompt.get("closed"))

    def _note_defaults(
        self, aw: engine.Awaiting, seats: list[int] | None = None, why: str = "prompt.timed_out"
    ) -> None:
        """Before defaults are applied (a deadline, or a seat that decides by default at once):
        what each open prompt will say happened."""
        for seat in aw.seats if seats is None else seats:
            own = engine.view(self.state, seat)["decision"]
            if own is not None and own["kind"] != aw.kind:
                continue  # asked its own decision during the window: it goes on
            self._note_choice(seat, engine.default_action(self.state, seat), why)

    def _note_choice(self, seat: int, action: Action, why: str) -> None:
        """What the seat's open prompt will say was chosen for it, and why."""
        if str(seat) not in self.doc.get("prompts", {}):
            return
        lang = self.lang_of(seat)
        view, legal = engine.view(self.state, seat), engine.legal_actions(self.state, seat)
        text = prompts.render_answered(view, legal, action, lang)
        asked, _, chosen = text.rpartition("\n")
        self.closing[seat] = fmt.lines(asked, t(lang, why), chosen)

    def _remind(self, aw: engine.Awaiting) -> None:
        self.doc["dec"]["reminded"] = True
        seconds = round(REMIND_BEFORE_SECONDS)
        for seat in aw.seats:
            if self.asks(seat):
                lang = self.lang_of(seat)
                what = t(lang, f"game.kind.{aw.kind}")
                self.txn.send(
                    self.chat_of(seat), t(lang, "bot.reminder", what=what, seconds=seconds)
                )
        if aw.kind == "turn" and self._mention_in_group(aw.seats[0]):
            self._mention_turn(aw.seats[0], seconds)
        self._track_decision()

    def _mention_in_group(self, seat: int) -> bool:
        """Whose turn it is is public, and so is whether a person decides it: not an AI
        passenger, not a seat marked away or told to the table as unreachable."""
        return not (self.is_ai(seat) or self.ai_plays(seat) or self.defaults_at_once(seat))

    def _mention_turn(self, seat: int, seconds: int) -> None:
        """One short group message that notifies the player (a mention; edits never notify)."""
        lang = self.settings.language
        name = html.escape(self.state.players[seat].name, quote=False)
        mention = f'<a href="tg://user?id={self.chat_of(seat)}">{name}</a>'
        text = t(lang, "bot.turn_reminder", mention=mention, seconds=seconds)
        self.txn.send(int(self.doc["chat"]), text, tag="turn_reminder")

    # -- rendering ---------------------------------------------------------------------------
    def render(self, answered: dict[int, tuple[int, str]] | None = None) -> None:
        """Queue this command's messages. ``answered`` maps a seat to (prompt message id, the
        text showing their choice) for the button press that caused the command."""
        st = self.state
        self.doc["engine"] = st.to_dict()
        answered = answered or {}
        self._close_prompts(answered)
        table = engine.public_view(st)
        public = fmt.lines(self._story_text(table), self._unreachable_notes())
        if public:
            self._story(public)
        self._status()
        self._away_notices()
        for seat in range(st.n):
            # The offer is told once, by the answer prompt, to whoever gets that prompt.
            mine = [
                e
                for e in engine.events_for(self.events, seat)
                if not (e.kind == "offered" and self.asks(seat))
            ]
            text = story.private_text(mine, table, self.lang_of(seat)) if mine else None
            refused = [e for e in self.events if e.kind == "trade_refused" and e.to is None]
            for e in refused:
                if e.data["seat"] == seat:
                    told = t(
                        self.lang_of(seat),
                        "bot.offer_refused",
                        name=fmt.name(table, e.data["target"]),
                    )
                    text = fmt.lines(text, told)
            if text and not self.no_chat(seat):
                self.txn.send(self.chat_of(seat), text)
        for seat, text in self.notes:
            if not self.no_chat(seat):
                self.txn.send(self.chat_of(seat), text)
        self.notes = []
        self._open_prompts()
        self.events = []

    def _story_text(self, table: dict[str, Any]) -> str | None:
        """New story lines only: whose turn it is lives in the status, windows always end by
        their time (so "time is up" would say nothing), and an AI standing in is said so."""
        lang = self.settings.language
        told = [
            e
            for e in engine.public_events(self.events)
            if e.kind != "turn"
            and not (e.kind == "deadline" and e.data.get("window"))
            and not (e.kind == "away" and self.settings.ai_takeover)
        ]
        lines = [story.public_text(told, table, lang)]
        for e in self.events:
            if e.kind == "away" and e.to is None and self.settings.ai_takeover:
                name = fmt.name(table, e.data["seat"])
                lines.append(t(lang, "bot.ai_stands_in", name=name))
        return fmt.lines(*lines) or None

    def _story(self, body: str) -> None:
        """Append to the newest story message while it is recent and short, else send anew."""
        s = self.doc.get("story") or {}
        chat = int(self.doc["chat"])
        merge = (
            s.get("msg")
            and self.txn.now - s.get("at", 0) < STORY_MERGE_SECONDS * self.scale
            and fmt.size(s.get("body", "")) + fmt.size(body) < STORY_MAX_CHARS
        )
        if merge:
            s["body"] = f"{s['body']}\n{body}"
            self.txn.edit(chat, s["msg"], s["body"], tag="story")
            return
        self.txn.send(chat, body, tag="story")
        self.doc["story"] = {"msg": None, "body": body, "at": self.txn.now, "seq": self.doc["seq"]}

    def status_text(self) -> str:
        """The living status: public information only, the deadline as a clock time."""
        lang = self.settings.language
        table = engine.public_view(self.state)
        if table["over"]:
            return fmt.lines(t(lang, "game.status.over"), *table_lines(table, lang))
        deadline = self.deadline_at()
        until = t(lang, "game.status.until", time=fmt.clock(deadline)) if deadline else None
        return fmt.lines(story.status_text(table, lang), until)

    def _status(self) -> None:
        """Send the status once, then edit it only when its text changes (public changes). With
        its first edit it is pinned, quietly, where the bot may pin; unpinned at the end."""
        status = self.doc.get("status") or {}
        text = self.status_text()
        chat = int(self.doc["chat"])
        if not status:
            self.txn.send(chat, text, tag="status")
            self.doc["status"] = {"msg": None, "seq": self.doc["seq"], "text": text}
        elif status.get("msg") and status.get("text") != text:
            self.txn.edit(chat, status["msg"], text, tag="status")
            status["text"] = text
            self._pin_status(not self.state.over)

    def _pin_status(self, pinned: bool) -> None:
        """Once each way; a refusal (no right to pin) is not retried."""
        status = self.doc.get("status") or {}
        if not status.get("msg") or status.get("pinned", False) == pinned:
            return
        if status.get("pin_refused"):
            return
        self.txn.pin(int(self.doc["chat"]), status["msg"], pinned, tag="status_pin")
        status["pinned"] = pinned

    def _close_prompts(self, answered: dict[int, tuple[int, str]]) -> None:
        p = self.state.pending
        open_prompts: dict[str, Any] = self.doc.setdefault("prompts", {})
        for seat_s, prompt in list(open_prompts.items()):
            seat = int(seat_s)
            same = p is not None and p.id == prompt["dec"]
            still = same and p is not None and seat in p.actors
            if seat in answered:
                msg, text = answered[seat]
                self.txn.edit(self.chat_of(seat), msg, text, None, tag="closed")
                if msg == prompt.get("msg"):
                    # A boost window may ask again after a card is played: the same message
                    # then gets the buttons back.
                    prompt["closed"] = True
                if not same:
                    del open_prompts[seat_s]
                continue
            if still or (same and prompt.get("closed")):
                continue
            if prompt.get("msg") and not prompt.get("closed"):
                closed = self.closing.get(seat) or self._closed_text(seat, prompt)
                self.txn.edit(self.chat_of(seat), prompt["msg"], closed, None, tag="closed")
            del open_prompts[seat_s]

    def _closed_text(self, seat: int, prompt: dict[str, Any], why: str | None = None) -> str:
        """A prompt someone else's move closed: its title and why (public events only; the
        text is the seat's own, so it tells the group nothing, R-D1)."""
        lang = self.lang_of(seat)
        table = engine.public_view(self.state)
        reason = t(lang, why) if why else None
        for e in engine.public_events(self.events):
            if reason is not None:
                break
            d = e.data
            if e.kind == "played" and d["card"] == POISON_MIXER:
                reason = t(
                    lang,
                    "prompt.closed.mixer",
                    name=fmt.name(table, d["seat"]),
                    label=occupation_label(lang, POISON_MIXER),
                )
            elif e.kind == "priest_stopped":
                reason = t(lang, "prompt.closed.priest", label=occupation_label(lang, PRIEST))
            elif e.kind == "doctor_cancelled":
                reason = t(lang, "prompt.closed.doctor", label=occupation_label(lang, DOCTOR))
            elif e.kind == "game_over":
                reason = t(lang, "prompt.closed.game_over")
        return fmt.lines(prompt.get("title", ""), "", reason or t(lang, "prompt.closed"))

    def cancel(self) -> None:
        """The game ends outside the engine (/cancel): every open prompt says so, the status
        is unpinned."""
        self._pin_status(False)
        self.close_all_prompts("prompt.closed.cancelled")

    def close_all_prompts(self, why: str) -> None:
        """Every open prompt closes, saying why."""
        for seat_s, prompt in self.doc.get("prompts", {}).items():
            if prompt.get("msg") and not prompt.get("closed"):
                seat = int(seat_s)
                text = self._closed_text(seat, prompt, why)
                self.txn.edit(self.chat_of(seat), prompt["msg"], text, None, tag="closed")
        self.doc["prompts"] = {}

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
            same = current is not None and current["dec"] == p.id
            shown = same and current is not None and not current.get("closed")
            if shown and current is not None and current.get("v") == version:
                continue
            pr = self.prompt(seat)
            rows = self.rows(p.id, pr.rows)
            title = pr.text.split("\n", 1)[0]
            if same and current is not None and current.get("msg"):
                self.txn.edit(self.chat_of(seat), current["msg"], pr.text, rows, tag="prompt")
                current.update(v=version, closed=False)
                continue
            if same:
                continue  # its message is still being sent; the next command edits it
            self.txn.send(self.chat_of(seat), pr.text, rows, tag=f"prompt:{seat}:{p.id}")
            open_prompts[str(seat)] = {
                "dec": p.id,
                "msg": None,
                "v": version,
                "title": title,
                "closed": False,
            }

    def prompt(self, seat: int, nav: str = "", *, deadline: bool = True) -> prompts.Prompt:
        """The seat's prompt on page ``nav``, rendered from its own view and legal actions,
        with the decision's deadline as a clock time."""
        lang = self.lang_of(seat)
        st = self.state
        view, legal = engine.view(st, seat), engine.legal_actions(st, seat)
        pr = prompts.render_prompt(view, legal, lang, nav)
        due = self.deadline_at() if deadline else None
        if due is None:
            return pr
        until = t(lang, "game.status.until", time=fmt.clock(due))
        return prompts.Prompt(fmt.truncate(fmt.lines(pr.text, until)), pr.rows)

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
            if seat not in self.ran_out:
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

    def rows(self, decision: int, rows: list[list[tuple[str, str]]]) -> Rows:
        gid = self.doc["gid"]
        return [
            [[label, "d", f"{gid}:{decision}:{payload}"] for label, payload in row] for row in rows
        ]


def _prompt_version(st: State) -> str:
    """Prompts of the boost window change as cards are played, and a decision asked during a
    window goes on under its own deadline once the window closes: re-render them then."""
    fight = next((f for f in reversed(st.frames) if f["t"] == "fight"), None)
    kind = st.pending.kind if st.pending is not None else ""
    return f"{kind}:{len(fight.get('played', [])) if fight else 0}"
