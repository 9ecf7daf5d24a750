"""Group settings as stored in a chat document: round trip, defaults, rejected values."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from handlers.group_settings import GroupSettings


def test_stored_settings_round_trip_and_unknown_keys_are_ignored() -> None:
    s = GroupSettings.model_validate({"language": "de", "deadlines": {"turn": 180}, "old": 1})
    assert s.language == "de" and s.seconds("turn") == 180
    assert s.seconds("trade") == GroupSettings().seconds("trade")  # the default where unset
    assert GroupSettings.model_validate(s.model_dump()) == s
    assert s.model_dump()["deadlines"]["window_min"] == 5


def test_a_change_is_validated() -> None:
    s = GroupSettings()
    assert s.changed(language="zh-Hans").language == "zh-Hans"
    with pytest.raises(ValidationError):
        s.changed(language="fr")
    with pytest.raises(ValidationError):
        s.changed(ai_level="grandmaster")


@pytest.mark.parametrize(
    "bad",
    [
        {"deadlines": {"turn": 5}},
        {"deadlines": {"window": 121}},
        {"ai_fill": 11},
        {"lobby_minutes": 0},
        {"smuggling": "yes"},
        {"items": "all"},
        {"deadlines": {"turn": 90.5}},
        {"ai_fill": True},
        {"ai_level": "grandmaster"},
        {"ai_takeover": 1},
        {"deadlines": "fast"},
        "not a dict",
    ],
)
def test_out_of_range_or_mistyped_settings_are_rejected(bad: object) -> None:
    with pytest.raises(ValidationError):
        GroupSettings.model_validate(bad)


def test_an_invalid_stored_value_names_its_field() -> None:
    with pytest.raises(ValidationError) as raised:
        GroupSettings.model_validate({"ai_level": "grandmaster", "deadlines": {"turn": 5}})
    message = str(raised.value)
    assert "ai_level" in message and "deadlines.turn" in message


def test_settings_are_frozen() -> None:
    with pytest.raises(ValidationError):
        GroupSettings().language = "de"  # type: ignore[misc]
