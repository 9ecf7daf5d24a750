"""R-T1…R-T9: trades, their refusals, and the trade effects in order."""

from __future__ import annotations

from typing import Any

from engine.actions import Action
from engine.cards import (
    BAG_NAME,
    BAGS,
    BROKEN_MIRROR,
    MONOCLE,
    PRIVILEGE,
    TRADE_EFFECT_ITEMS,
    UNREFUSABLE_ITEMS,
    item_kind,
)
from engine.core import Ctx, Kind, Step, bags_are_goals, random_of
from engine.frames import Frame, TradeFrame, trade_on_top
from engine.kinds import ActionKind, DecisionKind
from engine.looks import look_at_association
from engine.rng import Rng
from engine.state import Pending, State


def step_trade(ctx: Ctx, f: Frame) -> None:
    assert f["kind"] == "trade"
    st = ctx.state
    stage = f["stage"]
    if stage == "offer":
        a, b, card = f["trader"], f["partner"], f["trader_card"]
        ctx.private((b,), "offered", seat=a, target=b, card=card)
        ctx.note(b, "saw_item", about=a, card=card, how="offer")
        ctx.open("trade_answer", [b], "trade", seat=a, card=card)
        f["stage"] = "swap"
    elif stage == "swap":
        _swap(ctx, f)
    elif stage == "smuggle":
        _announce(ctx, f)
    elif stage == "resolve":
        if f["effects_done"] < len(f["effects"]):
            giver, card, partner = f["effects"][f["effects_done"]]
            f["effects_done"] += 1
            resolve_effect(ctx, giver, card, partner)
        else:
            st.frames.pop()


def _swap(ctx: Ctx, f: TradeFrame) -> None:
    st = ctx.state
    a, b, ca, cb = f["trader"], f["partner"], f["trader_card"], f["partner_card"]
    assert cb is not None  # answered (or forced) before the swap
    ctx.move_item(ca, a, b)
    ctx.move_item(cb, b, a)
    ctx.public("trade_done", seat=a, target=b, forced=f["forced"])
    ctx.private((a,), "received", seat=a, source=b, card=cb, how="trade")
    ctx.private((b,), "received", seat=b, source=a, card=ca, how="trade")
    if f["forced"]:  # a Diplomat took it: the victim is told what went, not only what came
        ctx.private((b,), "item_lost", seat=b, to=a, card=cb)
    ctx.note(a, "got_item", about=b, card=cb, how="trade")
    ctx.note(a, "gave_item", about=b, card=ca, how="trade")
    ctx.note(b, "got_item", about=a, card=ca, how="trade")
    ctx.note(b, "gave_item", about=a, card=cb, how="trade")  # chosen or forced (issue 25)
    fire: list[list[Any]] = []
    if BROKEN_MIRROR not in (ca, cb):  # R-T6: a Mirror trade is silent
        if has_trade_effect(st, ca):
            fire.append([a, ca, b])
        if has_trade_effect(st, cb):
            fire.append([b, cb, a])
    f["effects"] = fire
    f["effects_done"] = 0
    f["stage"] = "smuggle"
    if st.options["smuggling"]:
        # R-T9 with R-D1: every trade has the window, so skipping an effect is indistinguishable
        # from having none.
        givers = sorted({int(g) for g, _, _ in fire})
        ctx.open("smuggle", givers, "window", window=True, skip=[])


def has_trade_effect(st: State, card: str) -> bool:
    """R-T8. A Secret Bag fires only while the pile has cards: once it is empty the Bag *is* its
    goal item (R-W2) and trades like one (R-T3), silently (R-T7), telling nobody what it is."""
    kind_ = item_kind(card)
    if kind_ in BAGS:
        return not bags_are_goals(st)
    return kind_ in TRADE_EFFECT_ITEMS


def _announce(ctx: Ctx, f: TradeFrame) -> None:
    """R-T5: each receiver names the item whose effect fires; the givers resolve them in order."""
    if f["effects"]:
        ctx.public(
            "effects",
            items=[
                {"giver": g, "receiver": r, "item": _public_name(c)} for g, c, r in f["effects"]
            ],
        )
    f["stage"] = "resolve"


