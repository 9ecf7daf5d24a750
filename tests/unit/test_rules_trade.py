"""§4 Trade (R-T1…R-T9) with every trade effect, and the hand limit (R-H1)."""

from __future__ import annotations

import pytest

import engine
from engine import Illegal
from tests.unit.engine_helpers import BRO, ORD, Game


def trade(g: Game, a: int, b: int, give: str, back: str) -> Game:
    g.act(a, "trade", target=b, card=give)
    assert g.kind == "trade_answer" and g.pending.actors == [b]
    return g.act(b, "accept", card=back)


# -- R-T1 --------------------------------------------------------------------------------------
def test_R_T1_accept_swaps_and_the_offer_is_seen_privately() -> None:
    g = Game.make(4, hands={0: ["dagger", "key1"], 1: ["gloves"]})
    g.act(0, "trade", target=1, card="dagger")
    offered = g.of("offered")
    assert len(offered) == 1 and offered[0].to == (1,) and offered[0].data["card"] == "dagger"
    public = g.of("trade_offered")[0]
    assert public.public and "card" not in public.data
    (note,) = g.notes(1, "saw_item")
    expected = {"turn": g.st.turn_no, "round": 1, "about": 0, "card": "dagger", "how": "offer"}
    assert {k: note[k] for k in expected} == expected
    g.act(1, "accept", card="gloves")
    assert sorted(g.items(0)) == ["gloves", "key1"] and g.items(1) == ["dagger"]
    assert g.of("trade_accepted", g.last)[0].public
    done = g.of("trade_done", g.last)[0]
    assert done.public and "card" not in done.data
    received = {e.to: e.data["card"] for e in g.of("received", g.last)}
    assert received == {(0,): "gloves", (1,): "dagger"}
    assert g.notes(0, "got_item")[0]["card"] == "gloves"
    assert g.notes(1, "got_item")[0]["card"] == "dagger"
    # R-T1: either way the turn ends
    assert g.kind == "turn" and g.pending.actors == [1]


def test_R_T1_refuse_returns_the_item_and_reveals_nothing() -> None:
    g = Game.make(4, hands={0: ["dagger"], 1: ["gloves"]})
    g.act(0, "trade", target=1, card="dagger").act(1, "refuse")
    assert g.items(0) == ["dagger"] and g.items(1) == ["gloves"]
    assert g.of("trade_refused", g.last)[0].public
    assert not [e for e in g.last if e.to is not None]  # nothing private to anyone
    assert not g.notes(0, "saw_item") and not g.notes(0, "got_item")
    assert g.kind == "turn" and g.pending.actors == [1]


def test_R_T1_offer_only_own_items_to_other_players() -> None:
    g = Game.make(4, hands={0: ["dagger"], 1: ["gloves"]})
    legal = [a for a in g.legal(0) if a.kind == "trade"]
    assert {(a.target, a.card) for a in legal} == {(t, "dagger") for t in (1, 2, 3)}
    with pytest.raises(Illegal):
        g.act(0, "trade", target=1, card="gloves")
    with pytest.raises(Illegal):
        g.act(0, "trade", target=0, card="dagger")


def test_R_T1_the_answer_must_be_an_item_the_receiver_holds() -> None:
    g = Game.make(4, hands={0: ["dagger"], 1: ["gloves"]})
    g.act(0, "trade", target=1, card="dagger")
    with pytest.raises(Illegal):
        g.act(1, "accept", card="whip")
    assert {a.card for a in g.legal(1) if a.kind == "accept"} == {"gloves"}


# -- R-T2 --------------------------------------------------------------------------------------
@pytest.mark.parametrize("card", ["black_pearl", "broken_mirror"])
def test_R_T2_black_pearl_and_broken_mirror_cannot_be_refused(card: str) -> None:
    g = Game.make(4, hands={0: [card, "key1"], 1: ["gloves", "whip"]})
    g.act(0, "trade", target=1, card=card)
    assert "refuse" not in g.legal_kinds(1)
    with pytest.raises(Illegal):
        g.act(1, "refuse")
    g.timeout()  # §8: accept and give a random item
    assert card in g.items(1)
    assert len(g.items(0)) == 2 and ({"gloves", "whip"} & set(g.items(0)))


