"""R-A1…R-A10: attacks with the Priest, support, Hypnotist, boost and Doctor windows."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from engine.actions import Action
from engine.cards import (
    BODYGUARD,
    CASTING_KNIVES,
    DAGGER,
    DOCTOR,
    DUELIST,
    GLOVES,
    GRAND_MASTER,
    HYPNOTIST,
    POISON_MIXER,
    POISON_RING,
    PRIEST,
    THUG,
    WHIP,
)
from engine.core import Ctx, Kind, Step, occupation_ready, random_of, use_occupation
from engine.frames import FightFrame, Frame, fight_on_top
from engine.kinds import ActionKind, DecisionKind
from engine.looks import look_at_association
from engine.rng import Rng
from engine.state import Json, Pending, State

ATTACKER = "attacker"
DEFENDER = "defender"
NEUTRAL = "neutral"
SIDES = (ATTACKER, DEFENDER)


def step_fight(ctx: Ctx, f: Frame) -> None:
    assert f["kind"] == "fight"
    st = ctx.state
    a, d = f["attacker"], f["defender"]
    stage = f["stage"]
    if stage == "priest":
        others = [s for s in range(st.n) if s != a]
        holders = [s for s in others if occupation_ready(st, s, PRIEST)]
        order = _support_order(st, a, d)
        f["stage"] = "support"
        f["supports"], f["support_order"], f["supports_told"] = {}, order, 0
        f["held_supports"], f["priest_passed"] = {}, []
        f["hypnotized"], f["played"] = None, []
        if not publicly_unusable(st, PRIEST, others):
            ride = _ride("support", "support", order, attacker=a, defender=d)
            _open_window(ctx, "priest", holders, ride, attacker=a, defender=d)
    elif stage == "priest_tribute":
        f["stage"] = "end"
        if len(st.players[a].items) >= 2:
            ctx.open("priest_tribute", [a], "choice", priest=f["priest"])
        else:  # the attacker is told, as the tribute's prompt would tell them (issue 25)
            ctx.private((a,), "priest_no_tribute", seat=f["priest"], attacker=a)
    elif stage == "support":
        if f["supports_told"] < len(f["support_order"]):
            rest = f["support_order"][f["supports_told"] :]
            ctx.open("support", rest, "support", attacker=a, defender=d)
        else:
            f["stage"] = "hypnotist"
    elif stage == "hypnotist":
        f["stage"] = "boost"
        actors = [a] if st.players[a].occupation == HYPNOTIST else []
        if not publicly_unusable(st, HYPNOTIST, [a]):
            ctx.open("hypnotist", actors, "window", window=True, attacker=a, defender=d)
    elif stage == "boost":
        f["stage"], f["duelist"], f["mixer_side"] = "result", None, None
        actors = [s for s in range(st.n) if s != f["hypnotized"]]
        ctx.open("boost", actors, "boost", window=True, attacker=a, defender=d)
    elif stage == "result":
        _result(ctx, f)
        f["stage"] = "doctor"
    elif stage == "doctor":
        f["stage"] = "reward"
        f["cancelled"] = False
        holders = [s for s in range(st.n) if occupation_ready(st, s, DOCTOR)]
        if not publicly_unusable(st, DOCTOR, range(st.n)) and not _nothing_to_cancel(st, f):
            winner = f["winner"]
            ride = None
            if winner is not None:
                ride = _ride("reward", "choice", [winner], loser=d if winner == a else a)
            _open_window(ctx, "doctor", holders, ride, attacker=a, defender=d)
    elif stage == "reward":
        f["stage"] = "end"
        early = f.pop("early_reward", None)
        if f["cancelled"]:
            return
        if f["winner"] is None:
            ctx.draw(a, "tie")  # R-A7
        else:
            loser = d if f["winner"] == a else a
            if early is not None:  # chosen during the Doctor window, told now
                _reward(ctx, f["winner"], loser, early)
            else:
                ctx.open("reward", [f["winner"]], "choice", loser=loser)
    elif stage == "end":
        st.frames.pop()
        ctx.public("fight_over", seat=a, target=d)


# -- riding decisions (pace) ---------------------------------------------------------------
# Decision (issue 9): every supporter is asked their declaration during the Priest window, and
# the winner's reward choice during the Doctor window. The window's holders never see them; they
# are applied and told only once the window closes, and dropped if the Priest stops the fight or
# the Doctor cancels it. A support declared ahead of its turn in the order is kept from everyone
# and may be changed until it is told: the moment every earlier one has been told (R-A3). Only
# the seat whose turn it is has a deadline. A reward not chosen by the window's end goes on as
# the winner's own question under its own deadline (counted from when it was first asked).
def _ride(kind: str, deadline: str, seats: list[int], **data: Any) -> Json:
    return {"seats": list(seats), "kind": kind, "deadline": deadline, "data": data}


def _open_window(ctx: Ctx, kind_: str, holders: list[int], ride: Json | None, **data: Any) -> None:
    actors = list(holders)
    if ride is not None:
        data["ride"] = ride
        actors += [s for s in ride_seats(ride) if s not in actors]
    ctx.open(kind_, actors, "window", window=True, **data)


def riders(p: Pending) -> list[int]:
    """The seats asked their own next decision inside window ``p``."""
    ride = p.data.get("ride")
    return [] if ride is None else ride_seats(ride)


def ride_seats(ride: Json) -> list[int]:
    """A ride's seats (a single "seat" in games stored before every supporter rode)."""
    return [int(s) for s in ride.get("seats", [ride.get("seat")])]