def _public_name(card: str) -> str:
    """R-V1 names the item; which of the two Secret Bags it is stays secret (R-V2)."""
    return BAG_NAME if card in BAGS else item_kind(card)


def resolve_effect(ctx: Ctx, giver: int, card: str, partner: int) -> None:
    """R-T8 for the item ``card`` that ``giver`` traded to ``partner``."""
    st = ctx.state
    k = item_kind(card)
    if k in BAGS:
        ctx.draw(giver, "bag")
    elif k == PRIVILEGE:
        items = list(st.players[partner].items)
        ctx.private((giver,), "items_seen", about=partner, cards=items, how="privilege")
        ctx.note(giver, "saw_items", about=partner, cards=items, how="privilege")
    elif k == MONOCLE:
        look_at_association(ctx, giver, partner, "monocle", occupation=False)
    elif k == "tome":
        ctx.open("tome", [giver], "choice", partner=partner)
    elif k == "coat":
        if st.occ_deck:
            deck = sorted(st.occ_deck)
            ctx.private((giver,), "deck_seen", cards=deck)
            ctx.note(giver, "saw_deck", cards=deck)
            ctx.open("coat", [giver], "choice")
        else:
            ctx.public("coat_empty", seat=giver)
    elif k == "sextant":
        ctx.open("sextant_dir", [giver], "choice")


# -- the answer to an offer (R-T1…R-T3) ------------------------------------------------------
def _legal_answer(st: State, p: Pending, seat: int) -> list[Action]:
    offered = p.data["card"]
    no_bags = offered in BAGS and not bags_are_goals(st)  # R-T3
    acts = [
        Action(ActionKind.ACCEPT, seat, p.id, card=c)
        for c in st.players[seat].items
        if not (no_bags and c in BAGS)
    ]
    if offered not in UNREFUSABLE_ITEMS:  # R-T2
        acts.append(Action(ActionKind.REFUSE, seat, p.id))
    return acts


def _handle_answer(ctx: Ctx, p: Pending, a: Action) -> None:
    st = ctx.state
    f = trade_on_top(st.frames)
    ctx.close()
    if a.kind == "refuse":
        ctx.public("trade_refused", seat=f["trader"], target=f["partner"])
        st.frames.pop()
        return
    f["partner_card"] = a.card
    ctx.public("trade_accepted", seat=f["trader"], target=f["partner"])


def _default_answer(st: State, p: Pending, seat: int, rng: Rng) -> Action:
    if p.data["card"] not in UNREFUSABLE_ITEMS:
        return Action(ActionKind.REFUSE, seat, p.id)
    return random_of(_legal_answer)(st, p, seat, rng)


# -- Smuggling window (R-T9) -----------------------------------------------------------------
def _legal_smuggle(st: State, p: Pending, seat: int) -> list[Action]:
    return [Action(ActionKind.USE, seat, p.id), Action(ActionKind.SKIP, seat, p.id)]


def _handle_smuggle(ctx: Ctx, p: Pending, a: Action) -> None:
    assert a.seat is not None
    if a.kind == "skip":
        p.data["skip"].append(a.seat)
    p.actors.remove(a.seat)
    p.done.append(a.seat)


def _finish_smuggle(ctx: Ctx, p: Pending) -> None:
    f = trade_on_top(ctx.state.frames)
    f["effects"] = [e for e in f["effects"] if e[0] not in p.data["skip"]]
    ctx.close()


def _default_smuggle(st: State, p: Pending, seat: int, rng: Rng) -> Action:
    return Action(ActionKind.USE, seat, p.id)


# -- Tome, Coat --------------------------------------------------------------------------------
def _legal_tome(st: State, p: Pending, seat: int) -> list[Action]:
    return [Action(ActionKind.SWAP, seat, p.id), Action(ActionKind.SKIP, seat, p.id)]


