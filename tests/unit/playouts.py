"""Seeded random games for the rendering tests: every step with the state before and after.

The policy is random over the legal actions, with a few timeouts, and holds claims back for a
while so games get long enough to reach Bags turning, Coats, Sextants and full hands.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

import engine
from engine import Action, Event, State

NAMES = ["Ann", "Bo<b>", "Cy & Co", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo"]
CLAIMS = ("claim", "claim_other", "solo")


@dataclass(frozen=True)
class Step:
    before: State
    seat: int | None  # None: the clock (a deadline passed)
    action: Action
    after: State
    events: list[Event]


def options(rnd: random.Random, n: int) -> dict[str, object]:
    return {
        "items": rnd.choice(["full", "full", "beginner"]),
        "smuggling": rnd.random() < 0.4,
        "fortune_telling": rnd.random() < 0.5,
        "advanced_three": n == 3 and rnd.random() < 0.5,
        "personal_scores": rnd.random() < 0.5,
    }


def choose(rnd: random.Random, st: State, seat: int, step: int) -> Action:
    legal = engine.legal_actions(st, seat)
    calm = [a for a in legal if a.kind not in CLAIMS]
    if calm and (step < 250 or rnd.random() < 0.97):
        return rnd.choice(calm)
    action = rnd.choice([a for a in legal if a.kind in CLAIMS] or legal)
    if action.kind in ("claim", "claim_other"):
        others = [s for s in range(st.n) if s != seat]
        allies = tuple(rnd.sample(others, rnd.randint(0, min(3, len(others)))))
        action = Action(action.kind, seat, action.decision, seats=allies)
    return action


def game(
    seed: int, n: int | None = None, max_steps: int = 1500, names: list[str] = NAMES
) -> Iterator[Step]:
    rnd = random.Random(seed)
    n = n or rnd.randint(3, 10)
    st, _ = engine.new_game(names[:n], seed, options(rnd, n))
    for step in range(max_steps):
        if st.over:
            return
        aw = engine.awaiting(st)
        assert aw is not None
        seat: int | None = None
        if aw.seats and rnd.random() < 0.97:
            seat = rnd.choice(aw.seats)
            action = choose(rnd, st, seat, step)
        else:
            action = engine.timeout_action(st)
        after, events = engine.apply(st, action)
        yield Step(st, seat, action, after, events)
        st = after


def started(seed: int, n: int | None = None) -> tuple[State, list[Event]]:
    rnd = random.Random(seed)
    n = n or rnd.randint(3, 10)
    return engine.new_game(NAMES[:n], seed, options(rnd, n))