# -- R-T3 --------------------------------------------------------------------------------------
def test_R_T3_bag_cannot_be_traded_for_the_other_bag_while_the_pile_has_cards() -> None:
    g = Game.make(4, hands={0: ["bag_key"], 1: ["bag_goblet", "dagger"]})
    g.act(0, "trade", target=1, card="bag_key")
    assert {a.card for a in g.legal(1) if a.kind == "accept"} == {"dagger"}
    with pytest.raises(Illegal):
        g.act(1, "accept", card="bag_goblet")
    g.act(1, "accept", card="dagger")
    assert g.items(1) == ["bag_goblet", "bag_key"]


def test_R_T3_a_lone_bag_must_refuse_the_other_bag() -> None:
    g = Game.make(4, hands={0: ["bag_key"], 1: ["bag_goblet"]})
    g.act(0, "trade", target=1, card="bag_key")
    assert [a.kind for a in g.legal(1)] == ["refuse"]


def test_R_T3_a_lone_bag_may_take_any_other_item() -> None:
    g = Game.make(4, hands={0: ["dagger"], 1: ["bag_goblet"]})
    g.act(0, "trade", target=1, card="dagger").act(1, "accept", card="bag_goblet")
    assert g.items(0) == ["bag_goblet"]


def test_R_T3_once_the_pile_is_empty_bags_trade_normally() -> None:
    g = Game.make(4, hands={0: ["bag_key", "whip"], 1: ["bag_goblet"]}, pile=[])
    g.act(0, "trade", target=1, card="bag_key")
    assert "bag_goblet" in {a.card for a in g.legal(1) if a.kind == "accept"}
    g.act(1, "accept", card="bag_goblet")
    assert sorted(g.items(0)) == ["bag_goblet", "whip"] and g.items(1) == ["bag_key"]


@pytest.mark.parametrize("bag", ["bag_key", "bag_goblet"])
def test_R_T3_once_the_pile_is_empty_a_bag_trades_silently_like_its_goal_item(bag: str) -> None:
    """R-W2: the Bag *is* a Key or Goblet now; announcing it (R-T5) would tell the table that
    the receiver holds a goal item, which a Key traded never does (R-T7, R-V2)."""
    g = Game.make(4, hands={0: [bag], 1: ["dagger"]}, pile=[])
    trade(g, 0, 1, bag, "dagger")
    assert not g.of("effects", g.last) and not g.of("draw_empty", g.last)
    assert g.items(0) == ["dagger"] and g.items(1) == [bag]
    assert g.kind == "turn" and g.pending.actors == [1]


def test_R_T3_a_bag_drawing_the_last_card_still_fired() -> None:
    g = Game.make(4, hands={0: ["bag_key"], 1: ["privilege"]}, pile=["whip"])
    trade(g, 0, 1, "bag_key", "privilege")
    assert [x["item"] for x in g.of("effects", g.last)[0].data["items"]] == [
        "bag",  # R-V2: which Bag it is stays secret
        "privilege",
    ]
    assert g.st.pile == [] and "whip" in g.items(0)


# -- R-T4, R-T5 --------------------------------------------------------------------------------
def test_R_T4_effect_belongs_to_the_giver_after_the_swap() -> None:
    g = Game.make(4, hands={0: ["dagger"], 1: ["privilege", "key1"]})
    g.act(0, "trade", target=1, card="dagger").act(1, "accept", card="privilege")
    seen = g.of("items_seen", g.last)
    assert len(seen) == 1 and seen[0].to == (1,)
    assert sorted(seen[0].data["cards"]) == ["privilege"]  # 0's hand after the swap
    assert seen[0].data["about"] == 0
    assert g.notes(1, "saw_items")[0]["cards"] == ["privilege"]
    assert not g.notes(0, "saw_items")


