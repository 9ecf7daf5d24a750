"""Who was told what, in random playouts: every private event goes to one seat entitled to it
(its own cards, or a look some public event licensed), and public events name no item card,
association or hidden occupation outside the kinds R-V1 makes public.

A :class:`Ledger` follows one game: the public events seen so far grant "licences" (seat X may
see Y's items because X's Privilege fired on Y, …) against which private events, and the
notebooks in the views (``devtools.simulation.view_checks``), are checked.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from engine.actions import Event
from engine.cards import ALL_ITEMS, ASSOCIATIONS, OCCUPATIONS
from engine.state import State

ITEM_IDS = frozenset(ALL_ITEMS)
ASSOC_IDS = frozenset(ASSOCIATIONS)
OCC_IDS = frozenset(OCCUPATIONS)


class Ledger:
    """What the public events of one game so far entitle each seat to have seen."""

    __slots__ = ("licences", "lists_seen", "notes_seen", "over")

    def __init__(self) -> None:
        self.licences: set[tuple[str, int, int | None]] = set()
        self.notes_seen: dict[int, int] = {}  # seat -> notebook entries already checked
        self.lists_seen: dict[str, int] = {}  # public-view log (e.g. history) -> entries checked
        self.over = False

    def grant(self, what: str, viewer: int, about: int | None) -> None:
        self.licences.add((what, viewer, about))

    def has(self, what: str, viewer: int, about: int | None) -> bool:
        return self.over or (what, viewer, about) in self.licences

    def observe(self, e: Event) -> None:
        """Record the licences a public event grants."""
        d = e.data
        k = e.kind
        if k == "trade_offered":
            self.grant("offer", d["target"], d["seat"])
        elif k == "effects":
            for x in d["items"]:
                item = x["item"]
                self.grant(item, x["giver"], x["receiver"])
                self.grant(item, x["giver"], None)
        elif k == "reward":
            self.grant("fight_" + d["choice"], d["seat"], d["target"])
        elif k == "diplomat_missed":
            self.grant("diplomat", d["seat"], d["target"])
        elif k == "occupation_used":
            self.grant(d["occupation"], d["seat"], None)
        elif k == "priest_stopped":
            self.grant("priest_stopped", d["attacker"], d["seat"])
        elif k == "tome_swapped":
            self.grant("tome_had", d["seat"], d["target"])
            self.grant("tome_had", d["target"], d["seat"])
        elif k == "revealed":
            self.licences.add(("revealed", -1, d["seat"]))
        elif k == "game_over":
            self.over = True


# Keys of public event data whose values are labels (a reason, a decision kind, how a fight was
# won…), not cards; some labels happen to share a name with a card ("priest", "poison_ring").
LABEL_KEYS = frozenset({"reason", "how", "decision_kind"})
# Public event kinds R-V1/R-V3 allow to name item cards, associations, occupations.
_PUBLIC_ITEMS = frozenset({"played", "revealed", "game_over", "effects"})
_PUBLIC_ASSOC = frozenset({"revealed", "claim_count", "game_over"})
_PUBLIC_OCC = frozenset({"played", "occupation_used", "game_over"})

# Private event kinds that tell the recipient about their own cards (data["seat"] == recipient).
_OWN = frozenset(
    {
        "dealt",
        "drew_card",
        "received",
        "item_lost",
        "occupation_received",
        "occupation_taken",
        "premove_played",  # the seat's own turn chosen ahead (engine.premove)
        "premove_dropped",
        "premove_kept",
    }
)
# Private looks at someone else: kind -> {how: licence}.
_LOOKS: dict[str, dict[str, str]] = {
    "items_seen": {"privilege": "privilege", "fight": "fight_take", "diplomat": "diplomat"},
    "association_seen": {"monocle": "monocle", "fight": "fight_look"},
    "occupation_seen": {"fight": "fight_look"},
}
_PRIVATE_ITEMS = frozenset(
    {
        "dealt",
        "drew_card",
        "received",
        "item_lost",
        "offered",
        "items_seen",
        "pile_seen",
        "premove_played",  # a trade chosen ahead names the seat's own card
        "premove_kept",
        "premove_dropped",  # ... or a card that was its own when it chose
    }
)
_PRIVATE_ASSOC = frozenset({"dealt", "association_seen"})
_PRIVATE_OCC = frozenset(
    {"dealt", "occupation_seen", "occupation_received", "occupation_taken", "deck_seen"}
)


def _collect(value: Any, skip: frozenset[str], out: set[str]) -> None:
    if isinstance(value, str):
        out.add(value)
    elif isinstance(value, dict):
        for k, v in value.items():
            if k not in skip and not isinstance(v, (int, bool, type(None))):
                _collect(v, skip, out)
    elif isinstance(value, (list, tuple)):
        for v in value:
            if not isinstance(v, int):
                _collect(v, skip, out)


def secrets_in(value: Any, skip: frozenset[str] = frozenset()) -> tuple[bool, bool, bool]:
    """Whether ``value`` names an item card, an association, an occupation (dict values under
    the keys in ``skip`` are not looked at)."""
    found: set[str] = set()
    _collect(value, skip, found)
    return (
        not ITEM_IDS.isdisjoint(found),
        not ASSOC_IDS.isdisjoint(found),
        not OCC_IDS.isdisjoint(found),
    )


def check_events(st: State, events: Iterable[Event], ledger: Ledger) -> list[str]:
    """Audience checks for one batch of events (those ``apply`` or ``new_game`` returned just
    now, ``st`` being the state right after). Feeds the public events to ``ledger``."""
    out: list[str] = []
    n = st.n
    for e in events:
        if e.to is None:
            out += _check_public_event(e)
            ledger.observe(e)
        else:
            out += _check_private_event(st, e, n, ledger)
    return out


def _check_public_event(e: Event) -> list[str]:
    d = e.data
    skip = LABEL_KEYS
    if e.kind == "game_started":
        skip = skip | {"removed"}  # R-S4/R-S6: the removed items are public
    elif e.kind == "diplomat":
        skip = skip | {"name"}  # the item the Diplomat asks for, not a card anyone holds
    items, assoc, occ = secrets_in(d, skip)
    out = []
    if items and e.kind not in _PUBLIC_ITEMS:
        out.append(f"public event {e.kind} names an item card: {d}")
    if assoc and e.kind not in _PUBLIC_ASSOC:
        out.append(f"public event {e.kind} names an association: {d}")
    if occ and e.kind not in _PUBLIC_OCC:
        out.append(f"public event {e.kind} names an occupation: {d}")
    if "actors" in d:
        out.append(f"public event {e.kind} lists the actors of a decision")
    return out


def _check_private_event(st: State, e: Event, n: int, ledger: Ledger) -> list[str]:
    to = e.to
    assert to is not None
    d = e.data
    k = e.kind
    if len(to) != 1 or not 0 <= to[0] < n:
        return [f"private event {k} addressed to {to}"]
    r = to[0]
    out: list[str] = []
    items, assoc, occ = secrets_in(d, LABEL_KEYS)
    if items and k not in _PRIVATE_ITEMS:
        out.append(f"private event {k} to {r} names an item card: {d}")
    if assoc and k not in _PRIVATE_ASSOC:
        out.append(f"private event {k} to {r} names an association: {d}")
    if occ and k not in _PRIVATE_OCC:
        out.append(f"private event {k} to {r} names an occupation: {d}")
    if k in _OWN:
        if d.get("seat") != r:
            out.append(f"private event {k} about seat {d.get('seat')} sent to seat {r}")
        if k == "dealt" and st.step == 0:
            me = st.players[r]
            if d["assoc"] != me.assoc or d["occupation"] != me.occupation:
                out.append(f"dealt to seat {r} shows cards that are not theirs")
        elif k == "occupation_received" and not ledger.has("tome_had", r, d.get("source")):
            out.append(f"seat {r} got occupation_received without a Tome swap: {d}")
        elif k == "occupation_taken" and not ledger.has("coat", r, None):
            out.append(f"seat {r} took an occupation without a Coat: {d}")
        elif k in ("premove_played", "premove_kept") and d["action"].get("card") not in (
            None,
            *st.players[r].items,
        ):
            out.append(f"seat {r} was told of a turn chosen ahead with another's card: {d}")
    elif k == "offered":
        if d.get("target") != r or not ledger.has("offer", r, d.get("seat")):
            out.append(f"seat {r} saw an offer not made to them: {d}")
    elif k in _LOOKS:
        about, how = d.get("about"), d.get("how")
        licence = _LOOKS[k].get(how or "")
        if about == r or licence is None or not ledger.has(licence, r, about):
            out.append(f"seat {r} saw {k} about seat {about} (how={how}) without licence")
    elif k == "priest_no_tribute":  # told to the attacker the Priest just stopped, alone
        if d.get("attacker") != r or not ledger.has("priest_stopped", r, d.get("seat")):
            out.append(f"seat {r} was told of a Priest's stop that was not theirs: {d}")
    elif k == "pile_seen":
        if not ledger.has("clairvoyant", r, None):
            out.append(f"seat {r} saw the draw pile without the Clairvoyant")
    elif k == "deck_seen":
        if not ledger.has("coat", r, None):
            out.append(f"seat {r} saw the occupation deck without a Coat")
        held = {pl.occupation for pl in st.players}
        if held & set(d.get("cards", ())):
            out.append(f"deck_seen to {r} shows held occupations {sorted(held & set(d['cards']))}")
    else:
        out.append(f"unknown private event kind {k!r} (to {r}): add its audience rule")
    return out
