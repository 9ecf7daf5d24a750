"""Build exact game situations for the engine's scenario tests and drive them step by step.

``table(...)`` starts a real game and then rearranges its state: associations, occupations,
hands, the draw pile (top = last element) and whose turn it is, keeping every item card in exactly
one hand, the pile or ``removed``. ``Game`` wraps the state with the events seen so far so a
test reads like the table talk: ``g.act(0, "attack", target=2)``, ``g.close()``, ``g.supports``.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import engine
from engine import TIMEOUT, Action, Event, State
from engine.cards import ALL_ITEMS, BROTHERHOOD, OCCUPATIONS, ORDER
from engine.core import Ctx
from engine.fight import holds_window, riders
from engine.mechanics import advance

ORD = ORDER
BRO = BROTHERHOOD
NAMES = [f"p{i}" for i in range(10)]

# Unnamed seats get these first: face down they change nothing unless their holder acts.
_FILLER_OCCUPATIONS = (
    "grand_master",
    "thug",
    "bodyguard",
    "hypnotist",
    "doctor",
    "priest",
    "duelist",
    "poison_mixer",
    "diplomat",
    "clairvoyant",
)


def table(
    n: int = 4,
    *,
    hands: dict[int, list[str]] | None = None,
    assoc: list[str] | list[list[str]] | None = None,
    occ: dict[int, str] | None = None,
    occ_up: dict[int, bool] | None = None,
    occ_spent: dict[int, bool] | None = None,
    pile: list[str] | None = None,
    turn: int = 0,
    seed: int = 1,
    options: dict[str, Any] | None = None,
    drinks: bool | None = None,
) -> State:
    """A game at ``n`` players, rearranged, with ``turn``'s turn open.

    ``hands`` gives some seats' items; every other seat gets one filler card (a Key or Goblet is
    never used as filler). ``pile`` is the exact draw pile (top last); cards left over then go to
    ``removed``. Without ``pile`` the leftover cards form the pile in card order.
    """
    st, _ = engine.new_game(NAMES[:n], seed, options)
    hands = dict(hands or {})
    used = [c for h in hands.values() for c in h]
    assert len(used) == len(set(used)), "a card in two hands"
    removed = list(st.removed)
    assert not set(used) & set(removed), "a removed card in a hand"
    if pile is not None:
        assert not set(pile) & set(used) and not set(pile) & set(removed)
    spare = [
        c
        for c in ALL_ITEMS
        if c not in used and c not in removed and (pile is None or c not in pile)
    ]
    filler = [c for c in spare if c[:-1] not in ("key", "goblet") and not c.startswith("bag")]
    for seat in range(n):
        if seat not in hands:
            card = filler.pop(0)
            spare.remove(card)
            hands[seat] = [card]
    if pile is None:
        pile = spare
    else:
        removed += spare
    for seat in range(n):
        p = st.players[seat]
        p.items = list(hands[seat])
        p.notes = []
        p.timeouts = 0
        p.away = False
        if drinks is not None:
            p.drink = drinks
    st.pile = list(pile)
    st.removed = removed

    if assoc is not None:
        for seat, a in enumerate(assoc):
            st.players[seat].assoc = list(a) if isinstance(a, list) else [a]
        st.boxed_assoc = []
    occ = dict(occ or {})
    pool = [o for o in _FILLER_OCCUPATIONS if o not in occ.values()]
    for seat in range(n):
        if seat not in occ:
            occ[seat] = pool.pop(0)
    assert len(set(occ.values())) == n, "an occupation given twice"
    for seat in range(n):
        p = st.players[seat]
        p.occupation = occ[seat]
        p.occ_up = (occ_up or {}).get(seat, False)
        p.occ_spent = (occ_spent or {}).get(seat, False)
    st.occ_deck = [o for o in OCCUPATIONS if o not in occ.values()]

    st.turn = turn
    st.turn_no = 0  # the turn opened below is the game's first
    st.frames = [{"t": "turn", "seat": turn, "stage": "start"}]
    st.pending = None
    st.result = None
    ctx = Ctx(st)
    advance(ctx)
    st.rng = ctx.rng.state
    check_cards(st)
    return st


def check_cards(st: State) -> None:
    """Every item card is in exactly one hand, the pile or ``removed``; nobody is empty-handed
    (but for the moment a fight winner chooses what to give back, R-A9)."""
    where = [c for p in st.players for c in p.items] + st.pile + st.removed
    assert Counter(where) == Counter(ALL_ITEMS), Counter(where) - Counter(ALL_ITEMS)
    if st.pending is None or st.pending.kind != "giveback":
        assert all(p.items for p in st.players), "a player without items"


# -- driving the game --------------------------------------------------------------------------
def act(st: State, seat: int | None, kind: str, **kw: Any) -> tuple[State, list[Event]]:
    """Apply ``kind`` by ``seat`` to the pending decision, whatever its id."""
    assert st.pending is not None, "nothing is pending"
    if "cards" in kw:
        kw["cards"] = tuple(kw["cards"])
    if "seats" in kw:
        kw["seats"] = tuple(kw["seats"])
    return engine.apply(st, Action(kind, seat, st.pending.id, **kw))


def timeout(st: State, seat: int | None = None) -> tuple[State, list[Event]]:
    assert st.pending is not None
    return engine.apply(st, Action(TIMEOUT, seat, st.pending.id))


def close_windows(st: State) -> tuple[State, list[Event]]:
    """Time out windows while the pending decision is one nobody is still asked in."""
    events: list[Event] = []
    while st.pending is not None and st.pending.window and not st.pending.actors:
        st, ev = timeout(st)
        events += ev
    return st, events


def pass_supports(st: State, sides: dict[int, str]) -> tuple[State, list[Event]]:
    """Answer every support decision in order: ``sides[seat]`` or neutral."""
    events: list[Event] = []
    while st.pending is not None and st.pending.kind == "support":
        seat = st.pending.actors[0]
        st, ev = act(st, seat, "support", choice=sides.get(seat, "neutral"))
        events += ev
    return st, events


class Game:
    """A state plus every event since the table was set, for readable scenario tests."""

    def __init__(self, st: State, events: list[Event] | None = None) -> None:
        self.st = st
        self.events: list[Event] = list(events or [])
        self.last: list[Event] = []

    @classmethod
    def make(cls, n: int = 4, **kw: Any) -> Game:
        return cls(table(n, **kw))

    # -- reading ------------------------------------------------------------------------------
    @property
    def pending(self) -> engine.Pending:
        assert self.st.pending is not None, "nothing is pending"
        return self.st.pending

    @property
    def kind(self) -> str | None:
        return self.st.pending.kind if self.st.pending else None

    @property
    def holders(self) -> list[int]:
        """Those asked in a window for the window itself (not a rider asked only its own question
        meanwhile, engine.fight)."""
        p = self.pending
        return [s for s in p.actors if s not in riders(p) or holds_window(self.st, p, s)]

    def items(self, seat: int) -> list[str]:
        return self.st.players[seat].items

    def player(self, seat: int) -> engine.Player:
        return self.st.players[seat]

    def legal(self, seat: int) -> list[Action]:
        return engine.legal_actions(self.st, seat)

    def legal_kinds(self, seat: int) -> set[str]:
        return {a.kind for a in self.legal(seat)}

    def of(self, kind: str, events: list[Event] | None = None) -> list[Event]:
        return [e for e in (self.events if events is None else events) if e.kind == kind]

    def kinds(self, events: list[Event] | None = None) -> list[str]:
        return [e.kind for e in (self.events if events is None else events)]

    def notes(self, seat: int, kind: str) -> list[dict[str, Any]]:
        return [n for n in self.st.players[seat].notes if n["k"] == kind]

    @property
    def result(self) -> dict[str, Any]:
        assert self.st.result is not None, "the game is not over"
        return self.st.result

    # -- acting -------------------------------------------------------------------------------
    def _record(self, st: State, events: list[Event]) -> Game:
        self.st = st
        self.last = events
        self.events += events
        check_cards(st)
        return self

    def act(self, seat: int | None, kind: str, **kw: Any) -> Game:
        return self._record(*act(self.st, seat, kind, **kw))

    def timeout(self, seat: int | None = None) -> Game:
        return self._record(*timeout(self.st, seat))

    def close(self) -> Game:
        """Close the pending window by timeout (everyone still asked passes)."""
        assert self.st.pending is not None and self.st.pending.window, self.kind
        return self._record(*timeout(self.st))

    def close_idle(self) -> Game:
        """Close windows nobody is still asked in."""
        return self._record(*close_windows(self.st))

    def supports(self, sides: dict[int, str] | None = None) -> Game:
        return self._record(*pass_supports(self.st, sides or {}))

    def attack(
        self, a: int, d: int, sides: dict[int, str] | None = None, *, priest: bool = True
    ) -> Game:
        """Attack, let the Priest window close, declare supports, close the Hypnotist window:
        the boost window is then open. Windows the face-up cards show nobody can use are left
        out (R-D1)."""
        self.act(a, "attack", target=d)
        if priest and self.kind == "priest":
            self.close()
        self.supports(sides)
        if self.kind == "hypnotist":
            self.close()
        assert self.kind == "boost", self.kind
        return self

    def fight(self, a: int, d: int, sides: dict[int, str] | None = None) -> Game:
        """A whole fight up to its reward decision (or the end of the turn): nobody plays."""
        self.attack(a, d, sides)
        self.close()  # boost
        if self.kind == "doctor":
            self.close()
        return self

    def end_turn(self) -> Game:
        """If the turn player still has a free use offered, end the turn."""
        if self.kind == "turn" and self.pending.data["acted"]:
            self.act(self.pending.actors[0], "end")
        return self


__all__ = [
    "BRO",
    "NAMES",
    "ORD",
    "Game",
    "act",
    "check_cards",
    "close_windows",
    "pass_supports",
    "table",
    "timeout",
]
