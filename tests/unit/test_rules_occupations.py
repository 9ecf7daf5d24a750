"""§6 The ten occupations: once and always, face up for good, Tome/Coat making them usable again.

Each test names its occupation; the rule ids are those §6 refers to (R-A2, R-A4, R-A6, R-A8, R-T3
for the Diplomat's trade, …).
"""

from __future__ import annotations

import pytest

import engine
from engine import Illegal
from engine.cards import ALWAYS_OCCUPATIONS, OCCUPATIONS
from tests.unit.engine_helpers import BRO, ORD, Game

A, D, N = "attacker", "defender", "neutral"


def result(g: Game) -> dict[str, object]:
    return g.of("fight_result")[-1].data


def test_occupations_once_and_always() -> None:
    assert len(OCCUPATIONS) == 10
    assert {"grand_master", "hypnotist", "bodyguard", "thug"} == ALWAYS_OCCUPATIONS


# -- Diplomat ----------------------------------------------------------------------------------
def test_diplomat_hit_before_the_action_forces_a_trade_R_T8_effects_fire() -> None:
    g = Game.make(4, hands={0: ["privilege", "whip"], 1: ["key1", "gloves"]}, occ={0: "diplomat"})
    assert {(a.target, a.card) for a in g.legal(0) if a.kind == "diplomat"} >= {(1, "key")}
    g.act(0, "diplomat", target=1, card="key")
    assert g.of("diplomat", g.last)[0].public
    assert g.of("occupation_used", g.last)[0].data == {"seat": 0, "occupation": "diplomat"}
    assert g.kind == "diplomat_give" and g.pending.actors == [0]
    g.act(0, "give", card="privilege")
    assert sorted(g.items(0)) == ["key1", "whip"] and sorted(g.items(1)) == ["gloves", "privilege"]
    assert g.of("trade_done", g.last)[0].data["forced"] is True
    assert not g.of("trade_answer", g.last)  # no refusal possible
    assert g.of("effects", g.last)  # trade effects fire as usual
    assert g.of("items_seen", g.last)[0].to == (0,)
    # the free use did not take the action: the turn goes on, Diplomat spent
    assert g.kind == "turn" and g.pending.actors == [0] and not g.pending.data["acted"]
    assert "diplomat" not in g.legal_kinds(0)
    assert g.player(0).occ_up and g.player(0).occ_spent


def test_R_D1_a_face_down_free_use_never_holds_the_turn_after_the_action() -> None:
    """Offered with the action, under the turn's deadline; after the action the turn ends as for
    a player without one, so the table cannot see who holds a Diplomat or Clairvoyant."""
    for occ in ("diplomat", "clairvoyant"):
        g = Game.make(4, occ={0: occ})
        assert occ in g.legal_kinds(0) and "pass" in g.legal_kinds(0)
        g.act(0, "pass")
        assert g.kind == "turn" and g.pending.actors == [1]
        assert not g.player(0).occ_spent


def test_diplomat_hit_after_the_action_when_face_up() -> None:
    g = Game.make(4, hands={0: ["whip"], 2: ["goblet1"]}, occ={0: "diplomat"}, occ_up={0: True})
    g.act(0, "pass")
    assert g.kind == "turn" and g.pending.data["acted"]
    assert g.legal_kinds(0) == {"end", "diplomat"}
    g.act(0, "diplomat", target=2, card="goblet").act(0, "give", card="whip")
    assert g.items(0) == ["goblet1"] and g.items(2) == ["whip"]
    assert g.kind == "turn" and g.pending.actors == [1]


def test_diplomat_miss_shows_items_and_ends_the_turn_at_once() -> None:
    g = Game.make(4, hands={0: ["whip"], 1: ["key1", "gloves"]}, occ={0: "diplomat"})
    g.act(0, "diplomat", target=1, card="goblet")
    assert g.of("diplomat_missed", g.last)[0].public
    seen = g.of("items_seen", g.last)[0]
    assert seen.to == (0,) and sorted(seen.data["cards"]) == ["gloves", "key1"]
    assert g.notes(0, "saw_items")[0]["how"] == "diplomat"
    # the action was lost
    assert g.kind == "turn" and g.pending.actors == [1]
    assert not g.of("passed")


