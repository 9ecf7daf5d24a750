"""The translation catalogs are complete and consistent in every language (issue #4)."""

from __future__ import annotations

import json
import re
import string
from pathlib import Path

import pytest

from devtools.botapi.html import parse_telegram_html, utf16_len
from devtools.botapi.limits import MAX_TEXT
from handlers import card_labels, i18n
from handlers.card_labels import (
    ASSOCIATION_ICONS,
    DRINK_ICON,
    ITEM_ICONS,
    OCCUPATION_ICONS,
    SECRET_BAG_ICON,
    SECRET_BAGS,
    card_label,
    item_kind,
    public_card_label,
)
from handlers.commands import GROUP_COMMANDS, PRIVATE_COMMANDS  # the commands the bot answers
from handlers.i18n import LANGUAGES, catalog, negotiate, t

LOCALES = Path(i18n.__file__).parent / "locales"
CARD_KEYS = [
    *(f"item.{kind}.{part}" for kind in ITEM_ICONS for part in ("name", "text")),
    *(f"occupation.{occ}.{part}" for occ in OCCUPATION_ICONS for part in ("name", "text")),
    *(f"association.{a}.{part}" for a in ASSOCIATION_ICONS for part in ("name", "text")),
    "drink.name",
    "drink.text",
    "item.bag.name",
    "item.bag.text",
]


def placeholders(template: str) -> set[str]:
    return {field for _, field, _, _ in string.Formatter().parse(template) if field is not None}


def test_every_key_is_in_all_three_catalogs() -> None:
    keys = {lang: set(catalog(lang)) for lang in LANGUAGES}
    for lang in LANGUAGES:
        assert keys[lang] == keys["en"], f"{lang}: {keys[lang] ^ keys['en']}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_catalog_files_are_flat_sorted_objects_of_non_empty_strings(lang: str) -> None:
    pairs = json.loads(
        (LOCALES / f"{lang}.json").read_text(encoding="utf-8"), object_pairs_hook=list
    )
    keys = [key for key, _ in pairs]
    assert keys == sorted(keys), "keep the keys sorted so additions merge cleanly"
    assert len(keys) == len(set(keys))
    for key, value in pairs:
        assert re.fullmatch(r"[a-z][a-z0-9_-]*(\.[a-zA-Z0-9_-]+)+", key), key
        assert isinstance(value, str) and value.strip(), f"{lang}: {key} is empty"


def test_placeholders_are_the_same_in_every_language() -> None:
    for key, template in catalog("en").items():
        for lang in LANGUAGES:
            assert placeholders(catalog(lang)[key]) == placeholders(template), (lang, key)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_text_is_valid_telegram_html_within_the_length_limit(lang: str) -> None:
    for key, template in catalog(lang).items():
        text = template.format_map({name: "x" for name in placeholders(template)})
        plain, problems = parse_telegram_html(text)
        assert problems == [], (lang, key, problems)
        assert utf16_len(plain) <= MAX_TEXT, (lang, key)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_card_has_a_name_and_a_text_and_help_exists(lang: str) -> None:
    texts = catalog(lang)
    for key in [*CARD_KEYS, "help.group", "help.private", "rules.summary", "language.name"]:
        assert key in texts, (lang, key)
    for command in {*GROUP_COMMANDS, *PRIVATE_COMMANDS}:
        assert 1 <= len(texts[f"command.{command}"]) <= 256, (lang, command)
    for command in GROUP_COMMANDS:
        assert f"\n/{command} " in texts["help.group"], (lang, command)
    for command in PRIVATE_COMMANDS:
        assert f"\n/{command} " in texts["help.private"], (lang, command)


def test_card_texts_differ_per_card_and_translations_differ_from_english() -> None:
    for lang in LANGUAGES:
        texts = [catalog(lang)[key] for key in CARD_KEYS if key.endswith(".text")]
        assert len(set(texts)) == len(texts), lang
    for key in CARD_KEYS:
        if key.endswith(".text"):
            assert catalog("de")[key] != catalog("en")[key] != catalog("zh-Hans")[key], key


def test_icons_are_one_per_card_kind_and_distinct() -> None:
    icons = [
        *(icon for kind, icon in ITEM_ICONS.items() if kind != "bag_goblet"),
        *OCCUPATION_ICONS.values(),
        *ASSOCIATION_ICONS.values(),
        DRINK_ICON,
    ]
    assert len(icons) == len(set(icons)), "every card kind needs an icon of its own"
    assert all(icon.strip() for icon in icons)
    # Both Bags look alike face down, so they share the icon that public texts use.
    assert {ITEM_ICONS[bag] for bag in SECRET_BAGS} == {SECRET_BAG_ICON}


