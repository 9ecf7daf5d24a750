"""Fights (R-A1…R-A10): whom to back, what to play in the boost window, the Priest, Hypnotist and
Doctor windows, and the winner's reward."""

from __future__ import annotations

import math

from engine.actions import Action
from engine.ai.mind import Mind, draw_value
from engine.ai.seat_facts import MY_GOAL, SeatFacts
from engine.cards import (
    BODYGUARD,
    DAGGER,
    DUELIST,
    GRAND_MASTER,
    HYPNOTIST,
    POISON_MIXER,
    POISON_RING,
    THUG,
)
from engine.fight import fight_strengths

ATTACKER, DEFENDER, NEUTRAL = "attacker", "defender", "neutral"
_ONCE_COST = 2.0  # spending a once-occupation


def preferred_side(m: Mind, attacker: int, defender: int) -> str | None:
    me = m.t.seat
    if me == attacker:
        return ATTACKER
    if me == defender:
        return DEFENDER
    lean = m.ally(attacker) - m.ally(defender)
    if lean > m.style.support_lean:
        return ATTACKER
    if lean < -m.style.support_lean:
        return DEFENDER
    return None


def support(m: Mind, legal: list[Action]) -> Action:
    d = m.t.decision
    side = preferred_side(m, d["attacker"], d["defender"]) or NEUTRAL
    return _pick(legal, choice=side)


# -- strength as the table shows it ------------------------------------------------------------
def strengths(t: SeatFacts, extra: tuple[int, str, str | None] | None = None) -> tuple[int, int]:
    """R-A6 from the public fight record, with ``extra`` as if it were played too."""
    f = t.fight
    assert f is not None
    a, d = f["attacker"], f["defender"]
    played = [*f["played"], *([extra] if extra else [])]
    face_up: list[str | None] = list(t.face_up)
    for seat, card, _ in played:
        if card in (THUG, GRAND_MASTER, BODYGUARD):
            face_up[seat] = card  # playing it turns it face up
    return fight_strengths(a, d, f["supports"], f["hypnotized"], played, face_up)


def outcome(t: SeatFacts, extra: tuple[int, str, str | None] | None = None) -> str | None:
    """The side that wins as things stand (None: a tie)."""
    f = t.fight
    assert f is not None
    played = [*f["played"], *([extra] if extra else [])]
    mixer = next((x for _, c, x in played if c == POISON_MIXER), None)
    if mixer is not None:
        return str(mixer)
    att, dfn = strengths(t, extra)
    if att != dfn:
        return ATTACKER if att > dfn else DEFENDER
    ring = next((s for s, c, _ in played if c == POISON_RING), None)
    if ring == f["attacker"]:
        return ATTACKER
    if ring == f["defender"]:
        return DEFENDER
    return None


def _rank(result: str | None, side: str) -> int:
    """2 a win for ``side``, 1 a tie, 0 a loss."""
    if result is None:
        return 1
    return 2 if result == side else 0


def boost(m: Mind, legal: list[Action]) -> Action:
    t = m.t
    f = t.fight
    passing = _pick(legal, kind="pass")
    if f is None:
        return passing
    side = preferred_side(m, f["attacker"], f["defender"])
    if side is None:
        return passing
    now = _rank(outcome(t), side)
    if now == 2:
        return passing
    stake = (
        1.0
        if t.seat in (f["attacker"], f["defender"])
        else abs(m.ally(f["attacker"]) - m.ally(f["defender"]))
    )
    best, best_score = passing, 0.0
    for a in legal:
        if a.kind != "play" or a.card is None:
            continue
        if a.card == POISON_MIXER and a.choice != side:
            continue
        after = _rank(outcome(t, (t.seat, a.card, a.choice)), side)
        if after <= now:
            continue
        cost = 0.0
        if a.card in (DUELIST, POISON_MIXER):
            if after < 2 or stake < 0.5:
                continue
            cost = _ONCE_COST
        elif a.card in (THUG, GRAND_MASTER, BODYGUARD):
            cost = 0.3  # shows the occupation for good
        score = (after - now) * 2.0 * stake - cost
        if score > best_score:
            best, best_score = a, score
    return best


# -- windows ------------------------------------------------------------------------------------
def priest(m: Mind, legal: list[Action]) -> Action:
    d = m.t.decision
    a, dfn = d["attacker"], d["defender"]
    use = m.ally(a) < 0.5 if m.t.seat == dfn else m.ally(dfn) - m.ally(a) > 0.5
    return _pick(legal, kind="use" if use else "pass")


def hypnotist(m: Mind, legal: list[Action]) -> Action:
    t = m.t
    f = t.fight
    best, best_weight = _pick(legal, kind="pass"), 0
    if f is None:
        return best
    for a in legal:
        if a.kind != "hypnotize" or a.target is None:
            continue
        side = f["supports"].get(str(a.target))
        if side != DEFENDER:
            continue
        weight = 2 if t.face_up[a.target] == BODYGUARD else 1
        if weight > best_weight:
            best, best_weight = a, weight
    return best


