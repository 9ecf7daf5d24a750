"""Every row of every prompt page shows its labels whole on a phone (issue 25's phone test).

The phone test deals its games from ``secrets``, so a label cut off there ("ℹ️👜🏆" eight a
row, "🧪 Giftmischer: 🤖 Elfriede gewinnt" two a row) showed in one CI run and not the next. Here
every page of many seeded games, in every language, is laid against the keyboard the local table
draws at 390 px (``handlers.prompts.base``: 305 px, the buttons of a row equally wide; the
widths checked against Chromium in ``tests/browser/test_label_widths.py``).

What a player may see cut: only a player's name, on a button of its own row (Telegram and the
local table end a label that does not fit with "…"; a name can be 64 characters). What comes
before the name, and a card or a choice, always shows whole.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator

import pytest

import engine
from engine import State
from handlers import action_payloads, prompts
from handlers.action_payloads import Nav
from handlers.i18n import catalog
from handlers.prompts.base import label_px, slot_px
from tests.unit import playouts

LANGS = ("en", "de", "zh-Hans")
# Names as the local table gives AI passengers, and as long as Telegram lets a person be called.
LONG = [
    "🤖 Elfriede",
    "Maximiliane Alexandra von Hohenzollern-Sigmaringen",
    "🤖 Clementine",
    "WWW MMM Wolfgang Mozart-Wittgenstein",
    "欧阳娜娜欧阳娜娜欧阳娜娜欧阳娜娜",
    "🤖 Friedrich",
    "Ann",
    "Ольга Владимировна",
    "🤖 Irmgard",
    "Jo",
]
ROOM_FOR_NAME = 3 * 7.8  # "An…": a name cut shows at least its first letters


def pages(st: State, seat: int, lang: str) -> Iterator[tuple[str, prompts.Prompt]]:
    """Every page a seat can reach from its prompt's root (the ally pages naming at most one)."""
    seen: set[str] = set()
    queue = deque(["~"])
    view, legal = engine.view(st, seat), engine.legal_actions(st, seat)
    while queue:
        nav = queue.popleft()
        if nav in seen:
            continue
        seen.add(nav)
        pr = prompts.render_prompt(view, legal, lang, nav, 42)
        yield nav, pr
        for row in pr.rows:
            for _, payload in row:
                parsed = action_payloads.parse_payload(payload)
                if isinstance(parsed, Nav) and _few(parsed.path):
                    queue.append(payload)


def _few(path: str) -> bool:
    head, _, rest = path.partition(".")
    mask = rest.split(".")[0]
    return head not in ("cl", "fo") or not mask.isdigit() or int(mask).bit_count() <= 1


def cut_off(row: list[tuple[str, str]], names: list[str]) -> list[str]:
    """The labels of ``row`` a phone would cut where a player must not lose a word."""
    room = slot_px(len(row))
    bad = []
    for label, _ in row:
        if label_px(label) <= room:
            continue
        named = [label.index(n) for n in names if n in label]
        if len(row) == 1 and named and label_px(label[: min(named)]) + ROOM_FOR_NAME <= room:
            continue  # only the name is cut, as Telegram cuts it
        bad.append(f"{label} ({label_px(label):.0f} px > {room:.0f} px, {len(row)} a row)")
    return bad


def cut_labels(seed: int, names: list[str], cut_names: bool = True) -> dict[str, set[str]]:
    """The labels cut in a seeded game's pages; ``cut_names``: a long name may be cut."""
    found: dict[str, set[str]] = {}
    for i, step in enumerate(playouts.game(seed, n=3 + seed % 8, names=names)):
        aw = engine.awaiting(step.before)
        assert aw is not None
        for seat in aw.seats:
            lang = LANGS[(i + seat) % 3] if aw.kind == "turn" else None
            for code in [lang] if lang else LANGS:
                for nav, pr in pages(step.before, seat, code):
                    for row in pr.rows:
                        for bad in cut_off(row, names if cut_names else []):
                            found.setdefault(f"{aw.kind} {code} {nav}", set()).add(bad)
    return found


# The AI passengers' names of every language, as the table shows them (e.g. "🤖 Clementine")
AI_NAMES = sorted(
    {f"🤖 {n}" for lang in LANGS for n in catalog(lang)["ai.names"].split(",")}, key=len
)[-10:]


@pytest.mark.parametrize("seed", range(12))
def test_every_prompt_row_fits_a_phone(seed: int) -> None:
    """Short names (the playouts'): every label of every row shows whole, a name too (the phone
    test saw "👜 Geheimer Koffer (Schlüssel) → 🤖 Bruno · 🎒5" cut on a one-tap offer)."""
    assert cut_labels(seed, playouts.NAMES, cut_names=False) == {}


@pytest.mark.parametrize("seed", range(20, 26))
def test_ai_passengers_names_are_never_cut(seed: int) -> None:
    """The AI passengers' longest names: every label shows whole, the name too."""
    assert cut_labels(seed, AI_NAMES, cut_names=False) == {}


@pytest.mark.parametrize("seed", range(12, 20))
def test_long_names_are_cut_but_never_a_card_or_a_choice(seed: int) -> None:
    """Long names (AI passengers', 50 letters, CJK, Cyrillic): only a name is ever cut."""
    assert cut_labels(seed, LONG) == {}


def _settings_cut(lang: str) -> set[str]:
    """The /settings menu's labels a phone cuts, over every value a label shows."""
    import typing

    from handlers import group_settings
    from handlers.group_settings import AI_FILL_CHOICES, GroupSettings
    from handlers.settings_view import settings_rows

    cut = set()
    for items in typing.get_args(group_settings.ItemSet):
        for level in typing.get_args(group_settings.AiLevel):
            for fill in AI_FILL_CHOICES:
                for flag in (False, True):
                    flags = dict.fromkeys(("smuggling", "ai_takeover", "personal_scores"), flag)
                    s = GroupSettings(
                        language=lang, items=items, ai_level=level, ai_fill=fill, **flags
                    )
                    for row in settings_rows(s, lang, -100123):
                        cut.update(cut_off([(b[0], b[2]) for b in row], []))
    return cut


@pytest.mark.parametrize(
    "lang",
    [
        "en",
        "de",
        "zh-Hans",
    ],
)
def test_every_settings_row_fits_a_phone(lang: str) -> None:
    """The phone test's /settings check sees only the default values; every value here (the
    beginner items set in German was cut: "Einsteiger (ohne Fortgeschrittenen-Gegenstände)")."""
    assert _settings_cut(lang) == set()
