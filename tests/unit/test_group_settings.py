"""Group settings as stored in a chat document: round trip, defaults, rejected values."""

from __future__ import annotations

import pytest

from handlers.group_settings import GroupSettings, SettingsError


def test_stored_settings_round_trip_and_unknown_keys_are_ignored() -> None:
    s = GroupSettings.model_validate({"language": "de", "deadlines": {"turn": 180}, "old": 1})
    assert s.language == "de" and s.seconds("turn") == 180
    assert s.seconds("trade") == GroupSettings().seconds("trade")  # the default where unset
    assert GroupSettings.model_validate(s.model_dump()) == s
    assert s.model_dump()["deadlines"]["window_min"] == 5


def test_copy_with_an_update_is_validated() -> None:
    s = GroupSettings()
    assert s.model_copy(update={"language": "zh-Hans"}).language == "zh-Hans"
    with pytest.raises(SettingsError):
        s.model_copy(update={"language": "fr"})


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
        "not a dict",
    ],
)
def test_out_of_range_or_mistyped_settings_are_rejected(bad: object) -> None:
    with pytest.raises(SettingsError):
        GroupSettings.model_validate(bad)
