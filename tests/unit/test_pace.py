"""The pace benchmark command plays a whole game through the service and prints its figures."""

from __future__ import annotations

import json

import pytest

from engine.actions import Action
from handlers import pace


def test_pace_command_plays_one_small_game_and_prints_figures(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert pace.main(["--games", "1", "--players", "3", "--seed", "2", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    figures = report["tables"]["3"]
    assert figures["games"] == 1
    assert sum(figures["results"].values()) == 1 and "abandoned" not in figures["results"]
    assert figures["median_minutes"] > 1
    assert figures["group_messages_per_game"] > 0
    assert figures["decision_taps_per_game"] > 10
    assert 0 <= figures["dismiss_share_of_decision_taps"] <= 1
    assert figures["bot_api_calls_per_game"] >= figures["taps_per_game"]
    assert figures["failed_updates"] == 0
    assert figures["choices_without_a_button"] == 0
    text = pace.render(report)
    assert "median" in text and "goals (issue 9)" in text and "dismiss-only taps" in text


def test_think_times_follow_the_issue_model() -> None:
    assert pace.THINK_SECONDS["turn"] == (8.0, 35.0)
    assert pace.think_kind("turn", {"acted": False}) == "turn"
    assert pace.think_kind("priest", {}) == "window"
    assert pace.think_kind("trade_answer", {}) == "trade"
    assert pace.think_kind("boost", {}) == "boost"


def test_a_choice_among_identical_cards_reaches_the_button_the_menu_shows() -> None:
    """The trade menu shows one button for two identical Goblets: a player who means either
    presses that one; the pace table must not count it unreachable (and play something else)."""
    legal = [
        Action("trade", 3, 9, target=1, card="goblet3"),
        Action("trade", 3, 9, target=1, card="goblet2"),
        Action("trade", 3, 9, target=2, card="goblet2"),
        Action("trade", 3, 9, target=1, card="key1"),
    ]
    chosen = legal[1]
    assert pace._identical(chosen, legal) == [chosen, legal[0]]


def test_ahead_share_decides_who_chooses_their_turn_ahead() -> None:
    """``--ahead 0``: nobody uses the "your turn is next" prompt; by default everyone does."""
    nobody = pace.PaceTable(3, 7, ahead=0.0)
    nobody.play()
    assert nobody.planners == set() and nobody.ahead_taps == 0
    everyone = pace.PaceTable(3, 7)
    everyone.play()
    assert everyone.planners == {0, 1, 2} and everyone.ahead_taps > 0