def test_diplomat_miss_after_the_action_ends_the_turn() -> None:
    g = Game.make(4, hands={0: ["whip"], 1: ["gloves"]}, occ={0: "diplomat"}, occ_up={0: True})
    g.act(0, "pass").act(0, "diplomat", target=1, card="dagger")
    assert g.of("items_seen", g.last) and g.pending.actors == [1]


def test_diplomat_names_a_hidden_bag_as_secret_bag() -> None:
    g = Game.make(4, hands={0: ["whip"], 1: ["bag_goblet"]}, occ={0: "diplomat"})
    names = {a.card for a in g.legal(0) if a.kind == "diplomat"}
    assert "bag" in names and "bag_key" not in names and "bag_goblet" not in names
    g.act(0, "diplomat", target=1, card="bag").act(0, "give", card="whip")
    assert g.items(0) == ["bag_goblet"]
    # a Bag given by the target fires for its giver (R-T8)
    assert g.of("drew", g.last)[0].data["seat"] == 1


def test_diplomat_bag_matches_its_goal_name_once_the_pile_is_empty() -> None:
    g = Game.make(4, hands={0: ["whip"], 1: ["bag_key"], 2: ["key1"]}, occ={0: "diplomat"}, pile=[])
    names = {a.card for a in g.legal(0) if a.kind == "diplomat"}
    assert "bag" not in names and "key" in names
    g.act(0, "diplomat", target=1, card="key").act(0, "give", card="whip")
    assert g.items(0) == ["bag_key"]


def test_diplomat_real_goal_item_before_the_bag() -> None:
    g = Game.make(4, hands={0: ["whip"], 1: ["bag_key", "key2"]}, occ={0: "diplomat"}, pile=[])
    g.act(0, "diplomat", target=1, card="key")
    assert g.pending.data["receive"] == "key2"


def test_diplomat_R_T3_still_applies() -> None:
    g = Game.make(4, hands={0: ["bag_key", "whip"], 1: ["bag_goblet"]}, occ={0: "diplomat"})
    g.act(0, "diplomat", target=1, card="bag")
    assert {a.card for a in g.legal(0)} == {"whip"}
    with pytest.raises(Illegal):
        g.act(0, "give", card="bag_key")


def test_diplomat_with_only_a_bag_cannot_ask_for_the_other_bag_R_T3() -> None:
    g = Game.make(4, hands={0: ["bag_key"]}, occ={0: "diplomat"})
    names = {a.card for a in g.legal(0) if a.kind == "diplomat"}
    assert "bag" not in names and "key" in names


def test_diplomat_spent_or_not_held_is_not_offered() -> None:
    g = Game.make(4, occ={0: "diplomat"}, occ_up={0: True}, occ_spent={0: True})
    assert "diplomat" not in g.legal_kinds(0)
    g.act(0, "pass")
    assert g.kind == "turn" and g.pending.actors == [1]


# -- Doctor ------------------------------------------------------------------------------------
def test_doctor_cancels_a_fight_it_took_no_part_in_R_A8() -> None:
    g = Game.make(5, hands={1: ["key1"]}, occ={4: "doctor"})
    g.attack(0, 1, {2: A, 4: N}).close()
    assert g.holders == [4]
    g.act(4, "use")
    assert g.items(1) == ["key1"] and not g.of("reward")
    # once: spent, so not asked again; face up and spent, the window is left out (R-D1)
    g.attack(1, 2).close()
    assert g.kind != "doctor" and not g.of("doctor_cancelled", g.last)


# -- Duelist -----------------------------------------------------------------------------------
def test_duelist_as_attacker_voids_supports_R_A6() -> None:
    g = Game.make(5, occ={0: "duelist"})
    g.attack(0, 1, {2: D, 3: D, 4: D})
    g.act(0, "play", card="duelist").close()
    assert (result(g)["attack"], result(g)["defence"]) == (2, 1)
    assert result(g)["winner"] == 0


def test_duelist_only_as_attacker_or_defender_and_once() -> None:
    g = Game.make(4, occ={2: "duelist"})
    g.attack(0, 1, {2: A})
    assert "duelist" not in {a.card for a in g.legal(2)}
    g2 = Game.make(4, occ={0: "duelist"})
    g2.attack(0, 1).act(0, "play", card="duelist")
    assert "duelist" not in {a.card for a in g2.legal(0)}
    g2.close().close()
    assert g2.player(0).occ_spent


