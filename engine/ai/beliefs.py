"""Who is in my association, as far as my seat can tell.

Every way the unseen association cards can lie (in the other hands and, at odd counts, the box)
is a hypothesis, equally likely before any evidence; at most C(9, 4) = 126 of them. Cards this
seat saw rule hypotheses out; softer evidence weighs them:

- public: who supported which side of a fight (a player backs the side of its own association
  more often than not), who offered trades to whom (more often to allies). Who attacks whom
  was measured to tell nothing reliable, and is not used;
- private: who offered this seat one of its goal items, or gave it the Black Pearl, and which
  goal items each player is seen holding (allies gather our goal items, enemies theirs).

The weights are likelihood ratios of a player who mostly, not always, acts for its association:
they must stay modest, since a careless or random player gives the same signals by chance.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations

from engine.ai.holdings import Holdings
from engine.ai.seat_facts import SeatFacts
from engine.cards import BLACK_PEARL, BROTHERHOOD, ORDER, association_split
from engine.view_types import seen_card, seen_hand

# P(declared side | the supporter is with the attacker, with the defender, with neither or
# both), as measured in games between AI passengers.
_SUPPORT = {
    "with_attacker": {"attacker": 0.37, "defender": 0.12, "neutral": 0.51},
    "with_defender": {"attacker": 0.12, "defender": 0.40, "neutral": 0.48},
    "unrelated": {"attacker": 0.19, "defender": 0.18, "neutral": 0.63},
}
# A support is read as two pair relations (supporter-attacker, supporter-defender); each gets
# half the log ratio so that together they do not count the one declaration twice.
_SUPPORT_SHARE = 0.5
_TRADE_ALLY_LR = 1.3  # trades go to allies a little more often
_OFFERED_MY_GOAL_LR = 2.5  # a player who offers me my goal item wants me to have it
_GAVE_PEARL_LR = 2.5  # a player who hands me the Black Pearl wants me not to claim
_HOLDS_MY_GOAL_LR = 1.3  # per goal item of mine it holds (for theirs: the inverse)
# Repeated dealings between the same players are far from independent evidence: what one pair
# of players (or one player, for private evidence) can tell is capped at this likelihood ratio.
_MAX_LR = 4.0


@dataclass(frozen=True, slots=True)
class Hypothesis:
    allies: int  # bit mask of the seats in my association (mine included)
    minority: bool  # my association is the smaller one (odd counts)
    cards: tuple[tuple[int, int, str], ...]  # (seat, position, association card) it assumes


@dataclass(frozen=True, slots=True)
class Beliefs:
    seat: int
    ally: tuple[float, ...]  # P(seat is in my association); 1.0 for me
    minority: float  # P(my association is the smaller one)
    # the same from the association cards seen alone: soft evidence can be sure of a player's
    # side and wrong, and a claim counting the Drink rests on every player's side at once
    minority_seen: float
    hypotheses: tuple[tuple[int, bool, float], ...]  # (allies mask, minority, posterior)
    # the allies masks the association cards seen allow, equally likely: what a declaration
    # naming players of the other association rests on (AI passengers keep the other side's goal
    # items from them, so who holds what is no sure sign of a side)
    seen: tuple[int, ...] = ()

    def certain(self, seat: int) -> bool:
        p = self.ally[seat]
        return p > 0.999 or p < 0.001

    def p_allies(
        self, seats: tuple[int, ...] | list[int], *, minority: bool | None = None
    ) -> float:
        """P(every seat in ``seats`` is an ally [and my association's minority is ``minority``])."""
        mask = 0
        for s in seats:
            mask |= 1 << s
        return sum(
            w
            for allies, mino, w in self.hypotheses
            if allies & mask == mask and (minority is None or mino == minority)
        )

    def p_enemies(self, seats: tuple[int, ...] | list[int]) -> float:
        mask = 0
        for s in seats:
            mask |= 1 << s
        return sum(w for allies, _, w in self.hypotheses if allies & mask == 0)

    def p_enemies_seen(self, seats: tuple[int, ...] | list[int]) -> float:
        """P(every seat in ``seats`` is an enemy) from the association cards seen alone."""
        if not self.seen:
            return self.p_enemies(seats)
        mask = 0
        for s in seats:
            mask |= 1 << s
        return sum(1 for allies in self.seen if allies & mask == 0) / len(self.seen)


def believe(t: SeatFacts, holdings: Holdings) -> Beliefs:
    hyps: tuple[Hypothesis, ...] = _deals(t.n, t.seat, t.association, t.assoc_cards)
    seen = _seen_cards(t)
    if seen:
        hyps = tuple(h for h in hyps if _agrees(h, seen)) or hyps
    seat_ll = _seat_evidence(t, holdings)
    pair_ll = _relation_evidence(t)
    scored: list[tuple[int, bool, float]] = []
    for h in hyps:
        ll = 0.0
        for seat, value in seat_ll.items():
            if h.allies >> seat & 1:
                ll += value
        for (x, y), same in pair_ll.items():
            if (h.allies >> x & 1) == (h.allies >> y & 1):
                ll += same
        scored.append((h.allies, h.minority, ll))
    top = max(ll for _, _, ll in scored)
    weights = [(a, m, math.exp(ll - top)) for a, m, ll in scored]
    total = sum(w for _, _, w in weights)
    post = tuple((a, m, w / total) for a, m, w in weights)
    ally = tuple(
        1.0 if s == t.seat else sum(w for a, _, w in post if a >> s & 1) for s in range(t.n)
    )
    minority = sum(w for _, m, w in post if m)
    minority_seen = sum(1 for h in hyps if h.minority) / len(hyps)
    seen_masks = tuple(h.allies for h in hyps)
    return Beliefs(t.seat, ally, minority, minority_seen, post, seen_masks)


# -- hypotheses --------------------------------------------------------------------------------
@lru_cache(maxsize=64)
def _deals(n: int, seat: int, mine: str, my_cards: tuple[str, ...]) -> tuple[Hypothesis, ...]:
    others = [s for s in range(n) if s != seat]
    if len(my_cards) == 3:
        return _advanced_three_deals(seat, mine, my_cards, others)
    k = association_split(n)
    slots: list[int] = others + ([-1] if n % 2 else [])  # -1: the box
    theirs = BROTHERHOOD if mine == ORDER else ORDER
    out = []
    for chosen in combinations(range(len(slots)), k - 1):
        picked = set(chosen)
        allies = 1 << seat
        cards = []
        for i, s in enumerate(slots):
            if s < 0:
                continue
            if i in picked:
                allies |= 1 << s
            cards.append((s, 0, mine if i in picked else theirs))
        boxed_mine = n % 2 == 1 and len(slots) - 1 in picked
        out.append(Hypothesis(allies, boxed_mine, tuple(cards)))
    return tuple(out)


def _advanced_three_deals(
    seat: int, mine: str, my_cards: tuple[str, ...], others: list[int]
) -> tuple[Hypothesis, ...]:
    """Three cards each in a fixed row, one in the box; a player is of the association it holds
    two or three of (§7)."""
    left_order = 5 - my_cards.count(ORDER)
    slots = [(s, pos) for s in others for pos in range(3)] + [(-1, 0)]
    out = []
    for chosen in combinations(range(len(slots)), left_order):
        picked = set(chosen)
        cards = tuple(
            (s, pos, ORDER if i in picked else BROTHERHOOD)
            for i, (s, pos) in enumerate(slots)
            if s >= 0
        )
        allies = 1 << seat
        size = {ORDER: 0, BROTHERHOOD: 0}
        size[mine] += 1
        for s in others:
            orders = sum(1 for x, _, c in cards if x == s and c == ORDER)
            assoc = ORDER if orders >= 2 else BROTHERHOOD
            size[assoc] += 1
            if assoc == mine:
                allies |= 1 << s
        theirs = BROTHERHOOD if mine == ORDER else ORDER
        out.append(Hypothesis(allies, size[mine] < size[theirs], cards))
    return tuple(out)


def _seen_cards(t: SeatFacts) -> dict[tuple[int, int], str]:
    seen: dict[tuple[int, int], str] = {}
    for note in t.notes:
        if note["k"] == "saw_association":
            pos = note.get("position")
            seen[(note["about"], 0 if pos is None else int(pos))] = seen_card(note)
        elif note["k"] == "revealed":
            for pos, card in enumerate(seen_hand(note)):
                seen[(note["about"], pos)] = card
    return seen


def _agrees(h: Hypothesis, seen: dict[tuple[int, int], str]) -> bool:
    for seat, pos, card in h.cards:
        want = seen.get((seat, pos))
        if want is not None and want != card:
            return False
    return True


# -- evidence ----------------------------------------------------------------------------------
def _seat_evidence(t: SeatFacts, holdings: Holdings) -> dict[int, float]:
    """Log-likelihood ratio, ally against enemy, of what this seat saw of each player."""
    ll: dict[int, float] = dict.fromkeys(range(t.n), 0.0)
    for note in t.notes:
        if note["k"] == "saw_item" and t.mine(note["card"]):
            ll[note["about"]] += math.log(_OFFERED_MY_GOAL_LR)
        elif note["k"] == "got_item" and note["card"] == BLACK_PEARL and note["how"] == "trade":
            ll[note["about"]] -= math.log(_GAVE_PEARL_LR)
    step = math.log(_HOLDS_MY_GOAL_LR)
    for seat in t.others:
        for card, p in holdings.known[seat].items():
            if t.mine(card):
                ll[seat] += step * p
            elif t.theirs(card):
                ll[seat] -= step * p
    cap = math.log(_MAX_LR)
    return {s: max(-cap, min(cap, v)) for s, v in ll.items() if v}


def _relation_evidence(t: SeatFacts) -> dict[tuple[int, int], float]:
    """Log-likelihood ratio, same association against different ones, per pair of seats, summed
    over the public history. A support is read as evidence about the supporter's relation to the
    attacker and to the defender separately."""
    ll: dict[tuple[int, int], float] = {}

    def add(x: int, y: int, log_ratio: float) -> None:
        key = (x, y) if x < y else (y, x)
        ll[key] = ll.get(key, 0.0) + log_ratio

    attacker = defender = -1
    with_a, with_d = _SUPPORT["with_attacker"], _SUPPORT["with_defender"]
    unrelated = _SUPPORT["unrelated"]
    for rec in t.history:
        k = rec["k"]
        if k == "attack":
            attacker, defender = rec["seat"], rec["target"]
        elif k == "support" and rec["seat"] != t.seat and rec["side"] != "neutral":
            s, side = rec["seat"], rec["side"]
            add(s, attacker, _SUPPORT_SHARE * math.log(with_a[side] / unrelated[side]))
            add(s, defender, _SUPPORT_SHARE * math.log(with_d[side] / unrelated[side]))
        elif k == "trade_offered" and rec["seat"] != t.seat:
            add(rec["seat"], rec["target"], math.log(_TRADE_ALLY_LR))
    cap = math.log(_MAX_LR)
    return {key: max(-cap, min(cap, v)) for key, v in ll.items()}
