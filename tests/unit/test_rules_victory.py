"""§4 Declare victory (R-W1…R-W7), the end-of-game reveal (R-V3) and §7 personal scores."""

from __future__ import annotations

import pytest

import engine
from engine import GameOver, Illegal
from tests.unit.engine_helpers import BRO, ORD, Game

ORDERS4 = [ORD, BRO, ORD, BRO]


def claim(g: Game, seat: int, allies: tuple[int, ...] = ()) -> Game:
    return g.act(seat, "claim", seats=allies)


# -- R-W1 --------------------------------------------------------------------------------------
def test_R_W1_claim_needs_a_goal_item_of_your_association() -> None:
    g = Game.make(4, hands={0: ["goblet1"]}, assoc=ORDERS4)
    assert "claim" not in g.legal_kinds(0)
    with pytest.raises(Illegal):
        claim(g, 0)
    g2 = Game.make(4, hands={0: ["key1"]}, assoc=ORDERS4)
    assert "claim" in g2.legal_kinds(0)


def test_R_W1_not_with_the_black_pearl() -> None:
    g = Game.make(4, hands={0: ["key1", "key2", "key3", "black_pearl"]}, assoc=ORDERS4)
    assert "claim" not in g.legal_kinds(0)
    with pytest.raises(Illegal):
        claim(g, 0)


def test_R_W1_only_as_the_action_on_your_turn() -> None:
    g = Game.make(
        4,
        hands={0: ["key1"], 1: ["goblet1"], 2: ["goblet2"]},
        assoc=ORDERS4,
        occ={0: "diplomat"},
        occ_up={0: True},
    )
    assert g.legal(2) == []
    with pytest.raises(engine.NotYourTurn):
        claim(g, 2)
    claim(g, 1)  # the next player may choose it ahead (engine.premove): kept, not played
    assert g.st.result is None and g.st.turn == 0
    g.act(0, "pass")
    assert g.kind == "turn" and g.pending.data["acted"]  # the Diplomat is still to use
    assert "claim" not in g.legal_kinds(0)


def test_R_W1_allies_must_be_distinct_other_players() -> None:
    g = Game.make(4, hands={0: ["key1"]}, assoc=ORDERS4)
    for bad in ((0,), (2, 2), (4,), (-1,)):
        with pytest.raises(Illegal):
            claim(g, 0, bad)


# -- R-W2, R-W3 --------------------------------------------------------------------------------
def test_R_W3_claim_holds_and_the_whole_association_wins() -> None:
    g = Game.make(
        6,
        hands={0: ["key1", "whip"], 2: ["key2", "key3"]},
        assoc=[ORD, BRO, ORD, BRO, ORD, BRO],
    )
    claim(g, 0, (2,))
    res = g.result
    assert res["how"] == "claim" and res["side"] == ORD
    assert res["winners"] == [0, 2, 4]  # seat 4 wins unnamed
    revealed = g.of("revealed")
    assert [e.data["seat"] for e in revealed] == [0, 2]
    assert all(e.public for e in revealed)
    assert revealed[1].data["items"] == ["key2", "key3"]
    assert g.st.pending is None and engine.awaiting(g.st) is None


def test_R_W2_brotherhood_goal_is_the_goblet() -> None:
    g = Game.make(4, hands={1: ["goblet1", "goblet2", "goblet3"]}, assoc=ORDERS4, turn=1)
    claim(g, 1)
    assert g.result["how"] == "claim" and g.result["winners"] == [1, 3]


def test_R_W3_fails_with_an_ally_of_the_other_association() -> None:
    g = Game.make(4, hands={0: ["key1", "key2"], 1: ["key3"]}, assoc=ORDERS4)
    claim(g, 0, (1,))
    assert g.result["how"] == "claim_failed" and g.result["side"] == BRO
    assert g.result["winners"] == [1, 3]


