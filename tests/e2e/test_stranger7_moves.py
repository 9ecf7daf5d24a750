"""A group upgraded to a supergroup, on Telegram's bad days (handlers.chat_moves): the
supergroup spoke before the upgrade's signal reached the bot, a reply was refused with
``migrate_to_chat_id``, a game already plays in the supergroup."""

from __future__ import annotations

from typing import Any

from tests.e2e.harness import Harness, Player

OLD = -4177  # a basic group


def _table(seed: int = 6) -> tuple[Harness, list[Player]]:
    players = [Player(uid=7700 + i, name=f"Rider {i}") for i in range(4)]
    return Harness(players, seed=seed, group=OLD, group_type="group"), players


def _record(h: Harness, chat: int) -> dict[str, Any]:
    got = h.store.get(f"CHAT#{chat}")
    assert got is not None, f"no record of chat {chat}"
    return got.doc


def _upgrade(h: Harness, by: Player) -> tuple[int, list[dict[str, Any]]]:
    new = h.api.migrate_group(OLD, by.uid, title="Coach")
    moved = [u for u in h.api.updates if "message" in u]
    h.api.updates.clear()
    return new, moved


def _toggle_smuggling(h: Harness, creator: Player) -> None:
    """The lobby's creator turns smuggling on in /settings (through the menu's button)."""
    h.command(creator, "/settings")
    menu = h.api.last_message(h.group)
    data = next(d for _, d in menu.buttons() if d and d.endswith(":smuggling"))
    h.press(creator, h.group, menu.message_id, data)


def test_the_groups_settings_move_even_when_the_supergroup_wrote_its_defaults_first() -> None:
    """Before: a /newgame in the supergroup, handled before the upgrade's service messages,
    wrote default settings there, and the move kept them: the group's chosen settings were
    lost."""
    h, players = _table()
    creator, stranger = players[0], players[3]
    h.command(creator, "/newgame")
    _toggle_smuggling(h, creator)
    assert _record(h, OLD)["settings"]["smuggling"] is True
    h.command(creator, "/cancel")
    new, moved = _upgrade(h, creator)
    h.group, h.group_type = new, "supergroup"
    h.command(stranger, "/newgame")  # before the signal: the supergroup's record, by default
    assert _record(h, new)["settings"]["smuggling"] is False
    for update in moved:
        h.service.handle_update(update)
    assert _record(h, new)["settings"]["smuggling"] is True
    assert not h.api.violations and not h.errors


def test_settings_chosen_in_the_supergroup_before_the_signal_are_kept() -> None:
    h, players = _table()
    creator = players[0]
    h.command(creator, "/newgame")
    h.command(creator, "/cancel")
    new, moved = _upgrade(h, creator)
    h.group, h.group_type = new, "supergroup"
    h.command(creator, "/newgame")
    _toggle_smuggling(h, creator)  # chosen there
    for update in moved:
        h.service.handle_update(update)
    assert _record(h, new)["settings"]["smuggling"] is True


def test_a_reply_refused_as_upgraded_is_given_in_the_supergroup() -> None:
    """Before: /rules answered in the old group after the upgrade, its service messages not
    handled yet, was refused with ``migrate_to_chat_id`` and lost: nobody got an answer."""
    h, players = _table()
    h.command(players[0], "/newgame")
    h.command(players[0], "/cancel")  # the group has a record: its settings, its scores
    new, moved = _upgrade(h, players[0])
    h.command(players[1], "/rules")  # sent in the old group, as the client still shows it
    shown = h.api.messages_in(new)
    assert len(shown) == 1 and shown[0].text
    assert _record(h, OLD).get("moved_to") == new
    for update in moved:  # the signals, late: nothing more
        h.service.handle_update(update)
    assert len(h.api.messages_in(new)) == 1
    assert not h.api.violations and not h.errors


def test_a_lobby_moved_into_a_supergroup_where_a_game_plays_is_closed_and_its_players_told() -> (
    None
):
    """Before: the group's lobby was shown anew in the supergroup beside the game being played
    there; its Start button could start a second game in the chat that /status and /cancel
    never reached (the chat's record names the first)."""
    h, players = _table()
    waiting = [Player(uid=7790 + i, name=f"Early {i}") for i in range(2)]
    h.command(waiting[0], "/newgame")
    old_gid = _record(h, OLD)["game"]
    for p in waiting:
        h.command(p, f"/start {old_gid}", chat=p.uid)
    new, moved = _upgrade(h, players[0])
    h.group, h.group_type = new, "supergroup"
    h.open_lobby_and_join()  # the supergroup's own game, before the upgrade's signal
    h.start()
    playing = _record(h, new)["game"]
    h.play_by_buttons(stop=6)
    shown_before = len(h.api.messages_in(new))
    for update in moved:
        h.service.handle_update(update)
    assert _record(h, new)["game"] == playing
    old = h.store.get(f"GAME#{old_gid}")
    assert old is not None and old.doc["phase"] == "cancelled"
    lobbies = [m for m in h.api.messages_in(new)[shown_before:] if "start=" in str(m.buttons())]
    assert not lobbies  # no second lobby in the chat
    for p in waiting:
        assert h.api.messages_in(p.uid)[-1].text.startswith("🛑")
        user = h.store.get(f"USER#{p.uid}")
        assert user is None or user.doc.get("game") is None  # free to join another game
    assert h.play_by_buttons().over
    assert not h.api.violations and not h.errors
