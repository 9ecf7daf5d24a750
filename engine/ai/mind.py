"""One decision's picture of the game: the view read, the beliefs and the items tracked, and what
a card is worth where it lies."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.ai.beliefs import Beliefs
from engine.ai.holdings import Holdings
from engine.ai.seat_facts import MY_GOAL, SeatFacts, value_to
from engine.ai.style import AI_STYLE, Style
from engine.cards import ALL_ITEMS, BAG_OF

CONFIDENT = 0.9  # an ally this sure may be handed goal items and named in a claim
COLLECTOR_BONUS = 3.0  # a goal item gathered in the hand that will claim


@dataclass(slots=True)
class Mind:
    t: SeatFacts
    beliefs: Beliefs
    holdings: Holdings
    style: Style = AI_STYLE
    _collector: int | None = field(default=None)

    def ally(self, seat: int) -> float:
        return self.beliefs.ally[seat]

    def doubt(self, seat: int) -> float:
        """1 when a player's association is a coin toss for me, 0 when I know it."""
        return 1.0 - abs(2.0 * self.ally(seat) - 1.0)

    def worth(self, card: str, seat: int) -> float:
        """What ``card`` in ``seat``'s hand is worth to my association."""
        t = self.t
        kept = self.style.their_goal
        if seat == t.seat:
            return value_to(t, t.association, card, kept)
        p = self.ally(seat)
        theirs = value_to(t, t.enemy_association, card, kept)
        ours = value_to(t, t.association, card, kept)
        return p * ours - (1 - p) * self.style.enemy_weight * theirs

    def loss(self, card: str, to: int) -> float:
        """What handing ``card`` from my hand to ``to`` costs my association."""
        cost = self.worth(card, self.t.seat) - self.worth(card, to)
        if self.t.mine(card) and to == self.collector():
            cost -= COLLECTOR_BONUS * self.ally(to)
        return cost

    def gain(self, card: str, source: int) -> float:
        """What getting ``card`` from ``source`` into my hand is worth to my association."""
        gain = self.worth(card, self.t.seat) - self.worth(card, source)
        if self.t.mine(card) and self.collector() == self.t.seat:
            gain += COLLECTOR_BONUS * 0.5
        return gain

    def goal_estimate(self, seat: int) -> float:
        t = self.t
        if seat == t.seat:
            return float(t.my_goal_count())
        return sum(p for c, p in self.holdings.known[seat].items() if t.mine(c))

    def collector(self) -> int:
        """The hand our goal items should gather in: of me and the allies I am sure of, the one
        seen with the most of them (ties to the lower seat, so allies agree when they see the
        same)."""
        if self._collector is None:
            t = self.t
            team = [t.seat] + [s for s in t.others if self.ally(s) >= CONFIDENT]
            self._collector = max(team, key=lambda s: (round(self.goal_estimate(s), 1), -s))
        return self._collector

    def unseen_goal_chance(self) -> float:
        """The chance that an item I know nothing about is one of my goal items."""
        t = self.t
        located = self.holdings.located() | set(t.items)
        unseen = [c for c in ALL_ITEMS if c not in located and c not in t.removed]
        if not unseen:
            return 0.0
        return sum(1 for c in unseen if t.mine(c)) / len(unseen)

    def best_kept(self, cards: list[str] | tuple[str, ...]) -> str:
        return max(cards, key=lambda c: self.worth(c, self.t.seat))


def urgency(round_: int) -> float:
    """0 in the first rounds, growing to 1 by round 20: a stalled game calls for risks."""
    return min(1.0, max(0.0, (round_ - 8) / 12))


def draw_value(m: Mind) -> float:
    """What drawing the top card of the pile is worth."""
    t = m.t
    if t.pile == 0:
        return 0.0
    top = stacked_top(t)
    value = 1.0 + MY_GOAL * m.unseen_goal_chance()
    if top is not None:
        value = value_to(t, t.association, top, m.style.their_goal)
    if my_bag_with_us(m):  # R-W2: every draw brings our Bag nearer to counting
        value += 2.0 * MY_GOAL / (t.pile + 4)
    return value


def my_bag_with_us(m: Mind) -> bool:
    """My association's Secret Bag is in my hand or a hand I know is an ally's."""
    bag = BAG_OF[m.t.association]
    if bag in m.t.items:
        return True
    return any(m.ally(s) >= CONFIDENT and m.holdings.p(s, bag) > 0.5 for s in m.t.others)


def stacked_top(t: SeatFacts) -> str | None:
    """The top card of the pile, if I put it there with the Clairvoyant and nobody drew since."""
    for i in range(len(t.notes) - 1, -1, -1):
        note = t.notes[i]
        if note["k"] == "stacked_pile":
            since = t.history[int(note.get("h", 0)) :]
            draws = sum(1 for r in since if r["k"] == "drew")
            cards = note["cards"]
            return cards[draws] if draws < len(cards) else None
    return None
