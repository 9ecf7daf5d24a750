"""§8 timing in the digital game: every decision's default (R-D…), windows that reveal nothing
(R-D1) and players marked away (R-D2)."""

from __future__ import annotations

import pytest

import engine
from engine import TIMEOUT, Action, NotYourTurn
from tests.unit.engine_helpers import BRO, NAMES, ORD, Game

A, D = "attacker", "defender"


# -- §8 defaults, kind by kind ----------------------------------------------------------------
def test_R_D2_default_turn_is_pass() -> None:
    g = Game.make(4)
    assert engine.default_action(g.st, 0) == Action("pass", 0, g.pending.id)
    g.timeout()
    assert g.of("passed", g.last)[0].data["seat"] == 0 and g.pending.actors == [1]
    assert g.of("deadline", g.last)[0].data["decision_kind"] == "turn"


def test_R_D2_default_after_the_action_is_end() -> None:
    g = Game.make(4, occ={0: "diplomat"}, occ_up={0: True})
    g.act(0, "pass")
    assert g.kind == "turn" and g.pending.actors == [0]  # a face-up Diplomat: no secret
    g.timeout()
    assert not g.of("diplomat") and g.pending.actors == [1]


def test_R_D2_default_trade_answer_is_refuse() -> None:
    g = Game.make(4, hands={0: ["dagger"], 1: ["whip"]})
    g.act(0, "trade", target=1, card="dagger").timeout()
    assert g.of("trade_refused", g.last) and g.items(1) == ["whip"]


@pytest.mark.parametrize("card", ["dagger", "black_pearl", "broken_mirror"])
def test_R_D1_a_timed_out_trade_answer_is_told_as_any_answer(card: str) -> None:
    """R-T2 makes the default an accept for a Pearl or Mirror and a refusal otherwise: no "time
    is up" line, so the table cannot tell a default from a choice, nor learn the card."""
    g = Game.make(4, hands={0: [card], 1: ["whip"]})
    g.act(0, "trade", target=1, card=card).timeout()
    assert not g.of("deadline", g.last)
    told = [e.kind for e in g.last if e.public]
    assert ("trade_refused" in told) == (card == "dagger")
    assert ("trade_accepted" in told) == (card != "dagger")


def test_R_D2_default_support_is_neutral_and_windows_nobody_used() -> None:
    g = Game.make(4, occ={2: "priest", 3: "doctor", 0: "hypnotist"}, pile=["whip"])
    g.act(0, "attack", target=1)
    assert g.kind == "priest" and g.holders == [2]
    g.timeout()
    assert not g.of("priest_stopped") and g.kind == "support"
    g.timeout().timeout()
    assert [e.data["side"] for e in g.of("support")] == ["neutral", "neutral"]
    assert g.kind == "hypnotist" and g.pending.actors == [0]
    g.timeout()
    assert not g.of("hypnotized") and g.kind == "boost"
    g.timeout()  # boost: everyone done
    assert not g.of("played") and g.kind == "doctor"
    g.timeout()
    assert not g.of("doctor_cancelled")
    assert g.of("drew", g.last)  # the tie draw happened
    assert not g.player(2).occ_spent and not g.player(3).occ_spent


def test_R_D2_default_reward_is_look_then_random_item_and_giveback() -> None:
    g = Game.make(4, hands={0: ["dagger"], 1: ["whip"]}, assoc=[ORD, BRO, ORD, BRO])
    g.fight(0, 1, {2: A}).timeout()
    assert g.of("association_seen", g.last)
    g2 = Game.make(4, hands={0: ["dagger"], 1: ["whip"]})
    g2.fight(0, 1, {2: A}).act(0, "take")  # the loser's only item: taken at once
    assert g2.kind == "giveback"
    g2.timeout()
    assert len(g2.items(1)) == 1 and len(g2.items(0)) == 1


