"""Issue 25 (a newcomer's game): "⚔️ Ann supports 🤖 Desmond." under "⚔️ 🤖 Desmond attacks
Ben!" read as a second attack; a supporter's story line says in words which side they join."""

from __future__ import annotations

import pytest

from handlers.i18n import t

SIDE_WORDS = {"en": ("attacker", "defender"), "de": ("Angreifer", "Verteidiger")}
SIDE_WORDS["zh-Hans"] = ("攻击者", "防守者")


@pytest.mark.parametrize("lang", sorted(SIDE_WORDS))
def test_a_supporter_line_names_the_side_in_words_not_with_the_attack_icon(lang: str) -> None:
    for key, word in zip(("attacker", "defender"), SIDE_WORDS[lang], strict=True):
        line = t(lang, f"game.story.support.{key}", name="Ann", side="Desmond")
        assert word in line and "Ann" in line and "Desmond" in line, line
        assert not line.startswith("⚔️"), line  # the attack's own icon