def test_R_T5_receiver_announces_initiator_resolves_first() -> None:
    g = Game.make(
        4, hands={0: ["monocle", "whip"], 1: ["privilege", "gloves"]}, assoc=[ORD, BRO, ORD, BRO]
    )
    trade(g, 0, 1, "monocle", "privilege")
    kinds = g.kinds(g.last)
    announce = g.of("effects", g.last)
    assert len(announce) == 1 and announce[0].public
    assert announce[0].data["items"] == [
        {"giver": 0, "receiver": 1, "item": "monocle"},
        {"giver": 1, "receiver": 0, "item": "privilege"},
    ]
    assert kinds.index("effects") < kinds.index("association_seen") < kinds.index("items_seen")
    assoc_seen = g.of("association_seen", g.last)[0]
    assert assoc_seen.to == (0,) and assoc_seen.data["assoc"] == BRO
    items_seen = g.of("items_seen", g.last)[0]
    assert items_seen.to == (1,) and sorted(items_seen.data["cards"]) == ["privilege", "whip"]


def test_R_T5_passive_traders_item_resolves_second_even_when_it_needs_a_decision() -> None:
    g = Game.make(4, hands={0: ["privilege", "whip"], 1: ["tome", "gloves"]})
    trade(g, 0, 1, "privilege", "tome")
    assert g.of("items_seen", g.last)[0].to == (0,)
    assert g.kind == "tome" and g.pending.actors == [1]


# -- R-T6, R-T7 --------------------------------------------------------------------------------
def test_R_T6_broken_mirror_swap_is_silent() -> None:
    g = Game.make(4, hands={0: ["broken_mirror", "whip"], 1: ["privilege", "gloves"]})
    trade(g, 0, 1, "broken_mirror", "privilege")
    assert not g.of("effects", g.last) and not g.of("items_seen", g.last)
    assert "privilege" in g.items(0) and "broken_mirror" in g.items(1)


def test_R_T6_an_effect_item_given_back_for_a_mirror_does_not_fire() -> None:
    g = Game.make(4, hands={0: ["privilege", "whip"], 1: ["broken_mirror", "gloves"]})
    trade(g, 0, 1, "privilege", "broken_mirror")
    assert not g.of("effects", g.last) and not g.of("items_seen", g.last)


def test_R_T7_items_without_effect_change_hands_silently() -> None:
    g = Game.make(4, hands={0: ["dagger", "key1"], 1: ["gloves"]})
    trade(g, 0, 1, "dagger", "gloves")
    assert not g.of("effects", g.last)
    assert not [
        e for e in g.last if e.public and e.kind not in ("trade_accepted", "trade_done", "turn")
    ]


# -- R-T8 --------------------------------------------------------------------------------------
@pytest.mark.parametrize("bag", ["bag_key", "bag_goblet"])
def test_R_T8_secret_bag_draws_the_top_card(bag: str) -> None:
    g = Game.make(4, hands={0: [bag], 1: ["dagger"]}, pile=["key3", "whip", "gloves"])
    trade(g, 0, 1, bag, "dagger")
    assert g.of("effects", g.last)[0].data["items"] == [{"giver": 0, "receiver": 1, "item": "bag"}]
    assert sorted(g.items(0)) == ["dagger", "gloves"]
    assert g.st.pile == ["key3", "whip"]
    drew = g.of("drew_card", g.last)[0]
    assert drew.to == (0,) and drew.data["card"] == "gloves"
    assert "card" not in g.of("drew", g.last)[0].data


def test_R_T8_bag_emptying_the_pile_turns_the_bags() -> None:
    g = Game.make(4, hands={0: ["bag_key"], 1: ["dagger"]}, pile=["whip"])
    trade(g, 0, 1, "bag_key", "dagger")
    assert g.of("bags_turned", g.last) and g.st.pile == []
    assert engine.public_view(g.st)["bags_are_goals"] is True


