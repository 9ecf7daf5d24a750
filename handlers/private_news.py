"""The presenter's private side of a press (``handlers.presenter``): each seat's news of a
command, what a loser is told when an item comes back, which pressers are asked a follow-up of
their own press in the prompt they pressed (issue 27), and the away notices (R-D2)."""

from __future__ import annotations

from collections.abc import Callable, Collection

import engine
from engine import EventKind, State
from engine.actions import Event
from engine.events import data_of
from engine.kinds import ActionKind, DecisionKind
from engine.view_types import PublicView
from handlers import callback_data, fmt, story
from handlers.game_runner import RunnerBound
from handlers.group_settings import GroupSettings
from handlers.i18n import t
from handlers.message_tags import Tag
from handlers.outbox import answer_text
from handlers.transaction import Txn

# Decisions that follow the asked player's own press at once (issue 27: asked in the prompt they
# pressed, which they are looking at). A turn, a fight's decision or a trade's answer is never
# one: those come as a new message, which notifies (issue 25).
FOLLOW_UPS: frozenset[DecisionKind] = frozenset(
    {
        DecisionKind.REWARD_TAKE,
        DecisionKind.GIVEBACK,
        DecisionKind.SEXTANT_DIR,
        DecisionKind.SEXTANT_PASS,
        DecisionKind.GIFT,
        DecisionKind.DIPLOMAT_GIVE,
        DecisionKind.TOME,
        DecisionKind.COAT,
        DecisionKind.CLAIRVOYANT,
        DecisionKind.LOOK_POS,
    }
)


# A prompt sent with the news above it (``PrivateNews._joining``) is at most this long at first:
# its other pages and its answer have room below the news within Telegram's 4096.
JOINED_MAX_CHARS = 2500

# A support declared ahead of its turn (R-A3) shows as kept in its prompt this much later: told
# sooner (the Priest window closes, the declarations before it are told), its prompt is closed
# instead, one edit and not two (issue 27); meanwhile the press's answer says it is kept.
KEPT_WAIT_SECONDS = 10.0


