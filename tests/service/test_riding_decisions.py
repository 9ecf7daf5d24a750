"""Issue 9 (pace), R-A3/R-A9 decisions in docs/rules.md: every supporter is asked during the
Priest window and the winner's reward during the Doctor window. Nobody sees the early answer
before the window closes — not the group, not the window's holder; a Priest or Doctor who uses
the window drops it, and the asked player's prompt says why."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import engine
from devtools.botapi.messenger import EmulatedMessenger
from engine import Action
from engine.cards import DOCTOR, HYPNOTIST, PRIEST
from handlers import action_payloads, fmt, lobby
from handlers.card_labels import occupation_label
from handlers.i18n import t
from infra.ports import Put, Rows, Sent
from tests.service.service_game import ServiceGame


def _attack(table: ServiceGame, priest: int | None = None) -> tuple[int, int, int]:
    attacker = table.state().turn
    defender = (attacker + 1) % table.n
    first = (attacker + 2) % table.n  # the first supporter
    if priest is not None:
        table.arrange(lambda st: table.give(st, priest, "priest"))
    decision = table.state().pending.id  # type: ignore[union-attr]
    table.press_payload(  # one tap on the turn's first page (issue 27)
        attacker,
        action_payloads.encode_action(Action("attack", attacker, decision, target=defender)),
    )
    return attacker, defender, first


def test_R_A3_the_first_support_is_told_only_when_the_priest_window_closes() -> None:
    table = ServiceGame(n=4)
    table.start()
    attacker, _, first = _attack(table, priest=(table.state().turn + 3) % 4)
    assert table.state().pending.kind == "priest"  # type: ignore[union-attr]
    table.clock.advance(1)
    table.press_payload(first, "su.ha", prefix=True)  # supports the attacker
    group_before = table.group_texts()
    name = table.state().players[first].name
    assert not any(f"{name}</b> supports" in x for x in group_before), "not told yet"
    holder = (attacker + 3) % 4
    holder_prompt, _ = table.prompt(holder)
    holder_text = table.messenger.messages[(table.uids[holder], holder_prompt)].text
    assert "Support: " not in holder_text and "supports" not in holder_text
    table.wait_until_due()  # the window's end
    table.flush_group()  # the story's lines may wait for the living message's next edit
    assert any(f"{name}</b> supports" in x for x in table.group_texts())
    pending = table.state().pending
    assert pending is not None and pending.kind == "support" and pending.actors != [first]


def test_R_A2_a_priest_stopping_the_fight_drops_the_early_support_and_says_why() -> None:
    table = ServiceGame(n=4)
    table.start()
    attacker, _, first = _attack(table, priest=(table.state().turn + 3) % 4)
    first_prompt, _ = table.prompt(first)
    table.press_payload((attacker + 3) % 4, "us")  # the Priest stops the fight
    text = table.messenger.messages[(table.uids[first], first_prompt)].text
    players = table.state().players
    stopped = t(
        "en",
        "prompt.closed.priest",
        label=occupation_label("en", PRIEST),
        name=f"<b>{players[(attacker + 3) % 4].name}</b>",
        attacker=f"<b>{players[attacker].name}</b>",
    )
    assert text.endswith(stopped), text
    assert not any("supports" in x for x in table.group_texts())


def test_R_A9_a_reward_not_chosen_in_the_doctor_window_goes_on_in_the_same_prompt() -> None:
    table = ServiceGame(n=4)
    table.start()
    attacker = table.state().turn
    doctor = (attacker + 3) % 4
    table.arrange(lambda st: (table.give(st, doctor, "doctor"), table.give(st, attacker, "dagger")))
    _attack(table)
    table.support_attacker_until("doctor")  # everyone supports the attacker, who wins
    winner = engine.public_view(table.state())["fight"]["winner"]
    assert winner == attacker
    prompt_id, _ = table.prompt(winner)
    assert table.state().pending.kind == "doctor"  # type: ignore[union-attr]
    table.wait_until_due()  # the window closes, the reward question goes on
    assert table.state().pending.kind == "reward"  # type: ignore[union-attr]
    same_id, _ = table.prompt(winner)
    assert same_id == prompt_id, "the same prompt, not a new message"


def test_R_A9_the_reward_asked_in_the_doctor_window_shows_its_own_deadline_from_the_start() -> None:
    """A newcomer's first Reward prompt, asked during the Doctor window, showed no ⏳ (every
    other timed prompt does): it shows its own deadline from the start, the one it runs under
    once the window closes (the choice's time from when it was asked), so the window's close
    needs no edit of it (issue 25)."""
    table = ServiceGame(n=4)
    table.start()
    attacker = table.state().turn
    doctor = (attacker + 3) % 4
    table.arrange(lambda st: (table.give(st, doctor, "doctor"), table.give(st, attacker, "dagger")))
    _attack(table)
    table.support_attacker_until("doctor")
    prompt_id, _ = table.prompt(attacker)
    shown = _prompt_text(table, attacker, prompt_id)
    assert "⏳" in shown and "<tg-time" in shown
    sends = len(table.messenger.in_chat(table.uids[attacker]))
    table.wait_until_due()  # the window closes, the reward question goes on under its deadline
    assert table.state().pending.kind == "reward"  # type: ignore[union-attr]
    deadline = table.doc()["due"]["deadline"]
    until = t("en", "game.status.until", time=fmt.clock(deadline))
    assert until in shown, "the deadline shown from the start is the one it runs under"
    assert _prompt_text(table, attacker, prompt_id) == shown  # nothing to edit at the close
    assert len(table.messenger.in_chat(table.uids[attacker])) == sends


# -- R-A3 (issue 9): every supporter asked at once, told in order ------------------------------
def _supporters(table: ServiceGame, attacker: int) -> list[int]:
    return [(attacker + i) % table.n for i in range(2, table.n)]


def _defender(table: ServiceGame) -> int:
    return (table.state().turn + 1) % table.n


def _prompt_text(table: ServiceGame, seat: int, message_id: int) -> str:
    return table.messenger.messages[(table.uids[seat], message_id)].text


def test_R_A3_every_supporter_is_prompted_at_once_and_the_group_hears_them_in_order() -> None:
    table = ServiceGame(n=5)
    table.start()
    attacker, _, _ = _attack(table, priest=_defender(table))  # no supporter holds it
    first, second, third = _supporters(table, attacker)
    assert table.state().pending.kind == "priest"  # type: ignore[union-attr]
    prompts = {s: table.prompt(s)[0] for s in (first, second, third)}  # all asked at once
    names = [table.state().players[s].name for s in (first, second, third)]
    third_text = _prompt_text(table, third, prompts[third])
    assert "Declaring before you" in third_text and names[0] in third_text
    assert "⏳" not in third_text, "no deadline before its turn"
    table.clock.advance(2)
    table.press_payload(third, "su.ha")  # ahead of its turn: kept, the press's answer says so
    assert "Kept until your turn" in table.messenger.answers[-1][1]
    table.wait_until_due()  # the window closes: the first supporter's turn
    assert not any("supports" in x or "neutral" in x for x in table.group_texts())
    table.clock.advance(3)
    table.press_payload(first, "su.hn")
    table.clock.advance(3)
    table.press_payload(second, "su.hd")  # the second and the third are told now, in order
    table.flush_group()
    story = table.group_texts()[-1]
    at = [story.index(f"{name}</b>") for name in names]
    assert at == sorted(at), story
    closed = _prompt_text(table, third, prompts[third])
    assert closed.endswith("📣 Told to the table now.")
    attacker_name = table.state().players[attacker].name
    assert f"⚔️ <b>{attacker_name}</b> attacks" in closed, "the closed prompt names its fight"
    fight = engine.public_view(table.state())["fight"]
    told = {str(first): "neutral", str(second): "defender", str(third): "attacker"}
    assert fight["supports"] == told
    assert table.state().pending.kind != "support"  # type: ignore[union-attr]


def test_R_A3_each_supporters_deadline_counts_from_its_own_turn_default_neutral() -> None:
    table = ServiceGame(n=5)
    table.start()
    attacker, _, _ = _attack(table, priest=_defender(table))  # no supporter holds it
    first, second, third = _supporters(table, attacker)
    seconds = table.doc()["settings"]["deadlines"]["support"]
    table.wait_until_due()  # the window closes
    table.clock.advance(10)
    table.press_payload(first, "su.ha")
    doc = table.doc()
    assert doc["dec"]["opened"] == table.clock.now()  # the second's turn starts now
    assert doc["due"]["deadline"] == table.clock.now() + seconds
    while table.state().pending.kind == "support":  # type: ignore[union-attr]
        table.wait_until_due()  # the second and then the third run out: neutral
    sides = engine.public_view(table.state())["fight"]["supports"]
    assert sides == {str(first): "attacker", str(second): "neutral", str(third): "neutral"}


def _set_doc(table: ServiceGame, change: Callable[[dict[str, Any]], None]) -> None:
    got = table.store.get(f"GAME#{table.gid}")
    assert got is not None
    change(got.doc)
    table.store.commit([Put(got.key, got.doc, got.version)])


def _away(table: ServiceGame, seat: int, *, ai: bool) -> None:
    table.arrange(lambda st: setattr(st.players[seat], "away", True))
    _set_doc(table, lambda doc: doc["settings"].update(ai_takeover=ai))


def test_R_D2_an_away_supporter_defaults_when_its_turn_comes_not_before() -> None:
    table = ServiceGame(n=5)
    table.start()
    attacker = table.state().turn
    third = (attacker + 4) % 5
    _away(table, third, ai=False)
    _attack(table, priest=(attacker + 1) % 5)  # the defender
    first, second, _ = _supporters(table, attacker)
    assert table.state().frames[-1]["held_supports"] == {}, "nothing declared for it ahead"
    table.wait_until_due()
    table.press_payload(second, "su.hd")  # ahead: kept
    assert table.state().frames[-1]["held_supports"] == {str(second): "defender"}
    table.press_payload(first, "su.ha")  # the second is told, the away third defaults at once
    sides = engine.public_view(table.state())["fight"]["supports"]
    assert sides == {str(first): "attacker", str(second): "defender", str(third): "neutral"}


def test_R_A3_an_ai_supporter_holding_the_priest_answers_the_window_and_declares_in_turn(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(lobby, "new_deal_seed", lambda: 1)  # a deal where it lets it be
    table = ServiceGame(n=5)
    table.start()
    attacker = table.state().turn
    first, second, _ = _supporters(table, attacker)
    table.arrange(lambda st: table.give(st, second, "priest"))
    _away(table, second, ai=True)  # an AI stands in
    _attack(table)
    st = table.state()
    f = st.frames[-1]
    assert st.pending is not None and st.pending.kind == "priest"  # this deal: the AI lets it be
    assert second in f["priest_passed"] and f["held_supports"] == {}, (
        "the window answered, no support yet"
    )
    table.wait_until_due()
    assert table.state().pending.kind == "support"  # type: ignore[union-attr]
    table.press_payload(first, "su.ha")  # now the AI's turn: it declares at once
    assert str(second) in engine.public_view(table.state())["fight"]["supports"]


# -- issue 25: a support declared ahead, one coherent prompt -----------------------------------
class _EditLog(EmulatedMessenger):
    """Every edit of a private message, in order: (chat, message id, text, with buttons)."""

    def __init__(self) -> None:
        super().__init__()
        self.edits: list[tuple[int, int, str, bool]] = []

    def edit(self, chat_id: int, message_id: int, text: str, rows: Rows | None = None) -> Sent:
        self.edits.append((chat_id, message_id, text, bool(rows)))
        return super().edit(chat_id, message_id, text, rows)


def test_issue_25_a_tap_on_a_support_declared_ahead_is_one_edit_keeping_the_choice() -> None:
    """It was two edits at once (answered without buttons, then the prompt again with them).
    Issue 27: the press's answer says it is kept at once, and the edit waits KEPT_WAIT_SECONDS
    (told sooner, the prompt is closed instead: one edit)."""
    from handlers.private_news import KEPT_WAIT_SECONDS

    log = _EditLog()
    table = ServiceGame(n=5, messenger=log)
    table.start()
    attacker, _, _ = _attack(table, priest=_defender(table))
    third = _supporters(table, attacker)[2]
    prompt, _ = table.prompt(third)
    log.edits.clear()
    table.press_payload(third, "su.ha")  # ahead of its turn: kept
    assert "Kept until your turn" in table.messenger.answers[-1][1]
    assert not [e for e in log.edits if e[:2] == (table.uids[third], prompt)]
    table.clock.advance(KEPT_WAIT_SECONDS + 0.01)
    table.fire_timers()  # the Priest window closes; the first supporter's turn has not ended
    mine = [e for e in log.edits if e[:2] == (table.uids[third], prompt)]
    assert len(mine) == 1, mine
    _, _, text, buttons = mine[0]
    name = table.state().players[attacker].name
    assert t("en", "game.support.held.attacker", name=f"<b>{name}</b>") in text
    assert buttons, "it may still change its declaration"


def _hypnotist_shown_spent(st: engine.State, seat: int) -> None:
    """R-D1: the Hypnotist lies face up and spent, so its window is left out."""
    holder = next((p for p in st.players if p.occupation == HYPNOTIST), None)
    if holder is not None:
        holder.occupation = st.players[seat].occupation
    elif st.players[seat].occupation != HYPNOTIST:
        st.occ_deck[st.occ_deck.index(HYPNOTIST)] = st.players[seat].occupation
    st.players[seat].occupation = HYPNOTIST
    st.players[seat].occ_up = st.players[seat].occ_spent = True


def test_issue_25_a_support_told_keeps_its_line_when_the_boost_window_has_nothing_for_it() -> None:
    """The told support prompt became the boost window's "nothing to play" text, losing the
    declaration and "📣 Told to the table now"."""
    table = ServiceGame(n=5)
    table.start()
    attacker = table.state().turn
    first, second, third = _supporters(table, attacker)
    table.arrange(lambda st: _hypnotist_shown_spent(st, first))
    table.arrange(lambda st: table.give(st, third, DOCTOR))  # nothing to play as a neutral
    _attack(table, priest=_defender(table))
    prompt, _ = table.prompt(third)
    table.press_payload(third, "su.hn")  # ahead: kept
    table.wait_until_due()  # the Priest window closes
    table.press_payload(second, "su.hn")
    table.press_payload(first, "su.hn")  # all three told; the boost window opens
    assert engine.public_view(table.state())["fight"]["supports"][str(third)] == "neutral"
    text = table.messenger.messages[(table.uids[third], prompt)].text
    told = t("en", "prompt.closed.support_told", what=t("en", "game.answer.support.neutral"))
    assert text.endswith(told), text
    boost = t("en", "game.boost.nothing")
    chat = table.messenger.in_chat(table.uids[third])
    assert not any(boost in m.text for m in chat), "nothing to play: no message (issue 27)"


# -- R-A9: the loser hears the result privately too (issue 25, a newcomer's game) ---------------
def _won_by_the_attacker() -> tuple[ServiceGame, int, int]:
    """The attacker wins (everyone supports them; the defender has nothing to play, so no boost
    prompt of theirs carries the result); returns the table, the winner and the loser."""
    table = ServiceGame(n=4)
    table.start()
    attacker, defender, _ = _attack(table)
    table.support_attacker_until("reward")
    assert engine.public_view(table.state())["fight"]["winner"] == attacker  # type: ignore[index]
    return table, attacker, defender


def test_R_A9_the_loser_is_told_the_result_with_the_winners_look() -> None:
    table, winner, loser = _won_by_the_attacker()
    sent = len(table.messenger.in_chat(table.uids[loser]))
    decision = table.state().pending.id  # type: ignore[union-attr]
    look = Action("look", winner, decision)
    table.press_payload(winner, action_payloads.encode_action(look))
    name = fmt.name(engine.public_view(table.state()), winner)
    chat = table.messenger.in_chat(table.uids[loser])
    told = t("en", "bot.fight_lost_look", name=name)
    assert [told in m.text for m in chat[sent:]].count(True) == 1


def test_R_A9_the_loser_is_told_the_result_in_the_one_message_of_what_was_taken() -> None:
    table, winner, loser = _won_by_the_attacker()
    sent = len(table.messenger.in_chat(table.uids[loser]))
    decision = table.state().pending.id  # type: ignore[union-attr]
    table.press_payload(winner, action_payloads.encode_action(Action("take", winner, decision)))
    while (p := table.state().pending) is not None and p.kind in ("reward_take", "giveback"):
        table.press_payload(
            winner, action_payloads.encode_action(engine.legal_actions(table.state(), winner)[0])
        )
    name = fmt.name(engine.public_view(table.state()), winner)
    chat = table.messenger.in_chat(table.uids[loser])
    new = [m.text for m in chat[sent:] if "📤" in m.text]
    assert len(new) == 1, "one message: the result and what was taken"
    assert new[0].startswith(t("en", "bot.fight_lost", name=name))


def test_a_newcomer_reading_the_fight_20_s_is_not_cut_off_from_declaring() -> None:
    """Issue 25 (a newcomer's game): the 15 s to declare a support ran out while a newcomer read
    the fight. The default (docs/rules.md §8) is 30 s from one's turn, reminded 15 s before:
    20 s in, the first supporter is still asked, and declares."""
    table = ServiceGame(n=4)
    table.start()
    attacker, _, first = _attack(table)
    while (aw := engine.awaiting(table.state())) is not None and aw.kind != "support":
        table.wait_until_due()  # the Priest window, if it opened, runs out
    assert aw is not None and aw.seats == (first,)
    table.clock.advance(20)
    table.fire_timers()
    aw = engine.awaiting(table.state())
    assert aw is not None and aw.kind == "support" and aw.seats == (first,), "not timed out"
    reminder = t("en", "game.kind.support")
    assert any(reminder in m.text for m in table.messenger.in_chat(table.uids[first]))
    table.press_payload(first, "su.ha", prefix=True)
    name = table.state().players[first].name
    table.flush_group()  # the story's lines may wait for the living message's next edit
    assert any(f"{name}</b> supports" in x for x in table.group_texts())
    assert attacker != first
