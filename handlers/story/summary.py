"""Each player's private game-over summary, from their own final view (never the State): how
the game ended for them, everyone's association as revealed, and what their notebook had right."""

from __future__ import annotations

import html

from engine.cards import COAT_OF_ARMS
from engine.view_types import Note, Result, SeatView
from handlers import fmt
from handlers.card_labels import association_label, occupation_label, public_card_label
from handlers.i18n import t


def _name(final_view: SeatView, seat: int) -> str:
    return f"<b>{html.escape(final_view['table']['players'][seat]['name'])}</b>"


def _how(final_view: SeatView, lang: str, result: Result) -> str:
    declarer = result.get("declarer")
    side = result.get("side")
    return t(
        lang,
        f"game.final.how.{result['how']}",
        name=_name(final_view, declarer) if declarer is not None else "",
        side=association_label(lang, side) if side else "",
        coa=public_card_label(lang, COAT_OF_ARMS),
        round=result.get("round", final_view["table"]["round"]),
    )


def _outcome(lang: str, seat: int, result: Result) -> str:
    winners = result.get("winners") or []
    if not winners:
        return t(lang, "game.summary.nobody")
    return t(lang, "game.summary.won" if seat in winners else "game.summary.lost")


def knowledge(notes: list[Note], about: int) -> tuple[str, int | None]:
    """What the notes held about ``about``'s association before the end: ("knew", round) after a
    look at it, ("one_card", round) after seeing one of two cards, else ("unknown", None). The
    cards a claim reveals come with the end itself, so they are no knowledge the player had."""
    best: tuple[str, int | None] = ("unknown", None)
    for n in notes:
        if n.get("about") != about or n["k"] != "saw_association":
            continue
        if n["k"] == "saw_association" and n.get("position") is not None:
            if best[0] == "unknown":
                best = ("one_card", n["round"])
            continue
        return ("knew", n["round"])
    return best


def game_over_text(final_view: SeatView, lang: str) -> str:
    """The summary for the seat whose view this is; ``final_view`` is ``engine.view`` once the
    game is over (its table then holds the result and everyone's revealed cards)."""
    table = final_view["table"]
    result = table["result"]
    seat = final_view["seat"]
    me = final_view["me"]
    out = [
        t(lang, "game.summary.title", round=result.get("round", table["round"])),
        _outcome(lang, seat, result),
        _how(final_view, lang, result),
        t(
            lang,
            "game.summary.you",
            assoc=association_label(lang, me["association"]),
            occupation=occupation_label(lang, me["occupation"]),
        ),
        t(lang, "game.summary.who"),
    ]
    known = 0
    others = [r for r in table["reveal"] if r["seat"] != seat]
    for r in others:
        kind, when = knowledge(final_view["notes"], r["seat"])
        known += kind == "knew"
        out.append(
            t(
                lang,
                f"game.summary.{kind}",
                name=_name(final_view, r["seat"]),
                assoc=fmt.assoc_cards(lang, r["assoc"]),
                round=when or 0,
            )
        )
    out.append(t(lang, "game.summary.count", known=known, others=len(others)))
    scores = result.get("scores")
    if scores and scores[seat]:
        out.append(t(lang, "game.summary.points", points=scores[seat]))
    return fmt.truncate(fmt.lines(*out))
