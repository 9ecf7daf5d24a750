"""The only exits for secrets (R-V1…R-V3): the public view, per-seat views and notebooks."""

from __future__ import annotations

from typing import Literal, cast

import engine.premove as premove
from engine.actions import Event
from engine.cards import ASSOCIATIONS, hand_limit
from engine.core import goal_count
from engine.fight import awaited, held_support, ride_seats, strengths, support_turn
from engine.frames import FightFrame, fight_on_top, innermost_fight, innermost_trade
from engine.kinds import DecisionKind
from engine.state import State
from engine.view_types import (
    ActionDict,
    DecisionData,
    FightView,
    Fire,
    HistoryEntry,
    NextTurn,
    Note,
    OwnDecision,
    Played,
    PublicPending,
    PublicPlayer,
    PublicView,
    Result,
    Reveal,
    SeatView,
)

# Decision data that may be shown to the whole table for non-window decisions.
_PUBLIC_DATA = {"attacker", "defender", "seat", "loser", "direction", "partner", "target", "excess"}


def public_pending(st: State) -> PublicPending | None:
    """R-D1: for a window the table learns only that it is open, never who was asked."""
    p = st.pending
    if p is None:
        return None
    shown = _PUBLIC_DATA if not p.window else {"attacker", "defender"}
    data = cast(DecisionData, {k: v for k, v in p.data.items() if k in shown})
    kind: DecisionKind | Literal["trade_settling"] = (
        "trade_settling" if p.kind == DecisionKind.SMUGGLE else p.kind
    )
    out: PublicPending = {
        "id": p.id,
        "kind": kind,
        "deadline": p.deadline,
        "window": p.window,
        "data": data,
    }
    if not p.window:
        out["seats"] = awaited(st)  # R-A3: supporters are waited for one by one, in order
    return out


def _public_player(st: State, seat: int) -> PublicPlayer:
    p = st.players[seat]
    out: PublicPlayer = {
        "seat": seat,
        "name": p.name,
        "items": len(p.items),
        "drink": p.drink,
        "occupation": p.occupation if p.occ_up else None,
        "spent": p.occ_spent if p.occ_up else None,
        "away": p.away,
    }
    return out


def current_fight(st: State) -> FightFrame | None:
    """The frame of the fight being resolved (the innermost), if any: the one place that finds it.
    Everything outside the engine reads the fight from a view (``view(...)["fight"]``)."""
    return innermost_fight(st.frames)


def _fight(st: State) -> FightView | None:
    """The fight being resolved as the table sees it (R-V1), with its strengths (R-A6) and, once
    decided, how: "win", "tie", "ring" (R-A7's Poison Ring) or "mixer" (the Poison Mixer)."""
    f = current_fight(st)
    if f is None:
        return None
    out: FightView = {
        "attacker": f["attacker"],
        "defender": f["defender"],
        "supports": dict(f.get("supports", {})),
        "hypnotized": f.get("hypnotized"),
        "played": cast(Played, [[s, c, x] for s, c, x in f.get("played", [])]),
        "strength": None,
        "decided": "winner" in f,
        "winner": f.get("winner"),
        "how": None,
    }
    if "supports" in f:
        att, dfn = strengths(st, f)
        out["strength"] = [att, dfn]
        if "winner" in f:
            if f["winner"] is None:
                out["how"] = "tie"
            else:
                out["how"] = "mixer" if f.get("mixer_side") else "ring" if att == dfn else "win"
    return out


def public_view(st: State) -> PublicView:
    view: PublicView = {
        "players": [_public_player(st, s) for s in range(st.n)],
        "turn": st.turn,
        "first": st.first,
        "round": st.round,
        "pile": len(st.pile),
        "hand_limit": hand_limit(st.n),
        "bags_are_goals": not st.pile,
        "removed": list(st.removed),
        "options": dict(st.options),
        "pending": public_pending(st),
        "fight": _fight(st),
        "over": st.result is not None,
        "history": [cast(HistoryEntry, dict(h)) for h in st.history],
    }
    if st.result is not None:
        view["result"] = cast(Result, dict(st.result))
        view["reveal"] = [
            Reveal(seat=s, assoc=list(p.assoc), occupation=p.occupation, items=list(p.items))
            for s, p in enumerate(st.players)
        ]
        view["boxed_assoc"] = list(st.boxed_assoc)
    return view