def doctor(m: Mind, legal: list[Action]) -> Action:
    t = m.t
    result = next((r for r in reversed(t.history) if r["k"] == "fight_result"), None)
    use = False
    if result is not None and result["winner"] is not None:
        winner = result["winner"]
        loser = result["target"] if winner == result["seat"] else result["seat"]
        if loser == t.seat:
            use = m.ally(winner) < 0.5
        else:
            use = m.ally(winner) < 0.3 and m.ally(loser) - m.ally(winner) > 0.5
    return _pick(legal, kind="use" if use else "pass")


# -- the reward --------------------------------------------------------------------------------
def reward(m: Mind, legal: list[Action]) -> Action:
    loser = m.t.decision["loser"]
    look = 6.0 * m.doubt(loser)
    take = 1.0 + take_value(m, loser)
    return _pick(legal, kind="look" if look > take else "take")


def take_value(m: Mind, seat: int) -> float:
    """What taking one item from ``seat`` (after seeing them all) is expected to bring."""
    known = m.holdings.known[seat]
    best = max((m.gain(c, seat) * p for c, p in known.items()), default=0.0)
    unseen = max(0.0, m.holdings.sizes[seat] - sum(known.values()))
    if unseen > 0:
        best = max(best, MY_GOAL * (1 - (1 - m.unseen_goal_chance()) ** unseen))
    if m.holdings.sizes[seat] <= 1 and m.t.items:  # R-A9: then I give one of mine back
        best -= min(m.loss(c, seat) for c in m.t.items)
    return best * 0.5 ** taken_back(m, seat)


def taken_back(m: Mind, seat: int) -> int:
    """How often ``seat`` took an item from me in the last three rounds: what I take from them
    they are likely to take back, and trading blows over one card gets nobody anywhere."""
    t = m.t
    since = max(0, t.history[-1]["turn"] - 3 * t.n) if t.history else 0
    return sum(
        1
        for r in t.history
        if r["k"] == "item_taken"
        and r["seat"] == seat
        and r["target"] == t.seat
        and r["turn"] > since
    )


def take(m: Mind, legal: list[Action]) -> Action:
    loser = m.t.decision["loser"]
    return max(legal, key=lambda a: m.gain(a.card or "", loser))


def give_back(m: Mind, legal: list[Action]) -> Action:
    """Hand ``to`` the item whose loss costs my association least."""
    to = m.t.decision.get("loser", m.t.decision.get("priest"))
    assert isinstance(to, int)
    return min(legal, key=lambda a: m.loss(a.card or "", to))


# -- attacking ---------------------------------------------------------------------------------
def attack_value(m: Mind, target: int) -> float:
    """Expected worth of attacking ``target`` now: a win's reward, a tie's draw, a loss's cost."""
    win, tie = fight_odds(m, target)
    lose = 1.0 - win - tie
    t = m.t
    reward_value = max(6.0 * m.doubt(target), 1.0 + take_value(m, target))
    my_best = max((m.worth(c, t.seat) for c in t.items), default=0.0)
    loss_cost = (1.0 - m.ally(target)) * max(1.5, 0.6 * my_best)
    return win * reward_value + tie * draw_value(m) - lose * loss_cost


def fight_odds(m: Mind, target: int) -> tuple[float, float]:
    """P(win), P(tie) of my attack on ``target``, from who is likely to back whom."""
    t = m.t
    p_target = m.ally(target)
    mean = 0.0
    var = 0.25
    for s in t.others:
        if s == target:
            continue
        p = m.ally(s)
        # backs me as my ally against an enemy, backs them as their ally; some noise either way
        with_me = 0.15 + 0.6 * p * (1 - p_target)
        with_them = 0.15 + 0.6 * (1 - p) * (1 - p_target) + 0.1 * p * p_target
        weight = 2.0 if t.face_up[s] == BODYGUARD else 1.0
        mean += weight * (with_me - with_them)
        var += weight * weight * (with_me + with_them - (with_me - with_them) ** 2)
    if t.occupation == THUG:
        mean += 1
    if t.occupation == HYPNOTIST:
        mean += 0.5
    if DAGGER in t.items:
        mean += 1
    if t.face_up[target] == GRAND_MASTER:
        mean -= 1
    mean -= 0.3 * min(2, t.counts[target])  # Gloves or the like in their hand
    sd = math.sqrt(var)
    win = 1.0 - _normal_cdf((0.5 - mean) / sd)
    tie = _normal_cdf((0.5 - mean) / sd) - _normal_cdf((-0.5 - mean) / sd)
    if POISON_RING in t.items:
        win, tie = win + tie, 0.0
    return win, tie


def _normal_cdf(x: float) -> float:
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


def _pick(legal: list[Action], *, kind: str | None = None, choice: str | None = None) -> Action:
    for a in legal:
        if (kind is None or a.kind == kind) and (choice is None or a.choice == choice):
            return a
    return legal[0]
