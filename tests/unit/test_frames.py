"""Typed frames (issue 13): games stored with the frames' old short keys load and play on."""

from __future__ import annotations

import json
from typing import Any

import engine
from engine.frames import innermost_fight
from engine.rng import Rng
from engine.state import State, upgrade_stored_state

# How frames were stored before they were typed (the key renamed to, per kind).
OLD_KEYS = {
    "turn": {},
    "trade": {
        "trader": "a",
        "partner": "b",
        "trader_card": "ca",
        "partner_card": "cb",
        "effects": "fire",
        "effects_done": "i",
    },
    "fight": {
        "attacker": "a",
        "defender": "d",
        "support_order": "order",
        "supports": "sup",
        "supports_told": "si",
        "held_supports": "held",
        "priest_passed": "passed",
        "hypnotized": "hyp",
        "duelist": "duel",
        "mixer_side": "mixer",
        "early_reward": "early",
    },
}


def as_stored_before(st: State) -> dict[str, Any]:
    """``st`` as the code before typed frames stored it: its kind under ``t``, short keys."""
    d = json.loads(json.dumps(st.to_dict()))
    old_frames = []
    for f in d["frames"]:
        renames = OLD_KEYS[f["kind"]]
        old = {"t": f["kind"]}
        old.update({renames.get(k, k): v for k, v in f.items() if k != "kind"})
        old_frames.append(old)
    d["frames"] = old_frames
    return d


def play_one(st: State, rng: Rng) -> list[engine.Event]:
    """A random legal action of the first seat waited for, never a claim (that would end the
    game early); the deadline when nobody is waited for."""
    waits = engine.awaiting(st)
    assert waits is not None
    legal = engine.legal_actions(st, waits.seats[0]) if waits.seats else []
    legal = [a for a in legal if a.kind not in ("claim", "claim_other", "solo")]
    action = rng.choice(legal) if legal else engine.timeout_action(st)
    _, events = engine.apply(st, action, inplace=True)
    return events


def test_a_fight_stored_with_the_old_short_keys_loads_the_same_and_plays_on_the_same() -> None:
    st, _ = engine.new_game([f"p{i}" for i in range(6)], 11)
    rng = Rng(5)
    checked = set()
    while not st.over and len(checked) < 2:
        f = innermost_fight(st.frames)
        if f is not None and f["stage"] in ("support", "result", "doctor") and "supports" in f:
            old = as_stored_before(st)
            assert old["frames"][-1]["t"] == "fight" and "sup" in old["frames"][-1]
            loaded = State.from_dict(old)
            assert loaded.to_dict() == st.to_dict()
            assert upgrade_stored_state(old) == st.to_dict()
            # both go on alike: the same actions give the same events to the end of the game
            twin_rng = Rng(rng.state)
            mine = play_one(st, rng)
            theirs = play_one(loaded, twin_rng)
            assert mine == theirs
            while not st.over:
                assert play_one(st, rng) == play_one(loaded, twin_rng)
            assert loaded.to_dict() == st.to_dict()
            checked.add("fight")
            break
        play_one(st, rng)
    assert checked == {"fight"}, "the game reached a fight with supports"


def test_every_frame_of_a_game_survives_the_old_short_keys() -> None:
    """Turns, trades (with their effects) and fights at every stage, stored the old way."""
    st, _ = engine.new_game([f"p{i}" for i in range(7)], 3)
    rng = Rng(8)
    seen: set[tuple[str, str]] = set()
    while not st.over and st.step < 3000:
        stack = {(f["kind"], f["stage"]) for f in st.frames}
        if not stack <= seen:  # once per frame kind and stage
            assert State.from_dict(as_stored_before(st)).to_dict() == st.to_dict()
            seen |= stack
        play_one(st, rng)
    assert {"turn", "trade", "fight"} <= {kind for kind, _ in seen}
    assert ("trade", "resolve") in seen or ("trade", "smuggle") in seen


def test_a_state_stored_as_this_code_stores_it_is_left_as_it_is() -> None:
    st, _ = engine.new_game([f"p{i}" for i in range(4)], 2)
    d = st.to_dict()
    assert upgrade_stored_state(d) is d
