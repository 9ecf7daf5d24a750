"""A group upgraded to a supergroup mid-game (Telegram gives it a new chat id): the game used to
lose its group (every later call to the old id refused, /status and /cancel in the new chat found
no game). Whichever signal comes first — the service messages (``migrate_to_chat_id`` in the old
chat, ``migrate_from_chat_id`` in the new) or a call refused with ``migrate_to_chat_id`` — moves
the group's record and its game there once; the status starts anew in the new chat, no deadline
moves, and the game goes on to its end there."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from handlers.i18n import t
from tests.e2e.harness import Harness, Player

OLD = -4123  # a basic group


def _ended(text: str) -> bool:
    """The group's living message at the end: the reveal, and no status at its foot (issue 27)."""
    return "🏁" in text and "📋" not in text


def _table(seed: int = 6) -> tuple[Harness, list[Player]]:
    players = [Player(uid=7300 + i, name=f"Rider {i}") for i in range(4)]
    return Harness(players, seed=seed, group=OLD, group_type="group"), players


def _calls_to(h: Harness, chat: int, since: int) -> int:
    return sum(1 for call in h.api.calls[since:] if call.params.get("chat_id") == chat)


def _record(h: Harness, chat: int) -> dict[str, Any]:
    got = h.store.get(f"CHAT#{chat}")
    assert got is not None, f"no record of chat {chat}"
    return got.doc


def _upgrade(h: Harness, by: Player) -> tuple[int, list[dict[str, Any]]]:
    """The group becomes a supergroup; the two service messages Telegram sends, not yet
    handled."""
    new = h.api.migrate_group(OLD, by.uid, title="Coach")
    moved = [u for u in h.api.updates if "message" in u]
    h.api.updates.clear()
    return new, moved


def test_the_service_messages_move_the_game_to_the_supergroup_once() -> None:
    h, players = _table()
    h.open_lobby_and_join()
    h.start()
    h.play_by_buttons(stop=20)
    due = h.game_doc()["due"]
    new, moved = _upgrade(h, players[0])
    since = len(h.api.calls)
    for update in moved + moved:  # both signals, each delivered twice
        h.service.handle_update(update)
    h.group, h.group_type = new, "supergroup"
    gid = h.last_gid
    assert _record(h, new)["game"] == gid
    assert _record(h, OLD)["game"] is None and _record(h, OLD)["moved_to"] == new
    doc = h.game_doc()
    assert doc["chat"] == new
    assert doc["due"] == due  # no deadline moved or lost
    assert [m.raw_text for m in h.api.messages_in(new)] == [doc["story"]["foot"]]  # once
    final = h.play_by_buttons()
    assert final.over
    assert _calls_to(h, OLD, since) == 0
    assert _ended(h.api.message(new, h.game_doc()["story"]["msg"]).text)
    assert not h.api.violations and not h.errors


def test_a_call_refused_as_upgraded_moves_the_game_before_the_service_messages() -> None:
    h, players = _table(seed=7)
    h.open_lobby_and_join()
    h.start()
    h.play_by_buttons(stop=10)
    new, moved = _upgrade(h, players[0])  # their updates come late
    since = len(h.api.calls)
    h.play_by_buttons(stop=30)
    assert 1 <= _calls_to(h, OLD, since) <= 2  # refused with migrate_to_chat_id, then moved
    h.group, h.group_type = new, "supergroup"
    assert h.game_doc()["chat"] == new
    assert _record(h, new)["game"] == h.last_gid
    shown = len(h.api.messages_in(new))
    assert shown >= 1  # the status, anew, and what the story had to say
    for update in moved:  # the service messages, late: nothing moves twice
        h.service.handle_update(update)
    assert len(h.api.messages_in(new)) == shown
    final = h.play_by_buttons()
    assert final.over
    assert _ended(h.api.message(new, h.game_doc()["story"]["msg"]).text)
    assert not h.api.violations and not h.errors


def test_a_lobby_moves_and_its_join_link_still_works() -> None:
    h, players = _table()
    creator = players[0]
    h.command(creator, "/newgame")
    lobby = h.api.last_message(OLD)
    join = next(url for _, url in lobby.buttons() if url and "start=" in url)
    gid = join.split("start=", 1)[1]
    h.last_gid = gid
    h.command(players[1], f"/start {gid}", chat=players[1].uid)
    new, moved = _upgrade(h, creator)
    for update in moved:
        h.service.handle_update(update)
    h.group, h.group_type = new, "supergroup"
    shown = h.api.last_message(new)  # the lobby, anew, with its buttons
    assert any(url == join for _, url in shown.buttons())
    for p in (creator, *players[2:]):  # the old link (it names the game, not the chat)
        h.command(p, f"/start {gid}", chat=p.uid)
    assert len(h.game_doc()["players"]) == 4
    assert t("en", "lobby.joined") in [m.text for m in h.api.messages_in(players[3].uid)]
    h.start()  # /startgame in the supergroup
    assert h.game_doc()["phase"] == "playing"
    assert h.play_by_buttons().over
    assert not h.api.violations and not h.errors


class Interleaved:
    """A store whose first commit of a game lets ``meanwhile`` run to its end first: the two
    signals of an upgrade handled at the same time by two functions."""

    def __init__(self, inner: Any, meanwhile: Callable[[], None]) -> None:
        self.inner = inner
        self.meanwhile: Callable[[], None] | None = meanwhile

    def commit(self, writes: Sequence[Any], update_id: int | None = None) -> dict[str, int]:
        if self.meanwhile is not None and any(w.key.startswith("GAME#") for w in writes):
            run, self.meanwhile = self.meanwhile, None
            run()
        return dict(self.inner.commit(writes, update_id))

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


