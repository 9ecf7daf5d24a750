"""§5 Every item card (17 kinds) and the Drink of Power, one test or more each, naming the card and
the rule it follows."""

from __future__ import annotations

import pytest

import engine
from engine import Illegal
from engine.cards import ITEM_KINDS, TRADE_EFFECT_ITEMS, item_kind
from tests.unit.engine_helpers import BRO, ORD, Game

A, D = "attacker", "defender"


def result(g: Game) -> dict[str, object]:
    return g.of("fight_result")[-1].data


def trade(g: Game, a: int, b: int, give: str, back: str) -> Game:
    return g.act(a, "trade", target=b, card=give).act(b, "accept", card=back)


def test_seventeen_item_kinds() -> None:
    assert len(ITEM_KINDS) == 17
    assert item_kind("key2") == "key" and item_kind("goblet3") == "goblet"
    assert item_kind("bag_key") == "bag_key" and item_kind("coat_of_arms") == "coat_of_arms"


# -- goal items (R-W2) -------------------------------------------------------------------------
def test_card_key_is_the_order_goal_R_W2() -> None:
    g = Game.make(4, hands={0: ["key1", "key2", "key3"]}, assoc=[ORD, BRO, ORD, BRO])
    g.act(0, "claim")
    assert g.result["how"] == "claim"
    g2 = Game.make(4, hands={0: ["key1", "key2", "key3"]}, assoc=[BRO, ORD, BRO, ORD])
    assert "claim" not in g2.legal_kinds(0)


def test_card_goblet_is_the_brotherhood_goal_R_W2() -> None:
    g = Game.make(4, hands={0: ["goblet1", "goblet2", "goblet3"]}, assoc=[BRO, ORD, BRO, ORD])
    g.act(0, "claim")
    assert g.result["how"] == "claim" and g.result["side"] == BRO


@pytest.mark.parametrize(("bag", "assoc"), [("bag_key", ORD), ("bag_goblet", BRO)])
def test_card_bag_key_and_bag_goblet_draw_then_turn_into_goals_R_T8_R_W2(
    bag: str, assoc: str
) -> None:
    g = Game.make(4, hands={0: [bag], 1: ["whip"]}, pile=["dagger"])
    trade(g, 0, 1, bag, "whip")
    assert sorted(g.items(0)) == ["dagger", "whip"] and g.st.pile == []
    goal = "key1" if assoc == ORD else "goblet1"
    other = {ORD: BRO, BRO: ORD}[assoc]
    g2 = Game.make(4, hands={0: [bag, goal, goal[:-1] + "2"]}, assoc=[assoc, other] * 2, pile=[])
    g2.act(0, "claim")
    assert g2.result["how"] == "claim"


# -- fight cards (R-A6, R-A7) ------------------------------------------------------------------
def test_card_dagger_plus_one_played_by_the_attacker_R_A6() -> None:
    g = Game.make(4, hands={0: ["dagger"]})
    g.attack(0, 1, {2: D}).act(0, "play", card="dagger").close()
    assert (result(g)["attack"], result(g)["defence"]) == (2, 2)


def test_card_gloves_plus_one_played_by_the_defender_R_A6() -> None:
    g = Game.make(4, hands={1: ["gloves"]})
    g.attack(0, 1, {2: A}).act(1, "play", card="gloves").close()
    assert (result(g)["attack"], result(g)["defence"]) == (2, 2)


def test_card_casting_knives_plus_one_by_an_attacker_supporter_R_A6() -> None:
    g = Game.make(4, hands={2: ["casting_knives"]})
    g.attack(0, 1, {2: A, 3: D}).act(2, "play", card="casting_knives").close()
    assert (result(g)["attack"], result(g)["defence"]) == (3, 2)


def test_card_whip_plus_one_by_a_defender_supporter_R_A6() -> None:
    g = Game.make(4, hands={3: ["whip"]})
    g.attack(0, 1, {2: A, 3: D}).act(3, "play", card="whip").close()
    assert (result(g)["attack"], result(g)["defence"]) == (2, 3)


def test_card_poison_ring_wins_a_tie_R_A7() -> None:
    g = Game.make(4, hands={1: ["poison_ring"]}, pile=["whip"])
    g.attack(0, 1, {2: A, 3: D}).act(1, "play", card="poison_ring").close()
    assert result(g)["winner"] == 1 and result(g)["how"] == "poison_ring"


def test_fight_cards_are_not_traded_away_by_playing_R_A5() -> None:
    cards = ["dagger", "poison_ring"]
    g = Game.make(4, hands={0: list(cards)})
    g.attack(0, 1).act(0, "play", card="dagger").act(0, "play", card="poison_ring").close()
    assert g.items(0) == cards


def test_fight_cards_have_no_trade_effect_R_T7() -> None:
    for card in ("dagger", "gloves", "poison_ring", "casting_knives", "whip", "key1", "goblet1"):
        assert item_kind(card) not in TRADE_EFFECT_ITEMS