def test_R_D2_default_priest_tribute_and_diplomat_give_are_random_items() -> None:
    g = Game.make(4, hands={0: ["dagger", "key1"]}, occ={2: "priest"})
    g.act(0, "attack", target=1).act(2, "use").timeout()
    assert len(g.items(0)) == 1 and len(g.items(2)) == 2
    g2 = Game.make(4, hands={0: ["dagger", "key1"], 1: ["whip"]}, occ={0: "diplomat"})
    g2.act(0, "diplomat", target=1, card="whip").timeout()
    assert "whip" in g2.items(0) and len(g2.items(1)) == 1


def test_R_D2_default_look_position_is_the_first() -> None:
    g = Game.make(
        3,
        hands={0: ["monocle", "key1"], 1: ["whip", "gloves"]},
        assoc=[[ORD, ORD, BRO], [BRO, ORD, ORD], [BRO, BRO, ORD]],
        options={"advanced_three": True},
    )
    g.act(0, "trade", target=1, card="monocle").act(1, "accept", card="whip").timeout()
    seen = g.of("association_seen", g.last)[0]
    assert seen.data["position"] == 0 and seen.data["assoc"] == BRO


def test_R_D2_system_timeout_answers_for_everyone_still_asked() -> None:
    g = Game.make(4, hands={0: ["sextant"], 1: ["whip"]})
    g.act(0, "trade", target=1, card="sextant").act(1, "accept", card="whip")
    g.act(0, "direction", choice="right").act(2, "give", card=g.items(2)[0])
    assert sorted(g.pending.actors) == [0, 1, 3]
    g.timeout()
    assert g.of("sextant_passed", g.last) and g.kind == "turn"


def test_R_D2_a_single_seat_timeout_on_a_window_does_not_close_it() -> None:
    g = Game.make(4, occ={2: "priest", 3: "doctor"})
    g.act(0, "attack", target=1).timeout(2)
    aw = engine.awaiting(g.st)
    assert aw is not None and aw.kind == "priest" and aw.closable
    with pytest.raises(NotYourTurn):
        g.timeout(3)


# -- R-D1 --------------------------------------------------------------------------------------
def _window_views(occ: dict[int, str]) -> list[dict[str, object]]:
    g = Game.make(4, occ=occ, seed=3)
    g.act(0, "attack", target=1)
    views = [engine.public_view(g.st)["pending"]]
    g.close().supports()
    views.append(engine.public_view(g.st)["pending"])
    g.close()
    views.append(engine.public_view(g.st)["pending"])
    g.close()
    views.append(engine.public_view(g.st)["pending"])
    return views


def test_R_D1_windows_look_the_same_whether_or_not_anyone_can_act() -> None:
    able = _window_views({0: "hypnotist", 2: "priest", 3: "doctor"})
    unable = _window_views({0: "thug", 2: "grand_master", 3: "bodyguard"})
    assert [v["kind"] for v in able] == ["priest", "hypnotist", "boost", "doctor"]
    assert able == unable
    for v in able:
        assert v["window"] is True and "seats" not in v
        assert set(v["data"]) <= {"attacker", "defender"}


def test_R_D1_a_window_nobody_can_use_still_needs_its_end() -> None:
    g = Game.make(4)
    g.act(0, "attack", target=1)
    aw = engine.awaiting(g.st)
    assert aw is not None and aw.kind == "priest" and g.holders == []
    # every supporter is asked their own question (issue 9), nobody the window's
    assert all(engine.legal_actions(g.st, s) == [] for s in (0, 1))
    assert all({a.kind for a in engine.legal_actions(g.st, s)} == {"support"} for s in (2, 3))
    # it stays open until the timeout closes it (the minimum duration is the service's)
    assert engine.awaiting(g.st) == aw
    g.timeout()
    assert g.kind == "support"


def test_R_D1_passing_in_a_window_is_told_to_nobody() -> None:
    g = Game.make(4, occ={1: "priest"})
    g.act(0, "attack", target=1)
    before = engine.public_view(g.st)
    g.act(1, "pass")
    assert g.last == []
    assert engine.public_view(g.st) == before
    assert engine.view(g.st, 1)["decision"] is None
    assert engine.view(g.st, 2)["decision"]["kind"] == "support"  # the first supporter