def test_R_T8_privilege_looks_at_all_partner_items() -> None:
    g = Game.make(4, hands={0: ["privilege", "key1"], 1: ["gloves", "goblet2", "whip"]})
    trade(g, 0, 1, "privilege", "gloves")
    seen = g.of("items_seen", g.last)[0]
    assert seen.to == (0,) and sorted(seen.data["cards"]) == ["goblet2", "privilege", "whip"]
    assert seen.data["how"] == "privilege"


def test_R_T8_monocle_looks_at_partner_association() -> None:
    g = Game.make(4, hands={0: ["monocle"], 1: ["gloves"]}, assoc=[ORD, BRO, ORD, BRO])
    trade(g, 0, 1, "monocle", "gloves")
    seen = g.of("association_seen", g.last)
    assert [(e.to, e.data["assoc"]) for e in seen] == [((0,), BRO)]
    assert g.notes(0, "saw_association")[0]["about"] == 1
    assert not g.of("occupation_seen", g.last)


def test_R_T8_monocle_advanced_three_chooses_one_position() -> None:
    g = Game.make(
        3,
        hands={0: ["monocle", "key1"], 1: ["gloves", "whip"]},
        assoc=[[ORD, ORD, BRO], [BRO, ORD, BRO], [ORD, BRO, ORD]],
        options={"advanced_three": True},
    )
    trade(g, 0, 1, "monocle", "gloves")
    assert g.kind == "look_pos" and g.pending.actors == [0]
    assert {a.choice for a in g.legal(0)} == {"0", "1", "2"}
    g.act(0, "look", choice="1")
    seen = g.of("association_seen", g.last)[0]
    assert seen.to == (0,) and seen.data["assoc"] == ORD and seen.data["position"] == 1


def test_R_T8_tome_swaps_occupations_and_makes_spent_ones_usable() -> None:
    g = Game.make(
        4,
        hands={0: ["tome"], 1: ["gloves"]},
        occ={0: "thug", 1: "doctor"},
        occ_up={0: True, 1: True},
        occ_spent={1: True},
    )
    trade(g, 0, 1, "tome", "gloves")
    assert g.kind == "tome" and g.pending.actors == [0]
    assert g.pending.data["partner"] == 1
    g.act(0, "swap")
    me, other = g.player(0), g.player(1)
    assert (me.occupation, other.occupation) == ("doctor", "thug")
    assert not (me.occ_up or me.occ_spent or other.occ_up or other.occ_spent)
    assert g.of("tome_swapped", g.last)[0].public
    told = {e.to: e.data["occupation"] for e in g.of("occupation_received", g.last)}
    assert told == {(0,): "doctor", (1,): "thug"}
    # the Doctor is usable again: seat 0 is asked in the next Doctor window
    g.end_turn()
    g.attack(1, 2).close()
    assert g.kind == "doctor" and 0 in g.pending.actors


def test_R_T8_tome_swap_is_optional_and_defaults_to_no_swap() -> None:
    g = Game.make(4, hands={0: ["tome"], 1: ["gloves"]}, occ={0: "thug", 1: "doctor"})
    trade(g, 0, 1, "tome", "gloves")
    g.timeout()
    assert (g.player(0).occupation, g.player(1).occupation) == ("thug", "doctor")
    assert g.of("tome_kept", g.last)


