"""Running the engine inside a command: apply an action, then whatever needs nobody (defaults
of away players, passes of players with nothing to play, AI decisions, deadlines already passed),
and keep the decision's timing (when it opened, its deadline, its reminder) in the game document.

What happened is left for the presenter (``handlers.presenter``): the engine's events, and notes
of what this run decided for whom, taken at the moment it decided.
"""

from __future__ import annotations

import copy
import functools
from dataclasses import dataclass
from typing import TYPE_CHECKING

import engine
from engine import TIMEOUT, Action, DecisionKind, Event, EventKind, State
from engine.kinds import ActionKind
from engine.rng import PASSENGERS, stream
from engine.view_types import SeatView
from handlers.game_record import Dec, Player
from handlers.group_settings import AiLevel

if TYPE_CHECKING:
    from engine.ai import AiPolicy, ExpertPolicy
    from handlers.unit_of_work import UnitOfWork


@functools.cache
def ai_for(level: AiLevel) -> AiPolicy | ExpertPolicy:
    """The AI of the group's /settings AI level. Imported when an AI first plays: most cold
    starts need none (issue 12's first-update import time)."""
    from engine.ai import AiPolicy, ExpertPolicy

    return ExpertPolicy() if level == "expert" else AiPolicy()


AI_TURN_PAUSE_SECONDS = 3.0
MAX_AUTO_STEPS = 400
REMIND_BEFORE_SECONDS = 15.0  # the private reminder, for deadlines of at least twice this


@dataclass(frozen=True)
class Seen:
    """A seat's view and legal actions at a moment of the run; with an action, what was chosen
    for it and why (a catalog key), else the prompt it would have been shown."""

    view: SeatView
    legal: list[Action]
    action: Action | None = None
    why: str = ""


_DEAL_EVENTS = frozenset({EventKind.GAME_STARTED, EventKind.DEALT})