def test_the_card_ids_match_the_engine() -> None:
    engine_cards = pytest.importorskip("engine.cards")
    assert set(engine_cards.ITEM_KINDS) == set(card_labels.ITEM_KINDS)
    assert set(engine_cards.OCCUPATIONS) == set(card_labels.OCCUPATIONS)
    assert set(engine_cards.ASSOCIATIONS) == set(card_labels.ASSOCIATIONS)
    assert {item_kind(card) for card in engine_cards.ALL_ITEMS} == set(card_labels.ITEM_KINDS)


def rules_name_table() -> list[tuple[str, str, str]]:
    """(en, zh, de) from the name table in docs/rules.md §1, for rows that pair up one to one."""
    rules = Path(__file__).resolve().parents[2] / "docs" / "rules.md"
    text = rules.read_text(encoding="utf-8")
    table = text.split("| en | zh | de |", 1)[1].split("\n\n", 1)[0]
    triples = []
    for row in table.splitlines()[2:]:
        cells = [c.strip() for c in row.strip().strip("|").split("|")]
        columns = [re.split(r", | / |, |、", cell) for cell in cells]
        if "(" in row or len({len(c) for c in columns}) != 1:
            continue
        triples += list(zip(*columns, strict=True))
    return triples


def test_names_are_those_of_the_rules_table() -> None:
    names = {
        catalog("en")[key]: key
        for key in CARD_KEYS
        if key.endswith(".name") and not key.startswith("item.bag")
    }
    matched = set()
    for en, zh, de in rules_name_table():
        key = names.get(en)
        if key is not None:
            assert (catalog("zh-Hans")[key], catalog("de")[key]) == (zh, de), key
            matched.add(key)
    assert matched == set(names.values())


def test_secret_bag_names() -> None:
    assert t("en", "item.bag_key.name") == "Secret Bag (Key)"
    assert t("de", "item.bag_key.name") == "Geheimer Koffer (Schlüssel)"
    assert t("zh-Hans", "item.bag_key.name") == "神秘手袋（密钥）"
    assert t("de", "item.bag_goblet.name") == "Geheimer Koffer (Kelch)"
    assert t("zh-Hans", "item.bag_goblet.name") == "神秘手袋（圣杯）"


@pytest.mark.parametrize(
    ("code", "lang"),
    [
        ("zh-hans", "zh-Hans"),
        ("zh-CN", "zh-Hans"),
        ("zh-tw", "zh-Hans"),
        ("zh", "zh-Hans"),
        ("de", "de"),
        ("de-AT", "de"),
        ("en-GB", "en"),
        ("fr", "en"),
        ("", "en"),
        (None, "en"),
    ],
)
def test_negotiate(code: str | None, lang: str) -> None:
    assert negotiate(code) == lang


def test_t_formats_named_placeholders_and_never_falls_back() -> None:
    assert t("de", "item.dagger.name") == "Dolch"
    assert t("zh-Hans", "rules.card", label="🗡️ 匕首", text="…") == "<b>🗡️ 匕首</b>\n…"
    with pytest.raises(KeyError, match="cards"):
        t("en", "rules.card_unknown", query="crown")
    with pytest.raises(KeyError, match=r"no text 'no\.such\.key' in the en catalog"):
        t("en", "no.such.key")
    with pytest.raises(KeyError):
        t("fr", "item.dagger.name")


def test_labels() -> None:
    assert card_label("en", "key2") == "🗝️ Key"
    assert card_label("zh-Hans", "goblet") == "🏆 圣杯"
    assert card_label("de", "bag_goblet") == "👜 Geheimer Koffer (Kelch)"
    assert public_card_label("en", "bag_goblet") == "👜 Secret Bag"
    assert public_card_label("de", "dagger") == "🗡️ Dolch"
    assert card_labels.occupation_label("de", "grand_master") == "🥋 Großmeister"
    assert card_labels.association_label("zh-Hans", "order") == "👁️ 宣秘修道同盟"
    assert card_labels.drink_label("en") == "🍷 Drink of Power"
    assert card_labels.card_text("en", "key3") == t("en", "item.key.text")


def test_item_kind_strips_the_number_only_from_known_cards() -> None:
    assert [item_kind(c) for c in ("key1", "goblet3", "bag_key", "coat_of_arms")] == [
        "key",
        "goblet",
        "bag_key",
        "coat_of_arms",
    ]
    with pytest.raises(ValueError, match="unknown item card"):
        item_kind("crown1")


def test_an_unknown_card_lists_the_cards_with_the_languages_own_separator() -> None:
    """/rules 王冠 (no such card): the list of cards a Chinese reader may try is separated by 、
    as every other list in the catalog, not by the English comma ', '."""
    from handlers.rules_help import rules_text

    zh = rules_text("zh-Hans", "王冠")
    assert "密钥、圣杯" in zh and ", " not in zh
    assert "Key, Goblet" in rules_text("en", "crown")
