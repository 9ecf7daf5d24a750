"""Issue 27 (docs/rules.md, "the next turn chosen ahead"): "your turn is next" is edited only
when what it shows changes, and a choice made on it shows ``KEPT_WAIT_SECONDS`` later (the press's
answer said it at once); what it shows is a typed version (``AheadVersion``), stored as a string
in the game's record."""

from __future__ import annotations

from types import SimpleNamespace

from handlers.ahead_message import AheadMessage, AheadVersion
from handlers.private_news import KEPT_WAIT_SECONDS


def _wait(shown: AheadVersion, version: AheadVersion) -> float | None:
    owner = SimpleNamespace(txn=SimpleNamespace(now=100.0))
    return AheadMessage._wait(owner, shown, version)  # type: ignore[arg-type]


def test_issue_27_an_ahead_version_round_trips_through_its_stored_string() -> None:
    version = AheadVersion("0123abcd", "tr.t2.cke", "key,gob,bag")
    assert AheadVersion.parse(str(version)) == version
    nothing = AheadVersion("0123abcd", "", "")
    assert AheadVersion.parse(str(nothing)) == nothing


def test_issue_27_a_version_this_code_cannot_read_shows_nothing_known() -> None:
    """A record without a version, or an older build's, never crashes the update: its message
    is edited at once with what it shows now (before: an IndexError on a version of fewer
    fields)."""
    now = AheadVersion("0123abcd", "pa", "key")
    for raw in (None, "", "0123abcd", "0123abcd:pa", 7):
        old = AheadVersion.parse(raw)
        assert old != now
        assert _wait(old, now) is None


def test_issue_27_only_a_new_choice_on_the_same_hand_waits() -> None:
    before = AheadVersion("aaaa", "", "key,gob")
    kept = AheadVersion("aaaa", "pa", "key,gob")
    assert _wait(before, kept) == 100.0 + KEPT_WAIT_SECONDS  # the answer said it
    traded = AheadVersion("bbbb", "pa", "key,dag")
    assert _wait(kept, traded) is None  # the hand changed: its options too, at once
    page = AheadVersion("cccc", "pa", "key,gob")
    assert _wait(kept, page) is None  # the choice the same: what else changed shows at once
