"""The next turn chosen ahead (engine.premove, issue 9 pace decision): offered to the next player
from the moment this turn starts, paused (kept, not changeable) in windows, while a fight is fought
and while they are asked something else; kept from everyone, changeable, played the moment their
turn starts if still legal, dropped (and the turn asked) otherwise."""

from __future__ import annotations

import pytest

import engine
from engine import Action, Illegal, NotYourTurn
from tests.unit.engine_helpers import Game


def _offered(g: Game) -> Game:
    """4 players: seat 0 offers its Dagger to seat 2; seat 1 (next) is asked nothing."""
    return g.act(0, "trade", target=2, card="dagger")


def test_premove_offered_to_the_next_player_from_the_turns_start() -> None:
    g = Game.make(4, hands={0: ["dagger"], 1: ["gloves"], 2: ["whip"]})
    aw = engine.awaiting(g.st)
    assert aw.kind == "turn" and aw.seats == (0,) and aw.premove == 1  # seat 0 still thinks
    assert engine.asked(g.st) == [0, 1]
    assert engine.legal_actions(g.st, 2) == []  # only the next player
    _offered(g)
    aw = engine.awaiting(g.st)
    assert aw.kind == "trade_answer" and aw.seats == (2,) and aw.premove == 1
    assert 1 not in aw.seats  # never waited for: the table waits for the answer only
    assert engine.asked(g.st) == [2, 1]
    kinds = {a.kind for a in engine.legal_actions(g.st, 1)}
    assert kinds == {"pass", "trade", "attack"}  # a turn's action, no free use
    decision = engine.view(g.st, 1)["decision"]
    assert decision["kind"] == "turn" and decision["data"]["ahead"] == 0
    assert decision["data"]["held"] is None
    assert engine.view(g.st, 1)["next_turn"] == {"now": 0, "held": None, "open": True}
    assert all(engine.view(g.st, s)["next_turn"] is None for s in (0, 2, 3))


def test_premove_is_kept_from_everyone_and_may_be_changed() -> None:
    g = _offered(Game.make(4, hands={0: ["dagger"], 1: ["gloves"], 2: ["whip"]}))
    public_before = engine.public_view(g.st)
    views_before = [engine.view(g.st, s) for s in (0, 2, 3)]
    g.act(1, "attack", target=3)
    assert g.last == []  # nobody is told anything, not even the chooser (the view shows it)
    assert engine.public_view(g.st) == public_before
    assert [engine.view(g.st, s) for s in (0, 2, 3)] == views_before
    assert engine.view(g.st, 1)["decision"]["data"]["held"]["kind"] == "attack"
    g.act(1, "trade", target=0, card="gloves")
    held = engine.view(g.st, 1)["decision"]["data"]["held"]
    assert (held["kind"], held["target"], held["card"]) == ("trade", 0, "gloves")
    assert engine.awaiting(g.st).seats == (2,)  # still only the answer is waited for


def test_premove_is_played_the_moment_the_turn_starts() -> None:
    g = _offered(Game.make(4, hands={0: ["dagger"], 1: ["gloves"], 2: ["whip"]}))
    g.act(1, "attack", target=3)
    g.act(2, "refuse").end_turn()
    kinds = g.kinds(g.last)
    assert kinds.index("turn") < kinds.index("premove_played") < kinds.index("attack")
    attack = g.of("attack", g.last)[0]
    assert (attack.data["seat"], attack.data["target"]) == (1, 3)
    played = g.of("premove_played", g.last)[0]
    assert played.to == (1,) and played.data["action"]["kind"] == "attack"
    assert g.st.turn == 1 and g.kind != "turn"  # the fight is on: the turn was not asked


def test_premove_no_longer_legal_is_dropped_and_the_turn_asked() -> None:
    """Seat 1 means to trade its Gloves on, but loses them in the fight: its turn is asked."""
    g = Game.make(4, hands={0: ["dagger", "key1"], 1: ["gloves", "whip"]})
    g.attack(0, 1, {2: "attacker", 3: "attacker"}).close()  # 3 : 1, seat 0 wins
    assert g.kind == "doctor"  # a face-down Doctor may be anywhere; the reward rides on it
    assert engine.awaiting(g.st).premove is None  # R-D1: nothing depends on the window's actors
    g.act(0, "take").close()
    assert g.kind == "reward_take" and engine.awaiting(g.st).premove == 1
    g.act(1, "trade", target=2, card="gloves")
    g.act(0, "take", card="gloves").end_turn()
    dropped = g.of("premove_dropped", g.last)
    assert dropped and dropped[0].to == (1,) and not g.of("premove_played")
    assert g.kind == "turn" and g.pending.actors == [1] and not g.pending.data["acted"]


