"""Issue 9: one term per concept in each catalog, as the glossary in the catalogs' folder says,
and one spacing style for Chinese (the rule texts': 阿强攻击小明, not 阿强 攻击 小明)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from handlers import i18n
from handlers.i18n import catalog

GLOSSARY = json.loads(
    (Path(i18n.__file__).parent / "locales" / "glossary.json").read_text(encoding="utf-8")
)
LATIN_PLACEHOLDERS = {"command", "bot", "db", "url", "host", "port"}  # Latin: spaced as words
CJK = r"[\u4e00-\u9fff\u3000-\u303f\uff01-\uff5e]"
CRAMPED_OR_SPACED = [
    re.compile(rf"{CJK} +\{{(?!(?:{'|'.join(LATIN_PLACEHOLDERS)})\}})\w+\}}"),
    re.compile(rf"\{{(?!(?:{'|'.join(LATIN_PLACEHOLDERS)})\}})\w+\}} +{CJK}"),
    re.compile(rf"{CJK} +{CJK}"),
    re.compile(rf"\d +{CJK}"),
]
HANZI = r"[\u4e00-\u9fff]"
# A Latin word (AI, SQLite, Telegram) stands apart from the Hanzi beside it: 其中4位 AI, not 4位AI.
UNSPACED_LATIN = [re.compile(rf"{HANZI}[A-Za-z]{{2,}}"), re.compile(rf"[A-Za-z]{{2,}}{HANZI}")]


def terms(lang: str) -> list[dict[str, object]]:
    return list(GLOSSARY[lang]["terms"])


def second_terms(lang: str, texts: dict[str, str]) -> list[tuple[str, str, str]]:
    """(concept, the other term, key) for every text that uses a term the glossary avoids."""
    found = []
    for entry in terms(lang):
        allowed = [str(k) for k in entry.get("allowed_in_keys", [])]  # type: ignore[attr-defined]
        for word in entry["avoid"]:  # type: ignore[attr-defined]
            for key, text in texts.items():
                if word in text and not any(a in key for a in allowed):
                    found.append((str(entry["concept"]), str(word), key))
    return found


@pytest.mark.parametrize("lang", sorted(GLOSSARY))
def test_every_concept_has_one_term_in_the_catalog(lang: str) -> None:
    assert second_terms(lang, dict(catalog(lang))) == []


@pytest.mark.parametrize("lang", sorted(GLOSSARY))
def test_the_glossary_terms_are_the_ones_the_catalog_uses(lang: str) -> None:
    everything = "\n".join(catalog(lang).values())
    for entry in terms(lang):
        assert entry["term"] in everything, entry["concept"]
        assert entry["term"] not in entry["avoid"]  # type: ignore[operator]


def test_a_second_term_is_flagged() -> None:
    """The check itself: the issue's examples would fail it."""
    texts = {
        "settings.items": "物品：{value}",
        "settings.deadlines": "时机窗口 {window} 秒 · 加强 {boost} 秒",
        "game.turn.after": "可以先使用免费的职业能力",
        "game.tome.body": "你可以与{name}交换职业。",
    }
    flagged = {(word, key) for _, word, key in second_terms("zh-Hans", texts)}
    assert flagged == {
        ("物品", "settings.items"),
        ("时机窗口", "settings.deadlines"),
        ("时机", "settings.deadlines"),
        ("加强", "settings.deadlines"),
        ("免费", "game.turn.after"),
    }


def spacing_problems(texts: dict[str, str]) -> list[tuple[str, str]]:
    return [
        (key, m.group(0))
        for key, text in texts.items()
        for pattern in CRAMPED_OR_SPACED
        for m in pattern.finditer(text)
    ]


def test_chinese_lines_are_spaced_like_the_rule_texts() -> None:
    assert spacing_problems(dict(catalog("zh-Hans"))) == []


def latin_problems(texts: dict[str, str]) -> list[tuple[str, str]]:
    return [
        (key, m.group(0))
        for key, text in texts.items()
        for pattern in UNSPACED_LATIN
        for m in pattern.finditer(text)
    ]


def test_latin_words_are_spaced_from_chinese_as_the_glossary_says() -> None:
    """Glossary spacing: a space around Latin words — the lobby read 🤖 AI乘客 and 其中4位AI
    next to the settings' AI 乘客."""
    assert latin_problems(dict(catalog("zh-Hans"))) == []


def test_the_latin_check_flags_cramped_words_only() -> None:
    texts = {"a": "🤖 AI乘客", "b": "其中{ai}位AI）", "c": "SQLite文件"}
    assert {key for key, _ in latin_problems(texts)} == {"a", "b", "c"}
    fine = {"a": "🤖 AI 乘客", "b": "其中{ai}位 AI）", "c": "（无需 Telegram，SQLite 文件 {db}）"}
    assert latin_problems(fine) == []


def test_the_spacing_check_flags_the_issue_example() -> None:
    texts = {"a": "⚔️ {attacker} 攻击 {defender}", "b": "第 {round} 轮", "c": "3–10 人"}
    assert {key for key, _ in spacing_problems(texts)} == {"a", "b", "c"}
    fine = {"a": "⚔️ {attacker}攻击{defender}", "b": "/{command} 需要", "c": "🤖 AI 乘客"}
    assert spacing_problems(fine) == []


def test_zh_hans_the_kept_choice_told_and_the_pause_read_as_chinese() -> None:
    """Issue 25 (a zh-Hans newcomer): the toast saying a choice kept ahead joined its line after
    the full-width colon with a space ("保留到你的回合开始： ✔️ …"), and the pause's reason read
    "等待你的对交易的答复" (a doubled 的). The toast is one catalog text with its choice in it."""
    from handlers.i18n import t

    told = t("zh-Hans", "game.turn.next_held_told", choice="✔️ 跳过")
    assert "： " not in told and told.endswith("：✔️ 跳过"), told
    what = t("zh-Hans", "game.kind.trade_answer")
    why = t("zh-Hans", "game.turn.next_paused_you", name="飞鸿", what=what)
    assert "的的" not in why and f"你的{what}" not in why, why
    for lang in ("en", "de"):
        assert t(lang, "game.turn.next_held_told", choice="X").startswith(
            t(lang, "game.turn.next_held")
        )
