"""The next turn chosen ahead (``engine.premove``) as one private message of its own, "your turn
is next": sent, edited while what it shows changes, closed when the seat's turn starts
(``handlers.presenter`` asks it once per command).

*Decision (issue 27):* it is offered to players who use it. Closed unused ``UNUSED_OFF`` times (the
seat's turn came with nothing chosen) before its player ever chose on it in this game, it is no
longer sent to them: its last closing says so and carries "🔜 Offer my turn ahead again" (an
edit made anyway); one tap offers it again and takes the button away (``offered_again``), as
does the game's end (no button stays answerable). Only that player's chat differs: the table
never waits for it (R-D1).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass

import engine
from engine import DecisionKind, EventKind, premove
from engine.actions import action_of
from engine.events import data_of
from engine.view_types import SeatView
from handlers import action_payloads, callback_data, fmt, prompts
from handlers.game_record import Ahead
from handlers.game_runner import GameRunner, RunnerBound
from handlers.i18n import t
from handlers.late_prompts import close_queued
from handlers.outbox import answer_text
from handlers.private_news import KEPT_WAIT_SECONDS, join_news
from handlers.prompts.answer import ahead_line
from handlers.prompts.closed import closed_text
from infra.ports import Rows

UNUSED_OFF = 3  # "your turn is next" closed unused this many times in a row: no longer sent
USES = -1  # the count of a seat that chose on it or asked for it again: offered to the end


@dataclass(frozen=True)
class AheadVersion:
    """What "your turn is next" shows, stored in its record (``Ahead["v"]``) as one string:
    a digest of the prompt offered (its text and buttons, never the decision id inside them,
    ``_shown``; empty while paused), the choice kept (its action payload) and the seat's items.
    An edit goes only when it changes (``AheadMessage.update``)."""

    shown: str
    held: str
    items: str

    def __str__(self) -> str:
        return f"{self.shown}:{self.held}:{self.items}"

    @classmethod
    def parse(cls, raw: object) -> AheadVersion:
        """A stored version; one this code cannot read (none, an older build's) shows nothing
        known, so the next change edits the message at once."""
        if not isinstance(raw, str) or raw.count(":") < 2:
            return cls("", "", "\x00unknown")
        shown, _, rest = raw.partition(":")
        held, _, items = rest.rpartition(":")  # the items, card ids, hold no ":"
        return cls(shown, held, items)

    def only_kept_changed(self, before: AheadVersion) -> bool:
        """Only the choice kept changed, the hand the same: the press's answer said it."""
        return self.held != before.held and self.items == before.items


class AheadMessage(RunnerBound):
    """Queues the seat's "your turn is next" message in the transaction's outbox."""

    def __init__(self, run: GameRunner) -> None:
        super().__init__(run)
        self.lang_of = run.lang_of
        self.chat_of = run.chat_of
        self.asks = run.asks

    def offered(self, seat: int) -> bool:
        """Whether the seat is sent "your turn is next" (not after ``UNUSED_OFF`` unused)."""
        return self.game.ahead_unused.get(str(seat), 0) < UNUSED_OFF

    def again_rows(self, seat: int) -> Rows | None:
        """The "🔜 Offer my turn ahead again" button, for a seat no longer offered it."""
        if self.offered(seat):
            return None
        label = t(self.lang_of(seat), "bot.ahead_again_button")
        return [[[label, "d", callback_data.ahead_again(self.game.gid)]]]

    def offered_again(self, seat: int | None = None) -> None:
        """The seat asked for "your turn is next" again (None: the game ended): its button
        taken away (the message it is on edited without it), the count of unused ones anew."""
        for seat_s, off in list(self.game.ahead_off.items()):
            if seat is None or int(seat_s) == seat:
                chat = self.chat_of(int(seat_s))
                self.txn.edit(chat, off["msg"], off["text"], None, tag="closed")
                del self.game.ahead_off[seat_s]
        if seat is not None:
            self.game.ahead_unused[str(seat)] = USES

    def update(
        self, offered: tuple[int, prompts.Prompt, Rows] | None, news: dict[int, str]
    ) -> None:
        """The next turn chosen ahead (engine.premove) is one message of its own: sent when it is
        first offered, edited only when what it shows changes (never for the decision id its
        buttons carry: a press on it counts for the decision pending then, issue 25 item 7), left
        as shown while it is paused (issue 27: an edit to pause it and one to open it again, for
        every fight; a press on it meanwhile is answered with why it waits, ``pause_reason``,
        docs/rules.md §4), and closed when the seat's turn starts: saying what was played, or
        kept for one tap, or dropped and why, or with nothing chosen that the turn has come. The
        turn's own prompt is always a new message: Telegram notifies new messages, never edits
        (issue 25).

        ``offered``: the presenter's rendering of the prompt offered ahead (the seat, its text
        and buttons), None while nobody is offered one or the offer is paused; ``news``: the
        command's private news, the seat's taken out to go above it when it is sent now
        (``handlers.private_news.join_news``)."""
        st = self.state
        rec = self.game.ahead
        owner = premove.owner(st)
        if rec is not None and (owner is None or rec["seat"] != owner or not self.asks(owner)):
            self.end(rec)
            self.game.ahead = rec = None
        if owner is None or not self.asks(owner) or st.pending is None:
            return
        if rec is None and not self.offered(owner):
            return
        view = engine.view(st, owner)
        nt = view["next_turn"]
        assert nt is not None  # the owner chooses its next turn ahead
        kept = nt["held"]
        held = action_payloads.encode_action(action_of(kept)) if kept else ""
        items = ",".join(view["me"]["items"])
        pr, rows = (offered[1], offered[2]) if offered and offered[0] == owner else (None, None)
        # what the player sees, never the decision id inside its buttons (issue 25 item 7): a
        # press on it as shown counts for the decision pending then (handlers.game_room)
        version = AheadVersion(_shown(pr) if pr is not None else "", held, items)
        if rec is None:
            if pr is not None:
                lead = join_news(self.txn, self.chat_of(owner), owner, news, pr.text)
                text = fmt.lines(lead, "", pr.text) if lead else pr.text
                self.txn.send(self.chat_of(owner), text, rows, tag="ahead")
                self.game.ahead = {
                    "seat": owner,
                    "dec": st.pending.id,
                    "msg": None,
                    "seq": self.txn.seq,
                    "v": str(version),
                    "title": pr.text.split("\n", 1)[0],
                }
                if lead:
                    self.game.ahead["lead"] = lead
            return
        msg = rec["msg"]
        shown = AheadVersion.parse(rec.get("v"))
        if pr is None or shown == version or msg is None:
            # unchanged, or still being sent (the next command edits it)
            return
        after = self._wait(shown, version)
        self.txn.edit(self.chat_of(owner), msg, _led(rec, pr.text), rows, tag="prompt", after=after)
        if after is None:
            rec.pop("was", None)
            rec.pop("was_until", None)
        else:  # the buttons on show until the edit goes (a change of mind meanwhile counts)
            if "was" not in rec or self.txn.now >= rec.get("was_until", 0.0):
                rec["was"] = rec["dec"]
            rec["was_until"] = after
        rec["dec"] = st.pending.id
        rec["v"] = str(version)

    def _wait(self, shown: AheadVersion, version: AheadVersion) -> float | None:
        """When the edit from what is ``shown`` to ``version`` may go: later
        (``KEPT_WAIT_SECONDS``) when it shows only the choice the seat just made (its hand the
        same), which the press's answer says at once: a turn that starts meanwhile closes the
        message with one edit, not two (issue 27: about 8 of 22 a 5-player game); else at
        once."""
        if not version.only_kept_changed(shown):
            return None
        return self.txn.now + KEPT_WAIT_SECONDS

    def end(self, rec: Ahead) -> None:
        """The seat's turn started (or the game ended, or the seat is away): close its message."""
        seat, msg = int(rec["seat"]), rec.get("msg")
        lang = self.lang_of(seat)
        table = engine.public_view(self.state)
        for e in engine.events_for(self.events, seat):
            dropped_data = data_of(e, EventKind.PREMOVE_DROPPED)
            chosen_data = (
                data_of(e, EventKind.PREMOVE_PLAYED)
                or data_of(e, EventKind.PREMOVE_KEPT)
                or dropped_data
            )
            if chosen_data is None:
                continue
            chosen = ahead_line({"seat": seat, "table": table}, chosen_data["action"], lang)
            if e.kind == EventKind.PREMOVE_PLAYED:
                text = fmt.lines(chosen, t(lang, "prompt.closed.premove_played"))
            elif e.kind == EventKind.PREMOVE_KEPT:
                text = fmt.lines(chosen, t(lang, "prompt.closed.premove_kept"))
            else:
                assert dropped_data is not None
                why = t(lang, f"prompt.closed.premove_why.{dropped_data['why']}")
                dropped = t(lang, "prompt.closed.premove_dropped", why=why)
                text = fmt.lines(rec.get("title", ""), "", chosen, dropped)
            self._close(rec, text)
            self.game.ahead_unused[str(seat)] = USES  # used: offered on
            return
        p = self.state.pending
        if p is not None and p.kind == DecisionKind.TURN and p.actors == [seat]:
            # the turn itself comes as a new message, which notifies (an edit would not)
            closed = t(lang, "prompt.closed.turn_came")  # one line: the title said it already
            unused = self.game.ahead_unused
            if unused.get(str(seat), 0) != USES:
                unused[str(seat)] = unused.get(str(seat), 0) + 1
            rows = self.again_rows(seat) if msg is not None else None
            if rows is not None and msg is not None:  # no longer sent: the button to have it again
                self.game.ahead_off[str(seat)] = {"msg": msg, "text": _led(rec, closed)}
                closed = fmt.lines(closed, "", t(lang, "prompt.closed.ahead_off", n=UNUSED_OFF))
            self._close(rec, closed, rows)
            return
        self._close(rec, closed_text(rec.get("title", ""), seat, lang, table, self.events, None))

    def _close(self, rec: Ahead, text: str, rows: Rows | None = None) -> None:
        """The message edited closed; still unsent (Telegram failed it), it arrives closed."""
        if (msg := rec.get("msg")) is None:
            close_queued(self.txn, rec.get("seq"), _led(rec, text))
        else:
            self.txn.edit(self.chat_of(int(rec["seat"])), msg, _led(rec, text), rows, tag="closed")


def kept_answer(view: SeatView, lang: str) -> tuple[str, bool] | None:
    """The answer to a press on "your turn is next" that made a choice: what is kept, said at
    once (its message shows it ``KEPT_WAIT_SECONDS`` later, issue 27); None if nothing is."""
    nt = view["next_turn"]
    kept = nt["held"] if nt is not None else None
    if kept is None:
        return None
    told = t(lang, "game.turn.next_held_told", choice=ahead_line(view, kept, lang))
    return answer_text(told), False


def pause_reason(view: SeatView) -> tuple[str, dict[str, str]]:
    """Why the seat's "your turn is next" waits (engine.premove), as a catalog key and its
    parameters (plain text: a callback answer's alert): the fight, or the pending decision as
    the group's status names it (public, R-D1), from the seat itself when it is asked it (a
    trade offered to them)."""
    table = view["table"]
    nt = view["next_turn"]
    assert nt is not None
    name = table["players"][nt["now"]]["name"]
    pending = table["pending"]
    if table["fight"] is not None:
        return "game.turn.next_paused_fight", {"name": name}
    if pending is not None:
        you = not pending["window"] and view["seat"] in pending["seats"]
        key = "game.turn.next_paused_you" if you else "game.turn.next_paused_table"
        return key, {"name": name, "what": f"game.kind.{pending['kind']}"}
    return "game.turn.next_paused", {"name": name}


def _led(rec: Ahead, text: str) -> str:
    """``text`` for the "your turn is next" message, under the news sent above it (``lead``)."""
    lead = rec.get("lead")
    return fmt.truncate(fmt.lines(lead, "", text)) if lead else text


def _shown(pr: prompts.Prompt) -> str:
    """A short digest of a prompt's text and buttons (labels and payloads, no decision id)."""
    return _digest(json.dumps([pr.text, pr.rows], ensure_ascii=False))


def _digest(raw: str) -> str:
    return hashlib.sha256(raw.encode()).hexdigest()[:16]
