"""§4 the turn: one action (pass, trade, attack, claim) plus the free uses Diplomat and
Clairvoyant, before or after the action.

R-D1 (issue 8): a free use is offered inside the turn's own decision, under its deadline, with
the action. After the action the turn waits for it only when the occupation is face up: a wait
for a face-down Diplomat or Clairvoyant would show the table who holds one, so then the turn
ends with the action, as it does for a player without one."""

from __future__ import annotations

from typing import Any

import engine.victory as victory
from engine.actions import Action
from engine.cards import (
    ALL_ITEMS,
    BAG_NAME,
    BAGS,
    CLAIRVOYANT,
    DIPLOMAT,
    item_kind,
)
from engine.core import (
    Ctx,
    Kind,
    Step,
    bags_are_goals,
    occupation_ready,
    random_of,
    use_occupation,
)
from engine.frames import Frame, TurnFrame, turn_on_top
from engine.kinds import ActionKind, DecisionKind
from engine.rng import Rng
from engine.state import Pending, State

GOAL_BAG = {"key": "bag_key", "goblet": "bag_goblet"}
# A turn's actions that may be chosen ahead (engine.premove): free uses wait for the turn itself.
AHEAD_KINDS = frozenset({"pass", "trade", "attack", "claim", "claim_other", "solo"})
CLAIM_KINDS = frozenset({"claim", "claim_other"})


def step_turn(ctx: Ctx, f: Frame) -> None:
    assert f["kind"] == "turn"
    st = ctx.state
    stage = f["stage"]
    if stage == "start":
        if all(p.away for p in st.players):
            victory.finish(ctx, "abandoned", None, None, [])
            return
        if st.turn_no // st.n + 1 > st.options["max_rounds"]:  # the round this turn opens
            victory.finish(ctx, "exhausted", None, None, [])
            return
        st.turn = f["seat"]
        st.turn_no += 1
        kept = f.get("premove")
        if kept is not None and kept["seat"] == f["seat"]:  # stored before "chosen" existed
            f["chosen"] = f.pop("premove")
        ctx.public("turn", seat=f["seat"], round=st.round)
        f["stage"] = "act"
    if f["stage"] == "act":
        p = ctx.open("turn", [f["seat"]], "turn", acted=False)
        held = f.pop("chosen", None)  # this seat's own choice, made ahead in the turn before
        keep = f.pop("chosen_keep", False)
        if held is not None:
            _play_premove(ctx, p, f, held, keep)
        elif "kept" in f and why_not(st, p, f["kept"]) is None:
            p.data["kept"] = f["kept"]  # reopened after a free use: the choice still one tap
    elif f["stage"] == "after":
        if free_uses(st, f["seat"]) and st.players[f["seat"]].occ_up:
            ctx.open("turn", [f["seat"]], "turn", acted=True)
        else:
            f["stage"] = "end"
    elif f["stage"] == "end":
        st.frames.pop()
        nxt: TurnFrame = {"kind": "turn", "seat": (f["seat"] + 1) % st.n, "stage": "start"}
        if "premove" in f:
            nxt["chosen"] = f["premove"]  # chosen ahead (engine.premove), played as it opens
            if f.get("premove_keep"):
                nxt["chosen_keep"] = True
        st.frames.append(nxt)


def _play_premove(ctx: Ctx, p: Pending, f: TurnFrame, held: dict[str, Any], keep: bool) -> None:
    """The action chosen ahead is played as the turn opens, if the cards still allow it (checked
    as a press would be); otherwise it is dropped, the player told why, and the turn is asked as
    usual. A player who asked to keep a face-down Diplomat or Clairvoyant (``keep``, engine.
    premove) and still may use it is asked instead, the choice ready as one tap (the table sees
    a turn asked, as for anyone who chose nothing ahead). Only the player hears which."""
    st = ctx.state
    seat = p.actors[0]
    why = why_not(st, p, held)
    if why is not None:
        ctx.private((seat,), "premove_dropped", seat=seat, action=held, why=why)
        return
    if keep and face_down_uses(st, seat):
        f["kept"] = held
        p.data["kept"] = held
        ctx.private((seat,), "premove_kept", seat=seat, action=held)
        return
    ctx.private((seat,), "premove_played", seat=seat, action=held)
    _handle_turn(ctx, p, Action.from_dict({**held, "decision": p.id}))


