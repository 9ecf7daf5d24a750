"""The only exits for secrets (R-V1…R-V3): the public view, per-seat views and notebooks."""

from __future__ import annotations

from typing import Any

from engine.state import Json, State

# Decision data that may be shown to the whole table for non-window decisions.
_PUBLIC_DATA = {"attacker", "defender", "seat", "loser", "direction", "partner", "target", "excess"}


def public_pending(st: State) -> Json | None:
    """R-D1: for a window the table learns only that it is open, never who was asked."""
    p = st.pending
    if p is None:
        return None
    out: Json = {"id": p.id, "kind": p.kind, "deadline": p.deadline, "window": p.window}
    if p.kind == "smuggle":
        out["kind"] = "trade_settling"
    if not p.window:
        out["seats"] = list(p.actors)
        out["data"] = {k: v for k, v in p.data.items() if k in _PUBLIC_DATA}
    else:
        out["data"] = {k: v for k, v in p.data.items() if k in ("attacker", "defender")}
    return out


def _public_player(st: State, seat: int) -> Json:
    p = st.players[seat]
    out: Json = {
        "seat": seat,
        "name": p.name,
        "items": len(p.items),
        "drink": p.drink,
        "occupation": p.occupation if p.occ_up else None,
        "spent": p.occ_spent if p.occ_up else None,
        "away": p.away,
    }
    return out


def _fight(st: State) -> Json | None:
    f = next((fr for fr in reversed(st.frames) if fr["t"] == "fight"), None)
    if f is None:
        return None
    return {
        "attacker": f["a"],
        "defender": f["d"],
        "supports": dict(f.get("sup", {})),
        "hypnotized": f.get("hyp"),
        "played": [[s, c, x] for s, c, x in f.get("played", [])],
    }


def public_view(st: State) -> Json:
    view: Json = {
        "players": [_public_player(st, s) for s in range(st.n)],
        "turn": st.turn,
        "round": st.round,
        "pile": len(st.pile),
        "bags_are_goals": not st.pile,
        "removed": list(st.removed),
        "options": dict(st.options),
        "pending": public_pending(st),
        "fight": _fight(st),
        "over": st.result is not None,
        "history": [dict(h) for h in st.history],
    }
    if st.result is not None:
        view["result"] = dict(st.result)
        view["reveal"] = [
            {"seat": s, "assoc": list(p.assoc), "occupation": p.occupation, "items": list(p.items)}
            for s, p in enumerate(st.players)
        ]
    return view


def view(st: State, seat: int) -> Json:
    """What ``seat`` may see now: the table, their own cards, their decision, their notebook."""
    me = st.players[seat]
    p = st.pending
    mine: Any = None
    if p is not None and seat in p.actors:
        mine = {"id": p.id, "kind": p.kind, "deadline": p.deadline, "data": dict(p.data)}
        if p.kind == "smuggle":
            mine["data"] = {}
        if p.kind == "sextant_pass":
            mine["data"] = {"direction": p.data["direction"]}
    return {
        "seat": seat,
        "table": public_view(st),
        "me": {
            "name": me.name,
            "assoc": list(me.assoc),
            "association": me.association,
            "occupation": me.occupation,
            "occ_up": me.occ_up,
            "occ_spent": me.occ_spent,
            "items": list(me.items),
            "drink": me.drink,
        },
        "decision": mine,
        "notes": [dict(n) for n in me.notes],
    }
