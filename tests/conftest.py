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


# The longest tests go first (measured with ``--durations``: a fault game on moto takes minutes,
# a browser game one to two), so that with ``-n 2 --dist worksteal`` (``make test``) the other
# worker takes the short ones meanwhile and nobody waits at the end for a long test started
# last. Only the order changes: every test still runs, each on its own.
LONG_FIRST = (
    "tests/e2e/test_faults.py::",
    "tests/browser/test_local_table.py::",
    "tests/browser/test_newcomer.py::",
    "tests/unit/test_readme_figures.py::",
    "tests/unit/test_simulate.py::",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    def rank(item: pytest.Item) -> int:
        for i, prefix in enumerate(LONG_FIRST):
            if item.nodeid.startswith(prefix):
                return i
        return len(LONG_FIRST)

    items.sort(key=rank)  # stable: the order within each group stays as collected
