"""What a prompt closed by someone else's move says: its title and why. Public events only,
and the text is the seat's own, so it tells the group nothing (R-D1)."""

from __future__ import annotations

from engine.actions import Event
from engine.cards import DOCTOR, POISON_MIXER, PRIEST
from engine.event_shapes import PriestStoppedData
from engine.events import data_as, data_of
from engine.kinds import EventKind
from engine.view_types import PublicView
from handlers import fmt
from handlers.card_labels import occupation_label
from handlers.i18n import t
from handlers.prompts.fight import fight_header


def closed_text(
    title: str, seat: int, lang: str, table: PublicView, events: list[Event], why: str | None
) -> str:
    """``seat``'s prompt titled ``title`` closed: with ``why`` (a catalog key), or the public
    event of this step that closed it, or a default reason."""
    reason = t(lang, why) if why else None
    for e in events:
        if reason is not None:
            break
        if e.to is not None:
            continue  # told to some seats only
        played, support = data_of(e, EventKind.PLAYED), data_of(e, EventKind.SUPPORT)
        if played is not None and played["card"] == POISON_MIXER:
            reason = t(
                lang,
                "prompt.closed.mixer",
                name=fmt.name(table, played["seat"]),
                label=occupation_label(lang, POISON_MIXER),
            )
        elif e.kind == EventKind.PRIEST_STOPPED:  # whose attack, by whom (issue 25)
            stopped = data_as(e, PriestStoppedData)
            reason = t(
                lang,
                "prompt.closed.priest",
                label=occupation_label(lang, PRIEST),
                name=fmt.name(table, stopped["seat"]),
                attacker=fmt.name(table, stopped["attacker"]),
            )
        elif e.kind == EventKind.DOCTOR_CANCELLED:
            reason = t(lang, "prompt.closed.doctor", label=occupation_label(lang, DOCTOR))
        elif e.kind == EventKind.GAME_OVER:
            reason = t(lang, "prompt.closed.game_over")
        elif support is not None and support["seat"] == seat:
            # declared ahead of its turn, told now that every earlier one was (R-A3)
            fight = table["fight"]
            about = (
                None
                if fight is None
                else fight["attacker"]
                if support["side"] == "attacker"
                else fight["defender"]
            )
            what = t(
                lang,
                f"game.answer.support.{support['side']}",
                name=fmt.name(table, about) if about is not None else "",
            )
            told = t(lang, "prompt.closed.support_told", what=what)
            reason = fmt.lines(fight_header(table, lang), told) if fight else told
    return fmt.lines(title, "", reason or t(lang, "prompt.closed"))