def test_R_D1_a_supporter_passing_the_priest_window_keeps_its_support_question() -> None:
    g = Game.make(4, occ={3: "priest"})
    g.act(0, "attack", target=1)
    before = engine.public_view(g.st)
    g.act(3, "pass")
    assert g.last == [] and engine.public_view(g.st) == before
    assert engine.view(g.st, 3)["decision"]["kind"] == "support"
    assert {a.kind for a in engine.legal_actions(g.st, 3)} == {"support", "use"}


def test_R_D1_only_the_asked_see_the_window_decision() -> None:
    g = Game.make(4, occ={3: "doctor"})
    g.attack(0, 1).close()
    assert engine.view(g.st, 3)["decision"]["kind"] == "doctor"
    assert engine.view(g.st, 2)["decision"] is None
    assert engine.view(g.st, 2)["table"]["pending"]["kind"] == "doctor"


def test_R_D1_boost_window_hides_who_passed() -> None:
    g = Game.make(4, hands={0: ["dagger"]})
    g.attack(0, 1)
    before = engine.public_view(g.st)
    g.act(1, "pass").act(2, "pass")
    assert engine.public_view(g.st) == before


def test_R_D1_window_timeouts_are_public_but_name_nobody() -> None:
    g = Game.make(4, occ={2: "priest"})
    g.act(0, "attack", target=1).timeout()
    deadline = g.of("deadline", g.last)[0]
    assert deadline.public and deadline.data["window"] is True
    assert "seat" not in deadline.data and "seats" not in deadline.data


# -- R-D2 --------------------------------------------------------------------------------------
def test_R_D2_three_timeouts_in_a_row_mark_away_and_acting_brings_back() -> None:
    g = Game.make(3, hands={0: ["dagger"], 1: ["whip"]})
    for _ in range(2):
        g.timeout()  # seat 0's turn
        g.act(1, "pass").act(2, "pass")
    assert g.player(0).timeouts == 2 and not g.player(0).away
    g.timeout()
    assert g.player(0).away and g.of("away", g.last)[0].data == {"seat": 0}
    assert engine.public_view(g.st)["players"][0]["away"] is True
    g.act(1, "trade", target=0, card="whip")
    g.act(0, "refuse")
    assert not g.player(0).away and g.player(0).timeouts == 0
    assert g.of("back", g.last)[0].data == {"seat": 0}


def test_R_D2_leaving_the_group_marks_away_through_the_engine() -> None:
    """A player who leaves the group is away (R-D2): the engine changes the state and tells the
    table, as for three timeouts (the handlers built this event by hand before, issue 28)."""
    g = Game.make(3)
    events = engine.mark_away(g.st, 1)
    assert g.player(1).away
    assert [(e.kind, e.to, e.data) for e in events] == [("away", None, {"seat": 1})]
    assert engine.public_view(g.st)["players"][1]["away"] is True
    assert engine.mark_away(g.st, 1) == []  # already away: nothing new to tell
    with pytest.raises(engine.Illegal):
        engine.mark_away(g.st, 3)


def test_R_D2_acting_resets_the_count() -> None:
    g = Game.make(3)
    g.timeout().act(1, "pass").act(2, "pass")
    g.timeout().act(1, "pass").act(2, "pass")
    g.act(0, "pass").act(1, "pass").act(2, "pass")
    g.timeout()
    assert g.player(0).timeouts == 1 and not g.player(0).away


def test_R_D2_any_decision_counts_not_only_turns() -> None:
    g = Game.make(4, hands={0: ["dagger"], 1: ["whip"], 2: ["gloves"]})
    g.timeout()  # seat 0's turn
    g.act(1, "trade", target=0, card="whip").timeout()  # seat 0's answer
    g.act(2, "attack", target=1).close().act(3, "support", choice=A)
    assert g.pending.actors == [0]
    g.timeout()  # seat 0's support
    assert g.player(0).away


