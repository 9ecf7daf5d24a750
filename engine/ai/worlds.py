"""Determinization: whole games sampled from what one seat believes, for the expert to play
forward.

A world is built from the seat's ``Mind`` only (its view, beliefs and item tracking), never from
the real state: the associations follow one hypothesis drawn by its posterior, the items the seat
has located are placed where it believes them (each with the chance it gives), the rest of the
unseen items are dealt at random into the other hands (each keeps its public count) and the
pile, and the face-down occupations are the ones the seat saw, the others drawn from those it
has not seen. Notebooks and the public history are left empty: the rollout players read the
sampled world directly.

Worlds are only built at a turn decision before the action, where the engine's frame stack is
just that turn.
"""

from __future__ import annotations

from engine.ai.mind import Mind, stacked_top
from engine.cards import ALL_ITEMS, OCCUPATIONS
from engine.kinds import DecisionKind
from engine.rng import SPLITMIX, Rng
from engine.state import Pending, Player, State, other_association
from engine.view_types import seen_card, seen_hand


def can_sample(m: Mind) -> bool:
    t = m.t
    return t.decision_kind == "turn" and not t.decision.get("acted") and t.fight is None


def sample(m: Mind, rng: Rng) -> State:
    t = m.t
    n = t.n
    allies, minority = _pick_hypothesis(m, rng)
    mine, theirs = t.association, t.enemy_association
    assoc: list[list[str]] = []
    seen = _seen_rows(m)
    for s in range(n):
        if s == t.seat:
            assoc.append(list(t.assoc_cards))
            continue
        side = mine if allies >> s & 1 else theirs
        if len(t.assoc_cards) == 3:
            assoc.append(_row(side, seen.get(s, {}), rng))
        else:
            assoc.append([side])
    boxed: list[str] = []
    if n % 2 == 1 and len(t.assoc_cards) == 1:
        boxed = [mine if minority else theirs]
    hands = _deal_items(m, rng)
    occupations, occ_deck = _deal_occupations(m, rng)
    table = t
    players = []
    for s in range(n):
        if s == t.seat:
            occ, up, spent = t.occupation, t.occ_up, t.occ_spent
        else:
            face = table.face_up[s]
            occ = face if face is not None else occupations[s]
            up, spent = face is not None, bool(t.spent[s]) if face is not None else False
        players.append(
            Player(
                name=str(s),
                assoc=assoc[s],
                occupation=occ,
                items=hands[s],
                drink=t.drinks[s],
                occ_up=up,
                occ_spent=spent,
            )
        )
    pile = hands[n]
    decision_id = int(t.decision_id)
    turn_no = (t.round - 1) * n + 1
    return State(
        options=dict(t.options),
        seed=0,
        rng=rng.below(1 << 62),
        rng_kind=SPLITMIX,  # an imagined world: its draws hide nothing, the fast generator
        players=players,
        pile=pile,
        occ_deck=occ_deck,
        boxed_assoc=boxed,
        removed=list(t.removed),
        turn=t.seat,
        first=t.seat,
        turn_no=turn_no,
        next_id=decision_id + 1,
        frames=[{"kind": "turn", "seat": t.seat, "stage": "act"}],
        pending=Pending(decision_id, DecisionKind.TURN, [t.seat], "turn", data={"acted": False}),
    )


def _pick_hypothesis(m: Mind, rng: Rng) -> tuple[int, bool]:
    hyps = m.beliefs.hypotheses
    x = rng.below(1 << 30) / float(1 << 30)
    acc = 0.0
    for allies, minority, w in hyps:
        acc += w
        if x < acc:
            return allies, minority
    allies, minority, _ = hyps[-1]
    return allies, minority


def _seen_rows(m: Mind) -> dict[int, dict[int, str]]:
    rows: dict[int, dict[int, str]] = {}
    for note in m.t.notes:
        if note["k"] == "saw_association":
            pos = note.get("position")
            rows.setdefault(note["about"], {})[0 if pos is None else int(pos)] = seen_card(note)
        elif note["k"] == "revealed":
            for pos, card in enumerate(seen_hand(note)):
                rows.setdefault(note["about"], {})[pos] = card
    return rows


def _row(side: str, seen: dict[int, str], rng: Rng) -> list[str]:
    """Three cards whose majority is ``side``, agreeing with the positions seen."""
    row: list[str | None] = [seen.get(i) for i in range(3)]
    other = other_association(side)
    free = [i for i in range(3) if row[i] is None]
    rng.shuffle(free)
    for i in free:
        have = sum(1 for c in row if c == side)
        row[i] = side if have < 2 else (side if rng.below(2) else other)
    return [c if c is not None else side for c in row]


def _deal_items(m: Mind, rng: Rng) -> list[list[str]]:
    """Hands for every seat, and the pile last (its top card last)."""
    t = m.t
    n = t.n
    hands: list[list[str]] = [[] for _ in range(n + 1)]
    hands[t.seat] = list(t.items)
    room = [*t.counts, t.pile]
    room[t.seat] = 0
    placed = set(t.items)
    # Most certain placements first, so the likely ones find room.
    located = sorted(
        ((p, s, c) for s in t.others for c, p in m.holdings.known[s].items()),
        key=lambda x: (-x[0], x[1], x[2]),
    )
    for p, s, card in located:
        if card in placed or room[s] <= 0 or card in t.removed:
            continue
        if p >= 0.999 or rng.below(1000) < int(p * 1000):
            hands[s].append(card)
            room[s] -= 1
            placed.add(card)
    top = stacked_top(t)
    pool = [c for c in ALL_ITEMS if c not in placed and c not in t.removed]
    rng.shuffle(pool)
    if top is not None and top in pool and room[n] > 0:
        pool.remove(top)
        pool.append(top)  # dealt last: onto the pile's top below
    rest = pool[:-1] if top is not None and pool and pool[-1] == top else pool
    topmost = [top] if top is not None and pool and pool[-1] == top else []
    for s in t.others:
        while room[s] > 0 and rest:
            hands[s].append(rest.pop())
            room[s] -= 1
    hands[n] = rest[: room[n] - len(topmost)] + topmost if room[n] > 0 else []
    return hands


def _deal_occupations(m: Mind, rng: Rng) -> tuple[list[str], list[str]]:
    """Face-down occupations: the ones the seat has seen where it saw them, the rest drawn from
    those it has not seen; the deck gets what is left."""
    t = m.t
    seen = _seen_occupations(m)
    known = {t.occupation} | {o for o in t.face_up if o is not None} | set(seen.values())
    pool = [o for o in OCCUPATIONS if o not in known]
    rng.shuffle(pool)
    out = [""] * t.n
    for s in t.others:
        if t.face_up[s] is None:
            if s in seen:
                out[s] = seen[s]
            elif pool:
                out[s] = pool.pop()
    return out, pool


def _seen_occupations(m: Mind) -> dict[int, str]:
    """The face-down occupation of each other player the seat has seen it of (a fight's look,
    the Tome's swap); of two notes naming the same card, the later one holds."""
    t = m.t
    shown = {t.occupation} | {o for o in t.face_up if o is not None}
    seen: dict[int, str] = {}
    for note in t.notes:
        if note["k"] != "saw_occupation":
            continue
        about, occ = note["about"], note["occupation"]
        for s in [s for s, o in seen.items() if o == occ]:
            del seen[s]
        seen[about] = occ
    return {
        s: o for s, o in seen.items() if s != t.seat and t.face_up[s] is None and o not in shown
    }


__all__ = ["can_sample", "sample"]