def test_R_W3_fails_with_an_ally_without_goal_items() -> None:
    g = Game.make(4, hands={0: ["key1", "key2", "key3"], 2: ["whip"]}, assoc=ORDERS4)
    claim(g, 0, (2,))
    assert g.result["how"] == "claim_failed"


def test_R_W3_fails_with_fewer_than_three() -> None:
    g = Game.make(4, hands={0: ["key1"], 2: ["key2"]}, assoc=ORDERS4)
    claim(g, 0, (2,))
    assert g.result["how"] == "claim_failed" and g.result["winners"] == [1, 3]


def test_R_W3_unnamed_holders_do_not_count() -> None:
    g = Game.make(4, hands={0: ["key1", "key2"], 2: ["key3"]}, assoc=ORDERS4)
    claim(g, 0)
    assert g.result["how"] == "claim_failed"


def test_R_W2_bags_do_not_count_while_the_pile_has_cards() -> None:
    g = Game.make(4, hands={0: ["key1", "key2", "bag_key"]}, assoc=ORDERS4)
    claim(g, 0)
    assert g.result["how"] == "claim_failed"


def test_R_W2_bags_count_once_the_pile_is_empty() -> None:
    g = Game.make(4, hands={0: ["key1", "key2", "bag_key"]}, assoc=ORDERS4, pile=[])
    claim(g, 0)
    assert g.result["how"] == "claim"


def test_R_W2_a_lone_bag_allows_a_claim_only_once_the_pile_is_empty() -> None:
    before = Game.make(4, hands={0: ["bag_goblet"]}, assoc=[BRO, ORD, BRO, ORD])
    assert "claim" not in before.legal_kinds(0)
    after = Game.make(4, hands={0: ["bag_goblet"]}, assoc=[BRO, ORD, BRO, ORD], pile=[])
    assert "claim" in after.legal_kinds(0)
    wrong = Game.make(4, hands={0: ["bag_key", "goblet1"]}, assoc=[BRO, ORD, BRO, ORD], pile=[])
    claim(wrong, 0)
    assert wrong.result["how"] == "claim_failed"  # the Key Bag is not a Goblet


# -- R-W4 --------------------------------------------------------------------------------------
FIVE = [ORD, ORD, BRO, BRO, BRO]  # the Order is the real minority


def test_R_W4_drink_counts_for_the_real_minority() -> None:
    g = Game.make(5, hands={0: ["key1", "key2"]}, assoc=FIVE)
    assert g.player(0).drink
    claim(g, 0)
    assert g.result["how"] == "claim" and g.result["winners"] == [0, 1]


def test_R_W4_drink_does_not_count_for_the_majority() -> None:
    g = Game.make(5, hands={2: ["goblet1", "goblet2"]}, assoc=FIVE, turn=2)
    claim(g, 2)
    assert g.result["how"] == "claim_failed" and g.result["side"] == ORD


def test_R_W4_only_the_declarers_drink_at_most_one() -> None:
    alone = Game.make(5, hands={0: ["key1"], 1: ["key2"]}, assoc=FIVE)
    claim(alone, 0)
    assert alone.result["how"] == "claim_failed"  # 1 Key + 1 Drink; the ally's Drink not
    named = Game.make(5, hands={0: ["key1"], 1: ["key2"]}, assoc=FIVE)
    claim(named, 0, (1,))
    assert named.result["how"] == "claim"  # 2 Keys + the declarer's Drink


def test_R_W4_no_drinks_at_even_counts() -> None:
    g = Game.make(4, hands={0: ["key1", "key2"]}, assoc=[ORD, BRO, BRO, BRO])
    assert not g.player(0).drink
    claim(g, 0)
    assert g.result["how"] == "claim_failed"