def test_R_D2_window_timeouts_do_not_count() -> None:
    g = Game.make(4, occ={1: "priest"})
    for _ in range(3):
        g.act(0, "attack", target=2)
        g.timeout(1)  # the Priest holder lets the window pass
        g.close().supports().close().close().close()
        if g.kind == "reward":
            g.act(g.pending.actors[0], "look")
        for seat in (1, 2, 3):
            g.act(seat, "pass")
    assert g.player(1).timeouts == 0 and not g.player(1).away


def test_R_D2_single_seat_timeout_counts_for_that_seat() -> None:
    g = Game.make(4, hands={0: ["sextant"], 1: ["whip"]})
    g.act(0, "trade", target=1, card="sextant").act(1, "accept", card="whip")
    g.act(0, "direction", choice="left").timeout(3)
    assert g.player(3).timeouts == 1 and g.player(2).timeouts == 0


def test_R_D2_a_table_all_away_ends_and_any_game_ends_by_timeouts() -> None:
    st, _ = engine.new_game(NAMES[:5], 9)
    steps = 0
    while st.pending is not None:
        st, _ = engine.apply(st, engine.timeout_action(st))
        steps += 1
        assert steps < 500
    assert st.result is not None and st.result["how"] == "abandoned"
    assert st.result["winners"] == []


def test_R_D2_round_guard_ends_a_game_nobody_claims_after_whole_rounds() -> None:
    st, events = engine.new_game(NAMES[:3], 2, {"max_rounds": 2})
    rounds = []
    while st.pending is not None:
        rounds += [e.data["round"] for e in events if e.kind == "turn"]
        seat = st.pending.actors[0]
        kind = "end" if st.pending.data["acted"] else "pass"
        st, events = engine.apply(st, Action(kind, seat, st.pending.id))
    assert rounds == [1, 1, 1, 2, 2, 2]  # a round is every player's turn once
    assert st.result is not None and st.result["how"] == "exhausted"
    assert st.result["round"] == 2


def test_R_V2_notes_say_in_which_turn_and_round_they_were_learned() -> None:
    g = Game.make(4, hands={0: ["privilege"], 3: ["whip", "key1"]}, turn=0)
    for seat in (0, 1, 2):
        g.act(seat, "pass")
    assert g.st.turn_no == 4 and g.st.round == 1
    assert engine.public_view(g.st)["round"] == 1
    g.act(3, "trade", target=0, card="whip").act(0, "accept", card="privilege")
    note = g.notes(0, "saw_items")[0]  # the Privilege fired for seat 0
    assert (note["turn"], note["round"]) == (4, 1)
    g.act(0, "pass")
    assert g.of("turn", g.last)[0].data["round"] == 2


def test_R_D2_timeout_for_a_seat_not_asked_is_rejected() -> None:
    g = Game.make(4)
    with pytest.raises(NotYourTurn):
        engine.apply(g.st, Action(TIMEOUT, 2, g.pending.id))
    with pytest.raises(NotYourTurn):
        engine.default_action(g.st, 2)


def test_R_D1_assoc_constants() -> None:
    assert {ORD, BRO} == {"order", "brotherhood"} and D == "defender"