def support_turn(st: State) -> int | None:
    """R-A3: the supporter whose turn it is in the order (public), while supports are asked."""
    p = st.pending
    if p is None or not (p.kind == "support" or p.data.get("ride", {}).get("kind") == "support"):
        return None
    f = fight_on_top(st.frames)
    order, told = f["support_order"], f["supports_told"]
    return int(order[told]) if told < len(order) else None


def held_support(st: State, seat: int) -> str | None:
    """The declaration ``seat`` made ahead of its turn, not told yet (their own view only)."""
    if support_turn(st) is None:
        return None
    held = fight_on_top(st.frames).get("held_supports", {})
    return held.get(str(seat))


def awaited(st: State) -> list[int]:
    """Those the pending decision waits for (their deadline runs, their default is taken at
    it): every asked seat but the supporters asked ahead of their turn (R-A3, issue 9) and, in
    the Priest window, those who already declared or passed."""
    p = st.pending
    if p is None:
        return []
    turn = support_turn(st)
    if turn is None:
        return list(p.actors)
    f = fight_on_top(st.frames)
    held = f.get("held_supports", {})
    if not p.window:
        return [turn]
    ride, passed = set(riders(p)), f.get("priest_passed", [])
    return [
        s
        for s in p.actors
        if str(s) not in held
        and (s not in ride or s == turn or (s not in passed and holds_window(st, p, s)))
    ]


def holds_window(st: State, p: Pending, seat: int) -> bool:
    """The seat may use the occupation of window ``p`` (the Priest's or the Doctor's)."""
    return occupation_ready(st, seat, PRIEST if p.kind == "priest" else DOCTOR)


def publicly_unusable(st: State, occupation: str, seats: Iterable[int]) -> bool:
    """R-D1: a window is left out only when the face-up cards alone show that none of ``seats``
    can use ``occupation`` now — it lies face up and spent, or face up before another seat, or
    every one of ``seats`` shows another occupation. Whether a window opens then depends on
    public information only, like everything else the table sees of it."""
    seats = list(seats)
    for s, p in enumerate(st.players):
        if p.occ_up and p.occupation == occupation:
            return p.occ_spent or s not in seats
    return all(st.players[s].occ_up for s in seats)


def _nothing_to_cancel(st: State, f: FightFrame) -> bool:
    """R-A8 with R-D1: a tie with an empty draw pile has no effect a Doctor could cancel (no
    reward, no tie draw), as the table sees; its window is left out."""
    return f["winner"] is None and not st.pile


