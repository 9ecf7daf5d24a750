"""Issue 9, a brisk and quiet table, through the service with fakes: one living status message,
story messages with new lines only, boost windows that ask only who can play, closed prompts
that say what happened, reminders, and the table told when an AI stands in (R-D1, R-D2)."""

from __future__ import annotations

from dataclasses import dataclass, field

import engine
from devtools.botapi.messenger import EmulatedMessenger
from engine import Action
from handlers import action_payloads
from infra.ports import Rows, Sent
from tests.service.service_game import GROUP, ServiceGame


@dataclass
class Log(EmulatedMessenger):
    """Remembers every send and edit, in order, with the chat and message it touched."""

    log: list[tuple[str, int, int, str]] = field(default_factory=list)

    def send(
        self, chat_id: int, text: str, rows: Rows | None = None, reply_to: int | None = None
    ) -> Sent:
        sent = super().send(chat_id, text, rows)
        self.log.append(("send", chat_id, sent.message_id or 0, text))
        return sent

    def edit(self, chat_id: int, message_id: int, text: str, rows: Rows | None = None) -> Sent:
        self.log.append(("edit", chat_id, message_id, text))
        return super().edit(chat_id, message_id, text, rows)

    def group(self) -> list[tuple[str, int, int, str]]:
        return [x for x in self.log if x[1] == GROUP]


def table(n: int = 4) -> tuple[ServiceGame, Log]:
    log = Log()
    t = ServiceGame(n=n, messenger=log)
    t.start()
    return t, log


def press_action(t: ServiceGame, seat: int, action: Action) -> None:
    t.press_payload(seat, action_payloads.encode_action(action))


def test_one_status_at_the_foot_of_the_newest_story_message_and_story_lines_only_once() -> None:
    """Issue 27: the status lives at the foot of the newest story message (one message edited
    instead of two); a story message that is no longer the newest keeps its lines alone, so the
    chat shows one status, never a stale one, and the story never repeats the board."""
    t, log = table()
    while t.state().round < 3:  # every turn let run out (a reminder, then the deadline)
        t.wait_until_due()
    living = t.doc()["story"]
    group = log.group()
    sends = [x for x in group if x[0] == "send"]
    assert len([x for x in sends if x[3].startswith("⏭️") or "\n⏭️" in x[3]]) >= 2, "new ones"
    final = {x[2]: t.messenger.messages[(GROUP, x[2])].text for x in sends}
    assert any(x[0] == "edit" and x[2] in final and "⏭️" in x[3] for x in group), "lines join"
    board = "📋"
    newest = max(x[2] for x in sends if not x[3].startswith("⏰"))  # a turn's mention apart
    assert [m for m, text in final.items() if board in text] == [newest]
    assert final[newest].endswith("\n\n" + living["foot"])
    told = "\n".join(final.values())
    assert "🎲" not in told, "whose turn it is lives in the status"
    assert told.count("passes") == 2 * t.n, "each pass told exactly once"
    assert "⏳" in living["foot"] and "<tg-time" in living["foot"]
    assert "s left" not in living["foot"], "no countdown that freezes"


def test_a_window_pass_changes_nothing_the_group_sees_R_D1() -> None:
    t, log = table()
    attacker = t.state().turn
    priest = (attacker + 3) % t.n  # a later supporter: "Not now" sits in its support prompt
    t.arrange(lambda st: t.give(st, priest, "priest"))
    t.attack()
    assert t.state().pending.kind == "priest"  # type: ignore[union-attr]
    before = list(log.group())
    t.clock.advance(2)
    t.press_payload(priest, "pa")
    assert log.group() == before, "a private pass neither sends nor edits in the group"


def test_windows_end_without_a_time_is_up_line() -> None:
    t, log = table()
    t.attack()
    while (aw := engine.awaiting(t.state())) is not None and aw.kind != "turn":
        t.wait_until_due()
    texts = "\n".join(x[3] for x in log.group())
    assert "Time is up: the boost window" not in texts
    assert "Time is up: a chance" not in texts
    assert "Time is up: a support declaration" in texts  # real timeouts are still told