def test_R_W4_advanced_three_minority_by_majority_of_cards() -> None:
    g = Game.make(
        3,
        hands={0: ["key1", "key2"]},
        assoc=[[ORD, ORD, BRO], [BRO, BRO, ORD], [BRO, BRO, ORD]],
        options={"advanced_three": True},
    )
    claim(g, 0)
    assert g.result["how"] == "claim" and g.result["winners"] == [0]


# -- R-W5 --------------------------------------------------------------------------------------
def test_R_W5_coat_of_arms_solo_win() -> None:
    g = Game.make(
        4, hands={1: ["coat_of_arms", "key1", "goblet1", "goblet2"]}, assoc=ORDERS4, turn=1
    )
    assert "solo" in g.legal_kinds(1)
    g.act(1, "solo")
    assert g.result["how"] == "solo" and g.result["winners"] == [1]
    assert g.result["side"] is None
    assert [e.data["seat"] for e in g.of("revealed")] == [1]


def test_R_W5_solo_only_offered_when_it_holds() -> None:
    two = Game.make(4, hands={0: ["coat_of_arms", "key1", "goblet1"]}, assoc=ORDERS4)
    assert "solo" not in two.legal_kinds(0)
    with pytest.raises(Illegal):
        two.act(0, "solo")
    bags = Game.make(4, hands={0: ["coat_of_arms", "key1", "bag_key", "bag_goblet"]})
    assert "solo" not in bags.legal_kinds(0)


def test_R_W5_bags_count_for_the_solo_once_the_pile_is_empty() -> None:
    g = Game.make(4, hands={0: ["coat_of_arms", "key1", "bag_key", "bag_goblet"]}, pile=[])
    assert "solo" in g.legal_kinds(0)


def test_R_W5_drink_never_counts_for_the_coat_of_arms() -> None:
    g = Game.make(5, hands={0: ["coat_of_arms", "key1", "key2"]}, assoc=FIVE)
    assert g.player(0).drink and "solo" not in g.legal_kinds(0)


def test_R_W5_not_with_the_black_pearl() -> None:
    g = Game.make(4, hands={0: ["coat_of_arms", "key1", "key2", "goblet1", "black_pearl"]})
    assert "solo" not in g.legal_kinds(0)


# -- R-W6 --------------------------------------------------------------------------------------
def test_R_W6_a_claim_is_offered_even_when_it_will_fail() -> None:
    g = Game.make(4, hands={0: ["key1"]}, assoc=ORDERS4)
    claims = [a for a in g.legal(0) if a.kind == "claim"]
    assert len(claims) == 1 and claims[0].seats == ()  # allies are free to choose
    claim(g, 0, (1, 3))
    assert g.result["how"] == "claim_failed" and g.result["named"] == [1, 3]


# -- R-W7 --------------------------------------------------------------------------------------
def test_R_W7_fortune_telling_is_an_option() -> None:
    g = Game.make(4, hands={0: ["whip"]}, assoc=ORDERS4)
    assert "claim_other" not in g.legal_kinds(0)
    g2 = Game.make(4, hands={0: ["whip"]}, assoc=ORDERS4, options={"fortune_telling": True})
    assert "claim_other" in g2.legal_kinds(0)  # no goal item of your own needed


def test_R_W7_right_fortune_your_association_wins() -> None:
    g = Game.make(
        4,
        hands={1: ["goblet1", "goblet2"], 3: ["goblet3"]},
        assoc=ORDERS4,
        options={"fortune_telling": True},
    )
    g.act(0, "claim_other", seats=(1, 3))
    assert g.result["how"] == "fortune" and g.result["side"] == ORD
    assert g.result["winners"] == [0, 2]
    assert [e.data["seat"] for e in g.of("revealed")] == [0, 1, 3]


def test_R_W7_wrong_fortune_their_association_wins() -> None:
    g = Game.make(
        4,
        hands={1: ["goblet1", "goblet2"], 2: ["goblet3"]},
        assoc=ORDERS4,
        options={"fortune_telling": True},
    )
    g.act(0, "claim_other", seats=(1, 2))  # seat 2 is in the Order
    assert g.result["how"] == "fortune_failed" and g.result["side"] == BRO


