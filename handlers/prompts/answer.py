"""The line that replaces a prompt's buttons once answered: what the player chose."""

from __future__ import annotations

from typing import TypedDict

from engine.actions import Action, action_of
from engine.cards import ALL_ITEMS, OCCUPATIONS
from engine.kinds import ActionKind, DecisionKind
from engine.view_types import ActionDict, OwnDecision, PublicView
from handlers import fmt
from handlers.card_labels import card_label, occupation_label
from handlers.i18n import t

_ITEMS = frozenset(ALL_ITEMS)
# A decision asked during a window (engine.fight's riders) -> the window, whose occupation its
# holder may use instead of answering.


class Seated(TypedDict):
    """Who is told, and the table (a seat's view is one)."""

    seat: int
    table: PublicView


class Answering(TypedDict):
    """What an answer is worded from: who answers, the table, the decision answered (a seat's
    view before the answer is one)."""

    seat: int
    table: PublicView
    decision: OwnDecision | None


_USED_DURING: dict[str, str] = {DecisionKind.SUPPORT: "priest", DecisionKind.REWARD: "doctor"}


def _card(lang: str, card: str | None) -> str:
    if card is None:
        return ""
    if card in OCCUPATIONS:
        return occupation_label(lang, card)
    if card in _ITEMS:
        return card_label(lang, card)
    return fmt.item_name(lang, card)  # a Diplomat's item name


def _about(view: Answering, action: Action) -> int | None:
    """The other player the answer concerns, when the action itself does not name one."""
    p = view["decision"]
    if action.target is not None:
        return action.target
    if p is None:
        return None
    data, kind = p["data"], p["kind"]
    if kind == DecisionKind.SUPPORT:
        return data["attacker"] if action.choice == "attacker" else data["defender"]
    if kind == DecisionKind.BOOST and action.choice is not None:
        return data["attacker"] if action.choice == "attacker" else data["defender"]
    if kind == DecisionKind.SEXTANT_PASS:
        step = 1 if data["direction"] == "left" else -1
        return (view["seat"] + step) % len(view["table"]["players"])
    for key in ("seat", "loser", "priest", "partner", "about", "target"):
        if key in data:
            return int(data[key])
    return None


def answer_line(view: Answering, action: Action, lang: str) -> str:
    """``view`` is the answering seat's view from before the answer."""
    p = view["decision"]
    table = view["table"]
    pk = p["kind"] if p is not None else ""
    if action.kind in (ActionKind.USE, ActionKind.PASS) and pk in _USED_DURING:
        key = f"game.answer.{_USED_DURING[pk]}.{action.kind}"
    elif pk == DecisionKind.SUPPORT:
        key = f"game.answer.support.{action.choice}"
    elif pk == DecisionKind.BOOST and action.choice is not None:
        key = "game.answer.boost.mixer"
    else:
        key = f"game.answer.{pk}.{action.kind}"
    if action.kind in (ActionKind.CLAIM, ActionKind.CLAIM_OTHER) and not action.seats:
        key += "_alone"  # as the story tells it: "未指认任何盟友", not "指认无人"
    about = _about(view, action)
    data = p["data"] if p is not None else {}
    offered = data.get("card") if pk == DecisionKind.TRADE_ANSWER else None
    received = data.get("receive") if pk == DecisionKind.DIPLOMAT_GIVE else None
    return t(
        lang,
        key,
        name=fmt.name(table, about) if about is not None else "",
        card=_card(lang, action.card),
        cards=fmt.cards(lang, action.cards),
        names=fmt.names(table, lang, action.seats),
        offered=_card(lang, offered or received),
        direction=t(lang, f"game.dir.{action.choice}") if pk == DecisionKind.SEXTANT_DIR else "",
        position=int(action.choice) + 1 if pk == DecisionKind.LOOK_POS and action.choice else "",
    )


def ahead_line(view: Seated, held: ActionDict, lang: str) -> str:
    """The turn's action a seat chose ahead (engine.premove), in its stored form, worded as a
    turn's answer whatever the seat is asked now."""
    turn: OwnDecision = {
        "id": held["decision"],
        "kind": DecisionKind.TURN,
        "deadline": "turn",
        "data": {},
    }
    as_turn: Answering = {"seat": view["seat"], "table": view["table"], "decision": turn}
    return answer_line(as_turn, action_of(held), lang)
