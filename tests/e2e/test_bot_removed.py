"""The bot removed from the group mid-game (Telegram answers the group 403 "bot was kicked"):
the game's creator is told privately, once, that the bot cannot write in the group, as when the
group takes the bot's right to write away; the game goes on in the private chats."""

from __future__ import annotations

from handlers.i18n import t
from tests.e2e.harness import GROUP, Harness, Player


def test_the_creator_is_told_once_when_the_bot_is_kicked_from_the_group_mid_game() -> None:
    players = [Player(uid=7100 + i, name=f"Rider {i}") for i in range(4)]
    h = Harness(players, seed=6)
    h.open_lobby_and_join()
    h.start()
    h.api.blocked_chats.add(GROUP)  # kicked: every call to the group now answers 403
    final = h.play_by_buttons()
    assert final.over
    creator = players[0].uid
    told = [m for m in h.api.messages_in(creator) if m.text == t("en", "bot.muted_in_group")]
    assert len(told) == 1
    assert not h.api.violations and not h.errors
