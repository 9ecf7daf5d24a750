"""Card icons and labels: one emoji per card kind, occupation, association and the Drink.

Item card ids are their kind plus an optional number ("key1", "goblet3", "bag_key", "dagger");
labels are "icon name" in the reader's language, from the catalogs in :mod:`handlers.i18n`.
The two Secret Bags share one icon, as they look alike face down; in public texts use
:func:`public_card_label`, which names either Bag only as "Secret Bag" (R-T5, R-V1).
"""

from __future__ import annotations

from collections.abc import Iterable

from handlers.i18n import t

ITEM_ICONS: dict[str, str] = {
    "key": "🗝️",
    "goblet": "🏆",
    "bag_key": "👜",
    "bag_goblet": "👜",
    "dagger": "🗡️",
    "gloves": "🧤",
    "poison_ring": "💍",
    "casting_knives": "🔪",
    "whip": "🪢",
    "tome": "📖",
    "privilege": "📜",
    "coat": "🧥",
    "monocle": "🧐",
    "sextant": "🧭",
    "black_pearl": "⚫",
    "broken_mirror": "🪞",
    "coat_of_arms": "🛡️",
}
SECRET_BAGS = ("bag_key", "bag_goblet")
SECRET_BAG = "bag"  # the catalog name of a Bag whose content is not public
SECRET_BAG_ICON = "👜"

OCCUPATION_ICONS: dict[str, str] = {
    "diplomat": "🤝",
    "doctor": "🩺",
    "duelist": "🤺",
    "poison_mixer": "🧪",
    "grand_master": "🥋",
    "clairvoyant": "🔮",
    "hypnotist": "🌀",
    "bodyguard": "💂",
    "priest": "⛪",
    "thug": "👊",
}

ASSOCIATION_ICONS: dict[str, str] = {
    "order": "👁️",
    "brotherhood": "🎭",
}

DRINK_ICON = "🍷"

ITEM_KINDS: tuple[str, ...] = tuple(ITEM_ICONS)
OCCUPATIONS: tuple[str, ...] = tuple(OCCUPATION_ICONS)
ASSOCIATIONS: tuple[str, ...] = tuple(ASSOCIATION_ICONS)


def item_kind(card_id: str) -> str:
    """The kind of an item card: its id without trailing digits ("key2" -> "key")."""
    kind = card_id.rstrip("0123456789")
    if kind not in ITEM_ICONS:
        raise ValueError(f"unknown item card {card_id!r}")
    return kind


def card_label(lang: str, card: str) -> str:
    """The label "🗝️ Key" of an item card id or kind, in ``lang``."""
    kind = item_kind(card)
    return f"{ITEM_ICONS[kind]} {t(lang, f'item.{kind}.name')}"


def public_card_label(lang: str, card: str) -> str:
    """Like :func:`card_label`, but a Secret Bag is only "Secret Bag": which one is secret."""
    kind = SECRET_BAG if card == SECRET_BAG else item_kind(card)
    if kind in (*SECRET_BAGS, SECRET_BAG):
        return f"{SECRET_BAG_ICON} {t(lang, f'item.{SECRET_BAG}.name')}"
    return card_label(lang, kind)


def card_text(lang: str, card: str) -> str:
    """What an item card does, in ``lang``."""
    return t(lang, f"item.{item_kind(card)}.text")


def occupation_label(lang: str, occupation: str) -> str:
    return f"{OCCUPATION_ICONS[occupation]} {t(lang, f'occupation.{occupation}.name')}"


def association_label(lang: str, association: str) -> str:
    return f"{ASSOCIATION_ICONS[association]} {t(lang, f'association.{association}.name')}"


def drink_label(lang: str) -> str:
    return f"{DRINK_ICON} {t(lang, 'drink.name')}"


# -- lists of labels ------------------------------------------------------------------------
def join(lang: str, parts: Iterable[str]) -> str:
    return t(lang, "game.list.sep").join(parts)


def cards(lang: str, ids: Iterable[str], *, public: bool = False) -> str:
    label = public_card_label if public else card_label
    listed = [label(lang, c) for c in ids]
    return join(lang, listed) if listed else t(lang, "game.list.nothing")


def occupations(lang: str, occs: Iterable[str]) -> str:
    listed = [occupation_label(lang, o) for o in occs]
    return join(lang, listed) if listed else t(lang, "game.list.nothing")


def assoc_cards(lang: str, assoc: list[str]) -> str:
    return join(lang, [association_label(lang, a) for a in assoc])