def test_R_T8_coat_takes_an_occupation_from_the_deck() -> None:
    g = Game.make(
        4,
        hands={0: ["coat"], 1: ["gloves"]},
        occ={0: "priest"},
        occ_up={0: True},
        occ_spent={0: True},
    )
    deck = sorted(g.st.occ_deck)
    trade(g, 0, 1, "coat", "gloves")
    assert g.kind == "coat"
    assert g.of("deck_seen", g.last)[0].to == (0,)
    assert g.of("deck_seen", g.last)[0].data["cards"] == deck
    assert {a.card for a in g.legal(0) if a.kind == "take"} == set(deck)
    g.act(0, "take", card="doctor")
    me = g.player(0)
    assert me.occupation == "doctor" and not me.occ_up and not me.occ_spent
    assert "priest" in g.st.occ_deck and "doctor" not in g.st.occ_deck
    assert g.of("coat_swapped", g.last)[0].public
    assert "occupation" not in g.of("coat_swapped", g.last)[0].data


def test_R_T8_coat_is_optional_and_defaults_to_keeping() -> None:
    g = Game.make(4, hands={0: ["coat"], 1: ["gloves"]}, occ={0: "priest"})
    trade(g, 0, 1, "coat", "gloves")
    assert "skip" in g.legal_kinds(0)
    g.timeout()
    assert g.player(0).occupation == "priest" and g.of("coat_kept", g.last)


def test_R_T8_sextant_everyone_passes_at_once_and_nothing_fires() -> None:
    g = Game.make(
        4,
        hands={0: ["sextant", "key1"], 1: ["gloves"], 2: ["privilege"], 3: ["bag_key"]},
        pile=["whip", "dagger"],
    )
    trade(g, 0, 1, "sextant", "gloves")
    assert g.kind == "sextant_dir" and g.pending.actors == [0]
    g.act(0, "direction", choice="left")
    assert g.kind == "sextant_pass" and sorted(g.pending.actors) == [0, 1, 2, 3]
    g.act(2, "give", card="privilege")
    # nothing moves until everyone has chosen, and nobody sees another's choice
    assert g.items(2) == ["privilege"]
    assert "chosen" not in str(engine.view(g.st, 3)["decision"])
    assert "chosen" not in str(engine.public_view(g.st))
    g.act(1, "give", card="sextant").act(3, "give", card="bag_key").act(0, "give", card="key1")
    assert g.items(1) == ["key1"]  # from seat 0, to its left
    assert g.items(2) == ["sextant"]
    assert g.items(3) == ["privilege"]
    assert g.items(0) == ["gloves", "bag_key"]
    assert not g.of("items_seen", g.last) and not g.of("drew", g.last)  # passing fires nothing
    assert g.st.pile == ["whip", "dagger"]
    assert g.of("sextant_passed", g.last)[0].public


def test_R_T8_sextant_right_passes_to_the_right() -> None:
    g = Game.make(4, hands={0: ["sextant", "key1"], 1: ["gloves"], 2: ["whip"], 3: ["dagger"]})
    trade(g, 0, 1, "sextant", "gloves")
    g.act(0, "direction", choice="right")
    for seat, card in ((0, "key1"), (1, "sextant"), (2, "whip"), (3, "dagger")):
        g.act(seat, "give", card=card)
    assert g.items(3) == ["key1"] and g.items(0) == ["gloves", "sextant"]
    assert g.items(1) == ["whip"] and g.items(2) == ["dagger"]


def test_R_T8_sextant_other_item_still_resolves_for_its_giver() -> None:
    g = Game.make(4, hands={0: ["sextant", "key1"], 1: ["privilege"], 2: ["whip"], 3: ["dagger"]})
    trade(g, 0, 1, "sextant", "privilege")
    g.act(0, "direction", choice="left")
    # the Privilege (now in seat 0's hand) moves on with the pass
    for seat, card in ((0, "privilege"), (1, "sextant"), (2, "whip"), (3, "dagger")):
        g.act(seat, "give", card=card)
    seen = g.of("items_seen", g.last)
    assert len(seen) == 1 and seen[0].to == (1,) and seen[0].data["about"] == 0
    assert sorted(seen[0].data["cards"]) == ["dagger", "key1"]


