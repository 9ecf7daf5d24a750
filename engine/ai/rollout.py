"""Playing a sampled world forward: a fast rollout policy and the value of where it ends.

The rollout players read the sampled world directly (it is one guess of the hidden cards, made
from the searching seat's beliefs), so they need no beliefs of their own: every player backs its
association, gathers its goal items with the partner holding most of them, hands the Black Pearl
to an opponent, attacks an opponent holding its goal items, and claims when the count holds in
that world. A share of their turns is random, so the search does not count on perfect play.
"""

from __future__ import annotations

from engine.actions import Action
from engine.api import apply, awaiting, default_action, legal_actions, timeout_action
from engine.cards import BLACK_PEARL, GOAL_KIND, item_kind
from engine.core import goal_count
from engine.frames import fight_on_top
from engine.kinds import ActionKind
from engine.rng import Rng
from engine.state import Player, State, other_association
from engine.victory import is_real_minority

_NOISE_PERMILLE = 200  # a random turn now and then
_ATTACK_PERMILLE = 450  # an opponent holds my goal item: attack it this often
_STEP_CAP = 200  # actions per rollout, whatever the horizon


def play_out(st: State, horizon_turns: int, rng: Rng) -> State:
    """Plays ``st`` (in place) until the game ends or ``horizon_turns`` more turns started."""
    start = st.turn_no
    steps = 0
    while steps < _STEP_CAP:
        aw = awaiting(st)
        if aw is None:
            break
        if aw.kind == "turn" and st.turn_no - start >= horizon_turns:
            break
        if aw.closable or not aw.seats or aw.window:
            action = timeout_action(st)
        else:
            action = choose(st, aw.seats[0], aw.kind, rng)
        st, _ = apply(st, action, inplace=True)
        steps += 1
    return st


def value(st: State, association: str, seat: int) -> float:
    """From ``seat``'s side (of ``association``): 1 won, -1 lost, in between how near each side
    is to a claim."""
    result = st.result
    if result is not None:
        winners = result["winners"]
        if seat in winners:
            return 1.0
        return -1.0 if winners else -0.6
    return 0.7 * (_progress(st, association) - _progress(st, other_association(association)))


def _progress(st: State, association: str) -> float:
    """0..1: the goal items the association gathered, and how close the best hand is to a claim."""
    total = 0
    best = 0
    pearl_on_best = False
    for p in st.players:
        if p.association != association:
            continue
        count = goal_count(st, p.items, association)
        total += count
        if count > best:
            best = count
            pearl_on_best = BLACK_PEARL in p.items
    score = 0.55 * min(total, 3) / 3 + 0.45 * min(best, 3) / 3
    return score - (0.25 if pearl_on_best else 0.0)


# -- the rollout policy ------------------------------------------------------------------------
def choose(st: State, seat: int, kind: str, rng: Rng) -> Action:
    p = st.pending
    assert p is not None
    me = st.players[seat]
    if kind == "turn":
        return _turn(st, seat, p.id, bool(p.data.get("acted")), rng)
    if kind == "support":
        f = fight_on_top(st.frames)
        mine = me.association
        side = "neutral"
        if st.players[f["attacker"]].association == mine:
            side = "attacker"
        elif st.players[f["defender"]].association == mine:
            side = "defender"
        return Action(ActionKind.SUPPORT, seat, p.id, choice=side)
    if kind == "trade_answer":
        return _answer(st, seat, p.id, p.data["seat"], p.data["card"])
    if kind == "reward":
        return Action(ActionKind.TAKE, seat, p.id)
    if kind == "reward_take":
        loser = st.players[p.data["loser"]]
        card = max(loser.items, key=lambda c: _keep(st, me, c))
        return Action(ActionKind.TAKE, seat, p.id, card=card)
    if kind in ("giveback", "priest_tribute", "sextant_pass", "diplomat_give", "gift"):
        legal = legal_actions(st, seat)
        return min(legal, key=lambda a: _keep(st, me, a.card or ""))
    return default_action(st, seat)


