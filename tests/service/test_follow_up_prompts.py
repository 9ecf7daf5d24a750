"""Issue 25 (a newcomer's game, read again): the prompts that follow a press in the message
pressed (a Take, a hand-limit gift, an item given back) keep every answer given in it, list the
items seen once, show the hand chosen from once answered; and a reminder says the time truly left
under ``GAME_TIME_SCALE``."""

from __future__ import annotations

import re

import engine
from engine import Action
from handlers import action_payloads
from handlers.i18n import t
from tests.service.service_game import ServiceGame
from tests.service.test_riding_decisions import _attack


def _won(
    table: ServiceGame, loser_items: int, winner_items: int = 0, doctor: bool = False
) -> tuple[int, int]:
    """The attacker (a Dagger, every supporter on their side) beats the next seat, who holds
    ``loser_items``; the winner holds ``winner_items`` (0: as dealt). With ``doctor``, a Doctor
    window opens after the result (the reward is asked in it). (winner, loser)."""
    attacker = table.state().turn
    defender = (attacker + 1) % table.n

    def arrange(st: engine.State) -> None:
        table.give(st, attacker, "dagger")
        if doctor:
            table.give(st, (attacker + 3) % table.n, "doctor")
        me = st.players[defender]
        st.pile.extend(me.items[loser_items:])
        del me.items[loser_items:]
        while len(me.items) < loser_items:
            me.items.append(st.pile.pop())
        mine = st.players[attacker]
        while len(mine.items) < winner_items:
            mine.items.append(st.pile.pop())

    table.arrange(arrange)
    _attack(table)
    table.support_attacker_until("doctor" if doctor else "reward")
    return attacker, defender


def _press(table: ServiceGame, seat: int, action: Action) -> None:
    table.press_payload(seat, action_payloads.encode_action(action))


def _choose(table: ServiceGame, seat: int, kind: str) -> Action:
    return next(a for a in engine.legal_actions(table.state(), seat) if a.kind == kind)


def _gift(table: ServiceGame, seat: int) -> Action:
    """The seat gives its first item away (the card's page, then the recipient)."""
    gift = _choose(table, seat, "gift")
    assert gift.card is not None
    table.press_payload(seat, action_payloads.nav(action_payloads.code(gift.card)))
    _press(table, seat, gift)
    return gift


def _text(table: ServiceGame, seat: int, message_id: int) -> str:
    return table.messenger.messages[(table.uids[seat], message_id)].text


def _answer(action_text: str) -> str:
    return action_text.rsplit("\n", 1)[-1]


def test_issue_25_a_hand_limit_prompt_after_a_take_keeps_the_take_in_its_answer() -> None:
    """R-A9 then R-H1: the winner at the hand limit takes an item and is asked, in the message
    they pressed, what to give away. Once they have, the message still says what they took
    (before, the gift's answer replaced it: "🎁 Hand limit … ✔️ You give …" never said what was
    taken)."""
    table = ServiceGame(n=4)
    table.start()
    winner, _ = _won(table, loser_items=3, winner_items=6)  # 4 players: the limit is 6
    message, _ = table.prompt(winner)
    _press(table, winner, _choose(table, winner, "take"))
    take = _choose(table, winner, "take")
    _press(table, winner, take)
    assert table.state().pending.kind == "gift"  # type: ignore[union-attr]
    assert table.prompt(winner)[0] == message, "the follow-up is asked in the pressed message"
    took = t("en", "game.answer.reward_take.take", card=_card(take.card), name="")
    assert took in _text(table, winner, message)
    gift = _choose(table, winner, "gift")
    assert gift.card is not None
    table.press_payload(winner, action_payloads.nav(action_payloads.code(gift.card)))
    assert took in _text(table, winner, message), "kept on the gift's second page too"
    _press(table, winner, gift)
    text = _text(table, winner, message)
    assert took in text, text
    assert text.startswith("✔️ You look at "), text  # the first answer in it stays, too


def _card(card: str | None) -> str:
    from handlers.card_labels import card_label

    assert card is not None
    return card_label("en", card)


