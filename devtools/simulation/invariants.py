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

The state's checks are here; who was told what in ``audience``, the views in ``view_checks``.
"""

from __future__ import annotations

import json
from collections import Counter

from devtools.simulation.audience import OCC_IDS, Ledger, check_events
from devtools.simulation.view_checks import check_public_view, check_views
from engine.cards import ALL_ITEMS, ASSOCIATIONS, association_split, hand_limit
from engine.mechanics import KINDS
from engine.state import Json, State

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


__all__ = [
    "Ledger",
    "check",
    "check_events",
    "check_public_view",
    "check_roundtrip",
    "check_views",
]