# Where each decision kind's §8 default is tested; a new kind needs a test and an entry here.
DEFAULT_TESTED = {
    "turn": "test_R_D2_default_turn_is_pass, test_R_D2_default_after_the_action_is_end",
    "trade_answer": "test_R_D2_default_trade_answer_is_refuse, test_rules_trade R-T2",
    "smuggle": "test_rules_trade test_R_T9_smuggling_timeout_uses_the_effect",
    "tome": "test_rules_trade test_R_T8_tome_swap_is_optional_and_defaults_to_no_swap",
    "coat": "test_rules_trade test_R_T8_coat_is_optional_and_defaults_to_keeping",
    "sextant_dir": "test_rules_trade test_R_T8_sextant_timeout_defaults",
    "sextant_pass": "test_rules_trade test_R_T8_sextant_timeout_defaults",
    "priest": "test_R_D2_default_support_is_neutral_and_windows_nobody_used",
    "support": "test_R_D2_default_support_is_neutral_and_windows_nobody_used",
    "hypnotist": "test_R_D2_default_support_is_neutral_and_windows_nobody_used",
    "boost": "test_R_D2_default_support_is_neutral_and_windows_nobody_used",
    "doctor": "test_R_D2_default_support_is_neutral_and_windows_nobody_used",
    "reward": "test_R_D2_default_reward_is_look_then_random_item_and_giveback",
    "reward_take": "test_R_D2_default_reward_is_look_then_random_item_and_giveback",
    "giveback": "test_R_D2_default_reward_is_look_then_random_item_and_giveback",
    "priest_tribute": "test_R_D2_default_priest_tribute_and_diplomat_give_are_random_items",
    "diplomat_give": "test_R_D2_default_priest_tribute_and_diplomat_give_are_random_items",
    "look_pos": "test_R_D2_default_look_position_is_the_first",
    "gift": "test_rules_trade test_R_H1_gift_timeout_gives_a_random_item",
    "clairvoyant": "test_rules_occupations test_clairvoyant_timeout_keeps_the_top_two",
}


def test_R_D2_every_decision_kind_has_a_tested_default() -> None:
    from engine.mechanics import KINDS

    assert set(KINDS) == set(DEFAULT_TESTED)
    windows = {"priest", "hypnotist", "boost", "doctor", "smuggle"}
    for name, spec in KINDS.items():
        assert (spec.finish is not None) == (name in windows), name


# -- R-D1: windows public information shows nobody can use ----------------------------------
def _window_kinds(g: Game) -> list[str]:
    kinds = []
    while g.kind not in (None, "turn", "reward"):
        if g.kind == "support":
            g.supports()
            continue
        kinds.append(str(g.kind))
        g.timeout()
    return kinds


def test_R_D1_a_window_is_left_out_when_face_up_cards_show_nobody_can_use_it() -> None:
    spent = Game.make(
        4, occ={2: "priest", 3: "doctor"}, occ_up={2: True, 3: True}, occ_spent={2: True, 3: True}
    )
    spent.act(0, "attack", target=1)
    assert _window_kinds(spent) == ["hypnotist", "boost"]
    # the attacker shows another occupation: no Hypnotist window
    shown = Game.make(4, occ={0: "thug"}, occ_up={0: True})
    shown.act(0, "attack", target=1)
    assert _window_kinds(shown) == ["priest", "boost", "doctor"]
    # the Hypnotist lies face up before someone else: the attacker cannot hold it
    elsewhere = Game.make(4, occ={2: "hypnotist"}, occ_up={2: True})
    elsewhere.act(0, "attack", target=1)
    assert _window_kinds(elsewhere) == ["priest", "boost", "doctor"]


def test_R_D1_a_window_stays_when_only_hidden_cards_say_nobody_can_use_it() -> None:
    # nobody holds Priest, Doctor or Hypnotist (they are in the face-down deck): the table
    # cannot know, so every window opens and lasts its time
    g = Game.make(4, occ={0: "thug", 1: "grand_master", 2: "bodyguard", 3: "duelist"})
    g.act(0, "attack", target=1)
    assert _window_kinds(g) == ["priest", "hypnotist", "boost", "doctor"]
    # the attacker's own face-up Priest: nobody who may stop the fight holds it
    own = Game.make(4, occ={0: "priest"}, occ_up={0: True})
    own.act(0, "attack", target=1)
    assert _window_kinds(own) == ["boost", "doctor"]  # nor can the attacker hypnotize
    # an unspent face-up Doctor can still cancel: the window stays
    doctor = Game.make(4, occ={3: "doctor"}, occ_up={3: True})
    doctor.act(0, "attack", target=1)
    assert "doctor" in _window_kinds(doctor)
