"""The engine's contract: determinism, JSON round trips, typed rejections that change nothing, and
views as the only exit for secrets (R-V1, R-V2)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import engine
from engine import GameOver, Illegal, NotYourTurn, Stale, State
from engine.actions import Action, Event
from engine.cards import ALL_ITEMS, ASSOCIATIONS, OCCUPATIONS
from tests.unit.engine_helpers import BRO, NAMES, ORD, Game, check_cards

OPTION_MIXES: list[dict[str, Any]] = [
    {},
    {"smuggling": True, "fortune_telling": True},
    {"advanced_three": True, "personal_scores": True},
    {"items": "beginner", "smuggling": True},
]


def random_action(st: State, rnd: random.Random) -> Action:
    """A random legal move (allies of a claim drawn at random), a timeout now and then."""
    aw = engine.awaiting(st)
    assert aw is not None
    if aw.closable or rnd.random() < 0.04:
        return engine.timeout_action(st)
    seat = rnd.choice(aw.seats)
    legal = engine.legal_actions(st, seat)
    assert legal, f"seat {seat} asked on {aw.kind} with nothing legal"
    # claims end the game: make them rarer so that games run a while
    if rnd.random() < 0.9:
        legal = [a for a in legal if a.kind not in ("claim", "claim_other", "solo")] or legal
    a = rnd.choice(legal)
    if a.kind in ("claim", "claim_other"):
        others = [s for s in range(st.n) if s != seat]
        a = Action(a.kind, seat, a.decision, seats=tuple(rnd.sample(others, rnd.randint(0, 2))))
    return a


Playout = tuple[list[State], list[Action], list[list[Event]]]
_PLAYOUTS: dict[str, Playout] = {}


def playout(n: int, seed: int, options: dict[str, Any] | None = None, limit: int = 300) -> Playout:
    """A random game, computed once per arguments (the states are never changed in place)."""
    key = json.dumps([n, seed, options, limit], sort_keys=True)
    if key not in _PLAYOUTS:
        _PLAYOUTS[key] = _playout(n, seed, options, limit)
    return _PLAYOUTS[key]


def _playout(n: int, seed: int, options: dict[str, Any] | None, limit: int) -> Playout:
    rnd = random.Random(seed * 31 + n)
    st, events = engine.new_game(NAMES[:n], seed, options)
    states, actions, logs = [st], [], [events]
    while not st.over and len(actions) < limit:
        a = random_action(st, rnd)
        st, ev = engine.apply(st, a)
        states.append(st)
        actions.append(a)
        logs.append(ev)
    return states, actions, logs


# one game per player count, the option mixes taking turns
GAMES = [(n, n * 7 + 1, OPTION_MIXES[n % len(OPTION_MIXES)]) for n in range(3, 11)]


# -- determinism -------------------------------------------------------------------------------
@pytest.mark.parametrize(("n", "seed", "options"), GAMES[::2])
def test_same_seed_and_actions_give_identical_states_and_events(
    n: int, seed: int, options: dict[str, Any]
) -> None:
    states, actions, logs = playout(n, seed, options)
    st, events = engine.new_game(NAMES[:n], seed, options)
    assert st.to_dict() == states[0].to_dict()
    assert [e.to_dict() for e in events] == [e.to_dict() for e in logs[0]]
    for i, a in enumerate(actions):
        replayed = Action.from_dict(json.loads(json.dumps(a.to_dict())))
        assert replayed == a
        st, events = engine.apply(st, replayed)
        assert st.to_dict() == states[i + 1].to_dict()
        assert [e.to_dict() for e in events] == [e.to_dict() for e in logs[i + 1]]


def test_apply_in_place_gives_the_same_game() -> None:
    states, actions, _ = playout(6, 4, {"smuggling": True})
    st, _ = engine.new_game(NAMES[:6], 4, {"smuggling": True})
    for a in actions:
        st2, _ = engine.apply(st, a, inplace=True)
        assert st2 is st
    assert st.to_dict() == states[-1].to_dict()


def test_apply_does_not_touch_the_given_state() -> None:
    states, actions, _ = playout(5, 3)
    before = [s.to_dict() for s in states]
    st = states[0]
    for a in actions:
        st, _ = engine.apply(st, a)
    assert [s.to_dict() for s in states] == before


# -- JSON round trip ---------------------------------------------------------------------------
@pytest.mark.parametrize(("n", "seed", "options"), GAMES)
def test_state_json_round_trip_at_every_step(n: int, seed: int, options: dict[str, Any]) -> None:
    states, _, logs = playout(n, seed, options)
    for st in states:
        text = json.dumps(st.to_dict())
        back = State.from_dict(json.loads(text))
        assert back == st and back.to_dict() == st.to_dict()
        check_cards(st)
    for events in logs:
        json.dumps([e.to_dict() for e in events])


@pytest.mark.parametrize(("n", "seed", "options"), GAMES[::2])
def test_round_tripped_state_plays_on_identically(
    n: int, seed: int, options: dict[str, Any]
) -> None:
    states, actions, logs = playout(n, seed, options)
    for i in range(0, len(actions), 7):
        back = State.from_dict(json.loads(json.dumps(states[i].to_dict())))
        st, ev = engine.apply(back, actions[i])
        assert st.to_dict() == states[i + 1].to_dict()
        assert [e.to_dict() for e in ev] == [e.to_dict() for e in logs[i + 1]]


# -- rejections --------------------------------------------------------------------------------
def rejected(st: State, action: Action, error: type[Exception]) -> None:
    before = st.to_dict()
    with pytest.raises(error):
        engine.apply(st, action)
    assert st.to_dict() == before
    with pytest.raises(error):
        engine.apply(st, action, inplace=True)
    assert st.to_dict() == before


def test_rejects_the_wrong_player() -> None:
    g = Game.make(4, hands={2: ["whip"]})
    d = g.pending.id
    rejected(g.st, Action("pass", 2, d), NotYourTurn)  # seat 1 may choose its turn ahead
    rejected(g.st, Action("pass", None, d), NotYourTurn)
    rejected(g.st, Action("pass", 9, d), NotYourTurn)


def test_rejects_a_stale_decision() -> None:
    g = Game.make(4)
    old = g.pending.id
    g.act(0, "pass")
    rejected(g.st, Action("pass", 1, old), Stale)
    rejected(g.st, Action("timeout", None, old), Stale)
    rejected(g.st, Action("pass", 1, g.pending.id + 1), Stale)


def test_rejects_an_item_not_held() -> None:
    g = Game.make(4, hands={0: ["dagger"], 1: ["whip"]})
    rejected(g.st, Action("trade", 0, g.pending.id, target=1, card="whip"), Illegal)
    rejected(g.st, Action("trade", 0, g.pending.id, target=1, card="no_such_card"), Illegal)
    g.act(0, "trade", target=1, card="dagger")
    rejected(g.st, Action("accept", 1, g.pending.id, card="dagger"), Illegal)


def test_rejects_a_target_out_of_range() -> None:
    g = Game.make(4, hands={0: ["dagger", "key1"]})
    d = g.pending.id
    for target in (-1, 4, 0):
        rejected(g.st, Action("attack", 0, d, target=target), Illegal)
        rejected(g.st, Action("trade", 0, d, target=target, card="dagger"), Illegal)
    rejected(g.st, Action("claim", 0, d, seats=(5,)), Illegal)


def test_rejects_malformed_fields() -> None:
    g = Game.make(4, hands={0: ["key1", "dagger"]}, assoc=[ORD, BRO, ORD, BRO])
    d = g.pending.id
    rejected(g.st, Action("claim", 0, d, seats=("1",)), Illegal)  # type: ignore[arg-type]
    rejected(g.st, Action("claim", 0, d, seats=(True,)), Illegal)
    rejected(g.st, Action("attack", 0, d, target=True), Illegal)
    rejected(g.st, Action("pass", False, d), Illegal)
    rejected(g.st, Action("trade", 0, d, target=1, card=None), Illegal)
    rejected(g.st, Action("pass", 0, str(d)), Illegal)  # type: ignore[arg-type]


def test_rejects_an_unknown_kind_or_extra_fields() -> None:
    g = Game.make(4, hands={0: ["dagger"]})
    d = g.pending.id
    rejected(g.st, Action("fly", 0, d), Illegal)
    rejected(g.st, Action("pass", 0, d, target=1), Illegal)


def test_rejects_anything_after_the_game_is_over() -> None:
    g = Game.make(4, hands={0: ["key1"]}, assoc=[ORD, BRO, ORD, BRO])
    g.act(0, "claim")
    assert g.st.over
    rejected(g.st, Action("pass", 1, g.st.next_id - 1), GameOver)
    rejected(g.st, Action("timeout", None, 0), GameOver)
    assert engine.awaiting(g.st) is None
    assert engine.legal_actions(g.st, 1) == []
    with pytest.raises(GameOver):
        engine.timeout_action(g.st)
    with pytest.raises(GameOver):
        engine.default_action(g.st, 1)


# -- awaiting and legal actions ----------------------------------------------------------------
@pytest.mark.parametrize(("n", "seed", "options"), GAMES[::2])
def test_awaiting_matches_the_pending_decision_and_every_legal_action_applies(
    n: int, seed: int, options: dict[str, Any]
) -> None:
    states, _, logs = playout(n, seed, options)
    for st in states[:-1]:
        aw = engine.awaiting(st)
        assert aw is not None and st.pending is not None
        # R-A3 (issue 9): supporters asked ahead of their turn are asked, not waited for
        assert sorted(aw.seats + aw.ahead) == sorted(st.pending.actors)
        assert not set(aw.seats) & set(aw.ahead) and aw.decision == st.pending.id
        assert aw.closable == (aw.window and not aw.seats)
        # the next player choosing their turn ahead (engine.premove) is asked too
        assert engine.asked(st) == st.pending.actors + [s for s in [aw.premove] if s is not None]
        for seat in range(st.n):
            legal = engine.legal_actions(st, seat)
            assert bool(legal) == (seat in engine.asked(st))
            for a in legal[:3]:
                if a.kind not in ("claim", "claim_other"):
                    engine.apply(st, a)  # never rejected
            if seat in aw.seats:
                assert engine.default_action(st, seat) in legal or aw.kind == "gift"
    for events in logs:
        for e in events:
            assert e.to is None or (e.to and all(0 <= s < states[0].n for s in e.to))


# -- views (R-V1, R-V2) ------------------------------------------------------------------------
PUBLIC_PLAYER_KEYS = {"seat", "name", "items", "drink", "occupation", "spent", "away"}
# R-V3: a claim reveals everything, its count names the association counted (claim_count)
PUBLIC_EVENT_KINDS_WITH_CARDS = {
    "played",
    "effects",
    "revealed",
    "claim_count",
    "game_over",
    "game_started",
}


def strings(value: Any) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(strings(k) | strings(v) for k, v in value.items())) if value else set()
    if isinstance(value, list | tuple):
        return set().union(*(strings(v) for v in value)) if value else set()
    return set()


def secrets_of(st: State, seat: int) -> set[str]:
    """What ``seat`` may not see in the table: hidden cards of the others."""
    played = set()
    for f in st.frames:
        if f["kind"] == "fight":
            played |= {c for _, c, _ in f.get("played", [])}
    hidden: set[str] = set()
    for other, p in enumerate(st.players):
        if other == seat:
            continue
        hidden |= {c for c in p.items if c not in played}
        if not p.occ_up:
            hidden.add(p.occupation)
    return hidden


def table_strings(table: dict[str, Any]) -> set[str]:
    """The words a public view shows, but decision kinds: they are named after what decides (a
    "doctor" window, a "coat" choice), which says nothing about who holds what."""
    shown = strings({k: v for k, v in table.items() if k != "pending"})
    if table["pending"] is not None:
        shown |= strings(table["pending"]["data"])
    return shown


def assert_views_are_clean(st: State) -> None:
    table = engine.public_view(st)
    assert all(set(p) == PUBLIC_PLAYER_KEYS for p in table["players"])
    assert all(isinstance(p["items"], int) for p in table["players"])
    shown = table_strings(table) if not st.over else set()
    assert not shown & set(ASSOCIATIONS)  # R-V2
    for seat in range(st.n):
        v = engine.view(st, seat)
        assert v["table"] == table
        leaked = shown & secrets_of(st, seat) - set(st.removed)
        assert not leaked, (seat, leaked)
        me = v["me"]
        assert me["items"] == st.players[seat].items and me["assoc"] == st.players[seat].assoc
        # a decision is shown only to a player asked (the next one may choose ahead)
        if v["decision"] is not None:
            assert st.pending is not None and seat in engine.asked(st)


@pytest.mark.parametrize(("n", "seed", "options"), GAMES)
def test_views_never_include_other_players_secrets(
    n: int, seed: int, options: dict[str, Any]
) -> None:
    states, _, logs = playout(n, seed, options)
    for st in states:
        assert_views_are_clean(st)
    for events in logs:
        for e in events:
            if e.public and e.kind not in PUBLIC_EVENT_KINDS_WITH_CARDS:
                # what decides, how a fight was won and what a Diplomat named are public words
                data = {
                    k: v
                    for k, v in e.data.items()
                    if k not in ("decision_kind", "how", "name", "reason")
                }
                assert not strings(data) & set(ALL_ITEMS), e
                assert not strings(data) & set(ASSOCIATIONS), e
                if e.kind not in ("occupation_used",):
                    assert not strings(data) & set(OCCUPATIONS), e


def test_R_V1_public_view_shows_the_table() -> None:
    g = Game.make(5, hands={0: ["dagger", "whip"]}, occ={1: "thug"}, occ_up={1: True}, turn=2)
    table = engine.public_view(g.st)
    assert [p["seat"] for p in table["players"]] == [0, 1, 2, 3, 4]
    assert table["turn"] == 2 and table["pile"] == len(g.st.pile)
    assert table["players"][0]["items"] == 2
    assert table["players"][1]["occupation"] == "thug"
    assert table["players"][0]["occupation"] is None
    assert all(p["drink"] for p in table["players"])
    assert table["pending"]["kind"] == "turn" and table["pending"]["seats"] == [2]


def test_R_V2_own_cards_in_the_own_view_only() -> None:
    g = Game.make(4, hands={0: ["dagger"], 1: ["key2"]}, occ={1: "priest"})
    mine = engine.view(g.st, 1)
    assert mine["me"]["items"] == ["key2"] and mine["me"]["occupation"] == "priest"
    assert mine["me"]["association"] in ASSOCIATIONS
    other = engine.view(g.st, 0)
    assert "key2" not in json.dumps(other) and "priest" not in json.dumps(other)


def test_R_V2_trade_offer_only_in_the_receivers_decision() -> None:
    g = Game.make(4, hands={0: ["privilege"], 1: ["key2"]})
    g.act(0, "trade", target=1, card="privilege")
    assert engine.view(g.st, 1)["decision"]["data"]["card"] == "privilege"
    assert "privilege" not in json.dumps(engine.view(g.st, 2))
    assert "privilege" not in json.dumps(engine.public_view(g.st))


def test_R_V2_notes_record_what_was_learned_and_when() -> None:
    g = Game.make(4, hands={0: ["privilege"], 1: ["key2", "whip"]})
    g.act(0, "trade", target=1, card="privilege").act(1, "accept", card="whip")
    note = g.notes(0, "saw_items")[0]
    assert note["about"] == 1 and sorted(note["cards"]) == ["key2", "privilege"]
    assert note["turn"] == g.st.turn_no - 1 and note["round"] == 1
    assert engine.view(g.st, 0)["notes"] == g.player(0).notes
    assert all(n["k"] != "saw_items" for n in engine.view(g.st, 2)["notes"])


def test_events_name_their_audience() -> None:
    _, events = engine.new_game(NAMES[:4], 1)
    assert events[0].to is None and events[0].public
    assert all(e.to == (e.data["seat"],) for e in events if e.kind == "dealt")
    assert Event("x", (1,), {"a": 1}).to_dict() == {"kind": "x", "to": [1], "a": 1}
