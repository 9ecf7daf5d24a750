"""Where the items are, as far as one seat can tell: per other seat, each card it was seen with and
the chance it still holds it.

Sources are the seat's notebook (offers it saw, items it saw, gave and got) and the public history
(who gave an unseen item to whom). A card seen in a hand stays there for sure until its holder
gives something away unseen; then each card it was known to hold moves on with the chance
1/hand size, and follows to the receiver with that chance.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.ai.seat_facts import SeatFacts
from engine.view_types import HistoryEntry, Note

_FULL_SIGHT = ("saw_items", "revealed")


@dataclass(slots=True)
class Holdings:
    known: list[dict[str, float]]  # seat -> card -> P(that seat holds it now)
    sizes: list[int]  # items each seat holds now

    def p(self, seat: int, card: str) -> float:
        return self.known[seat].get(card, 0.0)

    def located(self) -> set[str]:
        """Cards whose holder this seat knows or suspects (outside its own hand)."""
        return {c for cards in self.known for c, p in cards.items() if p > 0.0}


def track(t: SeatFacts) -> Holdings:
    n = t.n
    known: list[dict[str, float]] = [{} for _ in range(n)]
    sizes = [2 if n == 3 else 1] * n
    history = t.history
    done = 0
    for note in t.notes:
        upto = min(int(note.get("h", 0)), len(history))
        while done < upto:
            _public(t, history[done], known, sizes)
            done += 1
        _private(t, note, known)
    while done < len(history):
        _public(t, history[done], known, sizes)
        done += 1
    mine = set(t.items)
    for seat in range(n):
        cards = known[seat]
        for card in [c for c in cards if c in mine or cards[c] < 0.02]:
            del cards[card]
    known[t.seat] = {c: 1.0 for c in t.items}
    return Holdings(known, list(t.counts))


def _place(known: list[dict[str, float]], seat: int, card: str) -> None:
    for other, cards in enumerate(known):
        if other != seat:
            cards.pop(card, None)
    known[seat][card] = 1.0


def _private(t: SeatFacts, note: Note, known: list[dict[str, float]]) -> None:
    k = note["k"]
    if k in _FULL_SIGHT:
        seat = note["about"]
        cards = note["cards"] if k == "saw_items" else note["items"]
        known[seat] = {}
        for card in cards:
            _place(known, seat, card)
    elif k in ("saw_item", "gave_item"):
        _place(known, note["about"], note["card"])
    elif k in ("got_item", "drew"):
        for seen in known:
            seen.pop(note["card"], None)


def _hand_over(
    known: list[dict[str, float]], sizes: list[int], moves: list[tuple[int, int]]
) -> None:
    """Each ``(giver, to)`` handed over one item nobody here saw, all at once: every card the
    giver was known to hold went with the chance 1/its hand size."""
    before = [dict(c) for c in known]
    for giver, to in moves:
        share = 1.0 / max(1, sizes[giver])
        for card, p in before[giver].items():
            known[giver][card] = known[giver].get(card, 0.0) - p * share
            known[to][card] = min(1.0, known[to].get(card, 0.0) + p * share)


def _public(
    t: SeatFacts, rec: HistoryEntry, known: list[dict[str, float]], sizes: list[int]
) -> None:
    k = rec["k"]
    me = t.seat
    if k == "trade_done":
        a, b = rec["seat"], rec["target"]
        if me not in (a, b):
            _hand_over(known, sizes, [(a, b), (b, a)])
    elif k in ("gift", "item_taken"):
        giver, to = (rec["seat"], rec["target"]) if k == "gift" else (rec["target"], rec["seat"])
        if me not in (giver, to):
            _hand_over(known, sizes, [(giver, to)])
        sizes[giver] -= 1
        sizes[to] += 1
    elif k == "drew":
        sizes[rec["seat"]] += 1
    elif k == "sextant_passed":
        step = 1 if rec["direction"] == "left" else -1
        moves = [(s, (s + step) % t.n) for s in range(t.n)]
        _hand_over(known, sizes, [(s, to) for s, to in moves if me not in (s, to)])