def _support_order(st: State, a: int, d: int) -> list[int]:
    """R-A3: from the attacker's left, clockwise, every other player."""
    return [s for s in ((a + i) % st.n for i in range(1, st.n)) if s != d]


def strengths(st: State, f: FightFrame) -> tuple[int, int]:
    """R-A6 for the fight being resolved."""
    face_up = [p.occupation if p.occ_up else None for p in st.players]
    return fight_strengths(
        f["attacker"], f["defender"], f["supports"], f["hypnotized"], f["played"], face_up
    )


def fight_strengths(
    attacker: int,
    defender: int,
    supports: dict[str, str],
    hypnotized: int | None,
    played: Iterable[Sequence[Any]],
    face_up: list[str | None],
) -> tuple[int, int]:
    """R-A6 from what the table sees: 1 + supporters + bonuses per side; a void support (the
    Hypnotist's, or any in a Duelist's fight) counts nothing and carries no bonus. ``face_up``
    holds each seat's face-up occupation (always-occupations apply by themselves, §6)."""
    duel = any(card == DUELIST for _, card, _ in played)
    att = dfn = 1
    for seat_s, side in supports.items():
        seat = int(seat_s)
        if duel or seat == hypnotized or side == NEUTRAL:
            continue
        bonus = 2 if face_up[seat] == BODYGUARD else 1
        if side == ATTACKER:
            att += bonus
        else:
            dfn += bonus
    att += face_up[attacker] == THUG
    dfn += face_up[defender] == GRAND_MASTER
    for seat, card, _ in played:
        if card == DAGGER:
            att += 1
        elif card == GLOVES:
            dfn += 1
        elif card == CASTING_KNIVES and not duel:
            att += 1
        elif card == WHIP and not duel:
            dfn += 1
        elif card == DUELIST:
            att, dfn = (att + 1, dfn) if seat == attacker else (att, dfn + 1)
    return att, dfn


def _result(ctx: Ctx, f: FightFrame) -> None:
    st = ctx.state
    a, d = f["attacker"], f["defender"]
    att, dfn = strengths(st, f)
    winner: int | None
    if f["mixer_side"] is not None:
        winner = a if f["mixer_side"] == ATTACKER else d
        how = "poison_mixer"
    elif att != dfn:
        winner = a if att > dfn else d
        how = "strength"
    else:
        ring = next((s for s, c, _ in f["played"] if c == POISON_RING and s in (a, d)), None)
        winner, how = (ring, "poison_ring") if ring is not None else (None, "tie")
    f["winner"] = winner
    ctx.public("fight_result", seat=a, target=d, attack=att, defence=dfn, winner=winner, how=how)


# -- Priest (R-A2) -----------------------------------------------------------------------------
def _legal_use_or_pass(st: State, p: Pending, seat: int) -> list[Action]:
    use_pass = [Action(ActionKind.USE, seat, p.id), Action(ActionKind.PASS, seat, p.id)]
    if seat not in riders(p):
        return use_pass
    ride = p.data["ride"]
    own = KINDS_RIDDEN[ride["kind"]](st, p, seat)
    if not holds_window(st, p, seat):
        return own
    # a supporter holding the Priest may also say "not now" to it, keeping its support open
    passed = fight_on_top(st.frames).get("priest_passed", [])
    if ride["kind"] == "support" and seat not in passed:
        return own + use_pass
    return own + use_pass[:1]


def _window_pass(p: Pending, seat: int) -> None:
    p.actors.remove(seat)
    p.done.append(seat)


def _occupation_window(
    once: bool, effect: Callable[[Ctx, FightFrame, Action], None]
) -> Callable[[Ctx, Pending, Action], None]:
    """Priest, Hypnotist, Doctor: a pass only leaves the window; a use reveals the occupation,
    closes the window and has its ``effect`` on the fight."""

    def handle(ctx: Ctx, p: Pending, a: Action) -> None:
        assert a.seat is not None
        f = fight_on_top(ctx.state.frames)
        supporter = a.seat in riders(p) and p.data["ride"]["kind"] == "support"
        if a.kind == "pass":
            if supporter:
                # not now for the Priest; still asked its support
                f.setdefault("priest_passed", []).append(a.seat)
            else:
                _window_pass(p, a.seat)
            return
        if supporter and a.kind == "support":  # kept, and open to change, till it is told
            assert a.choice is not None
            f.setdefault("held_supports", {})[str(a.seat)] = a.choice
            return
        if a.seat in riders(p) and a.kind != "use":  # the reward, kept till the close
            f["early_reward"] = a.kind
            _window_pass(p, a.seat)
            return
        ctx.close()
        f.pop("early_reward", None)
        if "held_supports" in f:
            f["held_supports"] = {}
        use_occupation(ctx, a.seat, once=once)
        effect(ctx, f, a)

    return handle


