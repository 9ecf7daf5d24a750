"""What a fight costs in Telegram calls (issue 27), and what its prompts say (issue 25): every
number in a prompt is true when shown, an answered one included."""

from __future__ import annotations

import re

import engine
from engine.cards import HYPNOTIST
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
