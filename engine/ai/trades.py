"""Items changing hands: offers (R-T1), answers, trade effects (R-T8), gifts (R-H1) and passes.

Goal items go towards allies, and to the hand that gathers them; to enemies go the things that
hurt them (the Black Pearl first) or help them least.
"""

from __future__ import annotations

from engine.actions import Action
from engine.ai.mind import Mind, draw_value
from engine.ai.seat_facts import SeatFacts, unrefusable
from engine.cards import BAGS, BLACK_PEARL, BROKEN_MIRROR, MONOCLE, PRIVILEGE, item_kind

_LIKELY_ACCEPTED = 0.7
REPEAT_COST = 0.6  # per earlier time I gave the same card away: no endless back and forth
# The Black Pearl handed to an enemy comes straight back: each time this partner returned it
# weighs this much against handing it to them again (more than the hand-over seems worth), so
# after a round trip it goes to another enemy or stays while my allies gather our goal items.
PEARL_RETURN_COST = 10.0
REFUSED_COST = 0.8  # per offer of mine this partner refused in the last three rounds


def effect_value(m: Mind, card: str, partner: int) -> float:
    """What the trade effect of ``card`` brings me when I give it to ``partner`` (R-T8)."""
    t = m.t
    kind = item_kind(card)
    if kind in BAGS:
        # R-T6: a partner holding the Broken Mirror can hand it back and cancel the draw
        return draw_value(m) * (1.0 - m.holdings.p(partner, BROKEN_MIRROR)) if t.pile else 0.0
    if kind == MONOCLE:
        return 6.0 * m.doubt(partner)
    if kind == PRIVILEGE:
        unseen = m.holdings.sizes[partner] - sum(m.holdings.known[partner].values())
        return 0.8 * max(0.0, unseen) * (0.5 + m.ally(partner))
    if kind in ("tome", "coat"):
        return 0.3 if t.occ_spent else 0.0
    return 0.0


def exposure(m: Mind, card: str, giver: int) -> float:
    """What ``giver`` learns about me when I take ``card`` from them, as a cost to me."""
    kind = item_kind(card)
    enemy = 1.0 - m.ally(giver)
    if kind == MONOCLE:
        return 1.5 * enemy
    if kind == PRIVILEGE:
        return 0.7 * enemy
    if kind in BAGS and m.t.pile:
        return 1.0 * enemy - 0.5 * (1 - enemy)  # they draw a card
    return 0.0


def repeat_cost(t: SeatFacts, card: str, to: int | None = None) -> float:
    """A card going round and round (two players trading it back and forth): each earlier time I
    gave it away makes giving it again look worse, so the plan changes. A Bag that made me draw
    a card each time was progress, not a repeat (unless the Broken Mirror cancelled the draws).
    The Black Pearl weighs more against a partner ``to`` who handed it back before."""
    cost = 0.0
    if card == BLACK_PEARL and to is not None:
        cost += PEARL_RETURN_COST * pearl_returns(t, to)
    if t.round < 6:
        return cost
    times = sum(1 for n in t.notes if n["k"] == "gave_item" and n["card"] == card)
    if item_kind(card) in BAGS:
        times = max(0, times - sum(1 for n in t.notes if n["k"] == "drew"))
    return cost + REPEAT_COST * times


def pearl_returns(t: SeatFacts, partner: int) -> int:
    """How often ``partner`` handed me back the Black Pearl I had handed to them."""
    out = 0
    with_them = False
    for n in t.notes:
        if n.get("card") != BLACK_PEARL or n.get("about") != partner:
            continue
        if n["k"] == "gave_item":
            with_them = True
        elif n["k"] == "got_item" and with_them:
            out += 1
            with_them = False
    return out


