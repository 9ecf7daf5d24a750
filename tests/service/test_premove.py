"""Issue 9 (pace), the turn chosen ahead (engine.premove) through the bot: the next player gets
one private prompt while a trade is answered, no deadline on it, nothing in the group; the choice
is kept in that prompt and played the moment their turn starts, the prompt then saying so."""

from __future__ import annotations

import pytest

import engine
from engine import Action
from engine.turn import diplomat_names, matching_card
from handlers import action_payloads
from handlers.i18n import LANGUAGES, t
from handlers.private_news import KEPT_WAIT_SECONDS
from tests.service.service_game import ServiceGame
from tests.service.test_conversation_pace import Log


def _offer(table: ServiceGame) -> tuple[int, int, int]:
    """The player whose turn it is offers an item to the player two seats on."""
    st = table.state()
    trader = st.turn
    nxt, partner = (trader + 1) % table.n, (trader + 2) % table.n
    card = st.players[trader].items[0]
    assert st.pending is not None
    table.offer(trader, partner, card)
    return trader, nxt, partner


def _answer(table: ServiceGame, partner: int) -> None:
    """The partner refuses the offer (or, offered the Black Pearl, which cannot be refused,
    accepts it)."""
    legal = engine.legal_actions(table.state(), partner)
    answer = next((a for a in legal if a.kind == "refuse"), legal[0])
    table.press_payload(partner, action_payloads.encode_action(answer))


def _kept_shown(table: ServiceGame) -> None:
    """A choice made ahead is said at once by the press's answer; its message shows it once
    ``KEPT_WAIT_SECONDS`` have passed (issue 27: a turn that starts meanwhile closes it with
    one edit, not two)."""
    assert t("en", "game.turn.next_held") in table.messenger.answers[-1][1]
    table.clock.advance(KEPT_WAIT_SECONDS)
    table.fire_timers()


def _texts(table: ServiceGame, seat: int) -> list[str]:
    return [m.text for m in table.messenger.in_chat(table.uids[seat])]


def test_premove_prompt_is_private_kept_and_played_as_the_turn_starts() -> None:
    table = ServiceGame(n=4)
    table.start()
    _, nxt, partner = _offer(table)
    message_id, payloads = table.prompt(nxt)
    shown = table.messenger.messages[(table.uids[nxt], message_id)].text
    assert t("en", "game.turn.next_title") in shown
    assert "until" not in shown.lower()  # no deadline: nobody waits for it
    assert any(p.endswith(":pa") for p in payloads)
    group_before = table.group_texts()
    sent_before = len(table.messenger.in_chat(table.uids[nxt]))

    table.press_payload(nxt, "pa")  # pass, chosen ahead
    _kept_shown(table)
    assert table.group_texts() == group_before  # the group learns nothing
    kept = table.messenger.messages[(table.uids[nxt], message_id)].text
    assert t("en", "game.turn.next_held") in kept and t("en", "game.answer.turn.pass") in kept
    assert table.state().pending.kind == "trade_answer"  # type: ignore[union-attr]

    _answer(table, partner)
    after = table.state()
    assert after.turn == partner  # the pass was played at once: the partner's turn now
    name = after.players[nxt].name
    table.flush_group()  # the story's lines may wait for the living message's next edit
    assert any(f"{name}</b> passes" in x or f"{name}</b> passed" in x for x in table.group_texts())
    closed = table.messenger.messages[(table.uids[nxt], message_id)].text
    assert t("en", "prompt.closed.premove_played") in closed
    # one message carried the whole time: no new prompt in the next player's chat
    assert len(table.messenger.in_chat(table.uids[nxt])) == sent_before


def test_premove_not_chosen_the_turn_comes_as_a_new_message() -> None:
    """Issue 25: Telegram notifies new messages, never edits: the turn is a new message at the
    bottom of the private chat, and "your turn is next" is closed, pointing to it."""
    table = ServiceGame(n=4)
    table.start()
    _, nxt, partner = _offer(table)
    message_id, _ = table.prompt(nxt)
    sent_before = len(table.messenger.in_chat(table.uids[nxt]))
    _answer(table, partner)
    after = table.state()
    assert after.turn == nxt and after.pending is not None and after.pending.kind == "turn"
    turn_id, _ = table.prompt(nxt)
    chat = table.messenger.in_chat(table.uids[nxt])
    assert turn_id != message_id and chat[-1].message_id == turn_id  # new, at the bottom
    assert len(chat) == sent_before + 1
    closed = table.messenger.messages[(table.uids[nxt], message_id)]
    assert not closed.rows and t("en", "prompt.closed.turn_came") in closed.text
    text = table.messenger.messages[(table.uids[nxt], turn_id)].text
    assert t("en", "game.turn.next_title") not in text
    assert t("en", "game.turn.title", round=after.round) in text
    assert "until" in text.lower()  # its deadline runs now


