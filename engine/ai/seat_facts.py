"""What a seat's view says, read once: who I am, my cards, the table's counts, my decision."""

from __future__ import annotations

from dataclasses import dataclass

from engine.cards import (
    BAG_OF,
    BLACK_PEARL,
    BROKEN_MIRROR,
    CASTING_KNIVES,
    COAT_OF_ARMS,
    DAGGER,
    GLOVES,
    GOAL_KIND,
    MONOCLE,
    POISON_RING,
    PRIVILEGE,
    UNREFUSABLE_ITEMS,
    WHIP,
    hand_limit,
    item_kind,
)
from engine.kinds import DecisionKind
from engine.state import other_association
from engine.view_types import DecisionData, FightView, HistoryEntry, Note, SeatView


@dataclass(frozen=True, slots=True)
class SeatFacts:
    seat: int
    n: int
    association: str
    enemy_association: str
    assoc_cards: tuple[str, ...]
    items: tuple[str, ...]
    occupation: str
    occ_up: bool
    occ_spent: bool
    drink: bool
    counts: tuple[int, ...]  # items each seat holds
    face_up: tuple[str | None, ...]  # occupations shown on the table
    spent: tuple[bool | None, ...]  # of those shown, which were used up
    drinks: tuple[bool, ...]
    pile: int
    bags_are_goals: bool
    removed: tuple[str, ...]  # item cards out of this game
    round: int
    options: dict[str, object]
    decision_kind: DecisionKind | None  # None: nothing asked
    decision: DecisionData
    decision_id: int
    fight: FightView | None
    history: tuple[HistoryEntry, ...]
    notes: tuple[Note, ...]

    @classmethod
    def read(cls, view: SeatView) -> SeatFacts:
        table = view["table"]
        me = view["me"]
        decision = view["decision"]
        assoc = me["association"]
        return cls(
            seat=view["seat"],
            n=len(table["players"]),
            association=assoc,
            enemy_association=other_association(assoc),
            assoc_cards=tuple(me["assoc"]),
            items=tuple(me["items"]),
            occupation=me["occupation"],
            occ_up=me["occ_up"],
            occ_spent=me["occ_spent"],
            drink=me["drink"],
            counts=tuple(p["items"] for p in table["players"]),
            face_up=tuple(p["occupation"] for p in table["players"]),
            spent=tuple(p["spent"] for p in table["players"]),
            drinks=tuple(bool(p["drink"]) for p in table["players"]),
            pile=table["pile"],
            bags_are_goals=table["bags_are_goals"],
            removed=tuple(table["removed"]),
            round=table["round"],
            options=table["options"],
            decision_kind=decision["kind"] if decision else None,
            decision=decision["data"] if decision else {},
            decision_id=decision["id"] if decision else 0,
            fight=table["fight"],
            history=tuple(table.get("history", ())),
            notes=tuple(view["notes"]),
        )

    @property
    def others(self) -> list[int]:
        return [s for s in range(self.n) if s != self.seat]

    @property
    def hand_limit(self) -> int:
        return hand_limit(self.n)

    def goal_of(self, association: str, card: str) -> bool:
        """Whether ``card`` counts as a goal item of ``association`` now (R-W2)."""
        return item_kind(card) == GOAL_KIND[association] or (
            self.bags_are_goals and card == BAG_OF[association]
        )

    def mine(self, card: str) -> bool:
        return self.goal_of(self.association, card)

    def theirs(self, card: str) -> bool:
        return self.goal_of(self.enemy_association, card)

    def my_goal_count(self) -> int:
        return sum(1 for c in self.items if self.mine(c))

    def option(self, name: str) -> bool:
        return bool(self.options.get(name))


# How much holding a card is worth to a player of ``SeatFacts.association`` (goal items aside).
_TOOL_VALUE = {
    MONOCLE: 3.0,
    PRIVILEGE: 2.5,
    DAGGER: 1.5,
    GLOVES: 1.5,
    POISON_RING: 1.5,
    CASTING_KNIVES: 1.2,
    WHIP: 1.2,
    COAT_OF_ARMS: 2.0,
    "tome": 1.0,
    "coat": 1.0,
    "sextant": 1.0,
    BROKEN_MIRROR: 0.5,
    BLACK_PEARL: -6.0,  # it forbids claiming (R-W1)
}
MY_GOAL = 10.0
THEIR_GOAL = 4.0  # kept out of their hands
HIDDEN_BAG = 3.0  # a Bag before the pile runs out: a draw each time it is traded on


def value_to(t: SeatFacts, association: str, card: str, their_goal: float = THEIR_GOAL) -> float:
    """What ``card`` is worth in the hand of a player of ``association`` (the other side's goal
    items ``their_goal``: kept out of their hands)."""
    if t.goal_of(association, card):
        return MY_GOAL
    if t.goal_of(other_association(association), card):
        return their_goal
    if card.startswith("bag_"):
        return HIDDEN_BAG + (1.0 if card == BAG_OF[association] else 0.0)
    return _TOOL_VALUE.get(item_kind(card), 1.0)


def unrefusable(card: str) -> bool:
    return card in UNREFUSABLE_ITEMS