def _keep(st: State, me: Player, card: str) -> float:
    """How much ``me`` wants to keep ``card``."""
    kind = item_kind(card)
    if kind == GOAL_KIND[me.association] or card == f"bag_{GOAL_KIND[me.association]}":
        return 10.0
    if card == BLACK_PEARL:
        return -5.0
    if kind == GOAL_KIND[other_association(me.association)]:
        return 3.0
    return 1.0


def _turn(st: State, seat: int, decision: int, acted: bool, rng: Rng) -> Action:
    if acted:
        return Action(ActionKind.END, seat, decision)
    me = st.players[seat]
    mine = me.association
    pearl = BLACK_PEARL in me.items
    if not pearl:
        named = _claimable(st, seat)
        if named is not None:
            return Action(ActionKind.CLAIM, seat, decision, seats=named)
        if st.options.get("fortune_telling"):
            named = _fortune(st, seat)
            if named is not None:
                return Action(ActionKind.CLAIM_OTHER, seat, decision, seats=named)
    if rng.below(1000) < _NOISE_PERMILLE:
        legal = [a for a in legal_actions(st, seat) if a.kind in ("pass", "trade", "attack")]
        return legal[rng.below(len(legal))]
    others = [s for s in range(st.n) if s != seat]
    enemies = [s for s in others if st.players[s].association != mine]
    if pearl and enemies:
        return Action(
            ActionKind.TRADE, seat, decision, target=rng.choice(enemies), card=BLACK_PEARL
        )
    mine_goals = [c for c in me.items if _is_goal(st, c, mine)]
    if mine_goals:
        own = len(mine_goals)
        partner = max(
            (s for s in others if st.players[s].association == mine),
            key=lambda s: (goal_count(st, st.players[s].items, mine), -s),
            default=None,
        )
        if partner is not None and goal_count(st, st.players[partner].items, mine) > own:
            return Action(ActionKind.TRADE, seat, decision, target=partner, card=mine_goals[0])
    holders = [s for s in enemies if goal_count(st, st.players[s].items, mine) > 0]
    if holders and rng.below(1000) < _ATTACK_PERMILLE:
        return Action(ActionKind.ATTACK, seat, decision, target=rng.choice(holders))
    return Action(ActionKind.PASS, seat, decision)


def _is_goal(st: State, card: str, association: str) -> bool:
    return goal_count(st, [card], association) > 0


def _claimable(st: State, seat: int) -> tuple[int, ...] | None:
    me = st.players[seat]
    mine = me.association
    own = goal_count(st, me.items, mine)
    if own < 1:
        return None
    need = 3 - own - (1 if me.drink and is_real_minority(st, mine) else 0)
    if need <= 0:
        return ()
    team = sorted(
        (
            (goal_count(st, st.players[s].items, mine), s)
            for s in range(st.n)
            if s != seat and st.players[s].association == mine
        ),
        reverse=True,
    )
    named: list[int] = []
    for count, s in team:
        if need <= 0 or count == 0:
            break
        named.append(s)
        need -= count
    return tuple(sorted(named)) if need <= 0 else None


def _fortune(st: State, seat: int) -> tuple[int, ...] | None:
    theirs = other_association(st.players[seat].association)
    team = sorted(
        (
            (goal_count(st, st.players[s].items, theirs), s)
            for s in range(st.n)
            if st.players[s].association == theirs
        ),
        reverse=True,
    )
    need = 3
    named: list[int] = []
    for count, s in team:
        if need <= 0 or count == 0:
            break
        named.append(s)
        need -= count
    return tuple(sorted(named)) if need <= 0 else None


def _answer(st: State, seat: int, decision: int, offerer: int, card: str) -> Action:
    me = st.players[seat]
    friend = st.players[offerer].association == me.association
    legal = legal_actions(st, seat)
    accepts = [a for a in legal if a.kind == "accept"]
    refusable = any(a.kind == "refuse" for a in legal)
    wanted = _keep(st, me, card) >= 3.0 or friend
    if accepts and (wanted or not refusable):
        return min(accepts, key=lambda a: _keep(st, me, a.card or ""))
    return Action(ActionKind.REFUSE, seat, decision) if refusable else accepts[0]
