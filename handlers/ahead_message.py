"""The next turn chosen ahead (``engine.premove``) as one private message of its own, "your turn
is next": sent, edited while what it shows changes, closed when the seat's turn starts
(``handlers.presenter`` asks it once per command).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable

import engine
from engine import EventKind, premove
from engine.actions import action_of
from handlers import action_payloads, fmt, prompts
from handlers.game_record import Ahead
from handlers.game_runner import GameRunner, RunnerBound
from handlers.i18n import t
from handlers.prompts.answer import ahead_line
from infra.ports import Rows


class AheadMessage(RunnerBound):
    """Queues the seat's "your turn is next" message in the transaction's outbox."""

    def __init__(
        self,
        run: GameRunner,
        prompt: Callable[[int], prompts.Prompt],
        rows: Callable[[int, list[list[tuple[str, str]]]], Rows],
        closed_text: Callable[[int, Ahead, str | None], str],
    ) -> None:
        """``prompt``, ``rows`` and ``closed_text`` are the presenter's: the seat's prompt, its
        buttons, and the text of a prompt closed (with why, or a default reason for None)."""
        super().__init__(run)
        self.lang_of = run.lang_of
        self.chat_of = run.chat_of
        self.asks = run.asks
        self.prompt = prompt
        self.rows = rows
        self.closed_text = closed_text

    def update(self) -> None:
        """The next turn chosen ahead (engine.premove) is one message of its own: sent when it is
        first offered, edited only when what it shows changes (never for the decision id its
        buttons carry: a press on it counts for the decision pending then, issue 25 item 7; nor
        for a pause: a press on it then is answered why it waits), and closed when the seat's turn
        starts: saying what was played, or kept for one tap, or dropped and why, or with nothing
        chosen that the turn has come. The turn's own prompt is always a new message: Telegram
        notifies new messages, never edits (issue 25)."""
        st = self.state
        rec = self.game.ahead
        owner = premove.owner(st)
        if rec is not None and (owner is None or rec["seat"] != owner or not self.asks(owner)):
            self.end(rec)
            self.game.ahead = rec = None
        if owner is None or not self.asks(owner) or st.pending is None:
            return
        view = engine.view(st, owner)
        nt = view["next_turn"]
        assert nt is not None  # the owner chooses its next turn ahead
        offered, kept = nt["open"], nt["held"]
        held = action_payloads.encode_action(action_of(kept)) if kept else ""
        items = ",".join(view["me"]["items"])
        pr = self.prompt(owner) if offered else None
        # what the player sees, never the decision id inside its buttons (issue 25 item 7): a
        # press on it as shown counts for the decision pending then (handlers.game_room)
        version = f"{_shown(pr) if pr is not None else ''}:{held}:{items}"
        if rec is None:
            if pr is not None:
                rows = self.rows(st.pending.id, pr.rows)
                self.txn.send(self.chat_of(owner), pr.text, rows, tag="ahead")
                self.game.ahead = {
                    "seat": owner,
                    "dec": st.pending.id,
                    "msg": None,
                    "seq": self.txn.seq,
                    "v": version,
                    "title": pr.text.split("\n", 1)[0],
                }
            return
        msg = rec["msg"]
        if pr is None or rec.get("v") == version or msg is None:
            # paused, unchanged, or still being sent (the next command edits it); while paused
            # it is left as shown, and a press on it is told why it waits (handlers.game_room)
            return
        rows = self.rows(st.pending.id, pr.rows)
        self.txn.edit(self.chat_of(owner), msg, pr.text, rows, tag="prompt")
        rec["dec"] = st.pending.id
        rec["v"] = version

    def end(self, rec: Ahead) -> None:
        """The seat's turn started (or the game ended, or the seat is away): close its message."""
        seat, msg = int(rec["seat"]), rec.get("msg")
        if msg is None:
            return
        lang = self.lang_of(seat)
        table = engine.public_view(self.state)
        for e in engine.events_for(self.events, seat):
            if e.kind not in (
                EventKind.PREMOVE_PLAYED,
                EventKind.PREMOVE_KEPT,
                EventKind.PREMOVE_DROPPED,
            ):
                continue
            chosen = ahead_line({"seat": seat, "table": table}, e.data["action"], lang)
            if e.kind == EventKind.PREMOVE_PLAYED:
                text = fmt.lines(chosen, t(lang, "prompt.closed.premove_played"))
            elif e.kind == EventKind.PREMOVE_KEPT:
                text = fmt.lines(chosen, t(lang, "prompt.closed.premove_kept"))
            else:
                why = t(lang, f"prompt.closed.premove_why.{e.data['why']}")
                dropped = t(lang, "prompt.closed.premove_dropped", why=why)
                text = fmt.lines(rec.get("title", ""), "", chosen, dropped)
            self.txn.edit(self.chat_of(seat), msg, text, None, tag="closed")
            return
        p = self.state.pending
        if p is not None and p.kind == "turn" and p.actors == [seat]:
            # the turn itself comes as a new message, which notifies (an edit would not)
            why = "prompt.closed.turn_came"
            self.txn.edit(
                self.chat_of(seat),
                msg,
                self.closed_text(seat, rec, why),
                None,
                tag="closed",
            )
            return
        self.txn.edit(
            self.chat_of(seat), msg, self.closed_text(seat, rec, None), None, tag="closed"
        )


def _shown(pr: prompts.Prompt) -> str:
    """A short digest of a prompt's text and buttons (labels and payloads, no decision id)."""
    raw = json.dumps([pr.text, pr.rows], ensure_ascii=False)
    return hashlib.sha256(raw.encode()).hexdigest()[:16]
