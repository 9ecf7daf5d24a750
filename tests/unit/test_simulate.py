"""Random playouts (issue 2, "Random playouts"): complete games with random legal decisions and
timeouts finish without errors or invariant violations; and the invariant checker itself catches
corruption, so a clean run means something."""

from __future__ import annotations

import json
from typing import Any

import pytest

import engine
from devtools.simulation import invariants, playout, simulate
from devtools.simulation.policies import RandomPolicy, policies_for, register
from devtools.simulation.simulate import Config, run
from engine.actions import Action, Event
from engine.rng import Rng
from engine.state import State


def _assert_clean(out: dict[str, Any]) -> None:
    problems = out["first_errors"] + out["first_violations"]
    assert out["errors"] == 0, problems
    assert out["invariant_violations"] == 0, problems
    assert out["finished"] == out["games"], problems


def test_random_playouts_3_to_10_players() -> None:
    out = run(Config(games=144, players=(3, 10), seed=20, view_every=16, sample_every=100))
    _assert_clean(out)
    assert out["games"] == 144
    assert set(out["by_players"]) == {str(n) for n in range(3, 11)}
    assert all(b["games"] == 18 for b in out["by_players"].values())
    assert sum(out["results"].values()) == 144
    assert out["actions"] > 144 * 50
    assert out["timeouts"] > 0


def test_random_playouts_strict() -> None:
    """Every check, including every view and the full JSON round trip, after every step."""
    out = run(Config(games=20, players=(3, 4), seed=21, strict=True))
    _assert_clean(out)


def test_playouts_with_many_timeouts() -> None:
    """Timeouts alone must always drive a game to its end (players get marked away)."""
    out = run(Config(games=8, players=(3, 10), seed=22, timeouts=0.9, view_every=1))
    _assert_clean(out)
    assert out["events"].get("away", 0) > 0


def test_same_seed_same_games() -> None:
    a = run(Config(games=6, players=(3, 10), seed=5))
    b = run(Config(games=6, players=(3, 10), seed=5))
    for key in ("actions", "results", "by_players", "decisions", "events", "mean_rounds"):
        assert a[key] == b[key]


def test_replay_plays_one_game_seed() -> None:
    """``--replay`` with a game's seed and player count plays exactly that game again."""
    whole = run(Config(games=2, players=(3, 4), seed=5))  # game 1 is the only 4-player game
    alone = run(Config(players=(4, 4), replay=simulate.game_seed(5, 1)))
    assert alone["games"] == 1 and alone["finished"] == 1
    assert alone["actions"] == whole["by_players"]["4"]["mean_actions"]


