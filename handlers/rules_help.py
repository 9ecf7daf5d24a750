"""/rules and /rules <card>: the rules summary, or one card's text looked up by name."""

from __future__ import annotations

import html

from engine.cards import ITEM_KINDS, OCCUPATIONS
from handlers.card_labels import card_label, card_text, occupation_label
from handlers.i18n import LANGUAGES, t


def _normalize(text: str) -> str:
    return "".join(ch for ch in text.lower() if ch.isalnum())


def card_index() -> dict[str, tuple[str, str]]:
    """Every spelling a player may type (any language, with or without icon) → (kind, id)."""
    index: dict[str, tuple[str, str]] = {}
    for lang in LANGUAGES:
        for kind in ITEM_KINDS:
            index[_normalize(card_label(lang, kind))] = ("item", kind)
            index[_normalize(t(lang, f"item.{kind}.name"))] = ("item", kind)
            index[_normalize(kind)] = ("item", kind)
        for occ in OCCUPATIONS:
            index[_normalize(occupation_label(lang, occ))] = ("occupation", occ)
            index[_normalize(t(lang, f"occupation.{occ}.name"))] = ("occupation", occ)
            index[_normalize(occ)] = ("occupation", occ)
    return index


def _named(lang: str, query: str) -> list[tuple[str, str]]:
    """The cards whose name in ``lang`` holds ``query`` (/rules 珍珠 → 厄运珍珠), in the
    catalog's order."""
    part = _normalize(query)
    if not part:
        return []
    cards = [("item", k, t(lang, f"item.{k}.name")) for k in ITEM_KINDS]
    cards += [("occupation", o, t(lang, f"occupation.{o}.name")) for o in OCCUPATIONS]
    return [(kind, card) for kind, card, name in cards if part in _normalize(name)]


def _card_rules(lang: str, kind: str, card: str) -> str:
    if kind == "item":
        return t(lang, "rules.card", label=card_label(lang, card), text=card_text(lang, card))
    return t(
        lang,
        "rules.card",
        label=occupation_label(lang, card),
        text=t(lang, f"occupation.{card}.text"),
    )


def rules_text(lang: str, query: str) -> str:
    """A card's rules by its name in any language, or by a part of its name in ``lang``: one
    card's text, or the names of the several cards that part fits."""
    if not query.strip():
        return t(lang, "rules.summary")
    found = card_index().get(_normalize(query))
    if found is not None:
        return _card_rules(lang, *found)
    named = _named(lang, query)
    if len(named) == 1:
        return _card_rules(lang, *named[0])
    escaped = html.escape(query, quote=False)
    sep = t(lang, "game.list.sep")
    if named:
        cards = sep.join(t(lang, f"{kind}.{card}.name") for kind, card in named)
        return t(lang, "rules.card_several", query=escaped, cards=cards)
    names = sep.join(t(lang, f"item.{k}.name") for k in ITEM_KINDS)
    return t(lang, "rules.card_unknown", query=escaped, cards=names)