def test_R_T8_sextant_timeout_defaults() -> None:
    g = Game.make(4, hands={0: ["sextant"], 1: ["gloves"]})
    trade(g, 0, 1, "sextant", "gloves")
    g.timeout()
    assert g.of("sextant", g.last)[0].data["direction"] == "left"
    g.timeout()  # everyone passes a random item
    assert g.of("sextant_passed", g.last)
    assert [len(g.items(s)) for s in range(4)] == [1, 1, 1, 1]


# -- R-T9 --------------------------------------------------------------------------------------
def test_R_T9_smuggling_skip_hands_the_item_over_silently() -> None:
    g = Game.make(
        4,
        hands={0: ["privilege"], 1: ["monocle", "whip"]},
        options={"smuggling": True},
    )
    trade(g, 0, 1, "privilege", "monocle")
    assert g.kind == "smuggle" and sorted(g.pending.actors) == [0, 1]
    assert engine.public_view(g.st)["pending"]["kind"] == "trade_settling"
    assert "seats" not in engine.public_view(g.st)["pending"]
    g.act(0, "skip").act(1, "use")
    assert g.kind == "smuggle"  # the window stays until its end
    g.close()
    assert g.of("effects", g.last)[0].data["items"] == [
        {"giver": 1, "receiver": 0, "item": "monocle"}
    ]
    assert not g.of("items_seen", g.last)
    assert g.of("association_seen", g.last)[0].to == (1,)


def test_R_T9_smuggling_window_opens_even_without_effects() -> None:
    g = Game.make(4, hands={0: ["dagger"], 1: ["whip"]}, options={"smuggling": True})
    trade(g, 0, 1, "dagger", "whip")
    aw = engine.awaiting(g.st)
    assert aw is not None and aw.kind == "smuggle" and aw.closable and aw.seats == ()
    g.close()
    assert g.kind == "turn"


def test_R_T9_without_smuggling_effects_are_not_optional() -> None:
    g = Game.make(4, hands={0: ["privilege"], 1: ["whip"]})
    trade(g, 0, 1, "privilege", "whip")
    assert g.of("items_seen", g.last) and g.kind == "turn"


def test_R_T9_smuggling_timeout_uses_the_effect() -> None:
    g = Game.make(4, hands={0: ["privilege"], 1: ["whip"]}, options={"smuggling": True})
    trade(g, 0, 1, "privilege", "whip")
    g.close()
    assert g.of("items_seen", g.last)[0].to == (0,)


# -- R-H1 --------------------------------------------------------------------------------------
def test_R_H1_over_the_limit_gives_at_once_and_gifts_chain() -> None:
    full = ["key1", "key2", "goblet1", "goblet2", "whip"]
    g = Game.make(
        5,
        hands={0: ["bag_key", "dagger", "gloves", "monocle", "privilege"], 1: full},
        pile=["poison_ring"],
    )
    g.act(0, "trade", target=1, card="bag_key").act(1, "accept", card="whip")
    assert len(g.items(0)) == 6
    assert g.kind == "gift" and g.pending.actors == [0]
    assert {a.target for a in g.legal(0)} == {1, 2, 3, 4}
    g.act(0, "gift", card="poison_ring", target=1)
    gift = g.of("gift", g.last)[0]
    assert gift.public and gift.data == {"seat": 0, "target": 1, "reason": "hand_limit"}
    assert g.of("received", g.last)[0].to == (1,)
    # the recipient is now over the limit and gives in turn
    assert g.kind == "gift" and g.pending.actors == [1]
    g.act(1, "gift", card="key1", target=2)
    assert "key1" in g.items(2) and len(g.items(1)) == 5
    assert g.kind == "turn" and g.pending.actors == [1]
    assert not g.of("effects", g.last)


def test_R_H1_gifts_fire_nothing_and_cannot_be_refused() -> None:
    g = Game.make(
        4, hands={0: ["privilege", "monocle", "bag_key", "key1", "whip", "dagger", "gloves"]}
    )
    assert g.kind == "gift"
    assert g.legal_kinds(2) == set()
    g.act(0, "gift", card="privilege", target=2)
    assert "privilege" in g.items(2)
    assert not g.of("items_seen", g.last) and not g.of("effects", g.last)
    assert g.kind == "turn"


