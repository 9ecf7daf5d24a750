"""Issue 27 (replacing issue 9's pinned status): the table's status lives at the foot of the
group's newest story message and is never pinned, whether or not the bot may pin: a pin that
follows the newest message would post a "pinned" service message each time it moves, and one
that stays is a second message to edit (docs/rules.md, R-V1)."""

from __future__ import annotations

import pytest

from devtools.botapi import BOT_ID
from tests.e2e.harness import GROUP, Harness, Player


@pytest.mark.parametrize("bot_status", ["administrator", "member"])
def test_the_status_is_never_pinned_and_the_end_leaves_no_status_on_show(bot_status: str) -> None:
    players = [Player(uid=3000 + i, name=f"P{i}") for i in range(4)]
    h = Harness(players, seed=5)
    h.api.member_status[(GROUP, BOT_ID)] = bot_status
    h.open_lobby_and_join()
    h.start()
    h.play_by_buttons()
    assert h.state().over
    assert not h.api.calls_to("pinChatMessage") and not h.api.calls_to("unpinChatMessage")
    shown = h.api.messages_in(GROUP)
    assert not any(m.pinned for m in shown)
    assert not [m.text for m in shown if "📋" in m.text], "no status left on show"
    edits = [c for c in h.api.calls_to("editMessageText") if c["chat_id"] == GROUP]
    assert sum("📋" in str(c["text"]) for c in edits) > 10, "the status follows the game"
    assert not h.api.violations and not h.errors
