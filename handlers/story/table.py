"""What the whole table sees at a glance: the seat order at the start, the status (whose turn,
what the table waits for) and the final reveal."""

from __future__ import annotations

from typing import Any

from engine import public_view
from engine.cards import hand_limit
from engine.state import State
from handlers import fmt
from handlers.cards import (
    DRINK_ICON,
    association_label,
    drink_label,
    occupation_label,
    public_card_label,
)
from handlers.i18n import t
from handlers.prompts.fight import fight_lines


def _occupation(st: State, lang: str, p: dict[str, Any]) -> str:
    if p["occupation"] is None:
        return ""
    key = "game.status.occ_spent" if p["spent"] else "game.status.occ_up"
    return t(lang, key, label=occupation_label(lang, p["occupation"]))


def _player_line(st: State, lang: str, p: dict[str, Any], marker: bool) -> str:
    extras = [
        t(lang, "game.status.items", count=p["items"]),
        DRINK_ICON if p["drink"] else "",
        _occupation(st, lang, p),
        t(lang, "game.status.away") if p["away"] else "",
    ]
    return t(
        lang,
        "game.status.player_now" if marker else "game.status.player",
        n=p["seat"] + 1,
        name=fmt.name(st, p["seat"]),
        details=" ".join(x for x in extras if x),
    )


def table_lines(st: State, lang: str, *, marker: bool = True) -> list[str]:
    view = public_view(st)
    return [
        _player_line(st, lang, p, marker and p["seat"] == st.turn and not st.over)
        for p in view["players"]
    ]


def status_text(st: State, lang: str, seconds_left: int | None = None) -> str:
    """Whose turn, the table, and what the game waits for — never who is asked in a window."""
    if st.over:
        return final_text(st, lang)
    view = public_view(st)
    out = [
        t(lang, "game.status.title", round=st.round, name=fmt.name(st, st.turn), pile=view["pile"]),
        *table_lines(st, lang),
    ]
    pending = view["pending"]
    if pending is not None:
        what = t(lang, f"game.kind.{pending['kind']}")
        if pending["window"]:
            out.append(t(lang, "game.status.waiting_window", what=what))
        else:
            names = fmt.names(st, lang, pending["seats"])
            out.append(t(lang, "game.status.waiting", what=what, names=names))
        if pending["kind"] in ("priest", "support", "hypnotist", "boost", "doctor", "reward"):
            out += fight_lines(st, lang)
    out.append(fmt.time_left(lang, seconds_left) or "")
    return fmt.truncate(fmt.lines(*out))


def seat_order_text(st: State, lang: str) -> str:
    """The start of the game: the seat order, who starts and the table."""
    view = public_view(st)
    out = [t(lang, "game.seats.title"), t(lang, "game.seats.order"), *table_lines(st, lang)]
    out.append(t(lang, "game.seats.first", name=fmt.name(st, st.first)))
    out.append(t(lang, "game.seats.pile", pile=view["pile"], limit=hand_limit(st.n)))
    if st.players[0].drink:
        out.append(t(lang, "game.seats.drinks", drink=drink_label(lang)))
    if view["removed"]:
        removed = fmt.join(lang, [public_card_label(lang, c) for c in view["removed"]])
        out.append(t(lang, "game.seats.removed", cards=removed))
    return fmt.truncate(fmt.lines(*out))


def final_lines(
    st: State, lang: str, result: dict[str, Any], reveal: list[dict[str, Any]]
) -> list[str]:
    """The end (R-V3): how it ended, the winners, everyone's cards and the scores."""
    how = result["how"]
    declarer = result.get("declarer")
    side = result.get("side")
    out = [
        t(lang, "game.final.title", round=result.get("round", st.round)),
        t(
            lang,
            f"game.final.how.{how}",
            name=fmt.name(st, declarer) if declarer is not None else "",
            side=association_label(lang, side) if side else "",
            coa=public_card_label(lang, "coat_of_arms"),
            round=result.get("round", st.round),
        ),
    ]
    winners = result.get("winners", [])
    if winners:
        out.append(t(lang, "game.final.winners", names=fmt.names(st, lang, winners)))
    out.append(t(lang, "game.final.reveal"))
    for r in reveal:
        assoc = fmt.join(lang, [association_label(lang, a) for a in r["assoc"]])
        key = "game.final.player_won" if r["seat"] in winners else "game.final.player"
        out.append(
            t(
                lang,
                key,
                name=fmt.name(st, r["seat"]),
                assoc=assoc,
                occupation=occupation_label(lang, r["occupation"]),
                items=fmt.cards(lang, r["items"]),
            )
        )
    boxed = result.get("boxed_assoc") or []
    if boxed:
        out.append(t(lang, "game.final.boxed", assoc=fmt.assoc_cards(lang, boxed)))
    scores = result.get("scores")
    if scores:
        listed = [
            t(lang, "game.final.score", name=fmt.name(st, s), points=p)
            for s, p in enumerate(scores)
            if p
        ]
        out.append(t(lang, "game.final.scores", scores=fmt.join(lang, listed)))
    return out


def final_text(st: State, lang: str) -> str:
    """The reveal at the end of the game (also what /status shows once it is over)."""
    view = public_view(st)
    result = view.get("result")
    if result is None:
        return status_text(st, lang)
    reveal = view["reveal"]
    return fmt.truncate(
        fmt.lines(*final_lines(st, lang, {**result, "boxed_assoc": st.boxed_assoc}, reveal))
    )