# -- trade-effect cards (R-T8) -------------------------------------------------------------------
def test_card_privilege_R_T8() -> None:
    g = Game.make(4, hands={0: ["privilege"], 1: ["whip", "key1"]})
    trade(g, 0, 1, "privilege", "whip")
    assert sorted(g.of("items_seen", g.last)[0].data["cards"]) == ["key1", "privilege"]


def test_card_monocle_R_T8() -> None:
    g = Game.make(4, hands={0: ["monocle"], 1: ["whip"]}, assoc=[ORD, ORD, BRO, BRO])
    trade(g, 0, 1, "monocle", "whip")
    assert g.of("association_seen", g.last)[0].data["assoc"] == ORD


def test_card_tome_R_T8() -> None:
    g = Game.make(4, hands={0: ["tome"], 1: ["whip"]}, occ={0: "thug", 1: "priest"})
    trade(g, 0, 1, "tome", "whip").act(0, "swap")
    assert g.player(0).occupation == "priest" and g.player(1).occupation == "thug"


def test_card_coat_R_T8() -> None:
    g = Game.make(4, hands={0: ["coat"], 1: ["whip"]}, occ={0: "thug"})
    trade(g, 0, 1, "coat", "whip").act(0, "take", card="doctor")
    assert g.player(0).occupation == "doctor" and "thug" in g.st.occ_deck


def test_card_coat_without_an_occupation_deck() -> None:
    g = Game.make(4, hands={0: ["coat"], 1: ["whip"]})
    g.st.occ_deck = []  # as at 10 players, where the Coat is out of the game anyway
    trade(g, 0, 1, "coat", "whip")
    assert g.of("coat_empty", g.last) and g.kind == "turn"


def test_card_sextant_R_T8() -> None:
    g = Game.make(3, hands={0: ["sextant", "key1"], 1: ["whip"], 2: ["gloves"]})
    trade(g, 0, 1, "sextant", "whip").act(0, "direction", choice="left")
    for seat, card in ((0, "key1"), (1, "sextant"), (2, "gloves")):
        g.act(seat, "give", card=card)
    assert g.items(1) == ["key1"] and g.items(2) == ["sextant"] and "gloves" in g.items(0)


# -- the unrefusable and the banned -----------------------------------------------------------
def test_card_black_pearl_cannot_be_refused_and_bans_claims_R_T2_R_W1() -> None:
    g = Game.make(
        4,
        hands={0: ["black_pearl", "key1", "key2", "key3"], 1: ["whip"]},
        assoc=[ORD, BRO, ORD, BRO],
    )
    assert "claim" not in g.legal_kinds(0)
    g.act(0, "trade", target=1, card="black_pearl")
    assert "refuse" not in g.legal_kinds(1)
    g.act(1, "accept", card="whip")
    assert not g.of("effects", g.last)  # the Pearl has no trade effect
    g.act(1, "pass")
    for seat in (2, 3):
        g.act(seat, "pass")
    assert "claim" in g.legal_kinds(0)  # rid of the Pearl


def test_card_black_pearl_not_at_three_players_R_S4() -> None:
    st, _ = engine.new_game(["a", "b", "c"], 4)
    assert "black_pearl" in st.removed


def test_card_broken_mirror_cannot_be_refused_and_is_silent_R_T2_R_T6() -> None:
    g = Game.make(4, hands={0: ["broken_mirror"], 1: ["bag_key", "whip"]}, pile=["dagger"])
    g.act(0, "trade", target=1, card="broken_mirror")
    assert "refuse" not in g.legal_kinds(1)
    g.act(1, "accept", card="bag_key")
    assert not g.of("effects", g.last) and not g.of("drew", g.last)
    assert g.st.pile == ["dagger"]


def test_card_coat_of_arms_solo_R_W5() -> None:
    g = Game.make(4, hands={0: ["coat_of_arms", "goblet1", "goblet2", "key1"]})
    assert "coat_of_arms" not in TRADE_EFFECT_ITEMS
    g.act(0, "solo")
    assert g.result["winners"] == [0]


def test_card_coat_of_arms_counts_nothing_in_a_team_claim_R_W3() -> None:
    g = Game.make(4, hands={0: ["coat_of_arms", "key1", "key2"]}, assoc=[ORD, BRO, ORD, BRO])
    g.act(0, "claim")
    assert g.result["how"] == "claim_failed"


# -- Drink of Power (R-S3, R-W4) ----------------------------------------------------------------
def test_card_drink_of_power_is_no_item_and_stays_with_its_player_R_S3_R_W4() -> None:
    g = Game.make(5, hands={0: ["key1", "key2"], 1: ["whip"]}, assoc=[ORD, ORD, BRO, BRO, BRO])
    assert g.player(0).drink and all(p["drink"] for p in engine.public_view(g.st)["players"])
    assert all(a.card != "drink" for a in g.legal(0))
    with pytest.raises(Illegal):
        g.act(0, "trade", target=1, card="drink")
    trade(g, 0, 1, "key2", "whip")
    assert g.player(0).drink and g.player(1).drink
    g2 = Game.make(5, hands={0: ["key1", "key2"]}, assoc=[ORD, ORD, BRO, BRO, BRO])
    g2.act(0, "claim")
    assert g2.result["how"] == "claim"  # two Keys and the Drink of the real minority
