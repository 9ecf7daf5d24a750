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