def test_both_signals_at_once_move_the_game_once() -> None:
    """Optimistic locking: the move whose commit finds the game changed reruns on fresh reads
    and finds it moved."""
    h, players = _table()
    h.open_lobby_and_join()
    h.start()
    h.play_by_buttons(stop=12)
    new, moved = _upgrade(h, players[0])
    store = h.store
    racing = Interleaved(store, lambda: h.service.handle_update(moved[1]))
    h.service.store = h.service.pipeline.store = racing  # type: ignore[assignment]
    h.service.handle_update(moved[0])
    h.service.store = h.service.pipeline.store = store
    h.group, h.group_type = new, "supergroup"
    assert racing.meanwhile is None  # the other signal did run in between
    doc = h.game_doc()
    assert doc["chat"] == new and _record(h, new)["game"] == h.last_gid
    assert _record(h, OLD)["moved_to"] == new
    assert [m.raw_text for m in h.api.messages_in(new)] == [doc["story"]["foot"]]  # once
    assert h.play_by_buttons().over
    assert not h.api.violations and not h.errors


def test_a_running_game_moved_into_a_supergroup_with_a_fresh_lobby_is_the_chats_game() -> None:
    """Before: the supergroup's record kept the lobby, the moved game played on in the chat
    without it knowing (its /status showed the lobby, /cancel could not reach the game)."""
    players = [Player(uid=7400 + i, name=f"Rider {i}") for i in range(4)]
    h = Harness(players, seed=6, group=OLD, group_type="group")
    h.open_lobby_and_join()
    h.start()
    h.play_by_buttons(stop=10)
    running = h.last_gid
    new, moved = _upgrade(h, players[0])
    h.group, h.group_type = new, "supergroup"
    late = Player(uid=7499, name="Late")
    h.command(late, "/newgame")  # handled before the upgrade's signal
    lobby_gid = _record(h, new)["game"]
    assert lobby_gid != running
    for update in moved:
        h.service.handle_update(update)
    assert _record(h, new)["game"] == running
    assert _record(h, OLD)["game"] is None
    h.command(players[1], "/status")
    assert h.api.last_message(new).text.startswith("📋")  # the running game's status, not the lobby
    final = h.play_by_buttons()
    assert final.over
    h.clock.advance(3600)
    h.fire_timers()  # the lobby opened meanwhile expires on its own
    lobby = h.store.get(f"GAME#{lobby_gid}")
    assert lobby is not None and lobby.doc["phase"] != "lobby"
    h.command(late, "/newgame")  # the chat is free again
    assert _record(h, new)["game"] not in (running, lobby_gid, None)
    assert not h.api.violations and not h.errors


def test_a_game_muted_in_the_group_speaks_again_in_the_supergroup_it_became() -> None:
    """The old group's "bot left" (``my_chat_member``) handled before the upgrade's service
    messages muted the game; the move kept the mark, so the supergroup, where the bot is a
    member, never heard from the game again (status, story, final result all dropped)."""
    from devtools.botapi.updates import my_chat_member

    players = [Player(uid=7500 + i, name=f"Rider {i}") for i in range(4)]
    h = Harness(players, seed=6, group=OLD, group_type="group")
    h.open_lobby_and_join()
    h.start()
    h.play_by_buttons(stop=10)
    new, moved = _upgrade(h, players[0])
    h.service.handle_update(
        my_chat_member(999_001, OLD, "group", 7500, "Rider 0", "member", "left")
    )
    assert h.game_doc()["muted"] is True
    for update in moved:
        h.service.handle_update(update)
    h.group, h.group_type = new, "supergroup"
    assert h.api.messages_in(new)  # the status, anew
    final = h.play_by_buttons()
    assert final.over
    assert _ended(h.api.message(new, h.game_doc()["story"]["msg"]).text)
    assert not h.api.violations and not h.errors


def test_a_turn_mention_sent_in_the_old_group_is_forgotten_when_the_game_moves() -> None:
    """The turn reminder mentioned the player in the old group; the move kept its record, whose
    message id names a message of the old chat: the turn's end would edit that id in the
    supergroup (another message, or none) instead of leaving the old mention behind."""
    h, players = _table()
    h.open_lobby_and_join()
    h.start()
    due = h.game_doc()["due"]
    assert due["at"] < due["deadline"]
    h.clock.advance(max(0.0, due["at"] - h.clock.now()) + 0.01)
    h.fire_timers()  # the reminder: a mention in the old group
    assert h.game_doc()["mention"] is not None
    assert any("tg://user?id=" in m.raw_text for m in h.api.messages_in(OLD))
    new, moved = _upgrade(h, players[0])
    for update in moved:
        h.service.handle_update(update)
    h.group, h.group_type = new, "supergroup"
    assert h.game_doc()["mention"] is None
    since = len(h.api.calls)
    h.clock.advance(max(0.0, h.game_doc()["due"]["at"] - h.clock.now()) + 0.01)
    h.fire_timers()  # the turn ends by its deadline
    assert _calls_to(h, OLD, since) == 0
    assert h.play_by_buttons().over
    assert not h.api.violations and not h.errors
