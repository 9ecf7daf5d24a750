"""Invariants the engine must keep after every step, for random playouts and tests.

- ``check(st)``: the state itself — every item card exactly once, nobody empty-handed, the hand
  limit, occupations and associations conserved, the pending decision sane. Cheap: run it after
  every step.
- ``check_events(st, events, ledger)``: who was told what. Every private event goes to one seat
  entitled to it (its own cards, or a look some public event licensed: a trade offer, a Privilege
  or Monocle that fired, a fight reward, a Diplomat miss, …); public events carry no item card
  id, association or hidden occupation outside the kinds R-V1 makes public.
- ``check_views(st, events, ledger)``: the above plus, for every seat, ``view(st, seat)`` shows
  the public table exactly (``table == public_view(st)``), the public view exposes only counts,
  Drinks, face-up occupations and away flags of players, and the seat's decision data and
  notebook hold nothing the rules did not reveal to it.
- ``check_roundtrip(st)``: the state survives JSON exactly.

A ``Ledger`` follows one game: the public events seen so far grant "licences" (seat X may see Y's
items because X's Privilege fired on Y, …) against which private events and notes are checked.
Feed it every batch of events (``check_events`` does), even on steps whose views are not checked.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from engine.actions import Event
from engine.api import asked
from engine.cards import ALL_ITEMS, ASSOCIATIONS, OCCUPATIONS, association_split, hand_limit
from engine.mechanics import KINDS
from engine.state import Json, State
from engine.views import public_view, view

ITEM_IDS = frozenset(ALL_ITEMS)
ASSOC_IDS = frozenset(ASSOCIATIONS)
OCC_IDS = frozenset(OCCUPATIONS)
HOWS = frozenset(
    {"claim", "claim_failed", "solo", "fortune", "fortune_failed", "exhausted", "abandoned"}
)
DEADLINES = frozenset({"turn", "trade", "support", "window", "boost", "choice"})

_EXPECTED: dict[tuple[str, ...], frozenset[str]] = {}


def _expected_items(removed: list[str]) -> frozenset[str]:
    key = tuple(removed)
    got = _EXPECTED.get(key)
    if got is None:
        got = _EXPECTED[key] = frozenset(c for c in ALL_ITEMS if c not in removed)
    return got


# -- the state ---------------------------------------------------------------------------------
def check(st: State) -> list[str]:
    """Violations of the state invariants (empty when all hold)."""
    out: list[str] = []
    players = st.players
    n = len(players)
    p = st.pending

    # 21 item cards minus the removed ones, each exactly once across hands and the pile.
    expected = _expected_items(st.removed)
    cards = list(st.pile)
    for pl in players:
        cards += pl.items
    if (
        len(cards) != len(expected)
        or not expected.issuperset(cards)
        or len(set(cards)) != len(cards)
    ):
        counts = Counter(cards)
        dup = sorted(c for c, k in counts.items() if k > 1)
        missing = sorted(expected - counts.keys())
        extra = sorted(counts.keys() - expected)
        out.append(f"items: duplicated {dup}, missing {missing}, unexpected {extra}")

    limit = hand_limit(n)
    for seat, pl in enumerate(players):
        k = len(pl.items)
        if k == 0 and not (p is not None and p.kind == "giveback" and p.data["loser"] == seat):
            out.append(f"seat {seat} holds no item")
        if k > limit and not (
            p is not None and p.kind in ("gift", "giveback") and seat in p.actors
        ):
            pk = p.kind if p else None
            out.append(f"seat {seat} holds {k} items > limit {limit} (pending {pk})")
        if pl.drink != (n % 2 == 1):
            out.append(f"seat {seat} drink={pl.drink} at {n} players")

    occs = [pl.occupation for pl in players] + st.occ_deck
    if len(occs) != len(OCC_IDS) or set(occs) != OCC_IDS:
        out.append(f"occupations not conserved: {sorted(occs)}")

    assoc = [a for pl in players for a in pl.assoc] + st.boxed_assoc
    per_side = 5 if len(players[0].assoc) == 3 else association_split(n)
    if any(assoc.count(a) != per_side for a in ASSOCIATIONS) or len(assoc) != 2 * per_side:
        out.append(f"association cards not conserved: {Counter(assoc)}")

    if not 0 <= st.turn < n:
        out.append(f"turn {st.turn} out of range")

    if st.result is None:
        if p is None:
            out.append("game not over but nothing pending")
        else:
            out += _check_pending(st)
        if not st.frames:
            out.append("game not over but no frame")
    else:
        if p is not None:
            out.append("game over but a decision is pending")
        if st.result.get("how") not in HOWS:
            out.append(f"unknown result how={st.result.get('how')!r}")
        if any(not 0 <= s < n for s in st.result.get("winners", [])):
            out.append(f"bad winners {st.result.get('winners')}")
    return out


def _check_pending(st: State) -> list[str]:
    p = st.pending
    assert p is not None
    out: list[str] = []
    n = st.n
    if p.kind not in KINDS:
        out.append(f"pending kind {p.kind!r} unknown")
    if p.id != st.next_id - 1:
        out.append(f"pending id {p.id} is not the last opened ({st.next_id - 1})")
    if p.deadline not in DEADLINES:
        out.append(f"pending deadline {p.deadline!r} unknown")
    if len(set(p.actors)) != len(p.actors) or any(not 0 <= s < n for s in p.actors):
        out.append(f"pending actors {p.actors} not distinct seats")
    if set(p.actors) & set(p.done):
        out.append(f"pending actors {p.actors} overlap done {p.done}")
    if not p.window:
        if not p.actors:
            out.append(f"decision {p.kind} waits for nobody")
        elif p.kind not in ("sextant_pass", "support") and len(p.actors) != 1:
            out.append(f"decision {p.kind} asks {p.actors}")
    return out


def check_roundtrip(st: State, *, light: bool = False) -> list[str]:
    """The state goes through JSON and back unchanged, and answers the same.

    ``light`` checks only the parts that change shape during play (the pending decision, the
    frames, the result, the hands and the pile) and skips the notebooks and logs, which only
    grow: cheap enough for every step, with a full check every few steps."""
    if light:
        return _check_light_roundtrip(st)
    d = st.to_dict()
    try:
        back = State.from_dict(json.loads(json.dumps(d)))
    except (TypeError, ValueError, KeyError) as e:
        return [f"round-trip failed: {e!r}"]
    back_d = back.to_dict()
    if back_d != d:
        diff = sorted(k for k, v in back_d.items() if d.get(k) != v)
        return [f"round-trip changed {diff}"]
    if st.pending is not None:
        from engine.api import legal_actions  # api imports every mechanic; keep it lazy

        for seat in st.pending.actors:
            if legal_actions(back, seat) != legal_actions(st, seat):
                return [f"round-trip changed the legal actions of seat {seat}"]
    return []


def _check_light_roundtrip(st: State) -> list[str]:
    p = st.pending
    part: Json = {
        "frames": st.frames,
        "pending": None if p is None else p.to_dict(),
        "result": st.result,
        "hands": [pl.items for pl in st.players],
        "pile": st.pile,
    }
    try:
        back = json.loads(json.dumps(part))
    except (TypeError, ValueError) as e:
        return [f"round-trip failed: {e!r}"]
    if back != part:
        diff = sorted(k for k, v in back.items() if part[k] != v)
        return [f"round-trip changed {diff}"]
    if p is not None and type(p).from_dict(back["pending"]).to_dict() != back["pending"]:
        return ["round-trip changed the pending decision"]
    return []


# -- who was told what -------------------------------------------------------------------------
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
        elif k == "tome_swapped":
            self.grant("tome_had", d["seat"], d["target"])
            self.grant("tome_had", d["target"], d["seat"])
        elif k == "revealed":
            self.licences.add(("revealed", -1, d["seat"]))
        elif k == "game_over":
            self.over = True


# Keys of public event data whose values are labels (a reason, a decision kind, how a fight was
# won…), not cards; some labels happen to share a name with a card ("priest", "poison_ring").
_LABEL_KEYS = frozenset({"reason", "how", "decision_kind"})
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


def _secrets_in(value: Any, skip: frozenset[str] = frozenset()) -> tuple[bool, bool, bool]:
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
    skip = _LABEL_KEYS
    if e.kind == "game_started":
        skip = skip | {"removed"}  # R-S4/R-S6: the removed items are public
    elif e.kind == "diplomat":
        skip = skip | {"name"}  # the item the Diplomat asks for, not a card anyone holds
    items, assoc, occ = _secrets_in(d, skip)
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
    items, assoc, occ = _secrets_in(d, _LABEL_KEYS)
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


# -- views ---------------------------------------------------------------------------------------
_LOG_LABELS = _LABEL_KEYS | {"k"}  # a log entry's kind, e.g. "priest_stopped", is a label
_PLAYER_KEYS = frozenset({"seat", "name", "items", "drink", "occupation", "spent", "away"})
_VIEW_KEYS = frozenset({"seat", "table", "me", "decision", "notes", "next_turn"})
# Decision kinds whose private data may name an item card, and under which key.
_DECISION_ITEMS = {
    "trade_answer": "card",
    "diplomat_give": "receive",
    "smuggle": "fire",  # the items this seat gave
    "clairvoyant": "pile",  # §6: the Clairvoyant looks through the pile
    "reward_take": "hand",  # R-A9: the winner looks at all the loser's items
}
# Notebook entries about others: kind -> {how: licence}; "own" entries are about the seat itself.
_NOTE_LOOKS: dict[str, dict[str, str]] = {
    "saw_items": {"privilege": "privilege", "fight": "fight_take", "diplomat": "diplomat"},
    "saw_association": {"monocle": "monocle", "fight": "fight_look"},
    "saw_occupation": {"fight": "fight_look", "tome_had": "tome_had"},
    "saw_item": {"offer": "offer"},
}
_NOTE_OWN = frozenset({"dealt", "drew", "got_item", "gave_item"})


def check_public_view(
    st: State, pv: Mapping[str, Any] | None = None, ledger: Ledger | None = None
) -> list[str]:
    """The group's view exposes of each player only counts, Drinks, face-up occupations and the
    away flag; item cards only where R-V1 makes them public; windows hide who was asked.

    Logs in the view (top-level lists such as ``history``) only grow: with a ``ledger`` only the
    entries added since its last check are looked at."""
    public: Mapping[str, Any] = public_view(st) if pv is None else pv
    out: list[str] = []
    over = st.result is not None
    for seat, entry in enumerate(public["players"]):
        pl = st.players[seat]
        if set(entry) != _PLAYER_KEYS:
            out.append(f"public player {seat} has keys {sorted(entry)}")
        if entry.get("items") != len(pl.items):
            out.append(f"public player {seat} items {entry.get('items')!r} != {len(pl.items)}")
        shown = entry.get("occupation")
        if shown != (pl.occupation if pl.occ_up else None):
            out.append(f"public player {seat} occupation {shown!r} (face up: {pl.occ_up})")
        if not pl.occ_up and entry.get("spent") is not None:
            out.append(f"public player {seat} shows spent for a face-down occupation")
        if entry.get("drink") != pl.drink or entry.get("away") != pl.away:
            out.append(f"public player {seat} drink/away wrong")
    for key, value in public.items():
        if key in ("players", "removed"):
            continue
        if key in ("result", "reveal", "boxed_assoc"):
            if not over:
                out.append(f"public view has {key} before the game is over")
            continue
        skip: frozenset[str] = frozenset()
        if key == "fight" and value is not None:
            value = {k: v for k, v in value.items() if k != "played"}
        elif key == "pending":
            skip = frozenset({"kind"})
        elif isinstance(value, list) and ledger is not None:
            seen = ledger.lists_seen.get(key, 0)
            if len(value) < seen:
                out.append(f"public view {key} shrank from {seen} to {len(value)} entries")
                seen = 0
            ledger.lists_seen[key] = len(value)
            value = value[seen:]
            skip = _LOG_LABELS
        elif isinstance(value, list):
            skip = _LOG_LABELS
        items, assoc, occ = _secrets_in(value, skip)
        if items or assoc or occ:
            out.append(f"public view {key} names a secret card: {value}")
    pend = public.get("pending")
    if (
        pend is not None
        and pend.get("window")
        and ("seats" in pend or set(pend.get("data", {})) - {"attacker", "defender"})
    ):
        out.append(f"public view shows who a window asks: {pend}")
    if not over and set(public.get("removed", [])) != set(st.removed):
        out.append("public view removed items differ")
    return out


def check_views(
    st: State, events: Iterable[Event], ledger: Ledger, seats: Iterable[int] | None = None
) -> list[str]:
    """``check_events`` plus the public view, and the view of every seat in ``seats`` (all when
    None) against the public view, its own cards and its licences."""
    out = check_events(st, events, ledger)
    pv = public_view(st)
    out += check_public_view(st, pv, ledger)
    p = st.pending
    for seat in range(st.n) if seats is None else sorted(set(seats)):
        v = view(st, seat)
        if set(v) != _VIEW_KEYS:
            out.append(f"view of seat {seat} has keys {sorted(v)}")
            continue
        if v["table"] != pv:
            out.append(f"view of seat {seat}: table differs from the public view")
        me = st.players[seat]
        mine = v["me"]
        if (
            mine.get("items") != me.items
            or mine.get("assoc") != me.assoc
            or mine.get("occupation") != me.occupation
        ):
            out.append(f"view of seat {seat}: 'me' is not seat {seat}'s own cards")
        dec = v["decision"]
        if p is None or seat not in asked(st):
            if dec is not None:
                out.append(f"view of seat {seat} shows a decision it is not asked")
        elif dec is not None:
            allowed = _DECISION_ITEMS.get(p.kind)
            data: dict[str, Any] = dict(dec["data"])
            if allowed is not None:
                data.pop(allowed, None)
            if seat not in p.actors:
                data.pop("held", None)  # its turn chosen ahead: a card of its own, if any
            kept = data.get("kept")
            if p.kind == "turn" and kept is not None and kept.get("card") in (None, *me.items):
                data.pop("kept")  # chosen ahead, kept as one tap: a card of its own, if any
            items, assoc, occ = _secrets_in(data, _LABEL_KEYS)
            if items or assoc or occ:
                out.append(f"view of seat {seat}: decision {p.kind} data leaks {dec['data']}")
        out += _check_next_turn(st, seat, v["next_turn"])
        out += _check_notes(seat, v["notes"], ledger)
    return out


def _check_next_turn(st: State, seat: int, nt: Mapping[str, Any] | None) -> list[str]:
    """Only the next player sees their turn chosen ahead, and only their own choice."""
    turn = st.frames[0] if st.frames and st.frames[0]["kind"] == "turn" else None
    if nt is None:
        return []
    if turn is None or seat != (turn["seat"] + 1) % st.n or st.players[seat].away:
        return [f"view of seat {seat} shows a next turn that is not its own"]
    kept = turn.get("premove")
    if nt.get("held") != (kept if kept is not None and kept["seat"] == seat else None):
        return [f"view of seat {seat}: next turn holds {nt.get('held')!r}, not its own choice"]
    return []


def _check_notes(seat: int, notes: Sequence[Mapping[str, Any]], ledger: Ledger) -> list[str]:
    out: list[str] = []
    start = ledger.notes_seen.get(seat, 0)
    for note in notes[start:]:
        k = note.get("k")
        if k in _NOTE_OWN:
            continue
        about = note.get("about")
        if k in _NOTE_LOOKS:
            licence = _NOTE_LOOKS[k].get(note.get("how") or "")
            if about == seat or licence is None or not ledger.has(licence, seat, about):
                out.append(f"seat {seat} notebook has {k} about {about} without licence: {note}")
        elif k in ("saw_pile", "stacked_pile"):
            if not ledger.has("clairvoyant", seat, None):
                out.append(f"seat {seat} notebook has {k} without the Clairvoyant")
        elif k == "saw_deck":
            if not ledger.has("coat", seat, None):
                out.append(f"seat {seat} notebook has saw_deck without a Coat")
        elif k == "revealed":
            if not ledger.has("revealed", -1, about):
                out.append(f"seat {seat} notebook has a reveal of {about} never made public")
        else:
            out.append(f"seat {seat} notebook has unknown entry kind {k!r}")
    ledger.notes_seen[seat] = len(notes)
    return out


__all__ = [
    "Ledger",
    "check",
    "check_events",
    "check_public_view",
    "check_roundtrip",
    "check_views",
]