def test_cli_prints_one_json_object(capsys: pytest.CaptureFixture[str]) -> None:
    code = simulate.main(["--games", "3", "--players", "3-4", "--seed", "2", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0
    for key in (
        "games",
        "finished",
        "errors",
        "invariant_violations",
        "actions",
        "seconds",
        "games_per_s",
        "actions_per_s",
        "engine_actions_per_s",
        "by_players",
        "results",
        "mean_rounds",
        "first_errors",
    ):
        assert key in out
    assert set(out["results"]) == set(simulate.HOWS)


def test_cli_summary_and_bad_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    assert simulate.main(["--games", "2", "--players", "3", "--no-checks"]) == 0
    assert "finished 2" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        simulate.main(["--players", "2-11"])
    assert simulate.main(["--games", "1", "--policy", "nonsense"]) == 2
    with pytest.raises(SystemExit):
        simulate.main(["--force", "fortune_telling"])


def test_forced_option_in_every_game(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["--games", "4", "--players", "3-4", "--no-checks", "--json"]
    assert simulate.main([*args, "--force", "fortune_telling=true"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["options"]["fortune_telling"] == 4
    assert out["config"]["force"] == {"fortune_telling": True}


# -- the run reports what goes wrong ----------------------------------------------------------
def test_run_counts_violations_and_errors(monkeypatch: pytest.MonkeyPatch) -> None:
    real_apply = engine.apply

    def corrupting_apply(st: State, action: Action, *, inplace: bool = False) -> Any:
        st, events = real_apply(st, action, inplace=inplace)
        if st.step == 30 and st.seed % 2 == 0:
            st.players[0].items.append(st.players[1].items[0])  # a duplicated card
        if st.step == 30 and st.seed % 2 == 1:
            raise RuntimeError("boom")
        return st, events

    monkeypatch.setattr(playout, "apply", corrupting_apply)
    out = run(Config(games=4, players=(3, 4), seed=0))
    assert out["errors"] == 2
    assert out["invariant_violations"] > 0
    assert out["first_errors"][0]["error"] == "RuntimeError('boom')"
    assert out["first_errors"][0]["replay"].startswith("python -m devtools.simulate --replay ")
    assert any("duplicated" in v for s in out["first_violations"] for v in s["violations"])


# -- the checker catches corruption ----------------------------------------------------------
def _midgame(n: int = 5, seed: int = 3, steps: int = 40) -> tuple[State, list[Event]]:
    st, events = engine.new_game([f"p{i}" for i in range(n)], seed, {"smuggling": True})
    rng = Rng(seed)
    pol = RandomPolicy(claim_permille=0)
    for _ in range(steps):
        aw = engine.awaiting(st)
        assert aw is not None
        if aw.closable:
            action = engine.timeout_action(st)
        else:
            seat = aw.seats[rng.below(len(aw.seats))]
            action = pol.choose(st, seat, engine.legal_actions(st, seat), rng)
        st, events = engine.apply(st, action, inplace=True)
    assert invariants.check(st) == []
    assert invariants.check_roundtrip(st) == []
    return st, events


def test_checker_catches_a_duplicated_card() -> None:
    st, _ = _midgame()
    st.players[2].items.append(st.players[0].items[0])
    assert any("duplicated" in v for v in invariants.check(st))


def test_checker_catches_a_lost_card() -> None:
    st, _ = _midgame()
    card = st.pile.pop() if st.pile else st.players[0].items.pop()
    assert any(card in v and "missing" in v for v in invariants.check(st))


def test_checker_catches_an_emptied_hand() -> None:
    st, _ = _midgame()
    st.pile += st.players[1].items  # every card still somewhere exactly once
    st.players[1].items.clear()
    assert invariants.check(st) == ["seat 1 holds no item"]


def test_checker_catches_a_hand_over_the_limit() -> None:
    st, _ = _midgame(n=5)
    while len(st.players[0].items) <= 5:
        if st.pile:
            st.players[0].items.append(st.pile.pop())
        else:
            donor = next(p for p in st.players[1:] if len(p.items) > 1)
            st.players[0].items.append(donor.items.pop())
    assert any("> limit 5" in v for v in invariants.check(st))


def test_checker_catches_a_broken_pending_decision() -> None:
    st, _ = _midgame()
    assert st.pending is not None
    st.pending.actors = [0, 0]
    assert any("not distinct" in v for v in invariants.check(st))
    st.pending = None
    assert "game not over but nothing pending" in invariants.check(st)


def test_checker_catches_a_card_id_in_a_public_event() -> None:
    st, _ = _midgame()
    ledger = invariants.Ledger()
    leak = Event("trade_done", None, {"seat": 0, "target": 1, "card": st.players[0].items[0]})
    assert any("names an item card" in v for v in invariants.check_events(st, [leak], ledger))
    assoc = Event("support", None, {"seat": 0, "side": st.players[0].association})
    assert any("association" in v for v in invariants.check_events(st, [assoc], ledger))
    occ = Event("attack", None, {"seat": 0, "target": 1, "why": st.players[0].occupation})
    assert any("occupation" in v for v in invariants.check_events(st, [occ], ledger))
    # ... while the kinds R-V1 makes public may name cards
    fine = [
        Event("played", None, {"seat": 0, "card": "dagger", "choice": None}),
        Event("gift", None, {"seat": 0, "target": 1, "reason": "priest"}),
    ]
    assert invariants.check_events(st, fine, ledger) == []


def test_checker_catches_private_events_to_the_wrong_seat() -> None:
    st, _ = _midgame()
    ledger = invariants.Ledger()
    p0 = st.players[0]
    wrong = [
        Event("dealt", (1,), {"seat": 0, "assoc": p0.assoc, "occupation": p0.occupation}),
        Event("received", (2,), {"seat": 0, "source": 1, "card": p0.items[0], "how": "trade"}),
        Event("items_seen", (1,), {"about": 0, "cards": list(p0.items), "how": "privilege"}),
        Event("association_seen", (1,), {"about": 0, "assoc": p0.assoc[0], "how": "fight"}),
        Event("offered", (3,), {"seat": 0, "target": 3, "card": p0.items[0]}),
        Event("secret_whisper", (1,), {"about": 0}),
        Event("turn", (0, 1), {"seat": 0}),
    ]
    found = invariants.check_events(st, wrong, ledger)
    assert len(found) >= len(wrong), found
    # the public event that licenses a look makes the same private event fine
    licensed = [
        Event("reward", None, {"seat": 1, "target": 0, "choice": "take"}),
        Event("items_seen", (1,), {"about": 0, "cards": list(p0.items), "how": "fight"}),
        Event("trade_offered", None, {"seat": 0, "target": 3}),
        Event("offered", (3,), {"seat": 0, "target": 3, "card": p0.items[0]}),
    ]
    assert invariants.check_events(st, licensed, ledger) == []


def test_checker_catches_a_leaking_view(monkeypatch: pytest.MonkeyPatch) -> None:
    st, _ = _midgame()
    ledger = invariants.Ledger()
    ledger.notes_seen = {seat: len(p.notes) for seat, p in enumerate(st.players)}
    assert invariants.check_views(st, [], ledger) == []
    from engine import views

    real = views._public_player

    def leaky(st: State, seat: int) -> dict[str, Any]:
        out = real(st, seat)
        out["hand"] = list(st.players[seat].items)
        return out

    monkeypatch.setattr(views, "_public_player", leaky)
    found = invariants.check_views(st, [], ledger)
    assert any("has keys" in v for v in found)


def test_checker_catches_a_face_down_occupation_in_the_public_view() -> None:
    st, _ = _midgame()
    pv = engine.public_view(st)
    down = next(s for s, p in enumerate(st.players) if not p.occ_up)
    pv["players"][down]["occupation"] = st.players[down].occupation
    assert any("occupation" in v for v in invariants.check_public_view(st, pv))


def test_checker_catches_an_unlicensed_notebook_entry() -> None:
    st, _ = _midgame()
    ledger = invariants.Ledger()
    ledger.notes_seen = {seat: len(p.notes) for seat, p in enumerate(st.players)}
    assert invariants.check_views(st, [], ledger) == []
    st.players[1].notes.append(
        {
            "k": "saw_association",
            "turn": 1,
            "round": 1,
            "about": 2,
            "assoc": "order",
            "how": "fight",
        }
    )
    found = invariants.check_views(st, [], ledger)
    assert any("notebook" in v for v in found)


def test_checker_catches_a_state_that_does_not_round_trip() -> None:
    st, _ = _midgame()
    st.frames[-1]["pair"] = (1, 2)  # a tuple comes back from JSON as a list
    assert invariants.check_roundtrip(st)
    assert invariants.check_roundtrip(st, light=True)
    st.frames[-1]["pair"] = [1, 2]
    st.frames[-1]["by_seat"] = {1: "x"}  # int keys come back as strings
    assert invariants.check_roundtrip(st)
    assert invariants.check_roundtrip(st, light=True)


# -- policies ---------------------------------------------------------------------------------
def test_random_policy_claims_rarely_with_distinct_allies() -> None:
    st, _ = engine.new_game([f"p{i}" for i in range(6)], 1)
    rng = Rng(9)
    legal = [
        Action("pass", 0, 1),
        Action("attack", 0, 1, target=1),
        Action("claim", 0, 1),
    ]
    picks = [RandomPolicy().choose(st, 0, legal, rng) for _ in range(4000)]
    claims = [a for a in picks if a.kind == "claim"]
    assert 40 <= len(claims) <= 200  # about 2.5 %
    for a in claims:
        assert 0 not in a.seats and len(set(a.seats)) == len(a.seats)
        assert all(0 <= s < 6 for s in a.seats)
    assert len({a.seats for a in claims}) > 5


def test_policies_for() -> None:
    rng = Rng(1)
    assert len(policies_for("random", 7, rng)) == 7

    class Fixed:
        def choose(self, st: Any, seat: int, legal: Any, rng: Rng) -> Action:
            return legal[0]

    register("fixed_for_test", Fixed)
    mixed = policies_for("fixed_for_test-vs-random", 7, rng)
    assert sum(isinstance(p, Fixed) for p in mixed) == 3
    assert len(policies_for("mix:fixed_for_test,random", 5, rng)) == 5
    with pytest.raises(ValueError):
        policies_for("nope", 3, rng)
    with pytest.raises(ValueError):
        register("a-vs-b", Fixed)