def test_R_W7_own_goal_items_and_drink_do_not_count_for_their_side() -> None:
    g = Game.make(
        5,
        hands={0: ["goblet1"], 2: ["goblet2", "goblet3"]},
        assoc=FIVE,
        options={"fortune_telling": True},
    )
    g.act(0, "claim_other", seats=(2,))
    assert g.result["how"] == "fortune_failed"


def test_R_W7_not_with_the_black_pearl() -> None:
    g = Game.make(4, hands={0: ["black_pearl"]}, options={"fortune_telling": True})
    assert "claim_other" not in g.legal_kinds(0)


# -- R-V3 --------------------------------------------------------------------------------------
def test_R_V3_everything_is_revealed_at_the_end() -> None:
    g = Game.make(4, hands={0: ["key1", "key2", "key3"]}, assoc=ORDERS4)
    claim(g, 0)
    over = g.of("game_over")[0]
    assert over.public
    assert [r["seat"] for r in over.data["reveal"]] == [0, 1, 2, 3]
    assert over.data["reveal"][1]["association"] == BRO
    assert over.data["reveal"][1]["occupation"] == g.player(1).occupation
    table = engine.public_view(g.st)
    assert table["over"] and table["result"]["how"] == "claim"
    assert table["reveal"][3]["items"] == g.items(3)
    with pytest.raises(GameOver):
        engine.timeout_action(g.st)


# -- §7 personal scores --------------------------------------------------------------------------
def scored(hands: dict[int, list[str]], allies: tuple[int, ...] = ()) -> list[int]:
    g = Game.make(
        6, hands=hands, assoc=[ORD, BRO, ORD, BRO, ORD, BRO], options={"personal_scores": True}
    )
    claim(g, 0, allies)
    return g.result["scores"]


def test_personal_scores_declarer_3_winners_2_or_1() -> None:
    assert scored({0: ["key1", "key2"], 2: ["key3"]}, (2,)) == [3, 0, 2, 0, 1, 0]


def test_personal_scores_declarer_with_three_goal_items_5() -> None:
    assert scored({0: ["key1", "key2", "key3"], 4: ["whip"]}) == [5, 0, 1, 0, 1, 0]


def test_personal_scores_failed_claim_2_for_the_other_association() -> None:
    assert scored({0: ["key1"]}) == [0, 2, 0, 2, 0, 2]


def test_personal_scores_solo_4() -> None:
    g = Game.make(
        4,
        hands={0: ["coat_of_arms", "key1", "key2", "goblet1"]},
        options={"personal_scores": True},
    )
    g.act(0, "solo")
    assert g.result["scores"] == [4, 0, 0, 0]


def test_personal_scores_off_by_default() -> None:
    g = Game.make(4, hands={0: ["key1", "key2", "key3"]}, assoc=ORDERS4)
    claim(g, 0)
    assert "scores" not in g.result


def test_R_W3_the_tally_says_why_a_claim_fails() -> None:
    """Issue 25: the tally names the reason, for the story to say it in words."""
    from engine.cards import BROTHERHOOD, ORDER
    from engine.victory import claim_tally
    from tests.unit.engine_helpers import table as make_table

    st = make_table(
        4,
        assoc=[ORDER, ORDER, BROTHERHOOD, ORDER],
        hands={0: ["key1", "key2"], 1: ["dagger"], 2: ["whip"], 3: ["key3"]},
    )
    assert claim_tally(st, 0, [3], ORDER, own_drink=True)["why"] is None
    assert claim_tally(st, 0, [1], ORDER, own_drink=True)["why"] == "none"
    assert claim_tally(st, 0, [2], ORDER, own_drink=True)["why"] == "not_ally"
    assert claim_tally(st, 0, [], ORDER, own_drink=True)["why"] == "short"