class PrivateNews(RunnerBound):
    """What the presenter tells each seat privately, besides its prompts."""

    def _kept_wait(self, seat: int, shown: str, version: str) -> float | None:
        """When the edit of the seat's open prompt from ``shown`` to ``version``
        (``prompt_versions.prompt_version``: kind, cards played, declared, deadline) may go: later
        (``KEPT_WAIT_SECONDS``) when all it shows is the support the seat just declared ahead
        (only the seat's own press changes that), which the press's answer then says at once,
        or only a closed window's buttons taken away (``_window_buttons_wait``); else None (at
        once)."""
        old, new = shown.split(":"), version.split(":")
        if len(old) != 4 or len(new) != 4:
            return None
        if old[0] == f"{new[0]}+window" and old[1:] == new[1:]:
            return self._window_buttons_wait(seat)
        if old[:2] != new[:2] or old[3] != new[3]:
            return None
        if old[2] == new[2] or not self.kept_toast(seat):
            return None
        return self.txn.now + KEPT_WAIT_SECONDS

    def _window_buttons_wait(self, seat: int) -> float | None:
        """A supporter asked during the Priest window, holding it (R-A2, R-A3): its prompt loses
        the Priest's buttons when the window closes. Before its turn that edit waits
        (``KEPT_WAIT_SECONDS``): its turn coming, or its declaration told, edits the prompt
        sooner, and the newer edit takes its place, one call and not two (issue 27). A press on
        the Priest meanwhile is refused ("not possible right now"). Its turn come, at once."""
        aw = engine.awaiting(self.state)
        if aw is None or seat not in aw.ahead:
            return None
        return self.txn.now + KEPT_WAIT_SECONDS

    def kept_toast(self, seat: int) -> bool:
        """The press's answer says the support the seat declared ahead of its turn is kept (R-A3):
        at once, while its prompt's edit waits (``_kept_wait``), and again for a press that
        changes nothing (the same side pressed again): every press visibly registers, for the
        cost of a callback answer. False: the seat keeps no declaration (or the answer is
        set)."""
        own = engine.view(self.state, seat)["decision"]
        if own is None or own["data"].get("declared") is None:
            return False
        data = own["data"]
        held = data["declared"]
        table = engine.public_view(self.state)
        name = fmt.name(table, data["attacker"] if held == "attacker" else data["defender"])
        key = "held" if data.get("before") else "held_window"
        if self.txn.toast is None:
            told = t(self.lang_of(seat), f"game.support.{key}.{held}", name=name)
            self.txn.toast = (answer_text(told), False)
        return True

    lang_of: Callable[[int], str]
    chat_of: Callable[[int], int]
    no_chat: Callable[[int], bool]
    asks: Callable[[int], bool]
    settings: GroupSettings

    def _asked_again(self, st: State, seat: int) -> bool:
        """Whether the seat's open prompt is for the decision still pending (a boost window
        asks again after a card is played: its answered prompt gets the buttons back)."""
        rec = self.game.prompts.get(str(seat))
        p = st.pending
        return rec is not None and p is not None and rec["dec"] == p.id

    def lead(self, seat: int, msg: int | None) -> str | None:
        """The answers given earlier in message ``msg``, the seat's open prompt: a follow-up
        of a press is asked in the message pressed, under the press's answer, which stays
        there once the follow-up is answered too (issue 25: "🎁 Hand limit … ✔️ You give …"
        no longer said what was taken)."""
        rec = self.game.prompts.get(str(seat))
        if rec is not None and msg and rec.get("msg") == msg:
            return rec.get("lead")
        ahead = self.game.ahead  # "your turn is next", sent with the news above it
        if ahead is not None and msg and ahead["seat"] == seat and ahead.get("msg") == msg:
            return ahead.get("lead")
        return None

    def with_lead(self, seat: int, msg: int | None, text: str) -> str:
        """``text`` for message ``msg``, under its earlier answers (``lead``)."""
        lead = self.lead(seat, msg)
        return fmt.truncate(fmt.lines(lead, "", text)) if lead else text

    def _follow_ups(
        self, st: State, answered: dict[int, tuple[int, str]]
    ) -> dict[int, tuple[int, str]]:
        """The pressers asked a follow-up of their own press (``FOLLOW_UPS``) on the prompt
        they pressed: seat -> (that message, its answer). ``st``: the state the presenter read
        (read here again, it would be one more trip into the runner)."""
        p = st.pending
        out: dict[int, tuple[int, str]] = {}
        if p is None:
            return out
        for seat, (msg, text) in answered.items():
            rec = self.game.prompts.get(str(seat))
            if rec is None or rec.get("msg") != msg or rec["dec"] == p.id:
                continue
            if seat not in p.actors or not self.asks(seat):
                continue
            own = engine.view(st, seat)["decision"]
            if own is not None and own["kind"] in FOLLOW_UPS:
                out[seat] = (msg, text)
        return out

    def _news(self, st: State, table: PublicView, answered: Collection[int]) -> dict[int, str]:
        """Each seat's private news of this command (seat -> text), for seats with a chat;
        ``answered``: the seats whose pressed prompt shows their answer. ``st`` is the state the
        presenter read (read here again, it would be one more trip into the runner)."""
        # The partner who accepted a trade reads what they received in their answered prompt
        # ("You accept X and give Y back"), and so does a Diplomat ("You give Y for X"): no
        # news message says it again (issue 27).
        answering = set(answered) | {s for s, seen in self.run.closing.items() if seen.action}
        done = [data_of(e, EventKind.TRADE_DONE) for e in self.events]
        accepted = {d["seat"] if d["forced"] else d["target"] for d in done if d is not None}
        # A loser left with nothing is given an item back (R-A9): "took your X" waits for the
        # winner's choice and goes with "gave you Y back", one message (issue 25).
        p = st.pending
        giving_back = (
            int(p.data["loser"]) if p is not None and p.kind == DecisionKind.GIVEBACK else None
        )
        news: dict[int, str] = {}
        for seat in range(st.n):
            # The offer is told once, by the answer prompt, to whoever gets that prompt.
            shown = seat in answering and seat in accepted
            mine = [
                e
                for e in engine.events_for(self.events, seat)
                if not (e.kind == EventKind.OFFERED and self.asks(seat))
                and not (
                    shown and (got := data_of(e, EventKind.RECEIVED)) and got["how"] == "trade"
                )
                and not (seat == giving_back and e.kind == EventKind.ITEM_LOST)
                and not (self.asks(seat) and _listed_by_prompt(st, seat, e))
            ]
            mine = _with_what_was_taken(st, seat, mine)
            text = story.private_text(mine, table, self.lang_of(seat)) if mine else None
            text = fmt.lines(_fight_lost(self.events, mine, seat, table, self.lang_of(seat)), text)
            refused = [data_of(e, EventKind.TRADE_REFUSED) for e in self.events if e.to is None]
            for r in refused:
                if r is not None and r["seat"] == seat:
                    told = t(
                        self.lang_of(seat),
                        "bot.offer_refused",
                        name=fmt.name(table, r["target"]),
                    )
                    text = fmt.lines(text, told)
            if text and not self.no_chat(seat):
                news[seat] = text
        return news

    # -- R-D2: a player marked away, told privately with a way back -------------------------
    def _away_notices(self) -> None:
        """R-D2: a player just marked away hears it privately, with a way back."""
        for e in self.events:
            away = data_of(e, EventKind.AWAY)
            if away is None or self.no_chat(away["seat"]):
                continue
            seat = away["seat"]
            lang = self.lang_of(seat)
            rows = [[[t(lang, "bot.back_button"), "d", callback_data.back(self.game.gid)]]]
            self.txn.send(self.chat_of(seat), self._away_text(seat), rows, tag=Tag.away(seat))

    def _away_text(self, seat: int) -> str:
        lang = self.lang_of(seat)
        stand_in = t(lang, "bot.away_ai" if self.settings.ai_takeover else "bot.away_defaults")
        return t(lang, "bot.away_notice", stand_in=stand_in)

    def close_away_notices(self) -> None:
        """At the game's end no "I'm back" button stays: each away notice loses it."""
        notices = self.game.away_notices
        for seat_s, msg in notices.items():
            seat = int(seat_s)
            if msg and not self.no_chat(seat):
                back = not self.state.players[seat].away
                text = t(self.lang_of(seat), "bot.back_done") if back else self._away_text(seat)
                self.txn.edit(self.chat_of(seat), msg, text, None, tag="closed")
        self.game.away_notices = {}