def _handle_tome(ctx: Ctx, p: Pending, a: Action) -> None:
    st = ctx.state
    ctx.close()
    giver, partner = p.actors[0], p.data["partner"]
    if a.kind == "skip":
        ctx.public("tome_kept", seat=giver, target=partner)
        return
    g, q = st.players[giver], st.players[partner]
    g.occupation, q.occupation = q.occupation, g.occupation
    for pl in (g, q):
        pl.occ_up = False
        pl.occ_spent = False
    ctx.public("tome_swapped", seat=giver, target=partner)
    for me, other in ((giver, partner), (partner, giver)):
        occ = st.players[me].occupation
        ctx.private((me,), "occupation_received", seat=me, source=other, occupation=occ)
        ctx.note(me, "saw_occupation", about=other, occupation=occ, how="tome_had")


def _legal_coat(st: State, p: Pending, seat: int) -> list[Action]:
    return [Action(ActionKind.TAKE, seat, p.id, card=o) for o in sorted(st.occ_deck)] + [
        Action(ActionKind.SKIP, seat, p.id)
    ]


def _handle_coat(ctx: Ctx, p: Pending, a: Action) -> None:
    st = ctx.state
    ctx.close()
    seat = p.actors[0]
    if a.kind == "skip" or a.card is None:
        ctx.public("coat_kept", seat=seat)
        return
    me = st.players[seat]
    st.occ_deck.remove(a.card)
    st.occ_deck.append(me.occupation)
    me.occupation = a.card
    me.occ_up = False
    me.occ_spent = False
    ctx.public("coat_swapped", seat=seat)
    ctx.private((seat,), "occupation_taken", seat=seat, occupation=a.card)


def _default_skip(st: State, p: Pending, seat: int, rng: Rng) -> Action:
    return Action(ActionKind.SKIP, seat, p.id)


# -- Sextant -----------------------------------------------------------------------------------
def _legal_direction(st: State, p: Pending, seat: int) -> list[Action]:
    return [Action(ActionKind.DIRECTION, seat, p.id, choice=c) for c in ("left", "right")]


def _handle_direction(ctx: Ctx, p: Pending, a: Action) -> None:
    st = ctx.state
    ctx.close()
    ctx.public("sextant", seat=p.actors[0], direction=a.choice)
    ctx.open("sextant_pass", list(range(st.n)), "choice", direction=a.choice, chosen={})


def _default_direction(st: State, p: Pending, seat: int, rng: Rng) -> Action:
    return Action(ActionKind.DIRECTION, seat, p.id, choice="left")


def _legal_pass(st: State, p: Pending, seat: int) -> list[Action]:
    return [Action(ActionKind.GIVE, seat, p.id, card=c) for c in st.players[seat].items]


def _handle_pass(ctx: Ctx, p: Pending, a: Action) -> None:
    """Everyone chooses at once; the passes happen together once all have chosen."""
    assert a.seat is not None
    st = ctx.state
    p.data["chosen"][str(a.seat)] = a.card
    p.actors.remove(a.seat)
    p.done.append(a.seat)
    if p.actors:
        return
    ctx.close()
    step_ = 1 if p.data["direction"] == "left" else -1
    chosen = {int(s): c for s, c in p.data["chosen"].items()}
    for seat, card in chosen.items():
        st.players[seat].items.remove(card)
    for seat, card in chosen.items():
        to = (seat + step_) % st.n
        st.players[to].items.append(card)
        ctx.private((to,), "received", seat=to, source=seat, card=card, how="sextant")
        ctx.note(to, "got_item", about=seat, card=card, how="sextant")
        ctx.note(seat, "gave_item", about=to, card=card, how="sextant")
    ctx.public("sextant_passed", direction=p.data["direction"])


KINDS = {
    DecisionKind.TRADE_ANSWER: Kind(_legal_answer, _handle_answer, _default_answer),
    DecisionKind.SMUGGLE: Kind(_legal_smuggle, _handle_smuggle, _default_smuggle, _finish_smuggle),
    DecisionKind.TOME: Kind(_legal_tome, _handle_tome, _default_skip),
    DecisionKind.COAT: Kind(_legal_coat, _handle_coat, _default_skip),
    DecisionKind.SEXTANT_DIR: Kind(_legal_direction, _handle_direction, _default_direction),
    DecisionKind.SEXTANT_PASS: Kind(_legal_pass, _handle_pass, random_of(_legal_pass)),
}
STEPS: dict[str, Step] = {"trade": step_trade}
