"""Issue 27 (spend less), the turn chosen ahead (engine.premove) offered to players who use it
(handlers.ahead_message): "🔜 Your turn is next" closed unused ``UNUSED_OFF`` times is no
longer sent to a player who never chose on it (its last closing says so, with a button to have
it again); one tap offers it again. The group sees the same either way (the twin case:
tests/service/test_twins.py)."""

from __future__ import annotations

import pytest

from handlers.ahead_message import UNUSED_OFF
from handlers.i18n import LANGUAGES, t
from tests.service.service_game import GROUP, ServiceGame

NEXT = t("en", "game.turn.next_title")
CAME = t("en", "prompt.closed.turn_came")  # its closed form


def _offers(table: ServiceGame, seat: int) -> list[int]:
    """The "your turn is next" messages the seat was sent."""
    chat = table.messenger.in_chat(table.uids[seat])
    return [m.message_id for m in chat if m.text.startswith((NEXT, CAME))]


def _again(table: ServiceGame, seat: int, message_id: int) -> str | None:
    """The "🔜 Offer my turn ahead again" button's data on a message of the seat, if shown."""
    shown = table.messenger.messages[(table.uids[seat], message_id)]
    return next((b[2] for row in shown.rows or [] for b in row if b[2].startswith("N:")), None)


def _pass_until_turn_of(table: ServiceGame, seat: int) -> int:
    """Everyone passes until ``seat``'s turn starts; its turn prompt's message id."""
    while table.state().turn != seat:
        table.press_payload(table.state().turn, "pa")
    return table.prompt(seat)[0]


def test_issue_27_your_turn_is_next_left_unused_is_no_longer_sent_until_asked_again() -> None:
    """A player who lets "your turn is next" close unused three times in a row (their turn came
    with nothing chosen) gets no more of it: two calls each time saved (its send and its closing
    edit, about 40 of a 5-player game where nobody uses it). The third closing says so and
    carries the button that brings it back. One tap, and the button is gone and it is offered
    again when the turn before theirs starts."""
    table = ServiceGame(n=4)
    table.start()
    seat = (table.state().turn + 1) % table.n
    for _ in range(UNUSED_OFF):
        assert table.doc()["ahead"]["seat"] == seat  # offered: the turn before theirs runs
        _pass_until_turn_of(table, seat)
        table.press_payload(seat, "pa")
        _pass_until_turn_of(table, (seat - 1) % table.n)
    offers = _offers(table, seat)
    assert len(offers) == UNUSED_OFF and table.doc().get("ahead") is None, "not sent again"
    last = table.messenger.messages[(table.uids[seat], offers[-1])].text
    assert t("en", "prompt.closed.ahead_off", n=UNUSED_OFF) in last
    button = _again(table, seat, offers[-1])
    assert button is not None, "the closing carries the button"
    assert _again(table, seat, offers[0]) is None, "not before it is switched off"

    turn = _pass_until_turn_of(table, seat)
    assert len(_offers(table, seat)) == UNUSED_OFF
    table.press_payload(seat, "pa")
    assert _again(table, seat, turn) is None, "one button, on the closing only"
    table.press(table.uids[seat], offers[-1], button)
    assert table.messenger.answers[-1][1] == t("en", "bot.ahead_again_done")
    assert _again(table, seat, offers[-1]) is None, "pressed: the button is gone"
    _pass_until_turn_of(table, (seat - 1) % table.n)
    assert len(_offers(table, seat)) == UNUSED_OFF + 1, "offered again"
    assert table.doc()["ahead"]["seat"] == seat


def test_issue_27_no_offer_again_button_stays_after_the_game_ends() -> None:
    """Every button of a game stops at its end: the "🔜 Offer my turn ahead again" of a player
    who never pressed it is taken away by the game's last edits."""
    table = ServiceGame(n=4)
    table.start()
    seat = (table.state().turn + 1) % table.n
    for _ in range(UNUSED_OFF):
        _pass_until_turn_of(table, seat)
        table.press_payload(seat, "pa")
    last = _offers(table, seat)[-1]
    assert _again(table, seat, last) is not None
    for uid in table.uids[:3]:  # a majority cancels (handlers.game_cancel)
        table.message(uid, GROUP, "/cancel")
    assert table.doc()["phase"] == "cancelled"
    assert _again(table, seat, last) is None


