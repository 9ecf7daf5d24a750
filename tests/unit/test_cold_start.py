"""A cold container's first update runs with the cyclic garbage collector paused, and what it
built is frozen out of later collections (handlers.webhook.collection_paused): ~5% of the first
update's CPU, and a warm container's full collection walks none of the container's modules."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from typing import Any

import pytest

from handlers import timer, webhook


@pytest.fixture(autouse=True)
def collector_on() -> Iterator[None]:
    was = gc.isenabled()
    gc.enable()
    yield
    if not was:
        gc.disable()


def test_the_collector_is_paused_inside_and_resumed_after() -> None:
    frozen = gc.get_freeze_count()
    kept = [object() for _ in range(10)]  # something alive to freeze
    with webhook.collection_paused():
        assert not gc.isenabled()
    assert gc.isenabled()
    assert gc.get_freeze_count() > frozen
    assert kept


def test_the_collector_is_resumed_when_the_update_fails() -> None:
    with pytest.raises(RuntimeError), webhook.collection_paused():
        raise RuntimeError("store down")
    assert gc.isenabled()


def test_a_collector_paused_by_the_caller_stays_paused() -> None:
    gc.disable()
    with webhook.collection_paused():
        assert not gc.isenabled()
    assert not gc.isenabled()


@pytest.mark.parametrize("entry", [webhook, timer], ids=["webhook", "timer"])
def test_only_the_first_invocation_runs_with_the_collector_paused(
    entry: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[bool] = []

    def run(event: Any, context: Any, **_: Any) -> dict[str, Any]:
        seen.append(gc.isenabled())
        if event == "fail":
            raise RuntimeError("secrets unreadable")
        return {}

    monkeypatch.setattr(entry, "_cold", True)
    monkeypatch.setattr(entry, "_handler", run)
    with pytest.raises(RuntimeError):
        entry.handler("fail")
    assert gc.isenabled()  # resumed although the cold update failed
    entry.handler({})
    assert seen == [False, True]