def join_news(txn: Txn, chat: int, seat: int, news: dict[int, str], text: str) -> str | None:
    """The seat's news of the command (taken out of ``news``) that go above ``text``, a prompt
    or "your turn is next" sent anew to it now: one message, not two (issue 27: about a third
    of a 5-player game's private news came with one in the same second), which keeps them above
    its answer or closing (its ``lead``). Too long together, the news go first, on their own."""
    told = news.pop(seat, None)
    if told is None or fmt.size(fmt.lines(told, "", text)) <= JOINED_MAX_CHARS:
        return told
    txn.send(chat, told)
    return None


def _listed_by_prompt(st: State, seat: int, e: Event) -> bool:
    """Whether the seat's prompt now lists what ``e`` shows them: the loser's items for a Take
    or the only one taken (R-A9 (b)), the occupation deck for the Coat (R-T8), the draw pile for
    the Clairvoyant. "🔍 …" would say the same list again, next to the prompt that says it
    (issue 25)."""
    p = st.pending
    if p is None or p.actors != [seat]:
        return False
    if p.kind == DecisionKind.COAT:
        return e.kind == EventKind.DECK_SEEN
    if p.kind == DecisionKind.CLAIRVOYANT:  # its prompt lists the pile from the top
        return e.kind == EventKind.PILE_SEEN
    seen = data_of(e, EventKind.ITEMS_SEEN)
    return (
        p.kind in (DecisionKind.REWARD_TAKE, DecisionKind.GIVEBACK)
        and seen is not None
        and seen["how"] == "fight"
        and seen["about"] == int(p.data["loser"])
    )


def _with_what_was_taken(st: State, seat: int, mine: list[Event]) -> list[Event]:
    """An item given back to ``seat`` (R-A9) comes with what the winner took, held back
    until then (from the seat's own notebook: it is their news)."""
    back = next(
        (d for e in mine if (d := data_of(e, EventKind.RECEIVED)) and d["how"] == "giveback"),
        None,
    )
    if back is None or any(e.kind == EventKind.ITEM_LOST for e in mine):
        return mine
    winner = back["source"]
    taken = next(
        (
            n
            for n in reversed(st.players[seat].notes)
            if n.get("k") == "gave_item" and n.get("about") == winner and n.get("how") == "fight"
        ),
        None,
    )
    if taken is None:
        return mine
    lost = Event(EventKind.ITEM_LOST, (seat,), {"seat": seat, "to": winner, "card": taken["card"]})
    return [lost, *mine]


def _fight_lost(
    events: list[Event], mine: list[Event], seat: int, table: PublicView, lang: str
) -> str | None:
    """The loser of a fight hears it privately as the winner does (issue 25, a newcomer's game),
    joined to the news the reward brings them: with "took your X" (and "gave you Y back"), or,
    when the winner looks at their cards, as that news (public, R-A9)."""
    for e in events:
        if (
            e.kind == EventKind.REWARD
            and e.data["target"] == seat
            and e.data["choice"] == ActionKind.LOOK
        ):
            return t(lang, "bot.fight_lost_look", name=fmt.name(table, e.data["seat"]))
    taken = {int(e.data["target"]) for e in events if e.kind == EventKind.ITEM_TAKEN}
    back = any((d := data_of(x, EventKind.RECEIVED)) and d["how"] == "giveback" for x in mine)
    for e in mine:
        if e.kind == EventKind.ITEM_LOST and (seat in taken or back):
            return t(lang, "bot.fight_lost", name=fmt.name(table, e.data["to"]))
    return None
