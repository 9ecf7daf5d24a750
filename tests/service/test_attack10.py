"""Attacks on the day's merges (issue 27): the living message at the story's foot, "🔜 Offer my
turn ahead again", the kept choice's delayed edit. Each test fails on the code before its fix."""

from __future__ import annotations

from handlers import fmt
from handlers.store_keys import game_key
from infra.ports import Put
from tests.service.service_game import ServiceGame

FULL = "\n".join(["⏭️ a line told before"] * 180)  # 3,960 characters


def test_issue_27_a_story_send_left_uncertain_and_full_loses_no_line_and_no_status() -> None:
    """R-V1: a story message whose send is uncertain (the process died between the call and its
    answer) has its lines sent again with the next ones. They were merged without a size check,
    so that sends uncertain in a row (Telegram timing out for a while) grew one text past
    Telegram's 4,096, which was cut from its end: the newest lines and the status at its foot
    were never shown to the group."""
    table = ServiceGame(n=6)
    table.start()
    got = table.store.get(game_key(table.gid))
    assert got is not None
    got.doc["story"].update(msg=None, uncertain=True, body=FULL, seq=-99)
    table.store.commit([Put(got.key, got.doc, got.version)])
    before = len(table.group_texts())
    table.attack()
    table.flush_group()
    sent = table.group_texts()[before:]
    assert sent, "the lines go"
    assert all(fmt.size(text) <= fmt.MAX_TEXT for text in sent)
    assert all(not text.endswith("…") for text in sent), [x[-80:] for x in sent]
    assert any(text.startswith(FULL) for text in sent), "the uncertain lines come again"
    assert "⚔️" in sent[-1] and "📋" in sent[-1], sent[-1][-300:]