def test_issue_27_a_player_who_chose_ahead_once_is_offered_it_to_the_end() -> None:
    """A player who chose ahead once uses it: later offers left unused, however many (a quick
    turn before theirs leaves no time), do not switch it off."""
    table = ServiceGame(n=4)
    table.start()
    seat = (table.state().turn + 1) % table.n
    for used in (False, True, False, False, False, False):
        assert table.doc()["ahead"]["seat"] == seat
        if used:
            table.press_payload(seat, "pa")  # pass, chosen ahead: played as its turn starts
            _pass_until_turn_of(table, (seat + 1) % table.n)
        else:
            _pass_until_turn_of(table, seat)
            table.press_payload(seat, "pa")
        _pass_until_turn_of(table, (seat - 1) % table.n)
    assert table.doc()["ahead"]["seat"] == seat, "still offered"
    last = _offers(table, seat)[-1]
    assert table.messenger.in_chat(table.uids[seat])[-1].message_id == last, "sent just now"
    assert not any(_again(table, seat, m) for m in _offers(table, seat))


def test_issue_27_a_choice_played_soon_after_it_is_made_costs_one_edit() -> None:
    """A choice made ahead is said at once by the press's answer ("🔒 Kept until your turn
    starts: ..."); the message's own edit to show it waits ``KEPT_WAIT_SECONDS``, so a turn
    that starts meanwhile closes it with one edit, saying what was played (it was an edit to
    show it kept and one to close it: about 8 of a 5-player game's 22 such edits)."""
    from devtools.memory_messenger import MemoryMessenger
    from handlers.private_news import KEPT_WAIT_SECONDS
    from infra.ports import Rows, Sent
    from tests.service.test_premove import _answer, _offer

    table = ServiceGame(n=4)
    table.start()
    _, nxt, partner = _offer(table)
    message_id, _ = table.prompt(nxt)
    chat = table.uids[nxt]
    edits: list[str] = []
    edit = table.messenger.edit

    def counting(chat_id: int, msg: int, text: str, rows: Rows | None = None) -> Sent:
        if (chat_id, msg) == (chat, message_id):
            edits.append(text)
        return edit(chat_id, msg, text, rows)

    assert isinstance(table.messenger, MemoryMessenger)
    table.messenger.edit = counting  # type: ignore[method-assign]
    table.press_payload(nxt, "pa")  # pass, chosen ahead
    held = t("en", "game.turn.next_held")
    assert held in table.messenger.answers[-1][1], "said at once"
    assert edits == []
    table.clock.advance(KEPT_WAIT_SECONDS / 2)
    _answer(table, partner)  # the turn starts: the pass is played
    table.clock.advance(KEPT_WAIT_SECONDS)
    table.fire_timers()
    assert len(edits) == 1 and t("en", "prompt.closed.premove_played") in edits[0], edits


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_closed_your_turn_is_next_says_what_happened_once(lang: str) -> None:
    """Read in a transcript, "🔜 Your turn is next" closed unused said the turn twice (its title,
    then "your turn has started: see the new message below"), about 20 times a game: closed, it
    is one line that says it once, in each language; a dropped choice says why, and not again
    where the turn is asked (its new message is right below)."""
    table = ServiceGame(n=4, lang=lang)
    table.start()
    seat = (table.state().turn + 1) % table.n
    offer = _offers_in(table, seat, lang)[0]
    _pass_until_turn_of(table, seat)
    closed = table.messenger.messages[(table.uids[seat], offer)].text
    assert closed == t(lang, "prompt.closed.turn_came"), closed
    assert t(lang, "game.turn.next_title") not in closed
    below = t(lang, "prompt.closed.turn_came").rsplit(" ", 1)[-1]
    for key in ("prompt.closed.premove_dropped", "prompt.closed.premove_played"):
        assert below not in t(lang, key, why="x")


def _offers_in(table: ServiceGame, seat: int, lang: str) -> list[int]:
    chat = table.messenger.in_chat(table.uids[seat])
    return [m.message_id for m in chat if m.text.startswith(t(lang, "game.turn.next_title"))]
