"""Attacks of round 11 from outside: Telegram misbehaving for one chat, forged and replayed
updates, timers. Each test fails on the code before its fix."""

from __future__ import annotations

from typing import Any

from tests.service.test_twins import (
    PLAIN,
    N,
    _attack,
    find_seed,
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
