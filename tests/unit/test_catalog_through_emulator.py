"""Issue 23: every catalog text, in every language, with its placeholders filled as the bot fills
a deadline (``handlers.fmt.clock``: a ``<tg-time>`` date-time entity), is a message Telegram
accepts and shows as written — sent through the one emulator the tests and the local table use.
The local table refused every such text ("Unsupported start tag"), so a human never saw a
decision while the tests' fake accepted them."""

from __future__ import annotations

import string

import pytest

from devtools.botapi import RecordingRequest
from devtools.botapi.emulator import BotApiEmulator
from handlers import fmt
from handlers.i18n import LANGUAGES, catalog, t

AT = 1_700_001_260  # 22:34:20 UTC


def placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name is not None}


def deadline_keys() -> list[str]:
    """The keys the bot fills with a clock time (``fmt.clock``)."""
    return [key for key, text in catalog("en").items() if "{time}" in text]


def test_the_deadline_keys_are_found() -> None:
    assert "game.status.until" in deadline_keys()


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("strict", [True, False], ids=["tests", "table"])
def test_every_catalog_text_with_a_deadline_in_every_placeholder_is_accepted(
    lang: str, strict: bool
) -> None:
    api = RecordingRequest(limits=False, strict=strict)
    refused = {}
    for key, template in catalog(lang).items():
        text = template.format_map({name: fmt.clock(AT) for name in placeholders(template)})
        status, _ = api.call("sendMessage", {"chat_id": 5, "text": text, "parse_mode": "HTML"})
        if status != 200:
            refused[key] = api.errors[-1][2]
        elif placeholders(template):
            shown = api.last_message(5)
            assert "22:34:20 UTC" in shown.text, (lang, key)
            times = [e for e in shown.entities if e["type"] == "date_time"]
            assert times and times[0]["unix_time"] == AT, (lang, key)
    assert refused == {}
    assert api.violations == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_status_line_with_a_deadline_reaches_the_page_as_a_time(lang: str) -> None:
    api = BotApiEmulator(limits=False, strict=False)
    text = t(lang, "game.status.until", time=fmt.clock(AT))
    assert api.call("sendMessage", {"chat_id": -5, "text": text, "parse_mode": "HTML"})[0] == 200
    assert f'<time class="tg-time" data-unix="{AT}" data-format="T">' in api.last_message(-5).html
