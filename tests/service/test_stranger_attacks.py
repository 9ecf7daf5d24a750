"""Attacks of a stranger and of a player who wants to cheat, each through the bot's real entry
(the update handler) against in-memory fakes: every one of them changes nothing in the game, and
two updates meant to seat one player twice, or open two games in one group, at the same moment
do not."""

from __future__ import annotations

import contextlib
import itertools
import threading
from collections.abc import Callable, Sequence
from typing import Any

import pytest

from devtools.botapi.messenger import EmulatedMessenger
from devtools.fakes import FakeClock, FakeTimers
from devtools.memory_store import MemoryStore
from handlers import action_payloads
from handlers.app import CoachRideBot
from handlers.i18n import t
from handlers.store_keys import chat_key, game_key, user_key
from infra.ports import Delete, Put
from tests.service.service_game import GROUP, ServiceGame, user


def press_as(g: ServiceGame, uid: int, chat: int, message_id: int, data: str) -> str | None:
    """A press by ``uid`` on message ``message_id`` of ``chat``; the answer's text."""
    update = g.press(uid, message_id, data, chat=chat, query_id=f"q{next(g.ids)}")
    query, text, _ = g.messenger.answers[-1]
    assert query == update["callback_query"]["id"]  # answered, once
    return text


def version(g: ServiceGame) -> int:
    got = g.store.get(game_key(g.gid))
    assert got is not None
    return got.version


def not_held(g: ServiceGame, seat: int) -> str:
    """A card of the game that ``seat`` does not hold, as a button's code."""
    held = set(g.state().players[seat].items)
    card = next(c for c in ("key1", "key2", "goblet1", "goblet2", "dagger") if c not in held)
    return action_payloads._VOCAB[card]


Attack = Callable[[ServiceGame, int, int, list[str]], str | None]
ATTACKS: dict[str, Attack] = {
    # the turn's own button, pressed on the group's chat (a forwarded or forged press)
    "from the group": lambda g, s, m, d: press_as(g, g.uids[s], GROUP, m, d[0]),
    # the turn's button, by the player on their turn, but from another player's private chat
    "from another chat": lambda g, s, m, d: press_as(g, g.uids[s], g.uids[(s + 2) % g.n], m, d[0]),
    # the turn's button, by another player (neither asked nor choosing ahead), in their chat
    "by another seat": lambda g, s, m, d: press_as(
        g, g.uids[(s + 2) % g.n], g.uids[(s + 2) % g.n], m, d[0]
    ),
    # by someone with no seat in this game
    "by a stranger": lambda g, s, m, d: press_as(g, 999, 999, m, d[0]),
    # a trade of a card the player does not hold, on their own turn
    "an illegal move": lambda g, s, m, d: press_as(
        g,
        g.uids[s],
        g.uids[s],
        m,
        f"{g.gid}:{g.state().pending.id}:tr.t{(s + 1) % g.n}.c"  # type: ignore[union-attr]
        + not_held(g, s),
    ),
    # a decision that is not pending
    "another decision": lambda g, s, m, d: press_as(
        g,
        g.uids[s],
        g.uids[s],
        m,
        f"{g.gid}:{g.state().pending.id + 5}:pa",  # type: ignore[union-attr]
    ),
}


@pytest.mark.parametrize("attack", list(ATTACKS))
def test_a_forged_game_press_is_refused_and_changes_nothing(attack: str) -> None:
    g = ServiceGame()
    g.start()
    seat = g.state().turn
    message_id, data = g.prompt(seat)
    before, sent = version(g), len(g.messenger.in_chat(GROUP))
    told = ATTACKS[attack](g, seat, message_id, data)
    assert told in (t("en", "bot.stale"), t("en", "bot.not_in_game"), t("en", "bot.illegal"))
    assert version(g) == before
    assert len(g.messenger.in_chat(GROUP)) == sent


def test_a_button_pressed_again_after_its_move_was_played_is_stale() -> None:
    g = ServiceGame()
    g.start()
    seat = g.state().turn
    message_id, data = g.prompt(seat)
    passing = next(d for d in data if d.endswith(":pa"))
    assert press_as(g, g.uids[seat], g.uids[seat], message_id, passing) is None
    played = version(g)
    assert press_as(g, g.uids[seat], g.uids[seat], message_id, passing) == t("en", "bot.stale")
    assert version(g) == played


class Meeting:
    """A store wrapper: the first commit of each of two threads that writes ``key`` waits for
    the other's, so both read before either writes (two webhooks at the same moment)."""

    def __init__(self, store: MemoryStore, key: str) -> None:
        self.store, self.key = store, key
        self.inner = store.commit
        self.barrier = threading.Barrier(2, timeout=5)
        self.met: set[str] = set()
        store.commit = self.commit  # type: ignore[method-assign]

    def commit(self, writes: Sequence[Put | Delete], update_id: int | None = None) -> Any:
        name = threading.current_thread().name
        if self.key in {w.key for w in writes} and name not in self.met:
            self.met.add(name)
            with contextlib.suppress(threading.BrokenBarrierError):  # checked by ``met_both``
                self.barrier.wait()
        return self.inner(writes, update_id)

    def met_both(self) -> bool:
        return len(self.met) == 2 and not self.barrier.broken


def bot() -> tuple[CoachRideBot, MemoryStore, EmulatedMessenger, Callable[[int, int, str], None]]:
    clock = FakeClock()
    store, messenger = MemoryStore(clock=clock), EmulatedMessenger()
    service = CoachRideBot(store, messenger, FakeTimers(), clock, bot_username="test_bot")
    ids = itertools.count(1)

    def say(uid: int, chat: int, text: str) -> None:
        kind = "private" if chat > 0 else "supergroup"
        message = {"message_id": 1, "date": 0, "chat": {"id": chat, "type": kind}}
        message.update({"from": user(uid), "text": text})
        service.handle_update({"update_id": next(ids), "message": message})

    return service, store, messenger, say


def at_once(*calls: Callable[[], None]) -> None:
    threads = [threading.Thread(target=c, name=f"webhook-{i}") for i, c in enumerate(calls)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()


def test_joining_two_groups_lobbies_at_the_same_moment_seats_the_player_once() -> None:
    _, store, _, say = bot()
    say(1, -5001, "/newgame")
    say(2, -5002, "/newgame")
    lobbies = []
    for group in (-5001, -5002):
        chat = store.get(chat_key(group))
        assert chat is not None
        lobbies.append(chat.doc["game"])
    player = 777
    meeting = Meeting(store, user_key(player))
    at_once(*[lambda gid=gid: say(player, player, f"/start {gid}") for gid in lobbies])
    assert meeting.met_both()
    seated = []
    for gid in lobbies:
        game = store.get(game_key(gid))
        assert game is not None
        seated += [gid for p in game.doc["players"] if p["uid"] == player]
    assert len(seated) == 1
    pointer = store.get(user_key(player))
    assert pointer is not None and pointer.doc["game"] == seated[0]


def test_two_newgames_in_one_group_at_the_same_moment_open_one_lobby() -> None:
    _, store, messenger, say = bot()
    group = -5001
    meeting = Meeting(store, chat_key(group))
    at_once(lambda: say(1, group, "/newgame"), lambda: say(2, group, "/newgame"))
    assert meeting.met_both()
    chat = store.get(chat_key(group))
    assert chat is not None and chat.doc["game"]
    texts = [m.text for m in messenger.in_chat(group)]
    assert texts.count(t("en", "lobby.already_running")) == 1
    assert sum(1 for x in texts if x != t("en", "lobby.already_running")) == 1
