"""A player who blocked the bot mid-game and unblocked it: the game had stopped writing to them
(their decisions took their defaults, told to the table once, R-D1) and never wrote again, as
only a button press — on a message they never got — made them reachable. Telegram's
``my_chat_member`` (kicked -> member in their private chat) now does: their next prompts reach
them and they play on."""

from __future__ import annotations

from devtools.botapi.updates import my_chat_member
from tests.e2e.harness import Harness, Player


def test_a_player_who_unblocks_the_bot_gets_their_prompts_again() -> None:
    players = [Player(uid=7700 + i, name=f"Rider {i}") for i in range(4)]
    h = Harness(players, seed=5)
    h.service.deal_seeds = lambda: 4242  # the same deal every run
    h.open_lobby_and_join()
    blocked = players[2]
    h.api.blocked_chats.add(blocked.uid)  # blocked the bot after joining
    h.start()
    for _ in range(400):  # on until the table was told the bot cannot reach them
        if h.state().over or blocked.uid in h.game_doc().get("unreachable_noted", []):
            break
        due = h.game_doc()["due"]
        h.clock.advance(max(0.0, due["at"] - h.clock.now()) + 0.01)
        h.fire_timers()
    assert blocked.uid in h.game_doc()["unreachable_noted"]
    h.api.blocked_chats.discard(blocked.uid)
    since = len(h.api.calls)
    update = my_chat_member(
        next(h.ids), blocked.uid, "private", blocked.uid, blocked.name, "kicked", "member"
    )
    h.service.handle_update(update)
    assert blocked.uid not in h.game_doc().get("unreachable", [])
    assert h.play_by_buttons().over
    prompts = [
        c
        for c in h.api.calls[since:]
        if c.method == "sendMessage"
        and c.params["chat_id"] == blocked.uid
        and c.params.get("reply_markup")
    ]
    assert prompts  # asked again (not once before: every decision took its default)
    assert not h.api.violations and not h.errors
