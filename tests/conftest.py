"""Every test deals from its own name, so a failure on CI replays here.

The bot's deal seeds come from the operating system (``lobby.new_deal_seed``: ``secrets``); a
test that played on such a seed could fail once in many runs and never again. Tests of the
seeds themselves are marked ``os_seeds`` and keep the real source."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from handlers import lobby


@pytest.fixture(autouse=True)
def replayable_deals(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> Iterator[None]:
    if request.node.get_closest_marker("os_seeds") is None:
        rng = random.Random(request.node.nodeid)  # a str seed: the same in every process
        monkeypatch.setattr(lobby, "new_deal_seed", lambda: rng.getrandbits(lobby.DEAL_SEED_BITS))
    yield
