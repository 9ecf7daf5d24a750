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
    return [buttons[i : i + per_row] for i in range(0, len(buttons), per_row)]


# How wide a label may be, in Latin letters (a CJK character or an emoji counts two), to show
# whole on half the keyboard of a phone (390 px): "👜 Geheimer Koffer (Schlüssel)" was cut off.
HALF_ROW = 18


def label_width(label: str) -> int:
    return sum(
        0 if unicodedata.category(c) in ("Mn", "Me", "Cf") else 1 + (east_asian_width(c) in "WF")
        for c in label
    )


def pairs(buttons: list[Button]) -> Rows:
    """Two buttons a row when every label fits half a phone's keyboard, else one a row."""
    return grid(buttons, 1 if any(label_width(b[0]) > HALF_ROW for b in buttons) else 2)


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
    return grid(buttons, per_row(buttons))


# A phone's inline keyboard, measured in Chromium at 390 px (the local table's phone test): 305 px
# wide, 3 px between buttons, 12 px of padding in each; an emoji is 18.7 px, a Latin letter about
# half that. Eight "ℹ️👜🏆" buttons a row were cut to "ℹ️…" (CI, issue 25's phone test).
KEYBOARD_PX = 305
_GAP_PX, _PAD_PX, _UNIT_PX = 3, 12, 9.4


def shown_width(label: str) -> int:
    """``label_width``, with a character drawn as an emoji by U+FE0F ("ℹ️", "⚔️") counted two."""
    return label_width(label) + label.count("\ufe0f")


def per_row(buttons: list[Button]) -> int:
    """How many buttons as wide as the widest of ``buttons`` fit a phone's row, at most 8."""
    widest = max((shown_width(b[0]) for b in buttons), default=1) * _UNIT_PX + _PAD_PX
    return max(1, min(MAX_PER_ROW, int((KEYBOARD_PX + _GAP_PX) // (widest + _GAP_PX))))


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
    "HALF_ROW",
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
    "grid",
    "info_row",
    "label_width",
    "pairs",
    "per_row",
    "shown_width",
]
