"""The presenter's private side of a press (``handlers.presenter``): each seat's news of a
command, what a loser is told when an item comes back, and which pressers are asked a follow-up
of their own press in the prompt they pressed (issue 27)."""

from __future__ import annotations

from collections.abc import Callable

import engine
from engine import EventKind
from engine.actions import Event
from engine.view_types import PublicView
from handlers import fmt, story
from handlers.game_runner import RunnerBound
from handlers.i18n import t

# Decisions that follow the asked player's own press at once (issue 27: asked in the prompt they
# pressed, which they are looking at). A turn, a fight's decision or a trade's answer is never
# one: those come as a new message, which notifies (issue 25).
FOLLOW_UPS = frozenset(
    {
        "reward_take",
        "giveback",
        "sextant_dir",
        "sextant_pass",
        "gift",
        "diplomat_give",
        "tome",
        "coat",
        "clairvoyant",
        "look_pos",
    }
)


class PrivateNews(RunnerBound):
    """What the presenter tells each seat privately, besides its prompts."""

    lang_of: Callable[[int], str]
    no_chat: Callable[[int], bool]
    asks: Callable[[int], bool]

    def _asked_again(self, seat: int) -> bool:
        """Whether the seat's open prompt is for the decision still pending (a boost window
        asks again after a card is played: its answered prompt gets the buttons back)."""
        rec = self.game.prompts.get(str(seat))
        p = self.state.pending
        return rec is not None and p is not None and rec["dec"] == p.id

    def _follow_ups(self, answered: dict[int, tuple[int, str]]) -> dict[int, tuple[int, str]]:
        """The pressers asked a follow-up of their own press (``FOLLOW_UPS``) on the prompt
        they pressed: seat -> (that message, its answer)."""
        p = self.state.pending
        out: dict[int, tuple[int, str]] = {}
        if p is None:
            return out
        for seat, (msg, text) in answered.items():
            rec = self.game.prompts.get(str(seat))
            if rec is None or rec.get("msg") != msg or rec["dec"] == p.id:
                continue
            if seat not in p.actors or not self.asks(seat):
                continue
            own = engine.view(self.state, seat)["decision"]
            if own is not None and own["kind"] in FOLLOW_UPS:
                out[seat] = (msg, text)
        return out

    def _news(self, table: PublicView, answered: dict[int, tuple[int, str]]) -> dict[int, str]:
        """Each seat's private news of this command (seat -> text), for seats with a chat."""
        st = self.state
        # The partner who accepted a trade reads what they received in their answered prompt
        # ("You accept X and give Y back"): no news message says it again (issue 27).
        answering = set(answered) | {s for s, seen in self.run.closing.items() if seen.action}
        accepted = {
            int(e.data["target"])
            for e in self.events
            if e.kind == EventKind.TRADE_DONE and not e.data.get("forced")
        }
        # A loser left with nothing is given an item back (R-A9): "took your X" waits for the
        # winner's choice and goes with "gave you Y back", one message (issue 25).
        p = st.pending
        giving_back = int(p.data["loser"]) if p is not None and p.kind == "giveback" else None
        news: dict[int, str] = {}
        for seat in range(st.n):
            # The offer is told once, by the answer prompt, to whoever gets that prompt.
            shown = seat in answering and seat in accepted
            mine = [
                e
                for e in engine.events_for(self.events, seat)
                if not (e.kind == EventKind.OFFERED and self.asks(seat))
                and not (shown and e.kind == EventKind.RECEIVED and e.data.get("how") == "trade")
                and not (seat == giving_back and e.kind == EventKind.ITEM_LOST)
            ]
            mine = self._with_what_was_taken(seat, mine)
            text = story.private_text(mine, table, self.lang_of(seat)) if mine else None
            refused = [e for e in self.events if e.kind == EventKind.TRADE_REFUSED and e.to is None]
            for e in refused:
                if e.data["seat"] == seat:
                    told = t(
                        self.lang_of(seat),
                        "bot.offer_refused",
                        name=fmt.name(table, e.data["target"]),
                    )
                    text = fmt.lines(text, told)
            if text and not self.no_chat(seat):
                news[seat] = text
        return news

    def _with_what_was_taken(self, seat: int, mine: list[Event]) -> list[Event]:
        """An item given back to ``seat`` (R-A9) comes with what the winner took, held back
        until then (from the seat's own notebook: it is their news)."""
        back = next(
            (e for e in mine if e.kind == EventKind.RECEIVED and e.data.get("how") == "giveback"),
            None,
        )
        if back is None or any(e.kind == EventKind.ITEM_LOST for e in mine):
            return mine
        winner = back.data["source"]
        taken = next(
            (
                n
                for n in reversed(self.state.players[seat].notes)
                if n.get("k") == "gave_item"
                and n.get("about") == winner
                and n.get("how") == "fight"
            ),
            None,
        )
        if taken is None:
            return mine
        lost = Event(
            EventKind.ITEM_LOST, (seat,), {"seat": seat, "to": winner, "card": taken["card"]}
        )
        return [lost, *mine]
