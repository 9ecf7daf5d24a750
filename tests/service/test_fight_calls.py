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
