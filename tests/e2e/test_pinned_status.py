"""Issue 9: the living status message is pinned quietly where the bot may pin, and unpinned at
the end; where it may not, the one refusal is an answer — not retried, not logged as an error."""

from __future__ import annotations

from devtools.botapi import BOT_ID
from tests.e2e.harness import GROUP, Harness, Player


def _game(bot_status: str) -> Harness:
    players = [Player(uid=3000 + i, name=f"P{i}", lang="en") for i in range(4)]
    h = Harness(players, seed=5)
    h.api.member_status[(GROUP, BOT_ID)] = bot_status
    h.open_lobby_and_join()
    h.start()
    return h


def test_the_status_is_pinned_without_a_notification_and_unpinned_at_the_end() -> None:
    h = _game("administrator")
    h.play_by_buttons()
    assert h.state().over
    status = h.game_doc()["status"]["msg"]
    pins = h.api.calls_to("pinChatMessage")
    assert len(pins) == 1
    assert pins[0]["message_id"] == status and pins[0]["disable_notification"] is True
    assert [c["message_id"] for c in h.api.calls_to("unpinChatMessage")] == [status]
    methods = [c.method for c in h.api.calls]
    pinned, unpinned = methods.index("pinChatMessage"), methods.index("unpinChatMessage")
    assert methods[pinned:unpinned].count("editMessageText") > 10, "pinned during the game"
    assert not any(m.pinned for m in h.api.messages_in(GROUP))
    assert not h.api.violations and not h.errors


def test_a_refused_pin_is_tried_once_and_not_logged_as_an_error() -> None:
    h = _game("member")
    h.play_by_buttons()
    assert h.state().over
    assert len(h.api.calls_to("pinChatMessage")) == 1
    assert any("not enough rights" in e[2] for e in h.api.errors)
    assert not h.api.calls_to("unpinChatMessage"), "nothing to unpin"
    assert not h.api.violations and not h.errors
