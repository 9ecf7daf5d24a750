"""Issue 23, dealing: nobody can rebuild the deal. The bot seeds each game with 256 bits from the
operating system's cryptographic generator (``secrets``), kept only in the stored game; nothing
public (game id, chat, clock) goes into it. AI passengers' names and seats and their decisions
draw from streams of their own, keyed one-way from that seed, so they neither use nor show the
deal's. Game ids come from ``secrets`` too.

The cheat test replays the attack of the issue: from the Join link's game id, the start message's
time (to the second), the seat order, the options and one's own dossier, search the seeds the bot
could have used (the code before: game id XOR start time in ms)."""

from __future__ import annotations

import copy
import json
import random
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import engine
from devtools.botapi.messenger import EmulatedMessenger
from devtools.fakes import FakeClock, FakeTimers
from devtools.memory_store import MemoryStore
from engine.actions import Action
from engine.rng import Rng
from engine.state import State
from handlers import game_runner, lobby
from handlers.app import CoachRideBot
from handlers.game_runner import GameRunner
from handlers.store_keys import game_key, new_game_id
from handlers.transaction import Txn
from handlers.unit_of_work import UnitOfWork
from infra.ports import Put, TimerRequest
from tests.service.service_game import GROUP, ServiceGame

pytestmark = pytest.mark.os_seeds  # the real seed source, not tests/conftest.py's replayable one

DATA = Path(__file__).resolve().parents[1] / "unit" / "data"
GID = "sAmEgAmE"  # the same public game id (Join link) for every game below


def started(monkeypatch: pytest.MonkeyPatch, n: int = 4, ai_fill: int = 0) -> ServiceGame:
    """A game of ``n`` humans (and AI passengers up to ``ai_fill``) started through the bot,
    with the same game id and on the same clock as every other one."""
    monkeypatch.setattr(lobby, "new_game_id", lambda: GID)
    table = ServiceGame(n=n)
    creator = table.uids[0]
    table.message(creator, GROUP, "/newgame")
    table.gid = GID
    for uid in table.uids:
        table.message(uid, uid, f"/start {GID}")
    if ai_fill:
        got = table.store.get(game_key(GID))
        assert got is not None
        got.doc["settings"]["ai_fill"] = ai_fill
        table.store.commit([Put(got.key, got.doc, got.version)])
    table.message(creator, GROUP, "/startgame")
    assert table.doc()["phase"] == "playing"
    return table


def hidden(st: State) -> tuple[Any, ...]:
    """Every card whose place is hidden information."""
    return (
        [(p.assoc, p.occupation, p.items) for p in st.players],
        st.pile,
        st.occ_deck,
        st.boxed_assoc,
    )


def seating(table: ServiceGame) -> list[tuple[int, str]]:
    return [(p["uid"], p["name"]) for p in table.doc()["players"]]


