"""Small formatting helpers shared by the prompts and the story: names, card lists, time left.

Every word comes from the catalogs (keys under ``game.``); names are HTML-escaped here, once.
"""

from __future__ import annotations

import html
from collections.abc import Iterable
from datetime import UTC, datetime

from engine.cards import BAG_NAME, GOAL_KIND
from engine.view_types import PublicView
from handlers.card_labels import (
    SECRET_BAG_ICON,
    card_label,
    public_card_label,
)

# Lists of card labels are made where the labels are (one catalog look-up per card, no module
# between): ``fmt.cards`` and the others are those.
from handlers.card_labels import assoc_cards as assoc_cards
from handlers.card_labels import cards as cards
from handlers.card_labels import join as join
from handlers.card_labels import occupations as occupations
from handlers.i18n import t

MAX_TEXT = 4096

# The public view (``engine.public_view``, or a seat view's ``"table"``): every renderer takes
# that or a seat's view, never the game state.
Table = PublicView


def name(table: Table, seat: int) -> str:
    """A player's name for an HTML text, bold and escaped."""
    return f"<b>{html.escape(table['players'][seat]['name'])}</b>"


def plain_name(table: Table, seat: int) -> str:
    """A player's name for a button label (labels are not parsed as HTML)."""
    return str(table["players"][seat]["name"])


def names(table: Table, lang: str, seats: Iterable[int]) -> str:
    listed = [name(table, s) for s in seats]
    return t(lang, "game.list.sep").join(listed) if listed else t(lang, "game.list.nobody")


def item_name(lang: str, name_: str) -> str:
    """A Diplomat's item name: an item kind, or "bag" for either Secret Bag."""
    if name_ == BAG_NAME:
        return f"{SECRET_BAG_ICON} {t(lang, 'item.bag.name')}"
    return card_label(lang, name_)


def public_item(lang: str, name_: str) -> str:
    """An item as the table may see it named: either Secret Bag is only "Secret Bag"."""
    return item_name(lang, name_) if name_ == BAG_NAME else public_card_label(lang, name_)


def goal_label(lang: str, association: str) -> str:
    return card_label(lang, GOAL_KIND[association])


def time_left(lang: str, seconds_left: int | None) -> str | None:
    if seconds_left is None:
        return None
    return t(lang, "game.time_left", seconds=max(0, int(seconds_left)))


def clock(at: float) -> str:
    """A moment as a clock time each reader sees in their own time zone (a Telegram date-time
    entity; the UTC text is the fallback)."""
    utc = datetime.fromtimestamp(at, UTC).strftime("%H:%M:%S")
    return f'<tg-time unix="{int(at)}" format="T">{utc} UTC</tg-time>'


def size(text: str) -> int:
    """Telegram counts UTF-16 code units; markup only shrinks a text, so this is an upper bound."""
    return len(text.encode("utf-16-le")) // 2


def truncate(text: str, limit: int = MAX_TEXT) -> str:
    """Drop whole lines from the end of a text that would not fit one message (lines keep their
    HTML tags balanced, so nothing breaks)."""
    if size(text) <= limit:
        return text
    kept = text.split("\n")
    while kept and size("\n".join(kept)) > limit - 2:
        kept.pop()
    return "\n".join([*kept, "…"])


def lines(*parts: str | None) -> str:
    return "\n".join(p for p in parts if p)
