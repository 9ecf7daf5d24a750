"""R-D1: every fight waits its windows and its boost out in full, whoever holds what. Set longer
than the default, that makes each fight longer: the /settings menu says so under the deadlines,
in the group's language, and only then."""

from __future__ import annotations

import pytest

from handlers.group_settings import DEADLINE_BOUNDS, GroupSettings
from handlers.i18n import LANGUAGES, t
from handlers.settings_view import settings_menu_text, settings_summary


def _with(**seconds: int) -> GroupSettings:
    return GroupSettings().changed(deadlines={**GroupSettings().deadlines.model_dump(), **seconds})


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("kind", ["window", "boost"])
@pytest.mark.parametrize("in_lobby", [False, True])
def test_the_menu_says_a_longer_window_is_waited_out_in_full_R_D1(
    lang: str, kind: str, in_lobby: bool
) -> None:
    note = t(lang, "settings.waits_in_full")
    default = DEADLINE_BOUNDS[kind][0]
    assert note not in settings_menu_text(GroupSettings(), lang, in_lobby)
    assert note not in settings_menu_text(_with(**{kind: default}), lang, in_lobby)
    text = settings_menu_text(_with(**{kind: default + 5}), lang, in_lobby)
    assert note in text
    if not in_lobby:  # under the deadlines it is about
        deadlines = [i for i, line in enumerate(text.split("\n")) if line.startswith("⏳")]
        assert deadlines and text.split("\n")[deadlines[0] - 1].startswith(
            t(lang, "settings.deadlines", **dict.fromkeys(DEADLINE_BOUNDS, 0))[:4]
        )
    # the lobby's own summary is unchanged
    assert note not in settings_summary(_with(**{kind: default + 5}), lang)
