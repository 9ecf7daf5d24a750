"""Issue 13: decision and event kinds are enumerations whose values are the stored strings; the
engine makes no kind outside them, and every decision kind has its handler registered."""

from __future__ import annotations

import pytest

import engine
from engine.core import Ctx
from engine.kinds import DecisionKind, EventKind
from engine.mechanics import KINDS
from engine.rng import Rng


def test_every_decision_kind_is_registered_and_nothing_else() -> None:
    assert set(KINDS) == set(DecisionKind)


def test_members_equal_the_strings_stored_in_game_documents() -> None:
    assert DecisionKind.TURN == "turn" and EventKind.TRADE_REFUSED == "trade_refused"
    assert {k.value for k in DecisionKind} == {k.name.lower() for k in DecisionKind}
    assert {k.value for k in EventKind} == {k.name.lower() for k in EventKind}


def test_the_engine_refuses_to_tell_or_open_an_unknown_kind() -> None:
    st, _ = engine.new_game(["a", "b", "c"], 1)
    ctx = Ctx(st)
    with pytest.raises(ValueError):
        ctx.public("no_such_event", seat=0)
    with pytest.raises(ValueError):
        ctx.private((0,), "no_such_event")
    with pytest.raises(ValueError):
        ctx.open("no_such_decision", [0], "turn")


def test_a_game_makes_only_listed_kinds_and_they_survive_the_round_trip() -> None:
    st, events = engine.new_game(["a", "b", "c", "d"], 7)
    rng = Rng(7)
    for _ in range(300):
        aw = engine.awaiting(st)
        if st.over or st.pending is None or aw is None:
            break
        assert st.pending.kind in set(DecisionKind)
        legal = engine.legal_actions(st, aw.seats[0]) if aw.seats else []
        st, new = engine.apply(st, rng.choice(legal) if legal else engine.timeout_action(st))
        events += new
        st = engine.State.from_dict(st.to_dict())
    assert events and all(e.kind in set(EventKind) for e in events)


def test_the_story_has_a_line_for_every_public_event_kind_but_the_silent_ones() -> None:
    from handlers.story.public import LINES

    silent = {EventKind.GAME_STARTED, EventKind.FIGHT_OVER}
    assert set(LINES) <= set(EventKind)
    public = {
        EventKind(k)
        for k in ("turn", "passed", "attack", "played", "fight_result", "claim", "game_over")
    }
    assert public <= set(LINES) and not silent & set(LINES)


def test_the_table_of_kinds_refuses_a_kind_two_modules_claim() -> None:
    from engine import mechanics

    with pytest.raises(ValueError, match="twice"):
        mechanics._merge(({"turn": 1}, {"turn": 2}), "decision kind")


# -- issue 28: action kinds too, tables keyed by kind complete, stored games unchanged ---------
def test_action_kinds_equal_their_stored_strings() -> None:
    from engine.kinds import ActionKind

    assert ActionKind.PASS == "pass" and engine.TIMEOUT == ActionKind.TIMEOUT == "timeout"
    assert {k.value for k in ActionKind} == {k.name.lower() for k in ActionKind}


def test_every_table_keyed_by_decision_kind_has_every_kind_and_only_members() -> None:
    """The engine's rules (mechanics.KINDS), the AI's deciders (policy.DECIDE) and the prompts'
    pages (prompts.PAGES): a decision kind added without its entry fails here, not mid-game."""
    from engine.ai.policy import DECIDE
    from handlers.prompts import PAGES

    for table in (KINDS, DECIDE, PAGES):
        assert set(table) == set(DecisionKind)
        assert all(type(k) is DecisionKind for k in table)


def test_every_action_kind_a_player_takes_has_a_button_code() -> None:
    from engine.kinds import ActionKind
    from handlers import action_payloads

    codes = action_payloads._KINDS
    assert set(codes) == set(ActionKind) - {ActionKind.TIMEOUT}
    assert len(set(codes.values())) == len(codes)


def test_actions_and_decisions_hold_members() -> None:
    from engine.kinds import ActionKind

    st, _ = engine.new_game(["a", "b", "c", "d"], 7)
    rng = Rng(7)
    for _ in range(200):
        aw = engine.awaiting(st)
        if st.over or aw is None:
            break
        assert type(aw.kind) is DecisionKind
        assert st.pending is not None and type(st.pending.kind) is DecisionKind
        legal = engine.legal_actions(st, aw.seats[0]) if aw.seats else []
        assert all(type(a.kind) is ActionKind for a in legal)
        st, _ = engine.apply(st, rng.choice(legal) if legal else engine.timeout_action(st))
    # a plain string equal to a member is the same action (stored documents, tests)
    assert engine.Action("pass", 0, 1) == engine.Action(ActionKind.PASS, 0, 1)
    assert type(engine.Pending(1, "turn", [0], "turn").kind) is DecisionKind


def test_a_game_stored_before_the_enums_loads_and_stores_unchanged() -> None:
    """A document stored by the code before (plain strings) loads: its decision kind is the
    member, it stores back to the same JSON, and it plays on."""
    import json
    from pathlib import Path

    stored = json.loads(
        (Path(__file__).parent / "data" / "game_docs_before_the_record.json").read_text()
    )["playing"]["engine"]
    doc = engine.upgrade_stored_state(stored)
    st = engine.State.from_dict(doc)
    assert st.pending is not None and type(st.pending.kind) is DecisionKind
    assert st.pending.kind == stored["pending"]["kind"]
    assert json.loads(json.dumps(st.to_dict())) == json.loads(json.dumps(doc))
    aw = engine.awaiting(st)
    assert aw is not None
    legal = engine.legal_actions(st, aw.seats[0])
    engine.apply(st, legal[0])


def test_the_black_pearl_is_named_once() -> None:
    """Issue 28: "black_pearl" was spelt 16 times; the rules and the AI use engine.cards'
    constant, and only the card tables (the id, its payload code, its icon) spell it."""
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    tables = {"engine/cards.py", "handlers/action_payloads.py", "handlers/card_labels.py"}
    spelt = [
        f"{path.relative_to(root)}:{node.lineno}"
        for package in ("engine", "handlers", "devtools")
        for path in sorted((root / package).rglob("*.py"))
        if path.relative_to(root).as_posix() not in tables
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.Constant) and node.value == "black_pearl"
    ]
    assert spelt == []


@pytest.mark.parametrize("lang", ["en", "de", "zh-Hans"])
def test_every_decision_kind_has_its_name_in_each_catalog(lang: str) -> None:
    """The catalogs' ``game.kind.*`` is a table keyed by decision kind (a deadline told, the
    status's "waiting for"): every kind has its name, the smuggling window as the trade settling
    (R-T9, engine.views.public_pending), and nothing else."""
    import json
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "handlers" / "locales" / f"{lang}.game.json"
    keys = json.loads(path.read_text())
    names = {k.removeprefix("game.kind.") for k in keys if k.startswith("game.kind.")}
    told = {*DecisionKind} - {DecisionKind.SMUGGLE} | {"trade_settling"}
    assert names == told