# -- Poison Mixer ------------------------------------------------------------------------------
@pytest.mark.parametrize("side", [A, D])
def test_poison_mixer_decides_the_winner_and_closes_the_window(side: str) -> None:
    g = Game.make(5, occ={4: "poison_mixer"})
    g.attack(0, 1, {2: A, 3: A, 4: N})
    plays = {(a.card, a.choice) for a in g.legal(4) if a.kind == "play"}
    assert plays == {("poison_mixer", A), ("poison_mixer", D)}
    g.act(4, "play", card="poison_mixer", choice=side)
    assert g.kind == "doctor"  # the boost window closed
    assert result(g)["how"] == "poison_mixer"
    assert result(g)["winner"] == (0 if side == A else 1)
    assert g.player(4).occ_spent


def test_poison_mixer_not_as_attacker_or_defender() -> None:
    g = Game.make(4, occ={1: "poison_mixer"})
    g.attack(0, 1)
    assert "poison_mixer" not in {a.card for a in g.legal(1)}


# -- Grand Master, Thug, Bodyguard (always) -----------------------------------------------------
def test_grand_master_plus_one_as_defender_every_fight() -> None:
    g = Game.make(4, occ={1: "grand_master"})
    g.attack(0, 1, {2: A}).act(1, "play", card="grand_master").close()
    assert (result(g)["attack"], result(g)["defence"]) == (2, 2)
    g.close().end_turn()
    # face up: applies by itself in the next fight, not offered again
    g.attack(1, 2)
    g.act(3, "pass")
    g.close()
    assert (result(g)["attack"], result(g)["defence"]) == (1, 1)
    g.close().end_turn()
    g.attack(2, 1)
    assert "grand_master" not in {a.card for a in g.legal(1)}
    g.close()
    assert (result(g)["attack"], result(g)["defence"]) == (1, 2)


def test_thug_plus_one_as_attacker() -> None:
    g = Game.make(4, occ={0: "thug"}, occ_up={0: True})
    g.attack(0, 1, {2: D}).close()
    assert (result(g)["attack"], result(g)["defence"]) == (2, 2)
    g2 = Game.make(4, occ={1: "thug"}, occ_up={1: True})
    g2.attack(0, 1).close()
    assert (result(g2)["attack"], result(g2)["defence"]) == (1, 1)


def test_bodyguard_plus_one_to_the_side_supported() -> None:
    g = Game.make(4, occ={2: "bodyguard"})
    g.attack(0, 1, {2: D})
    assert ("play", "bodyguard") in {(a.kind, a.card) for a in g.legal(2)}
    g.act(2, "play", card="bodyguard").close()
    assert (result(g)["attack"], result(g)["defence"]) == (1, 3)
    assert g.player(2).occ_up and not g.player(2).occ_spent


def test_bodyguard_neutral_cannot_play_it() -> None:
    g = Game.make(4, occ={2: "bodyguard"})
    g.attack(0, 1, {2: N})
    assert "bodyguard" not in {a.card for a in g.legal(2)}


# -- Clairvoyant -------------------------------------------------------------------------------
def test_clairvoyant_orders_the_top_two_and_shuffles_the_rest() -> None:
    pile = ["key1", "key2", "whip", "gloves", "dagger", "tome"]
    g = Game.make(4, occ={0: "clairvoyant"}, pile=list(pile))
    assert "clairvoyant" in g.legal_kinds(0)
    g.act(0, "clairvoyant")
    seen = g.of("pile_seen", g.last)[0]
    assert seen.to == (0,) and seen.data["cards"] == list(reversed(pile))  # top first
    assert g.kind == "clairvoyant"
    g.act(0, "order", cards=["key2", "whip"])
    assert g.st.pile[-1] == "key2" and g.st.pile[-2] == "whip"
    assert sorted(g.st.pile) == sorted(pile)
    assert g.of("pile_arranged", g.last)[0].public
    assert "cards" not in g.of("pile_arranged", g.last)[0].data
    # a free use: the action is still to come, the Clairvoyant spent
    assert g.kind == "turn" and not g.pending.data["acted"]
    assert "clairvoyant" not in g.legal_kinds(0)
    assert g.player(0).occ_spent


