"""What the views show, in random playouts: the group's view exposes of each player only counts,
Drinks, face-up occupations and away flags; a seat's view shows the public table exactly, its own
cards, a decision it is asked, and notes the rules revealed to it (licences of the game's
:class:`devtools.simulation.audience.Ledger`)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from devtools.simulation.audience import LABEL_KEYS, Ledger, check_events, secrets_in
from engine.actions import Event
from engine.api import asked
from engine.state import State
from engine.views import public_view, view

_LOG_LABELS = LABEL_KEYS | {"k"}  # a log entry's kind, e.g. "priest_stopped", is a label
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
        items, assoc, occ = secrets_in(value, skip)
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
            items, assoc, occ = secrets_in(data, LABEL_KEYS)
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
