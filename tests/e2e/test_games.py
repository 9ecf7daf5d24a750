"""Whole games through the webhook's service and a fake Bot API that validates every call."""

from __future__ import annotations

import pytest

from tests.e2e.harness import GROUP, Harness, Player

LANGS = ("en", "de", "zh-Hans")


def table(n: int, seed: int) -> Harness:
    players = [Player(uid=2000 + i, name=f"Rider <{i}> & co", lang=LANGS[i % 3]) for i in range(n)]
    return Harness(players, seed=seed)


@pytest.mark.parametrize(("n", "seed"), [(3, 1), (5, 2), (6, 3), (10, 4)])
def test_complete_game_by_buttons(n: int, seed: int) -> None:
    h = table(n, seed)
    h.open_lobby_and_join()
    h.start()
    final = h.play_by_buttons()
    assert final.result is not None
    assert not h.api.violations
    assert not h.errors, h.errors[0].getMessage()
    texts = [m.raw_text for m in h.api.messages_in(GROUP)]
    assert all("<0>" not in t for t in texts), "user-given names are escaped"
    assert h.presses > 10


def test_complete_game_by_timeouts_alone() -> None:
    h = table(4, 9)
    h.open_lobby_and_join()
    h.start()
    final = h.play_by_timeouts()
    assert final.result is not None and final.result["how"] == "abandoned"
    assert not h.api.violations
    assert not h.errors
