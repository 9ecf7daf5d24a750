"""A zh-Hans newcomer's reading of the settings, a claim naming nobody, /rules by a part of a
name and the table's status line (issue 25's reader, round 13)."""

from __future__ import annotations

from typing import cast

import pytest

from engine.actions import Action
from engine.kinds import ActionKind, DecisionKind
from engine.view_types import PublicView
from handlers.card_labels import card_label, card_text
from handlers.group_settings import DEADLINE_CHOICES, DEADLINE_KINDS, GroupSettings
from handlers.i18n import LANGUAGES, catalog, t
from handlers.prompts.answer import Answering, answer_line
from handlers.rules_help import rules_text
from handlers.settings_view import settings_rows, settings_summary


def _with(**seconds: int) -> GroupSettings:
    return GroupSettings().changed(deadlines={**GroupSettings().deadlines.model_dump(), **seconds})


def _labels(s: GroupSettings, lang: str) -> list[str]:
    return [button[0] for row in settings_rows(s, lang, 1) for button in row]


@pytest.mark.parametrize(
    ("lang", "ten_minutes", "ninety"),
    [("zh-Hans", "10分钟", "90秒"), ("en", "10 min", "90s"), ("de", "10 Min.", "90s")],
)
def test_a_deadline_of_whole_minutes_reads_in_minutes(
    lang: str, ten_minutes: str, ninety: str
) -> None:
    """ "回合600秒" read as a sum to do: a whole number of minutes is shown in minutes, in the
    settings text and on the deadline's button; 90 s is not a whole number of minutes."""
    s = _with(turn=600, trade=90)
    text = settings_summary(s, lang)
    labels = _labels(s, lang)
    assert t(lang, "settings.button.turn", time=ten_minutes) in labels
    assert t(lang, "settings.button.trade", time=ninety) in labels
    assert ten_minutes in text and ninety in text and "600" not in text
    assert not any("600" in label for label in labels)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_deadline_button_stays_short(lang: str) -> None:
    """Two deadlines share a row on a phone: no label grows much past its seconds' form."""
    from handlers.settings_view import duration

    for kind in DEADLINE_KINDS:
        for seconds in DEADLINE_CHOICES[kind]:
            label = t(lang, f"settings.button.{kind}", time=duration(lang, seconds))
            as_seconds = t(lang, f"settings.button.{kind}", time=f"{seconds}s")
            assert len(label) <= len(as_seconds) + 3, label  # "Zug 1 Min." for "Zug 60s"


def test_the_ai_takeover_setting_has_one_wording_in_its_text_and_its_button() -> None:
    """The text said "AI 代替离开的玩家", its button "代打离开的玩家"."""
    zh = catalog("zh-Hans")
    assert "代替离开的玩家" in zh["settings.ai_takeover"]
    assert "代替离开的玩家" in zh["settings.button.ai_takeover"]


def _claim(kind: ActionKind, seats: tuple[int, ...]) -> str:
    table = cast(PublicView, {"players": [{"name": "阿强"}, {"name": "小明"}]})
    view: Answering = {
        "seat": 0,
        "table": table,
        "decision": {"id": 7, "kind": DecisionKind.TURN, "deadline": "turn", "data": {}},
    }
    return answer_line(view, Action(kind, 0, 7, seats=seats), "zh-Hans")


@pytest.mark.parametrize("kind", [ActionKind.CLAIM, ActionKind.CLAIM_OTHER])
def test_a_claim_naming_nobody_reads_as_the_story_tells_it(kind: ActionKind) -> None:
    """ "✔️ 你宣告胜利，指认无人。" → "未指认任何盟友", as the story's line says it."""
    alone = _claim(kind, ())
    assert "无人" not in alone and "未指认任何" in alone, alone
    assert "未指认" in t("zh-Hans", f"game.story.{kind}_alone", name="阿强")
    named = _claim(kind, (1,))
    assert "指认<b>小明</b>" in named, named


@pytest.mark.parametrize(
    ("lang", "query", "card"),
    [
        ("zh-Hans", "珍珠", "black_pearl"),
        ("en", "pearl", "black_pearl"),
        ("en", "mirror", "broken_mirror"),
    ],
)
def test_rules_finds_a_card_by_a_part_of_its_name(lang: str, query: str, card: str) -> None:
    """/rules 珍珠 answered "no card called 珍珠" under 厄运珍珠."""
    assert rules_text(lang, query) == t(
        lang, "rules.card", label=card_label(lang, card), text=card_text(lang, card)
    )


@pytest.mark.parametrize(
    ("lang", "query", "names"),
    [
        ("zh-Hans", "师", ("调毒师", "武术宗师", "催眠师", "牧师")),
        ("en", "poison", ("Poison Ring", "Poison Mixer")),
    ],
)
def test_rules_lists_the_cards_a_part_of_a_name_fits(
    lang: str, query: str, names: tuple[str, ...]
) -> None:
    text = rules_text(lang, query)
    cards = t(lang, "game.list.sep").join(names)
    assert text == t(lang, "rules.card_several", query=query, cards=cards)


def test_rules_by_a_part_looks_in_the_groups_language_only() -> None:
    """A part of an English name under a Chinese group is no card (the full name still is)."""
    unknown = t("zh-Hans", "rules.card_unknown", query="pearl", cards="")
    assert rules_text("zh-Hans", "pearl").startswith(unknown)
    assert t("zh-Hans", "item.black_pearl.text") in rules_text("zh-Hans", "Black Pearl")


STIFF = ("的机会", "表态")


def test_the_waits_read_naturally_after_the_status_and_the_pause() -> None:
    """ "⏳ 当前：使支援无效的机会": each game.kind.* is what is being done (a verb phrase), read
    after "当前：", "牌桌在等你处理：" and "时间到："."""
    zh = catalog("zh-Hans")
    kinds = {k: v for k, v in zh.items() if k.startswith("game.kind.")}
    assert kinds
    for key, what in kinds.items():
        assert not any(word in what for word in STIFF), (key, what)
        status = t("zh-Hans", "game.status.waiting_window", what=what)
        assert "的的" not in status and not status.endswith("的"), status
    assert zh["game.kind.hypnotist"].startswith("决定是否")