def test_premove_paused_while_the_fight_is_fought_the_choice_kept() -> None:
    g = Game.make(4, hands={0: ["dagger"], 1: ["gloves"]})
    g.act(1, "pass")  # chosen while seat 0 still thinks
    g.act(0, "attack", target=2)
    while g.kind in ("priest", "support", "hypnotist", "boost"):
        assert engine.awaiting(g.st).premove is None
        nt = engine.view(g.st, 1)["next_turn"]
        assert nt["open"] is False and nt["held"]["kind"] == "pass"  # paused, still kept
        assert engine.legal_actions(g.st, 1) == [] or 1 in g.pending.actors
        if g.st.pending.window:
            g.close()
        else:
            g.act(g.pending.actors[0], "support", choice="neutral")
    assert g.kind == "doctor" and engine.awaiting(g.st).premove is None  # a window: R-D1
    g.close()  # 1 : 1, a tie: the attacker draws, nothing is left of seat 0's turn
    played = g.of("premove_played", g.last)
    assert played and played[0].to == (1,)  # the kept pass, played as seat 1's turn started
    assert g.st.turn == 2 and g.kind == "turn"


def test_premove_paused_for_the_trade_partner_until_it_answered() -> None:
    g = Game.make(4, hands={0: ["dagger"], 1: ["gloves"]})
    g.act(1, "attack", target=3)  # chosen ahead, then seat 0 offers seat 1 a trade
    g.act(0, "trade", target=1, card="dagger")
    assert engine.awaiting(g.st).premove is None  # seat 1 answers the offer first
    assert engine.view(g.st, 1)["next_turn"]["open"] is False
    assert engine.view(g.st, 1)["decision"]["kind"] == "trade_answer"
    g.act(1, "refuse")
    assert g.st.turn == 1 and g.of("premove_played", g.last)  # the kept attack, played
    assert g.of("attack", g.last)[0].data["target"] == 3 and g.kind != "turn"


def test_premove_never_offered_to_an_away_player() -> None:
    g = Game.make(4, hands={0: ["dagger"], 1: ["gloves"]})
    g.player(1).away = True
    assert engine.awaiting(g.st).premove is None
    _offered(g)
    assert engine.awaiting(g.st).premove is None
    assert engine.view(g.st, 1)["next_turn"] is None


def test_premove_a_free_use_or_another_seat_is_refused() -> None:
    g = _offered(Game.make(4, hands={0: ["dagger"], 1: ["gloves"]}, occ={1: "clairvoyant"}))
    d = g.pending.id
    with pytest.raises(Illegal):
        engine.apply(g.st, Action("clairvoyant", 1, d))
    with pytest.raises(NotYourTurn):
        engine.apply(g.st, Action("pass", 3, d))


@pytest.mark.parametrize(("n", "seed"), [(3, 1), (4, 2), (5, 3), (7, 4), (10, 5)])
def test_premove_random_games_keep_every_invariant(n: int, seed: int) -> None:
    """Whole random games in which the next player chooses ahead whenever offered (and now and
    then changes their mind): the state, every view and every event stay clean."""
    from devtools.simulation import invariants
    from engine.rng import Rng, seed_state

    st, _ = engine.new_game([f"p{i}" for i in range(n)], seed, {"max_rounds": 12})
    rng = Rng(seed_state(seed))
    ledger = invariants.Ledger()
    chosen = played = 0
    for _ in range(20_000):
        aw = engine.awaiting(st)
        if aw is None:
            break
        if aw.premove is not None and rng.below(3) > 0:
            options = engine.legal_actions(st, aw.premove)
            options = [a for a in options if a.kind not in ("claim", "claim_other")]
            action = options[rng.below(len(options))]
            chosen += 1
        elif aw.seats:
            seat = aw.seats[rng.below(len(aw.seats))]
            options = [
                a
                for a in engine.legal_actions(st, seat)
                if a.kind not in ("claim", "claim_other", "solo")
            ]
            action = options[rng.below(len(options))] if options else engine.timeout_action(st)
        else:
            action = engine.timeout_action(st)
        st, events = engine.apply(st, action)
        played += sum(e.kind == "premove_played" for e in events)
        found = invariants.check(st) + invariants.check_events(st, events, ledger)
        found += invariants.check_views(st, events, ledger, range(n))
        found += invariants.check_roundtrip(st, light=True)
        assert not found, found
    assert st.over and chosen > 0 and played > 0