def _priest_stops(ctx: Ctx, f: FightFrame, a: Action) -> None:
    assert a.seat is not None
    ctx.public("priest_stopped", seat=a.seat, attacker=f["attacker"])
    f["stage"] = "priest_tribute"
    f["priest"] = a.seat


def _finish_window(ctx: Ctx, p: Pending) -> None:
    ctx.close()


def _finish_ridden_window(ctx: Ctx, p: Pending) -> None:
    """The window closes; its riders' decisions go on in the same decision (the same prompts):
    supports are told in order as far as they were declared, the rest asked on; a reward not
    chosen yet becomes the winner's own question."""
    ctx.close()
    f = fight_on_top(ctx.state.frames)
    ride = p.data.get("ride")
    if ride is None or (ride["kind"] == "reward" and "early_reward" in f):
        return
    p.kind, p.window, p.deadline = DecisionKind(ride["kind"]), False, ride["deadline"]
    p.actors, p.done, p.data = ride_seats(ride), [], dict(ride["data"])
    ctx.state.pending = p
    if p.kind == "support":
        _tell_supports(ctx, p, f)
    else:
        f["stage"] = "end"  # the reward is being chosen


def _default_pass(st: State, p: Pending, seat: int, rng: Rng) -> Action:
    return Action(ActionKind.PASS, seat, p.id)


def _legal_give(st: State, p: Pending, seat: int) -> list[Action]:
    return [Action(ActionKind.GIVE, seat, p.id, card=c) for c in st.players[seat].items]


def _handle_tribute(ctx: Ctx, p: Pending, a: Action) -> None:
    ctx.close()
    assert a.card is not None
    ctx.hand_over(a.card, p.actors[0], p.data["priest"], "priest")


# -- Support (R-A3) ----------------------------------------------------------------------------
def _legal_support(st: State, p: Pending, seat: int) -> list[Action]:
    return [Action(ActionKind.SUPPORT, seat, p.id, choice=c) for c in (ATTACKER, DEFENDER, NEUTRAL)]


def _handle_support(ctx: Ctx, p: Pending, a: Action) -> None:
    """The seat whose turn it is declares, told at once with every declaration after it that was
    made ahead of its turn; a declaration ahead of its turn is kept (and may be changed)."""
    f = fight_on_top(ctx.state.frames)
    assert a.seat is not None and a.choice is not None
    f.setdefault("held_supports", {})[str(a.seat)] = a.choice
    if a.seat == f["support_order"][f["supports_told"]]:
        _tell_supports(ctx, p, f)


def _tell_supports(ctx: Ctx, p: Pending, f: FightFrame) -> None:
    """R-A3: tell, in order, every declaration whose earlier ones are all told; when all are,
    support is over."""
    held = f.setdefault("held_supports", {})
    order = f["support_order"]
    while f["supports_told"] < len(order) and str(order[f["supports_told"]]) in held:
        seat = order[f["supports_told"]]
        side = held.pop(str(seat))
        f["supports"][str(seat)] = side
        f["supports_told"] += 1
        p.actors.remove(seat)
        ctx.public("support", seat=seat, side=side)
    if f["supports_told"] >= len(order):
        ctx.close()
        f["stage"] = "hypnotist"


def _default_support(st: State, p: Pending, seat: int, rng: Rng) -> Action:
    return Action(ActionKind.SUPPORT, seat, p.id, choice=NEUTRAL)


