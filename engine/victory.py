"""R-W1…R-W7 and §7 personal scores: claims end the game."""

from __future__ import annotations

from engine.cards import ASSOCIATIONS, BLACK_PEARL, COAT_OF_ARMS
from engine.core import Ctx, goal_count
from engine.state import Json, State, other_association


def association_sizes(st: State) -> dict[str, int]:
    sizes = dict.fromkeys(ASSOCIATIONS, 0)
    for p in st.players:
        sizes[p.association] += 1
    return sizes


def is_real_minority(st: State, assoc: str) -> bool:
    sizes = association_sizes(st)
    return sizes[assoc] < sizes[other_association(assoc)]


def holds_pearl(st: State, seat: int) -> bool:
    return BLACK_PEARL in st.players[seat].items


def can_claim(st: State, seat: int) -> bool:
    """R-W1: a goal item of your association in hand and no Black Pearl."""
    p = st.players[seat]
    return not holds_pearl(st, seat) and goal_count(st, p.items, p.association) >= 1


def can_claim_other(st: State, seat: int) -> bool:
    """R-W7: Fortune-telling, never with the Black Pearl."""
    return bool(st.options["fortune_telling"]) and not holds_pearl(st, seat)


def solo_count(st: State, items: list[str]) -> int:
    return sum(goal_count(st, items, a) for a in ASSOCIATIONS)


def can_claim_solo(st: State, seat: int) -> bool:
    """R-W5 with the decision that the bot offers the solo win only when it holds."""
    items = st.players[seat].items
    return COAT_OF_ARMS in items and not holds_pearl(st, seat) and solo_count(st, items) >= 3


CLAIM_NEEDS = 3  # goal items (R-W3)


def claim_tally(st: State, declarer: int, named: list[int], side: str, *, own_drink: bool) -> Json:
    """R-W3 counting for ``side``, seat by seat, as the table sees it once everything is revealed
    (R-V3): each counted seat's goal items and whether it is in ``side``; the declarer's own hand
    counts only when ``own_drink`` is set for their own claim, and then their Drink (R-W4) counts
    if their association is the real minority (``drink``: None without a Drink). ``why`` says
    why it fails: ``not_ally`` (a named player is not of ``side``), ``none`` (a named ally holds
    no goal item), ``short`` (fewer than three), or None."""
    counted = ([declarer] if own_drink else []) + list(named)
    seats = [
        {
            "seat": seat,
            "goal": goal_count(st, st.players[seat].items, side),
            "ally": st.players[seat].association == side,
        }
        for seat in counted
    ]
    drink = None
    if own_drink and st.players[declarer].drink:
        drink = is_real_minority(st, side)
    total = sum(x["goal"] for x in seats if x["ally"]) + bool(drink)
    named_seats = [x for x in seats if x["seat"] in named]
    if not all(x["ally"] for x in named_seats):
        why = "not_ally"  # a named player is not of the side
    elif not all(x["goal"] >= 1 for x in named_seats):
        why = "none"  # a named ally holds no goal item
    elif total < CLAIM_NEEDS:
        why = "short"
    else:
        why = None
    return {
        "side": side,
        "seats": seats,
        "drink": drink,
        "total": total,
        "needed": CLAIM_NEEDS,
        "held": why is None,
        "why": why,  # why it fails, None when it holds (issue 25: said in words)
    }


def team_claim_holds(
    st: State, declarer: int, named: list[int], side: str, *, own_drink: bool
) -> bool:
    """R-W3 counting for ``side``; the declarer's own hand counts only when ``own_drink`` is set
    for their own claim (R-W4 adds their Drink when their association is the real minority)."""
    return bool(claim_tally(st, declarer, named, side, own_drink=own_drink)["held"])


def _reveal(ctx: Ctx, seats: list[int]) -> None:
    st = ctx.state
    for seat in seats:
        p = st.players[seat]
        ctx.public(
            "revealed",
            seat=seat,
            assoc=list(p.assoc),
            association=p.association,
            items=list(p.items),
        )
        for other in range(st.n):
            if other != seat:
                ctx.note(other, "revealed", about=seat, assoc=list(p.assoc), items=list(p.items))


def claim(ctx: Ctx, declarer: int, named: list[int]) -> None:
    st = ctx.state
    side = st.players[declarer].association
    ctx.public("claim", seat=declarer, named=list(named))
    _reveal(ctx, [declarer, *named])
    tally = claim_tally(st, declarer, named, side, own_drink=True)
    ctx.public("claim_count", seat=declarer, **tally)
    held = tally["held"]
    winner = side if held else other_association(side)
    finish(ctx, "claim" if held else "claim_failed", declarer, winner, named)


def claim_other(ctx: Ctx, declarer: int, named: list[int]) -> None:
    st = ctx.state
    mine = st.players[declarer].association
    theirs = other_association(mine)
    ctx.public("claim_other", seat=declarer, named=list(named))
    _reveal(ctx, [declarer, *named])
    tally = claim_tally(st, declarer, named, theirs, own_drink=False)
    ctx.public("claim_count", seat=declarer, **tally)
    held = tally["held"]
    winner = mine if held else theirs
    finish(ctx, "fortune" if held else "fortune_failed", declarer, winner, named)


def claim_solo(ctx: Ctx, declarer: int) -> None:
    ctx.public("claim_solo", seat=declarer)
    _reveal(ctx, [declarer])
    finish(ctx, "solo", declarer, None, [])


def scores(st: State, how: str, declarer: int, winners: list[int]) -> list[int]:
    """§7 personal scores."""
    result = [0] * st.n
    if how == "solo":
        result[declarer] = 4
        return result
    if how in ("claim_failed", "fortune_failed"):
        for seat in winners:
            result[seat] = 2
        return result
    for seat in winners:
        p = st.players[seat]
        if seat == declarer:
            result[seat] = 5 if goal_count(st, p.items, p.association) >= 3 else 3
        else:
            result[seat] = 2 if goal_count(st, p.items, p.association) >= 1 else 1
    return result


def finish(
    ctx: Ctx, how: str, declarer: int | None, winner_side: str | None, named: list[int]
) -> None:
    """End the game, reveal everything (R-V3)."""
    st = ctx.state
    if how == "solo" and declarer is not None:
        winners = [declarer]
    elif winner_side is None:
        winners = []
    else:
        winners = [s for s in range(st.n) if st.players[s].association == winner_side]
    result: Json = {
        "how": how,
        "declarer": declarer,
        "named": list(named),
        "side": winner_side,
        "winners": winners,
        "round": st.round,
    }
    if st.options["personal_scores"] and declarer is not None:
        result["scores"] = scores(st, how, declarer, winners)
    st.result = result
    st.frames.clear()
    st.pending = None
    ctx.public(
        "game_over",
        **result,
        reveal=[
            {
                "seat": s,
                "assoc": list(p.assoc),
                "association": p.association,
                "occupation": p.occupation,
                "items": list(p.items),
                "goal": goal_count(st, p.items, p.association),
            }
            for s, p in enumerate(st.players)
        ],
        boxed_assoc=list(st.boxed_assoc),
    )