def test_premove_survives_a_diplomat_demand_reopening_the_current_turn() -> None:
    """Issue 25 (seed 2): the choice belongs to the next turn. Seat 0's Diplomat demand reopens
    seat 0's own turn; seat 1's kept attack is neither played as seat 0's nor dropped."""
    g = Game.make(4, hands={0: ["dagger"], 1: ["gloves"], 2: ["whip"]}, occ={0: "diplomat"})
    g.act(1, "attack", target=3)
    g.act(0, "diplomat", target=2, card="whip")
    g.act(0, "give", card="dagger")
    assert not g.of("premove_dropped") and not g.of("premove_played")
    assert g.kind == "turn" and g.pending.actors == [0]  # seat 0's turn, its action still to take
    assert engine.view(g.st, 1)["next_turn"]["held"]["kind"] == "attack"
    g.act(0, "pass").end_turn()
    played = g.of("premove_played", g.last)
    assert played and played[0].to == (1,)
    assert g.of("attack", g.last)[0].data == {"seat": 1, "target": 3}


def test_premove_survives_a_clairvoyant_use_reopening_the_current_turn() -> None:
    """Issue 25 (seed 3): the same for a Clairvoyant use."""
    g = Game.make(4, hands={0: ["dagger"], 1: ["gloves"]}, occ={0: "clairvoyant"})
    g.act(1, "pass")
    g.act(0, "clairvoyant")
    order = g.legal(0)[0]
    g.act(0, "order", cards=order.cards)
    assert not g.of("premove_dropped") and not g.of("premove_played")
    assert g.kind == "turn" and g.pending.actors == [0]
    assert engine.view(g.st, 1)["next_turn"]["held"]["kind"] == "pass"
    g.act(0, "pass").end_turn()
    assert g.of("premove_played", g.last)[0].to == (1,) and g.st.turn == 2


def test_premove_dropped_says_why() -> None:
    """Issue 25: the dropped choice is named with the reason the cards no longer allow it."""
    g = Game.make(4, hands={0: ["dagger", "key1"], 1: ["gloves", "whip"]})
    g.attack(0, 1, {2: "attacker", 3: "attacker"}).close()
    g.act(0, "take").close()
    g.act(1, "trade", target=2, card="gloves")
    g.act(0, "take", card="gloves").end_turn()
    dropped = g.of("premove_dropped", g.last)[0]
    assert dropped.data["why"] == "card" and dropped.data["action"]["card"] == "gloves"


def test_premove_keep_use_asks_first_with_the_choice_ready() -> None:
    """Issue 25: a face-down Diplomat holder may keep it: the turn is asked as usual, the kept
    choice offered as one tap, the Diplomat usable first; the table sees an ordinary turn."""
    g = Game.make(4, hands={0: ["dagger"], 1: ["gloves"], 2: ["whip"]}, occ={1: "diplomat"})
    assert Action("keep_use", 1, g.pending.id, choice="on") in engine.legal_actions(g.st, 1)
    g.act(1, "attack", target=3)
    g.act(1, "keep_use", choice="on")
    assert engine.view(g.st, 1)["decision"]["data"]["keep_use"] is True
    g.act(0, "pass").end_turn()
    assert g.of("premove_kept", g.last)[0].to == (1,) and not g.of("premove_played")
    assert g.kind == "turn" and g.pending.actors == [1]
    assert g.pending.data["kept"]["kind"] == "attack"
    g.act(1, "diplomat", target=2, card="whip").act(1, "give", card="gloves")
    assert g.kind == "turn" and g.pending.data["kept"]["target"] == 3  # still one tap
    g.act(1, "attack", target=3)
    assert g.of("attack", g.last)[0].data == {"seat": 1, "target": 3}


def test_premove_keep_use_only_for_a_face_down_ready_holder() -> None:
    g = Game.make(4, hands={0: ["dagger"], 1: ["gloves"]}, occ={1: "diplomat"}, occ_up={1: True})
    assert "keep_use" not in {a.kind for a in engine.legal_actions(g.st, 1)}
    g = Game.make(4, hands={0: ["dagger"], 1: ["gloves"]}, occ={1: "thug"})
    assert "keep_use" not in {a.kind for a in engine.legal_actions(g.st, 1)}
