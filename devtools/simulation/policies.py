"""Who decides for a seat in simulations: a ``Policy`` picks one of the legal actions.

Policies take whatever the caller has (the full ``State`` in the simulator, a seat's ``view``
elsewhere), the seat, the legal actions from ``engine.legal_actions`` and an ``engine.rng.Rng``
owned by the caller, so a run is reproducible from its seed. They never touch the global
``random``.

``policies_for(name, n, rng)`` returns one policy per seat: ``random``, the AI passenger ``ai``
and the benchmark's ``baseline`` (both in ``engine.ai``, deciding from the seat's view), or any
policy plugged in with ``register``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

from engine.actions import Action
from engine.ai import ai_seat, baseline_seat, expert_seat
from engine.rng import Rng

CLAIMS = frozenset({"claim", "claim_other", "solo"})
TEAM_CLAIMS = frozenset({"claim", "claim_other"})


class Policy(Protocol):
    def choose(self, st: Any, seat: int, legal: Sequence[Action], rng: Rng) -> Action:
        """One of ``legal`` (a team claim may get its ``seats`` filled in)."""
        ...


class RandomPolicy:
    """Uniform among the legal actions, except that a victory claim is taken only with
    probability ``claim_permille``/1000 when one is on offer (so random games last a realistic
    number of rounds), naming a random subset of the other players as allies."""

    __slots__ = ("claim_permille", "max_allies")

    def __init__(self, claim_permille: int = 25, max_allies: int = 4) -> None:
        self.claim_permille = claim_permille
        self.max_allies = max_allies

    def choose(self, st: Any, seat: int, legal: Sequence[Action], rng: Rng) -> Action:
        n_legal = len(legal)
        if n_legal == 1:
            return legal[0]
        # Claims are only offered on a turn decision before the action, whose list starts
        # with "pass"; everything else is a plain uniform choice.
        if legal[0].kind != "pass":
            return legal[rng.below(n_legal)]
        claims = [a for a in legal if a.kind in CLAIMS]
        if not claims:
            return legal[rng.below(n_legal)]
        if rng.below(1000) < self.claim_permille:
            action = claims[rng.below(len(claims))]
            if action.kind in TEAM_CLAIMS:
                return _with_allies(action, seat, _seat_count(st), self.max_allies, rng)
            return action
        pick = rng.below(n_legal - len(claims))
        for action in legal:
            if action.kind in CLAIMS:
                continue
            if pick == 0:
                return action
            pick -= 1
        raise AssertionError("unreachable")


def _seat_count(st: Any) -> int:
    n = getattr(st, "n", None)
    if isinstance(n, int):
        return n
    if isinstance(st, dict):  # a view: the table lists every player
        return len(st["table"]["players"])
    raise TypeError("cannot tell the number of players")


def _with_allies(action: Action, seat: int, n: int, max_allies: int, rng: Rng) -> Action:
    others = [s for s in range(n) if s != seat]
    k = rng.below(min(max_allies, len(others)) + 1)
    for i in range(k):  # partial Fisher–Yates: the first k are a uniform random subset
        j = i + rng.below(len(others) - i)
        others[i], others[j] = others[j], others[i]
    return Action(action.kind, seat, action.decision, seats=tuple(sorted(others[:k])))


# -- choosing a policy per seat --------------------------------------------------------------
PolicyFactory = Callable[[], Policy]
_REGISTRY: dict[str, PolicyFactory] = {
    "random": RandomPolicy,
    "ai": ai_seat,  # the AI passenger (engine.ai), deciding from its seat's view
    "expert": expert_seat,  # the AI passenger with a look-ahead (engine.ai.expert)
    "baseline": baseline_seat,  # random moves, claims only what its own hand proves
}
ALIASES = {"mixed": "mix:ai,baseline,random"}


def register(name: str, factory: PolicyFactory) -> None:
    """Make ``name`` usable in ``policies_for`` (and ``--policy`` of the simulator)."""
    if not name or "-vs-" in name or "," in name or ":" in name:
        raise ValueError(f"bad policy name {name!r}")
    _REGISTRY[name] = factory


def names() -> list[str]:
    return sorted(_REGISTRY)


def policies_for(
    name: str, n: int, rng: Rng, associations: Sequence[str] | None = None
) -> list[Policy]:
    """One policy per seat for a game of ``n`` players (see ``seat_labels``)."""
    return [_factory(label)() for label in seat_labels(name, n, rng, associations)]


def seat_labels(
    name: str, n: int, rng: Rng, associations: Sequence[str] | None = None
) -> list[str]:
    """The registered policy each seat plays.

    - ``"random"`` (any registered name): every seat plays it.
    - ``"a-vs-b"``: with the seats' ``associations`` given, one association (drawn at random)
      plays ``a`` and the other ``b``; without, a random half of the seats (rounded down).
    - ``"mix:a,b,…"``: each seat independently plays one of the listed policies;
      ``"mixed"`` is ``mix:ai,baseline,random``.
    """
    name = ALIASES.get(name, name)
    if name in _REGISTRY:
        return [name] * n
    if "-vs-" in name:
        first, _, second = name.partition("-vs-")
        for label in (first, second):
            _factory(label)
        if associations is not None:
            sides = sorted(set(associations))
            playing_first = sides[rng.below(len(sides))]
            return [first if a == playing_first else second for a in associations]
        seats = list(range(n))
        rng.shuffle(seats)
        team_a = set(seats[: n // 2])
        return [first if s in team_a else second for s in range(n)]
    if name.startswith("mix:"):
        labels = [x for x in name[4:].split(",") if x]
        for label in labels:
            _factory(label)
        if not labels:
            raise ValueError("mix: needs at least one policy")
        return [labels[rng.below(len(labels))] for _ in range(n)]
    raise ValueError(f"unknown policy {name!r} (known: {', '.join(names())})")


def policy(name: str) -> Policy:
    """A new instance of the registered policy ``name``."""
    return _factory(name)()


def _factory(name: str) -> PolicyFactory:
    try:
        return _REGISTRY[name]
    except KeyError:
        raise ValueError(f"unknown policy {name!r} (known: {', '.join(names())})") from None


__all__ = [
    "Policy",
    "RandomPolicy",
    "names",
    "policies_for",
    "policy",
    "register",
    "seat_labels",
]