def test_R_H1_gift_timeout_gives_a_random_item() -> None:
    g = Game.make(4, hands={0: ["key1", "key2", "goblet1", "goblet2", "whip", "dagger", "gloves"]})
    g.timeout()
    assert len(g.items(0)) == 6 and g.of("gift", g.last)


def test_R_H1_gift_comes_at_once_between_two_trade_effects_R_T5() -> None:
    five = ["key1", "key2", "goblet1", "goblet2", "bag_key"]
    g = Game.make(5, hands={0: five, 1: ["privilege"]}, pile=["whip"])
    g.act(0, "trade", target=1, card="bag_key").act(1, "accept", card="privilege")
    # the Bag drew for seat 0 first (6 items): the gift comes before the Privilege resolves
    assert g.kind == "gift" and g.pending.actors == [0]
    assert not g.of("items_seen", g.last)
    g.act(0, "gift", card="whip", target=3)
    seen = g.of("items_seen", g.last)[0]
    assert seen.to == (1,) and len(seen.data["cards"]) == 5 and "whip" not in seen.data["cards"]


def test_R_T9_skipping_a_bag_draws_nothing() -> None:
    g = Game.make(
        4, hands={0: ["bag_key"], 1: ["privilege"]}, pile=["whip"], options={"smuggling": True}
    )
    trade(g, 0, 1, "bag_key", "privilege")
    g.act(0, "skip").close()
    assert g.st.pile == ["whip"] and not g.of("drew", g.last)
    assert [e["item"] for e in g.of("effects", g.last)[0].data["items"]] == ["privilege"]


def test_R_T6_smuggling_window_still_opens_for_a_silent_mirror_swap() -> None:
    g = Game.make(4, hands={0: ["broken_mirror"], 1: ["privilege"]}, options={"smuggling": True})
    trade(g, 0, 1, "broken_mirror", "privilege")
    assert g.kind == "smuggle" and g.pending.actors == []
    g.close()
    assert not g.of("effects", g.last)


def test_R_T8_sextant_given_back_resolves_after_the_initiators_bag() -> None:
    g = Game.make(4, hands={0: ["bag_key"], 1: ["sextant", "whip"]}, pile=["dagger"])
    trade(g, 0, 1, "bag_key", "sextant")
    assert g.of("drew", g.last)[0].data["seat"] == 0  # the initiator's item first
    assert g.kind == "sextant_dir" and g.pending.actors == [1]


def test_R_T8_tome_after_a_diplomat_trade_for_the_target() -> None:
    g = Game.make(4, hands={0: ["whip"], 1: ["tome", "gloves"]}, occ={0: "diplomat", 1: "priest"})
    g.act(0, "diplomat", target=1, card="tome").act(0, "give", card="whip")
    # the Tome was given by seat 1: its effect is seat 1's, with seat 0 as partner
    assert g.kind == "tome" and g.pending.actors == [1] and g.pending.data["partner"] == 0
    g.act(1, "swap")
    assert g.player(1).occupation == "diplomat" and not g.player(1).occ_spent
    assert g.player(0).occupation == "priest"
    assert g.kind == "turn" and g.pending.actors == [0] and not g.pending.data["acted"]


def test_accepting_an_offer_notes_what_you_gave() -> None:
    """Issue 25: /notes keeps what the accepting player handed back, as it does for the trader."""
    g = Game.make(4, hands={0: ["dagger"], 1: ["gloves", "whip"]})
    g.act(0, "trade", target=1, card="dagger").act(1, "accept", card="whip")
    gave = g.notes(1, "gave_item")
    assert gave and gave[-1]["about"] == 0 and gave[-1]["card"] == "whip"
