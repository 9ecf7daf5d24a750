"""What every prompt page is built from: the asked seat's context, pages and button helpers."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from unicodedata import east_asian_width

from engine.actions import Action
from engine.cards import ALL_ITEMS
from engine.kinds import ActionKind, DecisionKind
from engine.view_types import DecisionData, Me, SeatView
from handlers import action_payloads, fmt
from handlers.card_labels import (
    ASSOCIATION_ICONS,
    DRINK_ICON,
    ITEM_ICONS,
    OCCUPATION_ICONS,
    SECRET_BAG_ICON,
    card_label,
    item_kind,
)
from handlers.i18n import t

Button = tuple[str, str]
Rows = list[list[Button]]

MAX_PER_ROW = 8
MAX_BUTTONS = 100


@dataclass(frozen=True, slots=True)
class Prompt:
    text: str
    rows: Rows


@dataclass
class Page:
    """One screen of a prompt: its text lines (the first is the title) and its buttons."""

    lines: list[str]
    rows: Rows = field(default_factory=list)
    info: list[str] = field(default_factory=list)  # info payloads of cards shown on the page
    back: str | None = None  # the navigation payload of the back button, if any

    def add(self, *texts: str | None) -> None:
        self.lines += [x for x in texts if x]


@dataclass(frozen=True, slots=True)
class Decision:
    """The seat's own pending decision, as its view holds it."""

    id: int
    kind: DecisionKind
    data: DecisionData


@dataclass(frozen=True, slots=True)
class Ask:
    """The seat being asked: its view (``engine.view``), its decision and its legal actions."""

    view: SeatView
    lang: str
    p: Decision
    legal: list[Action]
    hand: str  # the seat's hand, as the line a page shows it (made once for the prompt)
    frozen: bool = False  # shown without buttons and never updated: numbers said as of now

    @property
    def seat(self) -> int:
        return int(self.view["seat"])

    @property
    def table(self) -> fmt.Table:
        """The public view inside the seat's view."""
        return self.view["table"]

    @property
    def me(self) -> Me:
        """The seat's own cards."""
        return self.view["me"]

    @property
    def seats(self) -> int:
        return len(self.table["players"])

    def t(self, key: str, **params: object) -> str:
        return t(self.lang, key, **params)

    def asking(self, key: str, **params: object) -> str | None:
        """A line that only asks (a question, what to tap): left out of the prompt's closed
        form (``frozen``: answered, run out, closed), which no longer asks (issue 25)."""
        return None if self.frozen else self.t(key, **params)

    def telling(self, key: str, **params: object) -> str:
        """A line that tells and asks: its closed form (``frozen``) says ``key``'s ``_then``
        text, the facts without the question (issue 25)."""
        return self.t(f"{key}_then" if self.frozen else key, **params)

    def name(self, seat: int) -> str:
        return fmt.name(self.table, seat)

    def label(self, seat: int) -> str:
        return fmt.plain_name(self.table, seat)

    def of(self, kind: ActionKind) -> list[Action]:
        return [a for a in self.legal if a.kind == kind]


def ask(view: SeatView, legal: list[Action], lang: str, hand: str) -> Ask | None:
    """``view`` is the seat's ``engine.view``; ``legal`` its ``engine.legal_actions``; ``hand``
    the line showing the seat's hand."""
    d = view["decision"]
    if d is None or not legal:
        return None
    return Ask(view, lang, Decision(d["id"], d["kind"], d["data"]), legal, hand)


def act(a: Action) -> str:
    return action_payloads.encode_action(a)


def grid(buttons: list[Button], per_row: int) -> Rows:
    """``buttons`` in rows of at most ``per_row``, fewer when their labels would not show whole
    on a phone's keyboard (``fits``): as many a row as fit the widest label, at least one."""
    n = max(1, min(per_row, MAX_PER_ROW))
    while n > 1 and not fits([b[0] for b in buttons], n):
        n -= 1
    return [buttons[i : i + n] for i in range(0, len(buttons), n)]


def pairs(buttons: list[Button]) -> Rows:
    """Two buttons a row when every label fits half a phone's keyboard, else one a row."""
    return grid(buttons, 2)


def distinct_cards(actions: Iterable[Action]) -> list[Action]:
    """One action per item kind: the three Keys (or Goblets) are the same choice for a player."""
    seen: set[tuple[object, ...]] = set()
    out = []
    for a in actions:
        key = (a.kind, a.target, item_kind(a.card) if a.card in _ITEM_CARDS else a.card, a.choice)
        if key not in seen:
            seen.add(key)
            out.append(a)
    return out


_ITEM_CARDS = frozenset(ALL_ITEMS)


def card_buttons(
    ask_: Ask,
    page: Page,
    actions: Iterable[Action],
    payload: Callable[[Action], str] = act,
    label: Callable[[str], str] | None = None,
) -> None:
    """A button per distinct item card (2 a row if they fit), each card also explained in the
    info row. ``label`` words the button from the card's label (e.g. "accept and give …")."""
    buttons = []
    for a in distinct_cards(actions):
        assert a.card is not None
        shown = card_label(ask_.lang, a.card)
        buttons.append((label(shown) if label else shown, payload(a)))
        page.info.append(action_payloads.info_item(item_kind(a.card)))
    page.rows += pairs(buttons)


