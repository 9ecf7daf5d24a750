"""infra.settings: the environment read once and checked once (issue 28)."""

from __future__ import annotations

import pytest

from infra.settings import Settings


@pytest.mark.parametrize("raw", ["0", "-2", "inf", "nan"])
def test_a_time_scale_that_is_no_positive_number_is_refused_naming_it(
    raw: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GAME_TIME_SCALE", raw)
    with pytest.raises(ValueError, match=r"GAME_TIME_SCALE must be a positive number, not "):
        Settings()


def test_a_time_scale_given_in_code_is_checked_the_same_way() -> None:
    with pytest.raises(ValueError, match=r"must be a positive number, not 0\.0"):
        Settings(game_time_scale=0.0)


def test_a_time_scale_that_is_no_number_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GAME_TIME_SCALE", "fast")
    with pytest.raises(ValueError, match=r"must be a number, not 'fast'"):
        Settings()


def test_the_time_scale_defaults_to_real_time(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GAME_TIME_SCALE", "")  # CloudFormation's empty parameter
    assert Settings().game_time_scale == 1.0
    monkeypatch.setenv("GAME_TIME_SCALE", "0.05")
    assert Settings().game_time_scale == 0.05