def test_issue_25_the_answered_hand_limit_prompt_shows_the_hand_chosen_from() -> None:
    """R-H1: once answered, the prompt lists the hand the player chose from, said as such, and
    the count they held then: "You hold 7 items … Your items: (seven)" read as still held, and
    the hand after the gift (an earlier fix) lacked the very item chosen (issue 25, polish)."""
    table = ServiceGame(n=4)
    table.start()
    winner, _ = _won(table, loser_items=3, winner_items=6)
    _press(table, winner, _choose(table, winner, "take"))
    _press(table, winner, _choose(table, winner, "take"))
    message, _ = table.prompt(winner)
    before = list(table.state().players[winner].items)
    gift = _gift(table, winner)
    text = _text(table, winner, message)
    chosen_from = t("en", "game.prompt.hand_then", cards="")
    hand = next(line for line in text.split("\n") if line.startswith(chosen_from))
    assert _card(gift.card) in hand, text
    assert hand.count(", ") + 1 == len(before) == 7, text
    assert "You hold" not in text and "You held 7 items, over the hand limit of 6" in text, text


def _item_lists(table: ServiceGame, seat: int, since: int, loser: int) -> int:
    """How often the loser's items are listed in the seat's chat since message ``since``."""
    name = table.state().players[loser].name
    pattern = re.compile(rf"<b>{re.escape(name)}</b>'s items: ")
    return sum(
        len(pattern.findall(m.text)) for m in table.messenger.in_chat(table.uids[seat])[since:]
    )


def test_issue_25_the_items_seen_for_a_take_are_listed_once() -> None:
    """R-A9 (b): the Take prompt lists the loser's items; a "🔍 X's items: …" message saying the
    same list again (arriving after the prompt, below it) is not sent."""
    table = ServiceGame(n=4)
    table.start()
    winner, loser = _won(table, loser_items=3)
    since = len(table.messenger.in_chat(table.uids[winner]))
    _press(table, winner, _choose(table, winner, "take"))
    assert table.state().pending.kind == "reward_take"  # type: ignore[union-attr]
    assert _item_lists(table, winner, since - 1, loser) == 1
    _press(table, winner, _choose(table, winner, "take"))
    assert _item_lists(table, winner, since - 1, loser) == 1


def test_issue_25_the_items_seen_for_a_take_chosen_in_the_doctor_window_are_listed_once() -> None:
    """The same when the reward was chosen during the Doctor window: the Take prompt comes when
    the window closes, without a "🔍" list of the same items before it."""
    table = ServiceGame(n=4)
    table.start()
    winner, loser = _won(table, loser_items=3, doctor=True)
    since = len(table.messenger.in_chat(table.uids[winner]))
    _press(table, winner, _choose(table, winner, "take"))
    table.wait_until_due()  # the Doctor window closes
    assert table.state().pending.kind == "reward_take"  # type: ignore[union-attr]
    assert _item_lists(table, winner, since, loser) == 1


def test_issue_25_the_only_item_taken_is_not_told_again_after_the_prompt_saying_it() -> None:
    """R-A9, the loser's only item: the give-back prompt says "You take X, their only item";
    "🔍 their items: X" after it said it again, in the wrong order."""
    table = ServiceGame(n=4)
    table.start()
    winner, _ = _won(table, loser_items=1)
    since = len(table.messenger.in_chat(table.uids[winner]))
    _press(table, winner, _choose(table, winner, "take"))
    assert table.state().pending.kind == "giveback"  # type: ignore[union-attr]
    assert not any("🔍" in m.text for m in table.messenger.in_chat(table.uids[winner])[since:])


def test_issue_25_the_occupation_deck_for_the_coat_is_listed_once() -> None:
    """R-T8 Coat: its giver's prompt lists the occupation deck to choose from; a "🔍 The
    occupation deck: …" message said the same list again, below the prompt."""
    from tests.service.test_premove import _offer

    table = ServiceGame(n=4)
    table.start()
    trader = table.state().turn
    table.arrange(lambda st: st.players[trader].items.insert(0, "coat"))
    since = len(table.messenger.in_chat(table.uids[trader]))
    _, _, partner = _offer(table)
    _press(table, partner, _choose(table, partner, "accept"))
    assert table.state().pending.kind == "coat"  # type: ignore[union-attr]
    lists = [m.text for m in table.messenger.in_chat(table.uids[trader])[since:]]
    assert sum(x.count("The occupation deck: ") for x in lists) == 1, lists


