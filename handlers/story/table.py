"""What the whole table sees at a glance: the seat order at the start, the status (whose turn,
what the table waits for) and the final reveal."""

from __future__ import annotations

from collections.abc import Sequence

from engine.cards import COAT_OF_ARMS
from engine.kinds import DecisionKind
from engine.view_types import FinalResult, PublicPlayer, Reveal
from handlers import fmt
from handlers.card_labels import (
    DRINK_ICON,
    association_label,
    drink_label,
    occupation_label,
    public_card_label,
)
from handlers.i18n import t
from handlers.prompts.fight import fight_lines

# Decisions the status shows the fight as it stands under
FIGHT_STATUS = frozenset(
    {
        DecisionKind.PRIEST,
        DecisionKind.SUPPORT,
        DecisionKind.HYPNOTIST,
        DecisionKind.BOOST,
        DecisionKind.DOCTOR,
        DecisionKind.REWARD,
    }
)


def _occupation(lang: str, p: PublicPlayer) -> str:
    if p["occupation"] is None:
        return ""
    key = "game.status.occ_spent" if p["spent"] else "game.status.occ_up"
    return t(lang, key, label=occupation_label(lang, p["occupation"]))


def _player_line(table: fmt.Table, lang: str, p: PublicPlayer, marker: bool) -> str:
    extras = [
        t(lang, "game.status.items", count=p["items"]),
        DRINK_ICON if p["drink"] else "",
        _occupation(lang, p),
        t(lang, "game.status.away") if p["away"] else "",
    ]
    return t(
        lang,
        "game.status.player_now" if marker else "game.status.player",
        n=p["seat"] + 1,
        name=fmt.name(table, p["seat"]),
        details=" ".join(x for x in extras if x),
    )


def table_lines(table: fmt.Table, lang: str, *, marker: bool = True) -> list[str]:
    """One line per seat; ``table`` is the public view (``engine.public_view``)."""
    return [
        _player_line(table, lang, p, marker and p["seat"] == table["turn"] and not table["over"])
        for p in table["players"]
    ]


def status_text(table: fmt.Table, lang: str, seconds_left: int | None = None) -> str:
    """Whose turn, the table, and what the game waits for — never who is asked in a window."""
    if table["over"]:
        return final_text(table, lang)
    out = [
        t(
            lang,
            "game.status.title",
            round=table["round"],
            name=fmt.name(table, table["turn"]),
            pile=table["pile"],
        ),
        *table_lines(table, lang),
    ]
    pending = table["pending"]
    if pending is not None:
        what = t(lang, f"game.kind.{pending['kind']}")
        if pending["window"]:
            out.append(t(lang, "game.status.waiting_window", what=what))
        else:
            names = fmt.names(table, lang, pending["seats"])
            out.append(t(lang, "game.status.waiting", what=what, names=names))
        if pending["kind"] in FIGHT_STATUS:
            out += fight_lines(table, lang)
    out.append(fmt.time_left(lang, seconds_left) or "")
    return fmt.truncate(fmt.lines(*out))


def seat_order_text(table: fmt.Table, lang: str) -> str:
    """The start of the game: the seat order, who starts and the table (the public view)."""
    out = [t(lang, "game.seats.title"), t(lang, "game.seats.order"), *table_lines(table, lang)]
    out.append(t(lang, "game.seats.first", name=fmt.name(table, table["first"])))
    out.append(t(lang, "game.seats.pile", pile=table["pile"], limit=table["hand_limit"]))
    if table["players"][0]["drink"]:
        out.append(t(lang, "game.seats.drinks", drink=drink_label(lang)))
    if table["removed"]:
        removed = fmt.join(lang, [public_card_label(lang, c) for c in table["removed"]])
        out.append(t(lang, "game.seats.removed", cards=removed))
    return fmt.truncate(fmt.lines(*out))


def final_lines(
    table: fmt.Table, lang: str, result: FinalResult, reveal: Sequence[Reveal]
) -> list[str]:
    """The end (R-V3): how it ended, the winners, everyone's cards and the scores."""
    how = result["how"]
    declarer = result.get("declarer")
    side = result.get("side")
    out = [
        t(lang, "game.final.title", round=result.get("round", table["round"])),
        t(
            lang,
            f"game.final.how.{how}",
            name=fmt.name(table, declarer) if declarer is not None else "",
            side=association_label(lang, side) if side else "",
            coa=public_card_label(lang, COAT_OF_ARMS),
            round=result.get("round", table["round"]),
        ),
    ]
    winners = result.get("winners", [])
    if winners:
        out.append(t(lang, "game.final.winners", names=fmt.names(table, lang, winners)))
    out.append(t(lang, "game.final.reveal"))
    for r in reveal:
        assoc = fmt.join(lang, [association_label(lang, a) for a in r["assoc"]])
        key = "game.final.player_won" if r["seat"] in winners else "game.final.player"
        out.append(
            t(
                lang,
                key,
                name=fmt.name(table, r["seat"]),
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
            t(lang, "game.final.score", name=fmt.name(table, s), points=p)
            for s, p in enumerate(scores)
            if p
        ]
        out.append(t(lang, "game.final.scores", scores=fmt.join(lang, listed)))
    return out


def final_text(table: fmt.Table, lang: str) -> str:
    """The reveal at the end of the game (also what /status shows once it is over)."""
    result = table.get("result")
    if result is None:
        return status_text(table, lang)
    reveal = table["reveal"]
    boxed = table["boxed_assoc"]
    return fmt.truncate(
        fmt.lines(*final_lines(table, lang, {**result, "boxed_assoc": boxed}, reveal))
    )