def test_premove_offered_from_the_turns_start_and_paused_while_its_player_answers() -> None:
    """The next player is offered their turn as soon as the turn before starts; offered a trade
    themselves, the choice is paused, kept, and the same message stays as shown (issue 27: no
    edit to pause it, none to open it again); a press on it meanwhile is answered with why it
    waits (the table waits for their answer) and changes nothing. The offer comes as a message
    of its own, and the choice plays once it is answered."""
    table = ServiceGame(n=4)
    table.start()
    st = table.state()
    trader = st.turn
    nxt = (trader + 1) % table.n
    ahead_id, _ = table.prompt(nxt)
    chat = table.uids[nxt]
    assert t("en", "game.turn.next_title") in table.messenger.messages[(chat, ahead_id)].text
    table.press_payload(nxt, "pa")  # chosen while the trader still thinks
    _kept_shown(table)
    sent_before = len(table.messenger.in_chat(chat))
    kept = table.messenger.messages[(chat, ahead_id)]
    shown = (kept.text, kept.rows)
    assert t("en", "game.turn.next_held") in kept.text
    assert t("en", "game.answer.turn.pass") in kept.text

    assert st.pending is not None
    card = st.players[trader].items[0]
    table.offer(trader, nxt, card)
    paused = table.messenger.messages[(chat, ahead_id)]
    assert (paused.text, paused.rows) == shown, "not edited while paused"
    offer_id, _ = table.prompt(nxt)
    assert offer_id != ahead_id  # the offer is a new message: it notifies
    assert len(table.messenger.in_chat(chat)) == sent_before + 1

    pending = table.state().pending
    button = next(b[2] for row in paused.rows or [] for b in row if b[2].endswith(":pa"))
    table.press(chat, ahead_id, button)  # pressed while paused
    trader_name = engine.public_view(st)["players"][trader]["name"]
    what = t("en", "game.kind.trade_answer")
    why = t("en", "game.turn.next_paused_you", name=trader_name, what=what)
    assert table.messenger.answers[-1][1:] == (why, False), "a toast, not a dialog to dismiss"
    assert table.state().pending == pending, "nothing changed"

    _answer(table, nxt)
    after = table.state()
    assert after.turn == (nxt + 1) % table.n  # the kept pass, played as the turn started
    closed = table.messenger.messages[(chat, ahead_id)].text
    assert t("en", "prompt.closed.premove_played") in closed


def test_premove_paused_during_a_fight_keeps_its_message_as_shown() -> None:
    """A fight pauses "your turn is next" (engine.premove): the same message stays as shown for
    the whole fight (issue 27: an edit to pause it and one to open it again were about 27 calls
    per 5-player game); a press meanwhile is answered with why it waits. Once the result stands
    it is open again, as shown."""
    table = ServiceGame(n=5)
    table.start()
    attacker = table.state().turn
    nxt = (attacker + 1) % table.n
    ahead_id, _ = table.prompt(nxt)
    chat = table.uids[nxt]
    before = table.messenger.messages[(chat, ahead_id)]
    shown = (before.text, before.rows)
    table.attack()
    name = engine.public_view(table.state())["players"][attacker]["name"]
    pass_button = next(b[2] for row in before.rows or [] for b in row if b[2].endswith(":pa"))
    table.press(chat, ahead_id, pass_button)
    why = t("en", "game.turn.next_paused_fight", name=name)
    assert table.messenger.answers[-1][1:] == (why, False), "a toast, not a dialog to dismiss"
    assert engine.view(table.state(), nxt)["next_turn"]["held"] is None  # type: ignore[index]
    while (aw := engine.awaiting(table.state())) is not None and aw.kind != "reward":
        now = table.messenger.messages[(chat, ahead_id)]
        assert (now.text, now.rows) == shown, "not edited during the fight"
        table.support_attacker_until_next_step()
    assert engine.view(table.state(), nxt)["next_turn"]["open"]  # type: ignore[index]
    reopened = table.messenger.messages[(chat, ahead_id)]
    assert reopened.rows and t("en", "game.turn.next_body", name=f"<b>{name}</b>") in reopened.text
    assert [m.message_id for m in table.messenger.in_chat(chat)].count(ahead_id) == 1