def view(st: State, seat: int) -> SeatView:
    """What ``seat`` may see now: the table, their own cards, their decision, their notebook."""
    me = st.players[seat]
    p = st.pending
    mine: OwnDecision | None = None
    if p is not None and seat in p.actors:
        data = dict(p.data)
        ride = data.pop("ride", None)
        mine = {
            "id": p.id,
            "kind": p.kind,
            "deadline": p.deadline,
            "data": cast(DecisionData, data),
        }
        if ride is not None and seat in ride_seats(ride):
            # asked its own decision during a window (engine.fight): it sees only that one
            own = cast(DecisionData, dict(ride["data"]))
            own["early"] = True  # asked while the window is open
            mine["kind"], mine["deadline"] = DecisionKind(ride["kind"]), ride["deadline"]
            mine["data"] = own
        turn = support_turn(st)
        if mine["kind"] == "support" and turn is not None:
            # R-A3: whose turn it is (public), and this seat's own declaration kept till told
            f = fight_on_top(st.frames)
            order = f["support_order"]
            mine["data"]["turn"] = turn
            mine["data"]["before"] = list(order[f["supports_told"] : order.index(seat)])
            mine["data"]["declared"] = held_support(st, seat)
        if p.kind == "smuggle":
            # R-T9: only the items this seat gave; who else may skip stays hidden
            trade = innermost_trade(st.frames)
            assert trade is not None
            fire = trade["effects"]
            mine["data"] = {"fire": cast(Fire, [[c, to] for g, c, to in fire if g == seat])}
        if p.kind == "sextant_pass":
            mine["data"] = {"direction": p.data["direction"]}
        if p.kind == "clairvoyant":
            mine["data"]["pile"] = list(reversed(st.pile))  # §6: the Clairvoyant sees it all
        if p.kind == "reward_take":
            mine["data"]["hand"] = list(st.players[p.data["loser"]].items)
    elif p is not None and seat == premove.seat(st):
        # the next turn, chosen ahead (engine.premove): whose turn it is now, and what is kept
        now = premove.current_turn(st)
        assert now is not None
        mine = {
            "id": p.id,
            "kind": DecisionKind.TURN,
            "deadline": "turn",
            "data": {
                "acted": False,
                "ahead": now["seat"],
                "held": _held(st, seat),
                "keep_use": premove.keeps(st),
            },
        }
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
            # R-W3/R-W5: how many goal items of each association this hand counts right now
            "goals": {a: goal_count(st, me.items, a) for a in ASSOCIATIONS},
        },
        "decision": mine,
        "notes": [cast(Note, dict(n)) for n in me.notes],
        "next_turn": _next_turn(st, seat),
    }


def _next_turn(st: State, seat: int) -> NextTurn | None:
    """The seat's next turn while it may be chosen ahead (engine.premove): whose turn it is now,
    what is kept, and whether it may be chosen or changed right now (``open``) or is paused."""
    if seat != premove.owner(st):
        return None
    now = premove.current_turn(st)
    assert now is not None
    return {"now": now["seat"], "held": _held(st, seat), "open": premove.seat(st) == seat}


def public_events(events: list[Event]) -> list[Event]:
    """The events of a step the whole table may hear (R-V1)."""
    return [e for e in events if e.to is None]


def events_for(events: list[Event], seat: int) -> list[Event]:
    """The events of a step addressed to ``seat`` alone (or to a few seats including it)."""
    return [e for e in events if e.to is not None and seat in e.to]


def _held(st: State, seat: int) -> ActionDict | None:
    """The turn ``seat`` chose ahead and that is still kept (``Action.to_dict``'s form)."""
    return cast(ActionDict | None, premove.held(st, seat))