def why_not(st: State, p: Pending, held: dict[str, Any]) -> str | None:
    """Why the turn's action ``held`` (chosen ahead) may not be played on the turn ``p``, or
    None when it may: ``card`` (the traded item is no longer in the hand), ``claim`` (the
    declaration no longer holds), ``cards`` (anything else the cards changed)."""
    seat = p.actors[0]
    action = Action.from_dict({**held, "decision": p.id})
    if action.seat == seat and allowed(action, ahead_actions(st, p, seat), st.n):
        return None
    if action.kind == "trade" and action.card not in st.players[seat].items:
        return "card"
    return "claim" if action.kind in CLAIM_KINDS or action.kind == "solo" else "cards"


def face_down_uses(st: State, seat: int) -> list[str]:
    """The free uses ``seat`` still has with its occupation face down: choosing its turn ahead
    gives them up for that turn unless it asks to keep them (engine.premove), as the turn does
    not wait after the action for a face-down occupation (R-D1)."""
    return [] if st.players[seat].occ_up else free_uses(st, seat)


def free_uses(st: State, seat: int) -> list[str]:
    uses = []
    if occupation_ready(st, seat, DIPLOMAT):
        uses.append(DIPLOMAT)
    if occupation_ready(st, seat, CLAIRVOYANT) and st.pile:
        uses.append(CLAIRVOYANT)
    return uses


def diplomat_names(st: State) -> list[str]:
    """Item names a Diplomat may ask for: kinds in this game, Bags as one name while hidden."""
    present = {item_kind(c) for c in ALL_ITEMS if c not in st.removed}
    names = sorted(k for k in present if k not in BAGS)
    if not bags_are_goals(st):
        names.append(BAG_NAME)
    return names


def matching_card(st: State, seat: int, name: str) -> str | None:
    """The card ``seat`` must hand to a Diplomat asking for ``name`` (real goal items first)."""
    items = st.players[seat].items
    if name == BAG_NAME:
        return next((c for c in items if c in BAGS), None)
    exact = next((c for c in items if item_kind(c) == name), None)
    bag = GOAL_BAG.get(name)
    if exact is None and bag in items and bags_are_goals(st):
        return bag
    return exact


def legal_turn_actions(st: State, p: Pending, seat: int) -> list[Action]:
    me = st.players[seat]
    d = p.id
    others = [s for s in range(st.n) if s != seat]
    acts: list[Action] = []
    if not p.data["acted"]:
        acts.append(Action(ActionKind.PASS, seat, d))
        acts += [
            Action(ActionKind.TRADE, seat, d, target=t, card=c) for t in others for c in me.items
        ]
        acts += [Action(ActionKind.ATTACK, seat, d, target=t) for t in others]
        if victory.can_claim(st, seat):
            acts.append(
                Action(ActionKind.CLAIM, seat, d)
            )  # the allies are any subset of the others
        if victory.can_claim_other(st, seat):
            acts.append(Action(ActionKind.CLAIM_OTHER, seat, d))
        if victory.can_claim_solo(st, seat):
            acts.append(Action(ActionKind.SOLO, seat, d))
    else:
        acts.append(Action(ActionKind.END, seat, d))
    uses = free_uses(st, seat)
    if DIPLOMAT in uses:
        only_bags = all(c in BAGS for c in me.items)
        for name in diplomat_names(st):
            if name == BAG_NAME and only_bags:
                continue  # R-T3: nothing to give back for the other Bag
            acts += [Action(ActionKind.DIPLOMAT, seat, d, target=t, card=name) for t in others]
    if CLAIRVOYANT in uses:
        acts.append(Action(ActionKind.CLAIRVOYANT, seat, d))
    return acts


def _handle_turn(ctx: Ctx, p: Pending, a: Action) -> None:
    st = ctx.state
    seat = p.actors[0]
    f = turn_on_top(st.frames)
    ctx.close()
    if a.kind in AHEAD_KINDS:
        f.pop("kept", None)
    if a.kind in ("pass", "end"):
        if a.kind == "pass":
            ctx.public("passed", seat=seat)
        f["stage"] = "after" if a.kind == "pass" else "end"
    elif a.kind == "trade":
        assert a.target is not None and a.card is not None
        f["stage"] = "after"
        ctx.public("trade_offered", seat=seat, target=a.target)
        st.frames.append(
            {
                "kind": "trade",
                "trader": seat,
                "partner": a.target,
                "trader_card": a.card,
                "partner_card": None,
                "forced": False,
                "stage": "offer",
            }
        )
    elif a.kind == "attack":
        assert a.target is not None
        f["stage"] = "after"
        ctx.public("attack", seat=seat, target=a.target)
        st.frames.append(
            {"kind": "fight", "attacker": seat, "defender": a.target, "stage": "priest"}
        )
    elif a.kind == "claim":
        victory.claim(ctx, seat, list(a.seats))
    elif a.kind == "claim_other":
        victory.claim_other(ctx, seat, list(a.seats))
    elif a.kind == "solo":
        victory.claim_solo(ctx, seat)
    elif a.kind == "diplomat":
        _diplomat(ctx, seat, a, f)
    elif a.kind == "clairvoyant":
        use_occupation(ctx, seat, once=True)
        ctx.note(seat, "saw_pile", cards=list(reversed(st.pile)))
        ctx.private((seat,), "pile_seen", cards=list(reversed(st.pile)))
        ctx.open("clairvoyant", [seat], "choice")