def _diplomat_table() -> tuple[ServiceGame, int, int]:
    """The player whose turn it is holds a face-down Diplomat; the next player a Thug."""
    table = ServiceGame(n=4)
    table.start()
    st = table.state()
    now = st.turn
    nxt = (now + 1) % table.n

    def arrange(s: engine.State) -> None:
        table.give(s, now, "diplomat")
        table.give(s, nxt, "thug")
        s.players[now].occ_up = s.players[now].occ_spent = False

    table.arrange(arrange)
    return table, now, nxt


def test_premove_kept_while_a_diplomat_demand_reopens_the_turn() -> None:
    """Issue 25 (seed 2): the next player's kept choice is not played as the Diplomat's own turn;
    their "🔒 Kept until your turn starts" stays, and nobody is told it was dropped."""
    table, now, nxt = _diplomat_table()
    ahead_id, _ = table.prompt(nxt)
    table.press_payload(nxt, "pa")
    _kept_shown(table)
    st = table.state()
    assert st.pending is not None
    target = (now + 2) % table.n
    names = [x for x in diplomat_names(st) if matching_card(st, target, x) is not None]
    demand = Action("diplomat", now, st.pending.id, target=target, card=names[0])
    turn_id, _ = table.prompt(now)
    payload = action_payloads.encode_action(demand)  # the menu was drawn before the arranging
    table.press(table.uids[now], turn_id, f"{table.gid}:{st.pending.id}:{payload}")
    while table.state().pending.kind == "diplomat_give":  # type: ignore[union-attr]
        table.press_payload(now, "gv", prefix=True)
    after = table.state()
    dropped = t("en", "prompt.closed.premove_dropped", why="")[:12]
    everyone = [x for s in range(table.n) for x in _texts(table, s)]
    assert not any(dropped in x for x in everyone)
    assert after.pending is not None and after.pending.kind == "turn" and after.turn == now
    kept = table.messenger.messages[(table.uids[nxt], ahead_id)].text
    assert t("en", "game.turn.next_held") in kept and t("en", "game.answer.turn.pass") in kept
    assert engine.view(after, nxt)["next_turn"]["held"]["kind"] == "pass"
    table.press_payload(now, "pa")
    assert table.state().turn == (nxt + 1) % table.n  # the kept pass, played as its turn began


def test_premove_closed_pointing_below_only_once_the_turn_is_there() -> None:
    """Issue 25 (a newcomer's game): "🎲 Your turn has started: see the new message below" must
    be true when it is shown, so the turn's new message goes out before that edit (a flood
    wait between the two would otherwise leave it pointing at nothing)."""
    log = Log()
    table = ServiceGame(n=4, messenger=log)
    table.start()
    _, nxt, partner = _offer(table)
    message_id, _ = table.prompt(nxt)
    _answer(table, partner)
    chat = table.uids[nxt]
    turn_id, _ = table.prompt(nxt)
    mine = [(op, msg, text) for op, c, msg, text in log.log if c == chat]
    closing = max(i for i, (op, msg, _) in enumerate(mine) if op == "edit" and msg == message_id)
    assert t("en", "prompt.closed.turn_came") in mine[closing][2]
    sent = next(i for i, (op, msg, _) in enumerate(mine) if op == "send" and msg == turn_id)
    assert sent < closing, "the turn's message first, then 'see the new message below'"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_your_turn_is_next_paused_answers_within_telegrams_200_characters(lang: str) -> None:
    """The paused answer names whose turn runs: a long name (Telegram allows 64 characters)
    must not make the answer longer than Telegram takes (200 UTF-16 units, a toast's and an
    alert's alike); it is a toast, cut with "…", not refused."""
    table = ServiceGame(n=5, lang=lang)
    table.start()
    attacker = table.state().turn
    nxt = (attacker + 1) % table.n
    ahead_id, _ = table.prompt(nxt)
    chat = table.uids[nxt]
    before = table.messenger.messages[(chat, ahead_id)]
    table.arrange(lambda st: setattr(st.players[attacker], "name", "😀" * 64))
    table.attack()
    pass_button = next(b[2] for row in before.rows or [] for b in row if b[2].endswith(":pa"))
    table.press(chat, ahead_id, pass_button)
    _query, text, alert = table.messenger.answers[-1]
    assert text is not None and "😀" in text and not alert
    assert len(text.encode("utf-16-le")) // 2 <= 200