def test_issue_25_an_answered_hypnotist_prompt_shows_no_card_played_after_it() -> None:
    """R-A4 then R-A5: an AI standing in for the defender plays its Gloves the moment the boost
    window opens, in the command of the Hypnotist's press. The answered Hypnotist prompt showed
    "💥 …: 🧤 Gloves" above "✔️ You hypnotize …", as if the Gloves came first."""
    from engine.cards import HYPNOTIST
    from tests.service.test_riding_decisions import _away

    table = ServiceGame(n=4)
    table.start()
    attacker = table.state().turn
    defender = (attacker + 1) % table.n

    def arrange(st: engine.State) -> None:
        table.give(st, attacker, HYPNOTIST)
        table.give(st, defender, "gloves")

    table.arrange(arrange)
    _away(table, defender, ai=True)
    _attack(table)
    table.support_attacker_until("hypnotist")
    message, _ = table.prompt(attacker)
    _press(table, attacker, _choose(table, attacker, "hypnotize"))
    assert engine.public_view(table.state())["fight"]["played"], "the AI played at once"
    text = _text(table, attacker, message)
    assert "💥" not in text and "✔️ You hypnotize" in text, text


def test_issue_25_what_a_press_told_goes_above_its_follow_up_not_below_it() -> None:
    """R-T8 then R-H1: the partner gives a Secret Bag back, draws, and is over the hand limit.
    "🃏 You drew X" came as a message below the hand-limit prompt that already listed X; it
    now stays in the pressed message, under the answer and above the question, and no message
    comes after it."""
    from tests.service.test_premove import _offer

    table = ServiceGame(n=4)
    table.start()
    st = table.state()
    partner = (st.turn + 2) % table.n

    def bag_at_the_limit(st: engine.State) -> None:
        table.give(st, partner, "bag_key")
        me = st.players[partner]
        while len(me.items) < 6:  # 4 players: the limit is 6
            me.items.append(next(c for c in st.pile if c not in ("bag_key", "bag_goblet")))
            st.pile.remove(me.items[-1])

    table.arrange(bag_at_the_limit)
    _offer(table)
    message, _ = table.prompt(partner)
    since = len(table.messenger.in_chat(table.uids[partner]))
    give_bag = next(
        a
        for a in engine.legal_actions(table.state(), partner)
        if a.kind == "accept" and a.card == "bag_key"
    )
    _press(table, partner, give_bag)
    assert table.state().pending.kind == "gift"  # type: ignore[union-attr]
    assert table.messenger.in_chat(table.uids[partner])[since:] == [], "nothing below it"
    text = _text(table, partner, message)
    assert "🃏 You drew" in text and text.index("🃏") < text.index("🎁"), text
    _gift(table, partner)
    assert "🃏 You drew" in _text(table, partner, message), "kept once the gift is answered"


def test_issue_25_a_reminder_says_the_time_truly_left_under_a_time_scale() -> None:
    """§8: GAME_TIME_SCALE multiplies every deadline, the reminder's lead too; the reminder
    said "15 s left" when 4.5 s were (scale 0.3)."""
    table = ServiceGame(n=4, time_scale=0.3)
    table.start()
    seat = table.state().turn
    chat = table.uids[seat]
    before = len(table.messenger.in_chat(chat))
    table.wait_until_due()  # the turn's reminder, 4.5 s before its 18 s deadline
    doc = table.doc()
    left = doc["due"]["deadline"] - table.clock.now()
    assert 4 <= left <= 5
    news = [m.text for m in table.messenger.in_chat(chat)[before:] if "⏰" in m.text]
    assert news and "⏰ 4 s left" in news[0], news
    group = [x for x in table.group_texts() if "⏰" in x]
    assert group and "4 s left" in group[-1], group