# -- Hypnotist (R-A4) --------------------------------------------------------------------------
def _legal_hypnotist(st: State, p: Pending, seat: int) -> list[Action]:
    f = fight_on_top(st.frames)
    fighters = (f["attacker"], f["defender"])
    return [
        Action(ActionKind.HYPNOTIZE, seat, p.id, target=t) for t in range(st.n) if t not in fighters
    ] + [Action(ActionKind.PASS, seat, p.id)]


def _hypnotist_voids(ctx: Ctx, f: FightFrame, a: Action) -> None:
    f["hypnotized"] = a.target
    ctx.public("hypnotized", seat=a.seat, target=a.target)


# -- Boost window (R-A5, R-A6, §6) -------------------------------------------------------------
def _legal_boost(st: State, p: Pending, seat: int) -> list[Action]:
    f = fight_on_top(st.frames)
    a, d = f["attacker"], f["defender"]
    side = None if f.get("duelist") is not None else f["supports"].get(str(seat))
    used = {c for s, c, _ in f["played"] if s == seat}
    acts = [Action(ActionKind.PASS, seat, p.id)]
    for card in st.players[seat].items:
        if card in used:
            continue
        if (
            (card == DAGGER and seat == a)
            or (card == GLOVES and seat == d)
            or (card == POISON_RING and seat in (a, d))
            or (card == CASTING_KNIVES and side == ATTACKER)
            or (card == WHIP and side == DEFENDER)
        ):
            acts.append(Action(ActionKind.PLAY, seat, p.id, card=card))
    me = st.players[seat]
    occ = me.occupation
    if not me.occ_up and (
        (occ == THUG and seat == a)
        or (occ == GRAND_MASTER and seat == d)
        or (occ == BODYGUARD and side in SIDES)
    ):
        acts.append(Action(ActionKind.PLAY, seat, p.id, card=occ))
    if occupation_ready(st, seat, DUELIST) and seat in (a, d) and f.get("duelist") is None:
        acts.append(Action(ActionKind.PLAY, seat, p.id, card=DUELIST))
    if occupation_ready(st, seat, POISON_MIXER) and seat not in (a, d):
        acts += [Action(ActionKind.PLAY, seat, p.id, card=POISON_MIXER, choice=c) for c in SIDES]
    return acts


def _handle_boost(ctx: Ctx, p: Pending, a: Action) -> None:
    assert (a.seat is not None and a.card is not None) or a.kind == "pass"
    seat = a.seat
    assert seat is not None
    if a.kind == "pass":
        _window_pass(p, seat)
        return
    st = ctx.state
    f = fight_on_top(st.frames)
    card = a.card
    assert card is not None
    f["played"].append([seat, card, a.choice])
    if card in (THUG, GRAND_MASTER, BODYGUARD):
        use_occupation(ctx, seat, once=False)
    elif card in (DUELIST, POISON_MIXER):
        use_occupation(ctx, seat, once=True)
    ctx.public("played", seat=seat, card=card, choice=a.choice)
    if card == DUELIST:
        f["duelist"] = seat
    if card == POISON_MIXER:
        f["mixer_side"] = a.choice
        ctx.close()  # Decision: the Poison Mixer closes the boost window
        return
    # What was played may change others' minds: everyone is asked again.
    p.actors = [s for s in range(st.n) if s != f["hypnotized"]]
    p.done = []


# -- Doctor (R-A8) -----------------------------------------------------------------------------
def _doctor_cancels(ctx: Ctx, f: FightFrame, a: Action) -> None:
    f["cancelled"] = True
    ctx.public("doctor_cancelled", seat=a.seat)


# -- Reward (R-A9) -----------------------------------------------------------------------------
def _legal_reward(st: State, p: Pending, seat: int) -> list[Action]:
    return [Action(ActionKind.LOOK, seat, p.id), Action(ActionKind.TAKE, seat, p.id)]


def _handle_reward(ctx: Ctx, p: Pending, a: Action) -> None:
    ctx.close()
    _reward(ctx, p.actors[0], p.data["loser"], a.kind)


