"""Issue 13: one module parses and builds every button's callback data; refusals are types with
their catalog text in one place."""

from __future__ import annotations

import pytest

from handlers import callback_data, refusals
from handlers.callback_data import (
    BackButton,
    GameButton,
    LanguageButton,
    LobbyButton,
    SettingsButton,
    parse,
)
from handlers.i18n import LANGUAGES, t

GID = "ab3xY9zq"


@pytest.mark.parametrize(
    ("data", "button"),
    [
        (callback_data.game(GID, 17, "tr.t3.ck1"), GameButton(GID, 17, "tr.t3.ck1")),
        (callback_data.game(GID, 4, "~"), GameButton(GID, 4, "~")),
        (callback_data.lobby(GID, "start"), LobbyButton(GID, "start")),
        (callback_data.lobby(GID, "leave"), LobbyButton(GID, "leave")),
        (callback_data.settings(-1002, "d.trade"), SettingsButton(-1002, "d.trade")),
        (callback_data.settings(-1002, "lang.de"), SettingsButton(-1002, "lang.de")),
        (callback_data.language(-1002, "de"), LanguageButton(-1002, "de")),
        (callback_data.language(None, "zh-Hans"), LanguageButton(None, "zh-Hans")),
        (callback_data.back(GID), BackButton(GID)),
        (callback_data.lobby(GID, "start", "0a1b2c"), LobbyButton(GID, "start", "0a1b2c")),
        (
            callback_data.settings(-1001234567890, "lang.zh-Hans", "0a1b2c"),
            SettingsButton(-1001234567890, "lang.zh-Hans", "0a1b2c"),
        ),
    ],
)
def test_every_kind_of_button_parses_back_to_what_was_built(data: str, button: object) -> None:
    assert parse(data) == button
    assert len(data.encode()) <= 64  # Telegram's limit on callback data


def test_the_formats_stay_those_of_buttons_already_in_chats() -> None:
    assert callback_data.lobby(GID, "start") == f"L:{GID}:start"
    assert callback_data.settings(-5, "items") == "S:-5:items"
    assert callback_data.language(None, "en") == "G:u:en"
    assert callback_data.back(GID) == f"B:{GID}"
    assert callback_data.game(GID, 3, "pa") == f"{GID}:3:pa"


@pytest.mark.parametrize(
    "data",
    [
        "",
        "garbage",
        f"{GID}:x:pa",
        f"{GID}:",
        "L:",
        f"L:{GID}:dance",
        "S:abc:items",
        "S:-:x",
        "G:x:de",
        "B:",
        ":3:pa",
        # digits Python's isdigit takes but int refuses (it raised) or reads as others
        f"{GID}:²:pa",
        f"{GID}:١:pa",
        "S:²:x",
        "S:-²:1:items",
        "G:³:de",
    ],
)
def test_malformed_data_is_no_button(data: str) -> None:
    assert parse(data) is None


def test_every_refusal_has_its_text_in_every_language() -> None:
    kinds = refusals.Refusal.__subclasses__()
    assert len(kinds) >= 10
    for kind in kinds:
        for lang in LANGUAGES:
            text = refusals.text(lang, kind())
            assert text and text != kind.key, (kind, lang)
    assert refusals.toast("en", refusals.TooFew()) == (t("en", "lobby.too_few", min=3), True)


def test_a_version_is_a_short_digest_of_what_a_message_shows() -> None:
    shown = {"language": "en", "deadlines": {"turn": 60}}
    same = {"deadlines": {"turn": 60}, "language": "en"}
    assert callback_data.version_of(shown) == callback_data.version_of(same)  # order aside
    assert callback_data.version_of(shown) != callback_data.version_of({**shown, "language": "de"})
    assert len(callback_data.version_of(shown)) == 6 and ":" not in callback_data.version_of(shown)
