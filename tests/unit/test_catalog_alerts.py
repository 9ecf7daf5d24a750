"""Issue 9: every callback answer (the ℹ️ card alerts and the short toasts) fits Telegram's 200
UTF-16 units in every language, whole: complete sentences, never cut."""

from __future__ import annotations

import string

import pytest

from devtools.botapi.html import utf16_len
from engine.cards import ASSOCIATIONS, BAG_NAME, ITEM_KINDS, OCCUPATIONS
from handlers import action_payloads, prompts
from handlers.i18n import LANGUAGES, catalog, t

ALERT_LIMIT = 200  # answerCallbackQuery text, in UTF-16 code units
TOAST_KEYS = (
    "bot.stale",
    "bot.not_in_game",
    "bot.illegal",
    "lobby.not_open",
    "lobby.only_creator",
    "lobby.too_few",
    "settings.only_admin",
    "settings.saved",
    "language.set",
)
SENTENCE_END = (".", "!", "?", "。", "！", "？", ")", "）", "”", "“", "»", "«")


def every_info() -> list[action_payloads.Info]:
    payloads = [action_payloads.info_item(kind) for kind in (*ITEM_KINDS, BAG_NAME)]
    payloads += [action_payloads.info_occupation(o) for o in OCCUPATIONS]
    payloads += [action_payloads.info_association(a) for a in ASSOCIATIONS]
    payloads.append(action_payloads.INFO_DRINK)
    parsed = [action_payloads.parse_payload(p) for p in payloads]
    assert all(isinstance(p, action_payloads.Info) for p in parsed)
    return [p for p in parsed if isinstance(p, action_payloads.Info)]


def test_the_limit_is_the_one_the_prompts_use() -> None:
    assert prompts.INFO_MAX == ALERT_LIMIT


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_card_alert_fits_whole_in_200_utf16_units(lang: str) -> None:
    too_long = {}
    for info in every_info():
        alert = prompts.render_info(lang, info)
        if utf16_len(alert) > ALERT_LIMIT:
            too_long[f"{info.kind}.{info.id}"] = utf16_len(alert)
        assert not alert.endswith("…"), (info, alert)
        assert alert.rstrip().endswith(SENTENCE_END), f"{lang} {info}: not a whole sentence"
    assert not too_long, f"{lang}: over {ALERT_LIMIT} UTF-16 units: {too_long}"


def test_the_secret_bag_key_alert_is_under_the_limit_in_english() -> None:
    """The alert that made the tap show nothing (201 units) before."""
    alert = prompts.render_info("en", action_payloads.Info("item", "bag_key"))
    assert utf16_len(alert) <= ALERT_LIMIT
    assert alert.endswith("Key for good.")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_toast_fits(lang: str) -> None:
    for key in TOAST_KEYS:
        template = catalog(lang)[key]
        fields = {f for _, f, _, _ in string.Formatter().parse(template) if f is not None}
        text = t(lang, key, **{f: "x" * 12 for f in fields})
        assert utf16_len(text) <= ALERT_LIMIT, (lang, key)