def _reward(ctx: Ctx, winner: int, loser: int, choice: str) -> None:
    st = ctx.state
    ctx.public("reward", seat=winner, target=loser, choice=choice)
    if choice == "look":
        look_at_association(ctx, winner, loser, "fight", occupation=True)
        return
    items = list(st.players[loser].items)
    ctx.private((winner,), "items_seen", about=loser, cards=items, how="fight")
    ctx.note(winner, "saw_items", about=loser, cards=items, how="fight")
    if len(items) == 1:
        # Decision (pace): the loser's only item (their count is public) is no choice to ask
        # for: it is taken at once, and the winner is asked at once what to give back.
        _take(ctx, winner, loser, items[0])
        return
    ctx.open("reward_take", [winner], "choice", loser=loser)


def _default_reward(st: State, p: Pending, seat: int, rng: Rng) -> Action:
    return Action(ActionKind.LOOK, seat, p.id)


def _legal_take(st: State, p: Pending, seat: int) -> list[Action]:
    return [Action(ActionKind.TAKE, seat, p.id, card=c) for c in st.players[p.data["loser"]].items]


def _handle_take(ctx: Ctx, p: Pending, a: Action) -> None:
    ctx.close()
    assert a.card is not None
    _take(ctx, p.actors[0], p.data["loser"], a.card)


def _take(ctx: Ctx, winner: int, loser: int, card: str) -> None:
    """R-A9 (b): ``winner`` takes ``card`` from ``loser``; a loser left with nothing is given one
    of the winner's items back."""
    ctx.move_item(card, loser, winner)
    ctx.public("item_taken", seat=winner, target=loser)
    ctx.private((loser,), "item_lost", seat=loser, to=winner, card=card)
    ctx.note(winner, "got_item", about=loser, card=card, how="fight")
    ctx.note(loser, "gave_item", about=winner, card=card, how="fight")
    if not ctx.state.players[loser].items:
        ctx.open("giveback", [winner], "choice", loser=loser)


def _handle_giveback(ctx: Ctx, p: Pending, a: Action) -> None:
    ctx.close()
    assert a.card is not None
    ctx.hand_over(a.card, p.actors[0], p.data["loser"], "giveback")


KINDS_RIDDEN: dict[str, Callable[[State, Pending, int], list[Action]]] = {
    "support": _legal_support,
    "reward": _legal_reward,
}


def _default_in_window(st: State, p: Pending, seat: int, rng: Rng) -> Action:
    """A holder passes; a rider whose turn it is (deciding for an away player) takes its own
    question's default, told when the window closes."""
    if seat in riders(p):
        if p.data["ride"]["kind"] == "reward":
            return _default_reward(st, p, seat, rng)
        if seat == support_turn(st) and held_support(st, seat) is None:
            return _default_support(st, p, seat, rng)
    return _default_pass(st, p, seat, rng)


KINDS = {
    DecisionKind.PRIEST: Kind(
        _legal_use_or_pass,
        _occupation_window(True, _priest_stops),
        _default_in_window,
        _finish_ridden_window,
    ),
    DecisionKind.PRIEST_TRIBUTE: Kind(_legal_give, _handle_tribute, random_of(_legal_give)),
    DecisionKind.SUPPORT: Kind(_legal_support, _handle_support, _default_support),
    DecisionKind.HYPNOTIST: Kind(
        _legal_hypnotist, _occupation_window(False, _hypnotist_voids), _default_pass, _finish_window
    ),
    DecisionKind.BOOST: Kind(_legal_boost, _handle_boost, _default_pass, _finish_window),
    DecisionKind.DOCTOR: Kind(
        _legal_use_or_pass,
        _occupation_window(True, _doctor_cancels),
        _default_in_window,
        _finish_ridden_window,
    ),
    DecisionKind.REWARD: Kind(_legal_reward, _handle_reward, _default_reward),
    DecisionKind.REWARD_TAKE: Kind(_legal_take, _handle_take, random_of(_legal_take)),
    DecisionKind.GIVEBACK: Kind(_legal_give, _handle_giveback, random_of(_legal_give)),
}
STEPS: dict[str, Step] = {"fight": step_fight}
