"""The pace benchmark command plays a whole game through the service and prints its figures."""

from __future__ import annotations

import json

import pytest

from devtools import pace, pace_figures, pace_players, pace_table
from engine.actions import Action


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
    assert (
        "median" in text and "goals (issues 9, 25 and 27)" in text and "dismiss-only taps" in text
    )


def test_think_times_follow_the_issue_model() -> None:
    assert pace_players.THINK_SECONDS["turn"] == (8.0, 35.0)
    assert pace_players.think_kind("turn", {"acted": False}) == "turn"
    assert pace_players.think_kind("priest", {}) == "window"
    assert pace_players.think_kind("trade_answer", {}) == "trade"
    assert pace_players.think_kind("boost", {}) == "boost"


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
    assert pace_players.identical(chosen, legal) == [chosen, legal[0]]


def test_ahead_share_decides_who_chooses_their_turn_ahead() -> None:
    """``--ahead 0``: nobody uses the "your turn is next" prompt; by default everyone does."""
    nobody = pace_table.PaceTable(3, 7, ahead=0.0)
    nobody.play()
    assert nobody.planners == set() and nobody.ahead_taps == 0
    everyone = pace_table.PaceTable(3, 7)
    everyone.play()
    assert everyone.planners == {0, 1, 2} and everyone.ahead_taps > 0


def test_busiest_counts_the_most_calls_in_any_window_as_telegram_does() -> None:
    """Issue 27: a call ``window`` seconds after another falls in the next window."""
    assert pace_figures.busiest([], 60.0) == 0
    assert pace_figures.busiest([0.0, 59.9, 60.0, 61.0], 60.0) == 3
    assert pace_figures.busiest([0.0, 1.0, 2.0, 10.0, 10.5], 10.0) == 4


def test_pace_counts_what_telegram_counts_per_game(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 27: sends and edits for the group and the private chats, the busiest 60 s of the
    group, the busiest 10 s of a private chat, and calls per second."""
    assert pace.main(["--games", "1", "--players", "3", "--seed", "2", "--json"]) == 0
    f = json.loads(capsys.readouterr().out)["tables"]["3"]
    calls = f["bot_api_calls_by_method"]
    sends = f["group_messages_per_game"] + f["private_sends_per_game"]
    edits = f["group_edits_per_game"] + f["private_edits_per_game"]
    assert sends == calls["sendMessage"] and edits == calls["editMessageText"]
    assert 0 < f["busiest_group_60s"] <= f["group_messages_per_game"] + f["group_edits_per_game"]
    assert f["busiest_private_10s"] > 0
    per_second = (sends + edits) / (f["median_minutes"] * 60)
    assert abs(f["calls_per_second"] - per_second) < 0.05


def test_the_game_length_goal_is_issue_25s_for_players_who_use_the_next_turn_prompt_or_not() -> (
    None
):
    """Issue 25: median <= 25 min when players use 🔜, <= 32 when they ignore it; <= 25 new
    group messages per 5-player game."""
    five = {
        5: {
            "median_minutes": 28.0,
            "group_messages_per_game": 24.0,
            "calls_per_second": 0.1,
            "busiest_group_60s": 1,
            "busiest_private_10s": 1,
            "dismiss_share_of_decision_taps": 0.0,
        }
    }
    using = pace.goals(five, ahead=1.0)
    ignoring = pace.goals(five, ahead=0.0)
    assert not using["5-player median minutes (players use 🔜)"]["met"]
    assert ignoring["5-player median minutes (players ignore 🔜)"]["met"]
    assert using["new group messages per 5-player game"]["goal"] == "<= 25"


def test_pace_breaks_sends_and_edits_down_by_what_they_are(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Issue 27: where the calls go. Every send and edit is counted once under what it is (by
    its outbox tag): the group's status and story, a private chat's prompts by decision kind,
    closed or re-shown, page turns, 🔜, news."""
    assert pace.main(["--games", "1", "--players", "3", "--seed", "2", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    f = report["tables"]["3"]
    kinds = f["calls_by_kind"]
    calls = f["bot_api_calls_by_method"]
    assert sum(kinds.values()) == calls["sendMessage"] + calls["editMessageText"]
    # the status at the foot of the story (issue 27): the story's sends and edits show both
    assert kinds["group edit: story: edited"] > 0 and kinds["group send: story"] > 0
    assert kinds["private send: prompt turn"] > 0 and kinds["private edit: prompt turn: closed"]
    assert any(k.endswith(": page turn") for k in kinds)
    assert not any("unknown" in k or "earlier message" in k for k in kinds)
    assert "by what they are" in pace.render(report)
