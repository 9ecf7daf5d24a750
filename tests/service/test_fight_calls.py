"""What a fight costs in Telegram calls (issue 27), and what its prompts say (issue 25): every
number in a prompt is true when shown, an answered one included."""

from __future__ import annotations

import re

import engine
from engine.cards import HYPNOTIST
from handlers import action_payloads
from handlers.private_news import KEPT_WAIT_SECONDS
from infra.ports import Rows, Sent
from tests.service.service_game import ServiceGame
from tests.service.test_riding_decisions import _attack
from tests.service.test_table_polish import _choose, _press


def _strength(text: str) -> tuple[int, int]:
    """The strength a fight prompt says (attacker, defender)."""
    found = re.search(r"attacker (\d+) : (\d+) defender", text)
    assert found is not None, text
    return int(found[1]), int(found[2])


def test_issue_25_an_answered_hypnotist_prompt_says_the_strength_its_choice_made() -> None:
    """R-A4, R-A6: the Hypnotist voids an attacker supporter's support; the answered prompt,
    shown as the fight was asked (no "💫" line above the choice), said "Strength at this
    moment: attacker 3 : 1" while the void support made it 2 : 1 (four in six pace games)."""
    table = ServiceGame(n=5)
    table.start()
    attacker = table.state().turn
    table.arrange(lambda st: table.give(st, attacker, HYPNOTIST))
    _attack(table)
    table.support_attacker_until("hypnotist")
    asked = engine.public_view(table.state())["fight"]
    assert asked is not None and asked["strength"] is not None
    message, _ = table.prompt(attacker)
    _press(table, attacker, _choose(table, attacker, "hypnotize"))
    now = engine.public_view(table.state())["fight"]
    assert now is not None and now["strength"] is not None
    assert tuple(now["strength"]) != tuple(asked["strength"]), "a support was voided"
    text = table.messenger.messages[(table.uids[attacker], message)].text
    assert "✔️ You hypnotize" in text and "💫" not in text, text
    assert _strength(text) == tuple(now["strength"]), text


def test_issue_25_a_support_prompt_left_as_shown_never_says_a_strength_now_that_is_not() -> None:
    """R-A3, issue 27: a declaration told before the third supporter's turn leaves its prompt as
    shown (no edit). It said "Strength now: attacker 1 : 1" under the buttons while the first
    supporter's side made it 2 : 1 (27 such prompts pressed on in the 6 pace games of seed 1):
    before one's turn the strength is said as of when the prompt was shown."""
    from tests.service.test_riding_decisions import _defender, _prompt_text, _supporters

    table = ServiceGame(n=5)
    table.start()
    attacker, _, _ = _attack(table, priest=_defender(table))
    first, second, third = _supporters(table, attacker)
    shown = {s: table.prompt(s)[0] for s in (first, second, third)}
    table.wait_until_due()  # the Priest window closes: the first supporter's turn
    before = _prompt_text(table, third, shown[third])
    table.press_payload(first, "su.ha", prefix=True)  # told at once: 2 : 1
    fight = engine.public_view(table.state())["fight"]
    assert fight is not None and tuple(fight["strength"] or ()) == (2, 1)
    text = _prompt_text(table, third, shown[third])
    assert text == before, "not edited (issue 27)"
    assert "Strength now" not in text, text
    assert _strength(text) == (1, 1), "said as of when it was shown"
    assert table.messenger.messages[(table.uids[third], shown[third])].rows, "still asked"
    table.press_payload(second, "su.hd", prefix=True)  # the third's turn: shown again, now
    now = _prompt_text(table, third, shown[third])
    assert "Strength now" in now and _strength(now) == (2, 2), now


def _priest_supporter() -> tuple[ServiceGame, int, int]:
    """A 5-player fight whose third supporter holds the Priest, asked both in one prompt during
    the window: the table, that supporter and its prompt."""
    from tests.service.test_riding_decisions import _supporters

    table = ServiceGame(n=5)
    table.start()
    third = _supporters(table, table.state().turn)[2]
    _attack(table, priest=third)
    message, _ = table.prompt(third)
    shown = table.messenger.messages[(table.uids[third], message)]
    assert any(b[2].endswith(":us") for row in shown.rows or [] for b in row)
    return table, third, message


def _offered(table: ServiceGame, seat: int, message: int) -> set[str]:
    """The payloads of the buttons under ``message`` (game and decision left out)."""
    shown = table.messenger.messages[(table.uids[seat], message)]
    return {b[2].split(":", 2)[2] for row in shown.rows or [] for b in row}


def _legal(table: ServiceGame, seat: int) -> set[str]:
    return {action_payloads.encode_action(a) for a in engine.legal_actions(table.state(), seat)}


def test_issue_25_a_supporter_holding_the_priest_loses_its_buttons_when_the_window_closes() -> None:
    """R-A2, R-A3: a supporter holding the Priest is asked both in one prompt. The window's
    close left that prompt as shown (issue 27: a supporter's prompt asks the same), with
    "Use ⛪ Priest" and "🙅 Not now" still under it, answered "That move is not possible right
    now." until the seat's turn came: its buttons are taken away (the support ones kept), by an
    edit that waits a little before the seat's turn (see the next test)."""
    table, third, message = _priest_supporter()
    table.wait_until_due()  # the window closes: support goes on, the Priest's chance is over
    assert table.state().pending.kind == "support"  # type: ignore[union-attr]
    table.clock.advance(KEPT_WAIT_SECONDS + 0.1)
    table.fire_timers()
    offered = _offered(table, third, message)
    assert offered and offered <= _legal(table, third), offered


def test_issue_27_the_priest_buttons_go_with_the_edit_of_your_turn_when_it_comes_soon() -> None:
    """Issue 27: the Priest's buttons taken away (above) and the supporter's turn coming within
    a few seconds (its deadline, the declarations before it) are one edit, not two."""
    from tests.service.test_riding_decisions import _supporters

    table, third, message = _priest_supporter()
    first, second, _ = _supporters(table, table.state().turn)
    chat = table.uids[third]
    edits: list[str] = []
    edit = table.messenger.edit

    def counting(chat_id: int, message_id: int, text: str, rows: Rows | None = None) -> Sent:
        if (chat_id, message_id) == (chat, message):
            edits.append(text)
        return edit(chat_id, message_id, text, rows)

    table.messenger.edit = counting  # type: ignore[method-assign]
    table.wait_until_due()  # the window closes
    table.press_payload(first, "su.ha", prefix=True)
    table.press_payload(second, "su.hd", prefix=True)  # the third's turn comes
    table.clock.advance(KEPT_WAIT_SECONDS + 0.1)
    table.fire_timers()
    assert len(edits) == 1, edits
    assert "⏳" in edits[0], "its turn: its own deadline"
    offered = _offered(table, third, message)
    assert offered and offered <= _legal(table, third), offered