def refused_cost(t: SeatFacts, to: int) -> float:
    """Offers ``to`` keeps refusing get nowhere (two players offering each other the same card
    turn after turn): each refusal in the last three rounds weighs against one more."""
    if not t.history:
        return 0.0
    since = t.history[-1]["turn"] - 3 * t.n
    return REFUSED_COST * sum(
        1
        for r in t.history
        if r["k"] == "trade_refused"
        and r["turn"] > since
        and (r["seat"], r["target"]) == (t.seat, to)
    )


def answer(m: Mind, legal: list[Action]) -> Action:
    """Accept when the offered card, less what it tells the offerer, is worth more than the
    least costly card to hand back (whose own trade effect then fires for me)."""
    t = m.t
    offerer, card = t.decision["seat"], t.decision["card"]
    incoming = m.gain(card, offerer) - exposure(m, card, offerer)

    def score(a: Action) -> float:
        back = a.card or ""
        gain = incoming - m.loss(back, offerer) + effect_value(m, back, offerer)
        return gain - repeat_cost(t, back, offerer)

    best = max((a for a in legal if a.kind == "accept"), key=score, default=None)
    refuse = next((a for a in legal if a.kind == "refuse"), None)
    if best is not None and (refuse is None or score(best) > m.style.accept_margin):
        return best
    return refuse or legal[0]


def offer_value(m: Mind, card: str, to: int) -> float:
    """Expected worth of offering ``card`` to ``to`` on my turn. What comes back is whatever
    hurts the partner's side least, worth little to mine; what counts is where my card ends up
    and its trade effect."""
    if unrefusable(card):
        return effect_value(m, card, to) - m.loss(card, to)
    worth = acceptance(m, to) * (effect_value(m, card, to) - m.loss(card, to))
    return worth - refused_cost(m.t, to)


def acceptance(m: Mind, to: int) -> float:
    """How often ``to`` accepted my offers so far (a guess of 0.7 before the first)."""
    t = m.t
    offers = done = 0
    for i, rec in enumerate(t.history):
        if rec["k"] == "trade_offered" and rec["seat"] == t.seat and rec["target"] == to:
            offers += 1
            nxt = t.history[i + 1] if i + 1 < len(t.history) else None
            done += nxt is not None and nxt["k"] == "trade_done"
    return (done + 2 * _LIKELY_ACCEPTED) / (offers + 2)


def least_costly(m: Mind, legal: list[Action], to: int) -> Action:
    return min(legal, key=lambda a: m.loss(a.card or "", to))


def gift(m: Mind, legal: list[Action]) -> Action:
    """R-H1: to a hand with room (a full one would have to give on, and back and forth)."""
    t = m.t

    def cost(a: Action) -> float:
        to = a.target if a.target is not None else -1
        full = 100.0 if t.counts[to] >= t.hand_limit else 0.0
        return m.loss(a.card or "", to) + full

    return min(legal, key=cost)


def diplomat_give(m: Mind, legal: list[Action]) -> Action:
    return least_costly(m, legal, m.t.decision["target"])


def sextant_direction(m: Mind, legal: list[Action]) -> Action:
    """Send the passes the way my item goes to the likelier ally."""
    t = m.t
    left, right = (t.seat + 1) % t.n, (t.seat - 1) % t.n
    choice = "left" if m.ally(left) >= m.ally(right) else "right"
    return next(a for a in legal if a.choice == choice)


def sextant_pass(m: Mind, legal: list[Action]) -> Action:
    t = m.t
    step = 1 if t.decision["direction"] == "left" else -1
    return least_costly(m, legal, (t.seat + step) % t.n)


def clairvoyant_order(m: Mind, legal: list[Action]) -> Action:
    """Put on top what I would most like to draw (my goal items first)."""
    t = m.t
    return max(legal, key=lambda a: _stack_score(m, t, a.cards))


def _stack_score(m: Mind, t: SeatFacts, cards: tuple[str, ...]) -> float:
    weights = (1.0, 0.6)
    return sum(w * m.worth(c, t.seat) for w, c in zip(weights, cards, strict=False))
