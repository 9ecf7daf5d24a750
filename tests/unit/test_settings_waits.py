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


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_language_ticked_is_the_one_the_menu_is_written_in(lang: str) -> None:
    """Issue 25 (a zh-Hans newcomer): in a group with no settings yet, /settings answers in the
    sender's language, and the lobby they open takes it; the ✅ sat on English (the default
    saved) under a menu all in Chinese."""
    from handlers.settings_view import settings_rows

    labels = [b[0] for row in settings_rows(GroupSettings(), lang, -100) for b in row]
    ticked = [x for x in labels if x.startswith("✅") and t(lang, "language.name") in x]
    assert ticked, labels
    others = [c for c in LANGUAGES if c != lang]
    assert not any(
        x.startswith("✅") and t(c, "language.name") in x for x in labels for c in others
    )
