"""The local table's long polls (``devtools.localtable.page_api.Polls``): a few seats' extra polls
never starve another seat of its one. Measured against a running table before the fix: 8 seats
holding 3 polls each (24, every slot) left a ninth seat's page with 429s only."""

from __future__ import annotations

import contextlib

import pytest

from devtools.localtable.chats import ApiError
from devtools.localtable.page_api import POLLS_PER_SEAT, Polls


def test_a_seat_without_a_poll_takes_a_slot_from_a_seat_with_several() -> None:
    woken: list[int] = []
    polls = Polls(4, lambda: woken.append(1))
    with contextlib.ExitStack() as held:
        greedy = [held.enter_context(polls.slot(1, f"t{i}")) for i in range(POLLS_PER_SEAT)]
        other = held.enter_context(polls.slot(2, "b"))
        victim = held.enter_context(polls.slot(3, "c"))  # every slot was held: a 429 before
        assert greedy[0].superseded and woken == [1]  # the greedy seat's oldest poll ends now
        assert not any(p.superseded for p in [*greedy[1:], other, victim])
        with pytest.raises(ApiError) as refused:  # the greedy seat's next waits for a slot
            held.enter_context(polls.slot(1, "t9"))
        assert refused.value.code == 429


def test_when_every_seat_holds_one_poll_a_newcomer_waits() -> None:
    """Nobody's only poll is taken: the table is full, a 429 (the page tries again in 1 s)."""
    polls = Polls(2)
    with polls.slot(1, "a") as first, polls.slot(2, "b") as second:
        with pytest.raises(ApiError) as refused, polls.slot(3, "c"):
            pass
        assert refused.value.code == 429 and not (first.superseded or second.superseded)