# -- (a) the seed: 256 bits from the OS, nothing public in it -----------------------------------
def test_games_with_the_same_id_chat_and_clock_are_dealt_differently(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Same game id, same chat, same players, same start time: different secret seeds of more
    than 128 bits, different deals, and the AI passengers sit and are named differently."""
    tables = [started(monkeypatch, n=2, ai_fill=6) for _ in range(4)]
    assert len({t.clock.now() for t in tables}) == 1 and {t.gid for t in tables} == {GID}
    states = [t.state() for t in tables]
    assert all(st.seed.bit_length() > 128 for st in states)  # 256 bits: fails once in 2**128
    assert len({st.seed for st in states}) == 4
    assert len({repr(hidden(st)) for st in states}) == 4
    assert len({repr(seating(t)) for t in tables}) > 1


def test_the_seed_is_the_os_generators_draw_and_nothing_else(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """What the OS generator gives is the stored seed as is: no game id, chat or time mixed in.
    (The fake generator stands in for ``secrets``; the clocks and ids differ.)"""
    drawn: list[int] = []

    def fake_randbits(k: int) -> int:
        drawn.append(k)
        return (0xD1CE << (k - 16)) | len(drawn)

    monkeypatch.setattr(secrets, "randbits", fake_randbits)
    first = started(monkeypatch)
    monkeypatch.setattr(lobby, "new_game_id", lambda: "another")
    second = ServiceGame(n=5, clock=FakeClock(1_800_000_123.456))
    second.start()
    assert drawn == [256, 256]
    assert first.state().seed == (0xD1CE << 240) | 1
    assert second.state().seed == (0xD1CE << 240) | 2


# -- (c) the cheat: rebuild the deal from public facts -------------------------------------------
def public_facts(table: ServiceGame, seat: int) -> dict[str, Any]:
    """What the player in ``seat`` knows without cheating: the Join link's game id, the start
    message's date (seconds), the seat order, the options, who starts and their own dossier."""
    st = table.state()
    me, public = engine.view(st, seat)["me"], engine.public_view(st)
    return {
        "gid": table.gid,
        "date": int(table.clock.now()),
        "names": [p["name"] for p in public["players"]],
        "options": public["options"],
        "first": public["first"],
        "seat": seat,
        "mine": (me["assoc"], me["occupation"], me["items"]),
    }


def old_form_deals(facts: dict[str, Any]) -> list[State]:
    """Every deal a seed of the old form gives: the game id XOR a start time in ms, within a
    second of the start message's date."""
    base = int.from_bytes(facts["gid"].encode()[:8], "big")
    times = range(facts["date"] * 1000 - 1000, facts["date"] * 1000 + 1000)
    return [engine.new_game(facts["names"], base ^ ms, facts["options"])[0] for ms in times]


def rebuild(facts: dict[str, Any], deals: list[State]) -> list[State]:
    """The attack: the deals that agree with what the player saw."""
    seat, mine, first = facts["seat"], facts["mine"], facts["first"]
    return [
        st
        for st in deals
        if st.first == first
        and (st.players[seat].assoc, st.players[seat].occupation, st.players[seat].items) == mine
    ]


def old_seed(gid: str, now: float) -> int:
    """How the code before seeded a game (handlers/lobby.py): public facts only."""
    return int.from_bytes(gid.encode()[:8], "big") ^ int(now * 1000)


def test_the_attack_rebuilds_a_deal_seeded_from_public_facts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The attack works: against a seed made the old way, one player's public facts give back
    every hidden card. (A check of the attack, not of the bot.)"""
    start = FakeClock().now() + 0.4567
    monkeypatch.setattr(lobby, "new_deal_seed", lambda: old_seed(GID, start), raising=False)
    table = started(monkeypatch)
    truth = hidden(table.state())
    facts = public_facts(table, 1)
    assert [hidden(st) for st in rebuild(facts, old_form_deals(facts))].count(truth) == 1


def test_no_player_can_rebuild_the_deal_from_public_facts(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bot's own seed: the same search finds no deal with everyone's cards (on the code before,
    it found it: the seed was the game id XOR the start time)."""
    table = started(monkeypatch)
    truth = hidden(table.state())
    deals = old_form_deals(public_facts(table, 0))
    for seat in range(table.n):
        candidates = rebuild(public_facts(table, seat), deals)
        assert not any(hidden(st) == truth for st in candidates), f"seat {seat} rebuilt the deal"
    assert table.state().seed != old_seed(GID, table.clock.now())


# -- (b) AI passengers: a stream of their own ----------------------------------------------------
class Recording:
    """An AI passenger that notes the first words of the generator it is given."""

    def __init__(self) -> None:
        self.words: list[int] = []

    def choose(self, view: dict[str, Any], legal: list[Action], rng: Rng) -> Action:
        self.words = [rng.below(1 << 62) for _ in range(4)]
        return legal[0]


def ai_words(doc: dict[str, Any], seat: int, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """What the AI passenger in ``seat`` draws for the pending decision of the stored game; the
    deal's generator must be where it was."""
    ai = Recording()
    monkeypatch.setattr(game_runner, "ai_for", lambda level: ai)
    txn = Txn(copy.deepcopy(doc), version=1, now=0.0, key=game_key(doc["gid"]))
    runner = GameRunner(UnitOfWork(MemoryStore(clock=FakeClock()), txn), 1.0)
    before = runner.state.rng
    runner._ai_action(seat)
    assert runner.state.rng == before, "the AI drew from the deal's stream"
    return ai.words


def with_deal_moved_on(doc: dict[str, Any], words: int) -> dict[str, Any]:
    moved = copy.deepcopy(doc)
    moved["engine"]["rng"] += words
    return moved


@pytest.mark.parametrize("seeding", ["now", "stored before"])
def test_an_ai_passengers_draws_neither_use_nor_follow_the_deals_stream(
    monkeypatch: pytest.MonkeyPatch, seeding: str
) -> None:
    """Whatever the deal's generator is at, the AI passenger deciding draws the same words (its
    stream is keyed from the seed, the step and the seat, not from the deal's state, which the
    code before used: its choices showed the deal's state), and it leaves the deal's alone."""
    table = started(monkeypatch)
    doc = table.doc()
    if seeding == "stored before":  # a game stored before the keyed stream: 64-bit SplitMix64
        doc["engine"].pop("rng_kind", None)
        doc["engine"]["seed"], doc["engine"]["rng"] = 7598789619055274595, 16614192799573348015
    seat = engine.awaiting(State.from_dict(doc["engine"])).seats[0]  # type: ignore[union-attr]
    words = ai_words(doc, seat, monkeypatch)
    assert len(set(words)) == 4
    for moved in (1, 8, 1000):
        assert ai_words(with_deal_moved_on(doc, moved), seat, monkeypatch) == words
    other_seat = (seat + 1) % table.n
    assert ai_words(doc, other_seat, monkeypatch) != words
    reseeded = copy.deepcopy(doc)
    reseeded["engine"]["seed"] += 1
    assert ai_words(reseeded, seat, monkeypatch) != words


# -- (d) game ids ---------------------------------------------------------------------------------
def test_game_ids_come_from_the_os_generator(monkeypatch: pytest.MonkeyPatch) -> None:
    """A game id is ``secrets``' bytes (48 bits) and nothing else; the module ``random`` seeded
    alike gives no repeat."""
    random.seed(1)
    ids = {new_game_id() for _ in range(2000)}
    assert len(ids) == 2000 and all(len(g) == 8 for g in ids)
    fixed: Callable[[int | None], bytes] = lambda n: bytes(range(n or 32))  # noqa: E731
    monkeypatch.setattr(secrets, "token_bytes", fixed)
    assert new_game_id() == new_game_id() == "AAECAwQF"


# -- games stored by the code before ---------------------------------------------------------------
def test_a_game_stored_before_plays_on_to_its_end_through_the_bot() -> None:
    """A game in play stored by the code before (64-bit seed, SplitMix64 state, no generator
    named) is taken up by the bot: its deadlines run out one after the other until it ends (all
    its players away: abandoned), still a SplitMix64 game. (tests/unit/test_rng.py: it plays on
    exactly as the code before played it.)"""
    doc = json.loads((DATA / "game_docs_before_the_record.json").read_text())["playing"]
    assert "rng_kind" not in doc["engine"]
    clock = FakeClock(doc["due"]["at"] - 1)
    store = MemoryStore(clock=clock)
    key = game_key(doc["gid"])
    store.commit([Put(key, doc, None)])
    bot = CoachRideBot(store, EmulatedMessenger(), FakeTimers(), clock, bot_username="test_bot")
    for _ in range(5000):
        got = store.get(key)
        assert got is not None
        if got.doc["phase"] != "playing":
            break
        due = got.doc["due"]
        clock.advance(max(0.0, due["at"] - clock.now()) + 0.01)
        bot.handle_timer(TimerRequest(key, due["dec"], due["at"]))
    else:
        raise AssertionError("the game did not end")
    assert got.doc["phase"] == "over"
    st = State.from_dict(got.doc["engine"])
    assert st.over and st.rng_kind == "splitmix64" and st.seed == doc["engine"]["seed"]
    assert st.step > doc["engine"]["step"]