def _diplomat(ctx: Ctx, seat: int, a: Action, f: TurnFrame) -> None:
    st = ctx.state
    assert a.target is not None and a.card is not None
    use_occupation(ctx, seat, once=True)
    ctx.public("diplomat", seat=seat, target=a.target, name=a.card)
    card = matching_card(st, a.target, a.card)
    if card is None:
        items = list(st.players[a.target].items)
        ctx.public("diplomat_missed", seat=seat, target=a.target)
        ctx.private((seat,), "items_seen", about=a.target, cards=items, how="diplomat")
        ctx.note(seat, "saw_items", about=a.target, cards=items, how="diplomat")
        f["stage"] = "end"  # the turn ends at once, an action not yet taken is lost
        return
    ctx.open("diplomat_give", [seat], "choice", target=a.target, receive=card)


def ahead_actions(st: State, p: Pending, seat: int) -> list[Action]:
    """The turn's actions that may be chosen ahead (engine.premove): no free use."""
    return [a for a in legal_turn_actions(st, p, seat) if a.kind in AHEAD_KINDS]


def allowed(action: Action, options: list[Action], n: int) -> bool:
    """``action`` is one of ``options`` (a team claim with any distinct other seats)."""
    if action.kind in CLAIM_KINDS:
        probe = Action(action.kind, action.seat, action.decision)
        seats = action.seats
        return (
            probe in options
            and len(set(seats)) == len(seats)
            and all(s != action.seat and 0 <= s < n for s in seats)
        )
    return action in options


def _default_turn(st: State, p: Pending, seat: int, rng: Rng) -> Action:
    return Action(ActionKind.END if p.data["acted"] else ActionKind.PASS, seat, p.id)


def _legal_diplomat_give(st: State, p: Pending, seat: int) -> list[Action]:
    receive = p.data["receive"]
    no_bags = receive in BAGS and not bags_are_goals(st)  # R-T3
    return [
        Action(ActionKind.GIVE, seat, p.id, card=c)
        for c in st.players[seat].items
        if not (no_bags and c in BAGS)
    ]


def _handle_diplomat_give(ctx: Ctx, p: Pending, a: Action) -> None:
    ctx.close()
    seat = p.actors[0]
    assert a.card is not None
    ctx.state.frames.append(
        {
            "kind": "trade",
            "trader": seat,
            "partner": p.data["target"],
            "trader_card": a.card,
            "partner_card": p.data["receive"],
            "forced": True,
            "stage": "swap",
        }
    )


def _legal_clairvoyant(st: State, p: Pending, seat: int) -> list[Action]:
    top_first = list(reversed(st.pile))
    if len(top_first) == 1:
        return [Action(ActionKind.ORDER, seat, p.id, cards=(top_first[0],))]
    return [
        Action(ActionKind.ORDER, seat, p.id, cards=(x, y))
        for x in top_first
        for y in top_first
        if x != y
    ]


def _handle_clairvoyant(ctx: Ctx, p: Pending, a: Action) -> None:
    """Chosen cards go on top in the chosen order (first = top); the rest are shuffled."""
    st = ctx.state
    ctx.close()
    rest = [c for c in st.pile if c not in a.cards]
    ctx.rng.shuffle(rest)
    st.pile = rest + list(reversed(a.cards))
    ctx.public("pile_arranged", seat=a.seat)
    ctx.note(p.actors[0], "stacked_pile", cards=list(a.cards))


def _default_clairvoyant(st: State, p: Pending, seat: int, rng: Rng) -> Action:
    top_first = list(reversed(st.pile))
    return Action(ActionKind.ORDER, seat, p.id, cards=tuple(top_first[:2]))


KINDS = {
    DecisionKind.TURN: Kind(legal_turn_actions, _handle_turn, _default_turn),
    DecisionKind.DIPLOMAT_GIVE: Kind(
        _legal_diplomat_give, _handle_diplomat_give, random_of(_legal_diplomat_give)
    ),
    DecisionKind.CLAIRVOYANT: Kind(_legal_clairvoyant, _handle_clairvoyant, _default_clairvoyant),
}
STEPS: dict[str, Step] = {"turn": step_turn}