def test_boost_window_asks_only_who_can_play_and_edits_one_prompt() -> None:
    """Issue 27: a seat with nothing to play in the boost window gets no message at all (it
    would ask nothing and tell only what the group's story tells)."""
    t, log = table()
    attacker = t.state().turn
    t.arrange(lambda st: t.give(st, attacker, "dagger"))
    t.attack()
    while (aw := engine.awaiting(t.state())) is not None and aw.kind != "boost":
        t.wait_until_due()
    aw = engine.awaiting(t.state())
    assert aw is not None and attacker in aw.seats
    others = [s for s in range(t.n) if s != attacker and s not in aw.seats]
    assert others, "someone had nothing to play"
    for s in others:
        notes = [x for x in log.log if x[1] == t.uids[s] and "nothing to play" in x[3]]
        assert not notes, "nothing to play is not a message of its own"
        assert not any(
            m.rows and any(b[2].startswith(f"{t.gid}:{aw.decision}:") for r in m.rows for b in r)
            for m in t.messenger.in_chat(t.uids[s])
        ), "no prompt to dismiss"
    prompt_id, _ = t.prompt(attacker)
    opened = t.doc()["dec"]["opened"]
    t.clock.advance(3)
    press_action(t, attacker, Action("play", attacker, aw.decision, card="dagger"))
    after_id, _ = t.prompt(attacker) if attacker in t.state().pending.actors else (None, [])  # type: ignore[union-attr]
    assert after_id in (None, prompt_id), "the same prompt gets the buttons back"
    for s in others:
        notes = [x for x in log.log if x[1] == t.uids[s] and "nothing to play" in x[3]]
        assert not notes, "not told after a card played either"
    # the window lasts the same for all: its boost time, at least a window after the card
    due = t.doc()["due"]["at"]
    settings = t.doc()["settings"].get("deadlines", {})
    assert due >= opened + settings.get("boost", 10)


def test_a_timed_out_prompt_says_which_default_was_taken() -> None:
    t, _ = table()
    seat = t.state().turn
    while t.state().turn == seat:
        prompt_id, _ = t.prompt(seat)  # its reminder brings it down, anew (issue 25)
        t.wait_until_due()
    closed = t.messenger.messages[(t.uids[seat], prompt_id)]
    assert "Time ran out" in closed.text and closed.rows is None
    assert "Closed." not in closed.text


def test_one_private_reminder_shortly_before_a_long_deadline() -> None:
    t, log = table()
    seat = t.state().turn
    opened = t.doc()["dec"]["opened"]
    t.wait_until_due()  # the reminder's moment, not the deadline
    assert t.state().turn == seat
    reminders = [x for x in log.log if x[1] == t.uids[seat] and x[3].startswith("⏰")]
    assert len(reminders) == 1 and "15 s left" in reminders[0][3]
    assert t.clock.now() >= opened + 60 - 15
    group = [x[3] for x in log.group() if x[3].startswith("⏰")]
    assert len(group) == 1 and "tg://user?id=" in group[0], "only the turn's public mention"
    t.wait_until_due()
    assert t.state().turn != seat
    assert len([x for x in log.log if x[3].startswith("⏰") and x[1] != GROUP]) == 1


def test_silent_player_costs_at_most_three_minutes_then_the_table_hears_an_ai_plays_R_D2() -> None:
    t, log = table(3)
    silent = t.state().turn
    waited = 0.0
    while not t.state().players[silent].away:  # the whole table is silent; this seat is first
        aw = engine.awaiting(t.state())
        assert aw is not None
        start = t.clock.now()
        t.wait_until_due()
        if silent in aw.seats:
            waited += t.clock.now() - start
    assert waited <= 180.5
    name = t.state().players[silent].name
    assert any("🤖" in x[3] and name in x[3] and "AI" in x[3] for x in log.group())


def test_a_trade_offer_arrives_once_with_buttons_that_say_what_they_do() -> None:
    t, log = table()
    a = t.state().turn
    b = (a + 1) % t.n
    t.arrange(lambda st: (t.give(st, b, "dagger"), t.give(st, a, "gloves")))
    offered = "gloves"
    decision = t.state().pending.id  # type: ignore[union-attr]
    trade = action_payloads.encode_action(Action("trade", a, decision, target=b, card=offered))
    t.press(t.uids[a], t.prompt(a)[0], f"{t.gid}:{decision}:{trade}")
    assert t.state().pending.kind == "trade_answer"  # type: ignore[union-attr]
    to_b = [x for x in log.log if x[1] == t.uids[b] and x[0] == "send"]
    assert len([x for x in to_b if "offers" in x[3] or "offer" in x[3]]) == 1
    message_id, _ = t.prompt(b)
    labels = [
        btn[0] for row in t.messenger.messages[(t.uids[b], message_id)].rows or [] for btn in row
    ]
    accepts = [label for label in labels if label.startswith("✅")]
    assert accepts and all("Accept, give" in label for label in accepts)
    t.press_payload(b, "rf")  # refuse
    told = [x[3] for x in log.log if x[1] == t.uids[a] and "refused your offer" in x[3]]
    assert len(told) == 1


def test_the_hand_limit_gift_prompt_shows_each_item_once_R_H1() -> None:
    t, _ = table()
    turn = t.state().turn
    heavy = (turn + 1) % t.n

    def overfill(st: engine.State) -> None:
        while len(st.players[heavy].items) <= 6:
            st.players[heavy].items.append(st.pile.pop())

    t.arrange(overfill)
    t.press_payload(turn, "pa")
    assert t.state().pending.kind == "gift"  # type: ignore[union-attr]
    message_id, _ = t.prompt(heavy)
    rows = t.messenger.messages[(t.uids[heavy], message_id)].rows or []
    labels = [btn[0] for row in rows for btn in row if not btn[2].split(":", 2)[2].startswith("?")]
    assert len(labels) == len(set(labels)) and len(labels) <= 7
