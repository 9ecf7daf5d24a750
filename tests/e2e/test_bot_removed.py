"""The bot removed from the group mid-game (Telegram answers the group 403 "bot was kicked"):
the game's creator is told privately, once, that the bot cannot write in the group, as when the
group takes the bot's right to write away; the game goes on in the private chats."""

from __future__ import annotations

from devtools.botapi.updates import my_chat_member
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


def _calls_to(h: Harness, chat: int, since: int) -> int:
    return sum(1 for call in h.api.calls[since:] if call.params.get("chat_id") == chat)


def test_a_group_that_removed_the_bot_is_not_tried_again_until_the_bot_is_back() -> None:
    """A game whose group removed the bot stopped nobody from calling it: 112 refused calls in
    one game. Once the group's 403 marks it muted nothing more goes there; the game still ends
    on its deadlines; added back (``my_chat_member``: member), the bot shows a fresh status there
    and the group follows the game again to its end."""
    players = [Player(uid=7200 + i, name=f"Rider {i}") for i in range(4)]
    h = Harness(players, seed=6)
    h.open_lobby_and_join()
    h.start()
    kicked = len(h.api.calls)
    h.api.blocked_chats.add(GROUP)  # removed: every call to the group now answers 403
    h.play_by_buttons(stop=40)
    refused = _calls_to(h, GROUP, kicked)
    assert 1 <= refused <= 2  # the call that found out (and at most one already under way)
    assert h.game_doc().get("muted") is True
    creator = players[0]
    told = [m for m in h.api.messages_in(creator.uid) if m.text == t("en", "bot.muted_in_group")]
    assert len(told) == 1

    h.api.blocked_chats.discard(GROUP)
    back = len(h.api.calls)
    update = my_chat_member(
        next(h.ids), GROUP, "supergroup", creator.uid, creator.name, "left", "member"
    )
    shown_before = {m.message_id for m in h.api.messages_in(GROUP)}
    h.service.handle_update(update)
    living = h.game_doc()["story"]
    fresh = [m for m in h.api.messages_in(GROUP) if m.message_id not in shown_before]
    assert [m.raw_text for m in fresh] == [living["foot"]]  # a fresh status, in the group
    final = h.play_by_buttons()
    assert final.over
    assert _calls_to(h, GROUP, back) > 2  # the group follows the game again
    shown = h.api.message(GROUP, h.game_doc()["story"]["msg"]).text
    assert "🏁" in shown and "📋" not in shown  # the reveal, no status left at its foot
    assert not h.api.violations and not h.errors


def test_the_update_that_the_bot_was_removed_stops_the_group_s_messages_before_any_refusal() -> (
    None
):
    players = [Player(uid=7250 + i, name=f"Rider {i}") for i in range(4)]
    h = Harness(players, seed=6)
    h.open_lobby_and_join()
    h.start()
    h.api.blocked_chats.add(GROUP)
    creator = players[0]
    update = my_chat_member(
        next(h.ids), GROUP, "supergroup", creator.uid, creator.name, "member", "kicked"
    )
    since = len(h.api.calls)
    h.service.handle_update(update)
    assert h.play_by_buttons().over  # every wait has a deadline: the game still ends
    assert _calls_to(h, GROUP, since) == 0
    told = [m for m in h.api.messages_in(creator.uid) if m.text == t("en", "bot.muted_in_group")]
    assert len(told) == 1
    assert not h.api.violations and not h.errors
