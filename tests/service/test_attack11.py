"""Attacks of round 11 from outside: Telegram misbehaving for one chat, forged and replayed
updates, timers. Each test fails on the code before its fix."""

from __future__ import annotations

from typing import Any

import pytest

import engine
from tests.service.test_queue_hold import BookedFull
from tests.service.test_twins import (
    PLAIN,
    N,
    _attack,
    find_seed,
    plain_in_deck,
    seats,
)
from tests.service.twins import Twin, deal, first_difference, give_occupation


def _failing_for(twin: Twin, chat: int, seconds: float) -> None:
    """From now on, for ``seconds``, Telegram answers 500 to every message sent to ``chat``
    (a data centre's bad minute for that one user; the rest of Telegram answers)."""
    api = twin.harness.api
    handle = api.handle
    until = twin.now + seconds

    def failing(method: str, params: dict[str, Any]) -> tuple[int, bytes]:
        if params.get("chat_id") == chat and twin.now < until:
            return 500, b'{"ok": false, "error_code": 500, "description": "Internal Server Error"}'
        return handle(method, params)

    api.handle = failing  # type: ignore[method-assign]


def test_R_D1_a_window_prompt_telegram_failed_to_take_does_not_hold_the_window_open() -> None:
    """A: the defender holds the Priest, so the Priest window asks them; B: nobody holds it.
    Telegram fails every message to the defender's chat for a minute at both tables. The failed
    prompt held the game's deadlines as any failed prompt does, and once the window was over it
    was tried again (failing, then arriving late) under the support's decision, which it held
    and stretched: the group saw the fight go on at 112 s at A and at 36 s at B, and learnt
    that the defender held the Priest. A window's prompt, or one whose decision closed for its
    seat, moves no deadline now (``holds.awaited_prompt``)."""
    seed = find_seed(lambda st: "priest" in st.occ_deck and any(o in PLAIN for o in st.occ_deck))
    _, x, _ = seats(deal(N, seed))
    a, b = (
        Twin(N, seed, lambda st: give_occupation(st, x, "priest")),
        Twin(
            N, seed, lambda st: give_occupation(st, x, next(o for o in st.occ_deck if o in PLAIN))
        ),
    )
    for twin in (a, b):
        twin.start()
        _failing_for(twin, twin.player(x).uid, 60)
        _attack(twin)
        twin.wait(200)
    assert a.group() == b.group(), "group: " + first_difference(a.group(), b.group())
    held = [float((t.harness.game_doc().get("hold") or {}).get("extended", 0.0)) for t in (a, b)]
    assert held[0] == held[1], held


def _slow(twin: Twin, seconds: float = 0.1) -> None:
    """Every Bot API call takes ``seconds`` of the clock (Telegram's round trip)."""
    api = twin.harness.api
    handle = api.handle

    def slow(method: str, params: dict[str, Any]) -> tuple[int, bytes]:
        twin.harness.clock.advance(seconds)
        return handle(method, params)

    api.handle = slow  # type: ignore[method-assign]


@pytest.mark.parametrize("holder", ["defender", "supporter"])
def test_R_D1_a_supporters_prompt_never_waits_on_the_priest_holders(holder: str) -> None:
    """Each Bot API call takes 0.1 s. A: the defender (or the second to declare) holds the
    Priest, so the Priest window asks them; B: nobody holds it. The window's prompts went out
    in the order of its actors, the holder first: every supporter's support prompt (asked at
    the fight's start, issue 9) came 0.1 s later at A (when the second to declare held it, the
    first one's), telling them someone held the Priest. The riders' prompts go first now, in
    the order they answer (``prompt_versions.send_order``). Not covered: later private messages
    still go one call after another (a holder's delayed edit queued before a supporter's
    reminder; the boost window asks who can play, in seat order)."""
    seed = find_seed(lambda st: "priest" in st.occ_deck and any(o in PLAIN for o in st.occ_deck))
    turn, defender, first = seats(deal(N, seed))
    x = defender if holder == "defender" else (first + 1) % N
    a, b = (
        Twin(N, seed, lambda st: give_occupation(st, x, "priest")),
        Twin(N, seed, lambda st: give_occupation(st, x, plain_in_deck(st))),
    )
    for twin in (a, b):
        twin.start()
        _slow(twin)
        _attack(twin)
        twin.wait(8)  # the window (5 s), all its prompts out
    assert a.group() == b.group(), "group: " + first_difference(a.group(), b.group())
    for seat in set(range(N)) - {turn, defender, x}:
        mine_a, mine_b = a.stream(a.player(seat).uid), b.stream(b.player(seat).uid)
        assert mine_a == mine_b, f"seat {seat}: " + first_difference(mine_a, mine_b)


def test_R_D1_a_hypnotist_prompt_left_for_the_flush_timer_does_not_hold_the_window_open() -> None:
    """The shared budget is booked past the invocation (as at 200 games) when the last support
    is told and the Hypnotist window opens. A: the attacker is the Hypnotist, so the window asks
    them; B: not. The prompt, left for the flush timer, held the game's deadlines like any
    message that got no slot: the window's deadline came 26 s later at A than at B."""
    seed = find_seed(
        lambda st: (
            "hypnotist" in st.occ_deck
            and any(o in PLAIN for o in st.occ_deck)
            and all(p.occupation != "priest" for p in st.players)
        )
    )
    turn, _, _ = seats(deal(N, seed))
    a, b = (
        Twin(N, seed, lambda st: give_occupation(st, turn, "hypnotist")),
        Twin(N, seed, lambda st: give_occupation(st, turn, plain_in_deck(st))),
    )
    for twin in (a, b):
        twin.start()
        _attack(twin)
        while (aw := engine.awaiting(twin.state())) is not None and aw.kind != "hypnotist":
            if aw.kind == "support" and aw.part == N - 3:  # the last supporter's turn
                twin.harness.service.pipeline.limiter = BookedFull()
            twin.run_until((twin.due() or twin.now) + 0.01)
    dues = [twin.harness.game_doc()["due"] for twin in (a, b)]
    assert dues[0] == dues[1], dues
