"""A lobby's join link forwarded outside the group (handlers.lobby): only the group's members
take seats. The bot asks Telegram (``getChatMember``) before seating someone; when Telegram
cannot tell, the player is seated (never kept out by the bot's own blindness)."""

from __future__ import annotations

import pytest

from handlers.i18n import t
from tests.e2e.harness import Harness, Player

STRANGER = Player(uid=7690, name="Outsider")


def _lobby() -> tuple[Harness, str]:
    players = [Player(uid=7600 + i, name=f"Rider {i}") for i in range(3)]
    h = Harness(players, seed=2)
    h.service.is_member = h.messenger.is_member  # as deployed (handlers.runtime)
    h.open_lobby_and_join()
    return h, h.last_gid


def _seated(h: Harness) -> list[int]:
    return [p["uid"] for p in h.game_doc()["players"]]


@pytest.mark.parametrize("status", ["left", "kicked"])
def test_a_forwarded_join_link_seats_nobody_from_outside_the_group(status: str) -> None:
    """Before: anyone the link reached took a seat, and could read the group's game from a
    private chat the group never saw."""
    h, gid = _lobby()
    h.api.set_member_status(h.group, STRANGER.uid, status)
    h.command(STRANGER, f"/start {gid}", chat=STRANGER.uid)
    assert STRANGER.uid not in _seated(h)
    assert h.api.messages_in(STRANGER.uid)[-1].text == t("en", "lobby.not_member")
    assert not h.api.violations and not h.errors


def test_a_member_joins_as_before_and_a_restricted_non_member_does_not() -> None:
    h, gid = _lobby()
    assert len(_seated(h)) == 3  # the group's members took their seats
    h.api.set_member_status(h.group, STRANGER.uid, "restricted")  # is_member: false
    h.command(STRANGER, f"/start {gid}", chat=STRANGER.uid)
    assert STRANGER.uid not in _seated(h)
    h.api.set_member_status(h.group, STRANGER.uid, "member")  # joined the group meanwhile
    h.command(STRANGER, f"/start {gid}", chat=STRANGER.uid)
    assert STRANGER.uid in _seated(h)


def test_when_telegram_cannot_tell_the_player_is_seated() -> None:
    h, gid = _lobby()

    def broken(chat_id: int, user_id: int) -> bool:
        raise ConnectionError("network down")

    h.messenger.gateway.is_member = broken  # type: ignore[method-assign]
    h.command(STRANGER, f"/start {gid}", chat=STRANGER.uid)
    assert STRANGER.uid in _seated(h)