class GameRunner:
    """The running game of a unit of work: the engine, the seats, the decision's timing. The
    engine's state is the unit of work's, which commits it."""

    def __init__(self, work: UnitOfWork, time_scale: float) -> None:
        self.work = work
        self.txn = work.txn
        self.game = work.game
        self.scale = time_scale
        self.settings = self.game.settings
        self.events: list[Event] = []
        self.ran_out: set[int] = set()  # seats whose public decision ran out in this command
        self.closing: dict[int, Seen] = {}  # seat -> what its closed prompt will say happened
        self.reminders: list[tuple[int, str]] = []  # (seat, decision kind) to remind in person
        self.mention: int | None = None  # the seat whose turn the group is reminded of

    @property
    def state(self) -> State:
        return self.work.state

    @state.setter
    def state(self, state: State) -> None:
        self.work.state = state

    # -- who is who ------------------------------------------------------------------------
    @property
    def players(self) -> list[Player]:
        return list(self.game.players)

    def seat_of(self, uid: int) -> int | None:
        return self.game.seat_of(uid)

    def lang_of(self, seat: int) -> str:
        return self.game.players[seat].lang or self.settings.language

    def chat_of(self, seat: int) -> int:
        return self.game.players[seat].uid

    def is_ai(self, seat: int) -> bool:
        return self.game.players[seat].ai

    def ai_plays(self, seat: int) -> bool:
        """AI passengers, and an AI standing in for a player marked away (R-D2) if allowed."""
        return self.is_ai(seat) or (self.state.players[seat].away and self.settings.ai_takeover)

    def no_chat(self, seat: int) -> bool:
        """An AI passenger, or a player the bot cannot write to."""
        return self.is_ai(seat) or self.chat_of(seat) in self.game.unreachable

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
        return p.away or self.chat_of(seat) in self.game.unreachable_noted

    def _ai_waits_until(self, aw: engine.Awaiting) -> float | None:
        """An AI takes its turn after a short pause, so the table can follow the story; it
        answers everything else at once (windows still last their minimum, R-D1)."""
        if aw.kind != DecisionKind.TURN or not any(self.ai_plays(s) for s in aw.seats):
            return None
        return float(self._dec["opened"] + AI_TURN_PAUSE_SECONDS * self.scale)

    def _ai_action(self, seat: int) -> Action:
        from engine.ai import asked

        st = self.state
        # Its own stream, keyed one-way from the game's secret seed (engine.rng): the choice
        # neither draws from the deal's stream nor tells anything about it.
        rng = stream(st.seed, PASSENGERS, st.step, seat)
        ai = ai_for(self.settings.ai_level)
        return ai.choose(*asked(st, seat), rng)

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
        dec = self._dec
        d = self.settings.deadlines
        window = max(d.window, d.window_min) * self.scale
        if aw.kind == DecisionKind.BOOST:
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
        if aw is None or deadline is None or aw.window or self._dec.get("reminded"):
            return None
        before = REMIND_BEFORE_SECONDS * self.scale
        if deadline - self._dec["opened"] < 2 * before:
            return None
        if aw.kind == DecisionKind.TURN and self.mention_in_group(aw.seats[0]):
            return deadline - before
        if not any(self.asks(s) for s in aw.seats):
            return None
        return deadline - before

    def due_at(self) -> float | None:
        """The next moment the game needs a timer for: a reminder or the deadline."""
        remind = self.remind_at()
        return remind if remind is not None else self.deadline_at()

    @property
    def _dec(self) -> Dec:
        """The pending decision's timing (kept by ``_track_decision``)."""
        assert self.game.dec is not None
        return self.game.dec

    def _track_decision(self) -> None:
        p = self.state.pending
        if p is None:
            self.game.dec = None
            self.game.due = None
            return
        aw = engine.awaiting(self.state)
        part = aw.part if aw is not None else 0
        dec = self.game.dec
        if not dec or dec["id"] != p.id or dec.get("part", 0) != part:
            # a new decision, or the next supporter's turn in the same one (R-A3): its deadline
            # and reminder count from now
            self.game.dec = {"id": p.id, "opened": self.now}
            if part:
                self.game.dec["part"] = part
            if aw is not None and aw.window:  # who is asked is secret: no stretch (pipeline)
                self.game.dec["window"] = True
        due = self.due_at()
        deadline = self.deadline_at()
        self.game.due = None if due is None else {"dec": p.id, "at": due, "deadline": deadline}

    @property
    def now(self) -> float:
        return self.txn.now

    # -- applying ----------------------------------------------------------------------------
    def apply(self, action: Action, stand_in: bool = False) -> None:
        aw = engine.awaiting(self.state)
        if action.kind == TIMEOUT and action.seat is None and aw is not None and not aw.window:
            self.ran_out.update(aw.seats)
        self.state, events = engine.apply(self.state, action, inplace=True, stand_in=stand_in)
        self.events += events
        dec = self.game.dec
        if dec and any(e.kind == EventKind.PLAYED for e in events):
            dec["played"] = self.now
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
                self.apply(Action(ActionKind.PASS, quiet, aw.decision), stand_in=True)
                continue
            ai = [s for s in aw.seats if self.ai_plays(s)]
            ai_turn = self._ai_waits_until(aw)
            if ai and (ai_turn is None or self.now >= ai_turn):
                action = self._ai_action(ai[0])
                if not self.is_ai(ai[0]):
                    self._note_choice(ai[0], action, "prompt.ai_chose")
                self.apply(action, stand_in=not self.is_ai(ai[0]))
                continue
            due = self.deadline_at()
            if due is not None and self.now >= due:
                self._note_defaults(aw)
                self.apply(engine.timeout_action(self.state))
                continue
            remind = self.remind_at()
            if remind is not None and self.now >= remind:
                self._remind(aw)
            return

    def _nothing_to_play(self, aw: engine.Awaiting) -> int | None:
        """A player asked in the boost window who can only pass is not asked to tap Done."""
        if aw.kind != DecisionKind.BOOST:
            return None
        for seat in aw.seats:
            if self.asks(seat) and len(engine.legal_actions(self.state, seat)) == 1:
                return seat
        return None

    def _tell_fight(self, seat: int) -> None:
        """Once per boost window, a seat whose prompt of the window is still open (a card played
        took away what it could play) reads there the fight as it stands, and that the window
        closes by itself. A seat never asked gets no message: it would ask nothing and tell only
        what the group's story tells (issue 27)."""
        told = self._dec.setdefault("told", [])
        if seat in told:
            return
        told.append(seat)
        if self._prompt_open(seat):
            self.closing[seat] = self.seen(seat)

    def _prompt_open(self, seat: int) -> bool:
        """The seat's prompt of the boost window itself is open (a support prompt still open
        closes saying its support was told, not with the boost window's text: issue 25)."""
        prompt = self.game.prompts.get(str(seat))
        p = self.state.pending
        now = p is not None and prompt is not None and prompt.get("dec") == p.id
        return bool(now and prompt and prompt.get("msg") and not prompt.get("closed"))

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
        if str(seat) not in self.game.prompts:
            return
        self.closing[seat] = self.seen(seat, action, why)

    def _remind(self, aw: engine.Awaiting) -> None:
        self._dec["reminded"] = True
        self.reminders += [(seat, aw.kind) for seat in aw.seats if self.asks(seat)]
        if aw.kind == DecisionKind.TURN and self.mention_in_group(aw.seats[0]):
            self.mention = aw.seats[0]
        self._track_decision()

    def mention_in_group(self, seat: int) -> bool:
        """Whose turn it is is public, and so is whether a person decides it: not an AI
        passenger, not a seat marked away or told to the table as unreachable."""
        return not (self.is_ai(seat) or self.ai_plays(seat) or self.defaults_at_once(seat))

    def seen(self, seat: int, action: Action | None = None, why: str = "") -> Seen:
        st = self.state
        view = copy.deepcopy(engine.view(st, seat))  # the state changes in place after this
        return Seen(view, engine.legal_actions(st, seat), action, why)

    def question(self, seat: int) -> tuple[SeatView, list[Action]]:
        """``seat``'s view and legal actions now: what its prompt shows and its answer is
        checked against."""
        return engine.view(self.state, seat), engine.legal_actions(self.state, seat)

    def asked_now(self, seat: int, decision: int) -> bool:
        """Whether ``seat`` has a question on ``decision`` now: one of its actors, or the next
        player choosing their turn ahead (engine.premove)."""
        p = self.state.pending
        return p is not None and p.id == decision and seat in engine.asked(self.state)

    def support_kept_open(self, seat: int, decision: int) -> bool:
        """A support declared ahead of its turn (R-A3): the seat is still asked the same support
        decision, so its prompt is edited once to show what it keeps, not answered and then
        reopened."""
        own = engine.view(self.state, seat)["decision"]  # a support rides a Priest window too
        return (
            self.asked_now(seat, decision)
            and own is not None
            and own["kind"] == DecisionKind.SUPPORT
        )

    def chooses_ahead(self, seat: int) -> bool:
        """Whether ``seat`` is asked its next turn ahead (engine.premove), not the decision."""
        aw = engine.awaiting(self.state)
        return aw is not None and seat == aw.premove

    def deal(self, seed: int) -> None:
        """The lobby's players dealt a new game (R-S1…R-S4) from the game's secret ``seed``:
        the engine's first state. The deal's own events are not news: the lobby sends the seat
        order and each player's dossier instead."""
        names = [p.name for p in self.game.players]
        self.state, events = engine.new_game(names, seed, self.settings.engine_options())
        self.events = [e for e in events if e.kind not in _DEAL_EVENTS]

    def come_back(self, seat: int) -> bool:
        """R-D2: a player marked away takes their decisions back (False: was not away)."""
        if not self.state.players[seat].away:
            return False
        self.events += engine.come_back(self.state, seat)
        return True

    def mark_away(self, seat: int) -> bool:
        """R-D2: a player who left the group is away (False: was already)."""
        if self.state.players[seat].away:
            return False
        self.events += engine.mark_away(self.state, seat)
        return True

    def reachable_again(self, uid: int) -> None:
        """A player pressing a button can be written to again."""
        for chats in (self.game.unreachable, self.game.unreachable_noted):
            if uid in chats:
                chats.remove(uid)


class RunnerBound:
    """A writer of one game's messages (the presenter, its group board, "your turn is next"):
    the runner's transaction and record, and the engine's state and new events as they stand
    now (the runner replaces both as it plays, so they are read through it, never copied)."""

    def __init__(self, run: GameRunner) -> None:
        self.run = run
        self.txn = run.txn
        self.game = run.game

    @property
    def state(self) -> State:
        return self.run.state

    @property
    def events(self) -> list[Event]:
        return self.run.events