def info_row(lang: str, payloads: list[str]) -> Rows:
    """Small "ℹ️ <icon>" buttons that explain the cards of a page in an alert."""
    buttons: list[Button] = []
    for payload in dict.fromkeys(payloads):
        info = action_payloads.parse_payload(payload)
        assert isinstance(info, action_payloads.Info)
        buttons.append((t(lang, "game.btn.info", icon=_icon(info)), payload))
    return grid(buttons, MAX_PER_ROW)


# A phone's inline keyboard as the local table draws it at 390 px (the phone test's viewport),
# measured in Chromium: 305 px wide, 3 px between buttons, 6 px of padding each side of a label,
# every button of a row as wide as the others. Eight "ℹ️👜🏆" a row were cut to "ℹ️…" (CI, the
# phone test), "🧪 Giftmischer: 🤖 Elfriede gewinnt" and "✅ Annehmen, 👜 Geheimer Koffer
# (Schlüssel) geben" two a row (a newcomer's game). Telegram cuts a label that does not fit with
# "…", as the local table does.
KEYBOARD_PX = 305
GAP_PX = 3
PAD_PX = 12
# A label's width in px at the keyboard's font (14 px, Liberation Sans: Arial's widths), measured
# in Chromium (tests/browser/test_label_widths.py checks these against real labels): an emoji
# 17.5 (counted 18.7, as other fonts draw it), a CJK character or another symbol 14, a Latin
# letter by its own width (a 7.8, i 3.1, m 11.7, W 13.2); other letters (Cyrillic, Greek) as a
# wide Latin one of their case.
EMOJI_PX, WIDE_PX, LETTER_PX, UPPER_PX, LOWER_PX = 18.7, 14.0, 7.8, 10.9, 8.6
_LATIN_PX = {
    **dict.fromkeys("'|", 2.7),
    **dict.fromkeys("ijl", 3.2),
    **dict.fromkeys(" .,:;!/ftI[]·", 3.9),
    **dict.fromkeys('r()-"*`', 4.7),
    **dict.fromkeys("cksvxyzJ", 7.0),
    **dict.fromkeys("+<>=~^", 8.2),
    **dict.fromkeys("FTZ", 8.6),
    **dict.fromkeys("ABEKPSVXY&", 9.4),
    **dict.fromkeys("CDHNRUw", 10.2),
    **dict.fromkeys("GOQ", 10.9),
    **dict.fromkeys("mM%", 11.7),
    **dict.fromkeys("W@", 14.2),
}
_ZERO = ("Mn", "Me", "Cf")


def char_px(ch: str, emoji: bool = False) -> float:
    """One character's width; ``emoji``: drawn as an emoji (followed by U+FE0F)."""
    if emoji or (ord(ch) > 0x2000 and east_asian_width(ch) == "W" and not ch.isalpha()):
        return EMOJI_PX
    if ch in _LATIN_PX:
        return _LATIN_PX[ch]
    if ch.isascii():
        return LETTER_PX
    if unicodedata.category(ch) in _ZERO:
        return 0.0
    if east_asian_width(ch) in "WF":
        return WIDE_PX
    base = unicodedata.normalize("NFKD", ch)[:1]  # "ä" is as wide as "a"
    if base.isascii() and base.isalnum():
        return char_px(base)
    if ch.isalpha():
        return LOWER_PX if ch.islower() else UPPER_PX
    return WIDE_PX


def label_px(label: str) -> float:
    """How wide ``label`` is drawn on a button, padding left out."""
    after = label[1:] + " "
    return sum(char_px(ch, after[i] == "\ufe0f") for i, ch in enumerate(label))


def slot_px(per_row: int) -> float:
    """The room for a label on a button of a row of ``per_row``."""
    return (KEYBOARD_PX + GAP_PX) / per_row - GAP_PX - PAD_PX


def fits(labels: Iterable[str], per_row: int) -> bool:
    """Every one of ``labels`` shows whole on a button of a phone's row of ``per_row``."""
    return all(label_px(x) <= slot_px(per_row) for x in labels)


_BAG_INSIDE = {"bag_key": "key", "bag_goblet": "goblet"}


def _icon(info: action_payloads.Info) -> str:
    if info.kind == "item":
        inside = _BAG_INSIDE.get(info.id)
        if inside is not None:  # the two Bags' buttons told apart, as their names are
            return f"{SECRET_BAG_ICON}{ITEM_ICONS[inside]}"
        return ITEM_ICONS.get(info.id, SECRET_BAG_ICON)
    if info.kind == "occupation":
        return OCCUPATION_ICONS[info.id]
    if info.kind == "association":
        return ASSOCIATION_ICONS[info.id]
    return DRINK_ICON


__all__ = [
    "MAX_BUTTONS",
    "MAX_PER_ROW",
    "Ask",
    "Button",
    "Decision",
    "Page",
    "Prompt",
    "Rows",
    "act",
    "ask",
    "card_buttons",
    "distinct_cards",
    "fits",
    "grid",
    "info_row",
    "label_px",
    "pairs",
    "slot_px",
]