def test_clairvoyant_after_the_action_when_face_up_and_with_one_card() -> None:
    g = Game.make(4, occ={0: "clairvoyant"}, occ_up={0: True}, pile=["whip"])
    g.act(0, "pass")
    assert g.legal_kinds(0) == {"end", "clairvoyant"}
    g.act(0, "clairvoyant")
    assert [a.cards for a in g.legal(0)] == [("whip",)]
    g.act(0, "order", cards=["whip"])
    assert g.st.pile == ["whip"] and g.pending.actors == [1]


def test_clairvoyant_not_offered_with_an_empty_pile() -> None:
    g = Game.make(4, occ={0: "clairvoyant"}, pile=[])
    assert "clairvoyant" not in g.legal_kinds(0)


def test_clairvoyant_timeout_keeps_the_top_two() -> None:
    g = Game.make(4, occ={0: "clairvoyant"}, pile=["key1", "whip", "gloves"])
    g.act(0, "clairvoyant").timeout()
    assert g.st.pile[-2:] == ["whip", "gloves"]


# -- Hypnotist ---------------------------------------------------------------------------------
def test_hypnotist_usable_every_fight_R_A4() -> None:
    g = Game.make(4, occ={0: "hypnotist"})
    g.act(0, "attack", target=1).close().supports({2: D, 3: A})
    g.act(0, "hypnotize", target=2)
    assert g.player(0).occ_up and not g.player(0).occ_spent
    g.close().close()  # boost, doctor
    assert g.kind == "reward"
    g.timeout()
    for seat in (1, 2, 3):
        g.act(seat, "pass")
    g.act(0, "attack", target=1).close().supports()
    assert g.kind == "hypnotist" and g.pending.actors == [0]


# -- Priest ------------------------------------------------------------------------------------
def test_priest_once_R_A2() -> None:
    g = Game.make(4, hands={0: ["whip", "dagger"]}, occ={2: "priest"})
    g.act(0, "attack", target=1).act(2, "use").act(0, "give", card="whip")
    assert g.player(2).occ_spent and g.player(2).occ_up
    g.act(1, "attack", target=3)
    assert g.kind == "support"  # face up and spent: the window is left out (R-D1)


# -- Tome and Coat make occupations usable again (§6) -----------------------------------------
def test_spent_priest_usable_again_after_coat() -> None:
    g = Game.make(
        4,
        hands={0: ["coat", "whip"], 1: ["gloves"]},
        occ={0: "grand_master"},
    )
    g.st.occ_deck.sort()
    g.act(0, "trade", target=1, card="coat").act(1, "accept", card="gloves")
    g.act(0, "take", card="priest")
    assert g.player(0).occupation == "priest"
    g.act(1, "attack", target=2)
    assert g.holders == [0]


@pytest.mark.parametrize("occ", sorted(ALWAYS_OCCUPATIONS))
def test_always_occupations_are_never_spent(occ: str) -> None:
    g = Game.make(4, occ={0: occ}, turn=0 if occ in ("thug", "hypnotist") else 1)
    assert not engine.public_view(g.st)["players"][0]["occupation"]
    if occ == "grand_master":
        g.attack(1, 0).act(0, "play", card=occ)
    elif occ == "bodyguard":
        g.attack(1, 2, {0: A}).act(0, "play", card=occ)
    elif occ == "thug":
        g.attack(0, 1).act(0, "play", card=occ)
    else:
        g.act(0, "attack", target=1).close().supports().act(0, "hypnotize", target=2)
    assert g.player(0).occ_up and not g.player(0).occ_spent
    assert engine.public_view(g.st)["players"][0]["occupation"] == occ


def test_assoc_helpers_used() -> None:
    assert (ORD, BRO) == ("order", "brotherhood")


def test_diplomat_victim_is_told_what_was_taken_and_notes_it() -> None:
    """Issue 25: the player a Diplomat trades with hears what they lost, not only what came."""
    g = Game.make(4, hands={0: ["privilege", "whip"], 1: ["key1", "gloves"]}, occ={0: "diplomat"})
    g.act(0, "diplomat", target=1, card="key").act(0, "give", card="privilege")
    lost = g.of("item_lost", g.last)
    assert len(lost) == 1 and lost[0].to == (1,)
    assert lost[0].data == {"seat": 1, "to": 0, "card": "key1"}
    assert {"k": "gave_item", "about": 0, "card": "key1", "how": "trade"}.items() <= g.notes(
        1, "gave_item"
    )[-1].items()
