"""A player's own cards: the dossier at the start, and /notes — the cards now and the notebook
(what the engine recorded that this seat learned, in order)."""

from __future__ import annotations

import html

from engine.view_types import Me, Note, SeatView, seen_card, seen_hand
from handlers import fmt
from handlers.card_labels import (
    association_label,
    card_label,
    card_text,
    drink_label,
    occupation_label,
)
from handlers.i18n import t


def _association(lang: str, me: Me) -> list[str]:
    label = association_label(lang, me["association"])
    if len(me["assoc"]) > 1:
        head = t(
            lang, "game.dossier.assoc_cards", cards=fmt.assoc_cards(lang, me["assoc"]), label=label
        )
    else:
        head = t(lang, "game.dossier.assoc", label=label)
    return [head, t(lang, f"association.{me['association']}.text")]


def _occupation_state(lang: str, me: Me) -> str:
    if not me["occ_up"]:
        return t(lang, "game.dossier.occ_down")
    return t(lang, "game.dossier.occ_spent" if me["occ_spent"] else "game.dossier.occ_up")


def dossier_text(view: SeatView, lang: str) -> str:
    """Association with its goal, occupation with its text, items with theirs, the Drink, from
    the seat's ``engine.view``."""
    me = view["me"]
    out = [t(lang, "game.dossier.title", name=html.escape(me["name"]))]
    out += _association(lang, me)
    occ = me["occupation"]
    out.append(
        t(
            lang,
            "game.dossier.occupation",
            label=occupation_label(lang, occ),
            state=_occupation_state(lang, me),
        )
    )
    out.append(t(lang, f"occupation.{occ}.text"))
    out.append(t(lang, "game.dossier.items"))
    out += [
        t(lang, "game.dossier.item", label=card_label(lang, c), text=card_text(lang, c))
        for c in me["items"]
    ]
    if me["drink"]:
        out.append(
            t(lang, "game.dossier.drink", label=drink_label(lang), text=t(lang, "drink.text"))
        )
    out.append(t(lang, "game.dossier.footer"))
    return fmt.truncate(fmt.lines(*out))


def note_text(table: fmt.Table, lang: str, n: Note) -> str:
    k = n["k"]
    about = fmt.name(table, n["about"]) if "about" in n else ""
    params: dict[str, object] = {"name": about}
    if "card" in n:
        params["card"] = card_label(lang, n["card"])
    if "occupation" in n:
        params["occupation"] = occupation_label(lang, n["occupation"])
    if k == "dealt":
        params.update(assoc=fmt.assoc_cards(lang, seen_hand(n)), items=fmt.cards(lang, n["items"]))
    elif k in ("saw_pile", "stacked_pile"):
        params["cards"] = fmt.cards(lang, n["cards"])
    elif k == "saw_deck":
        params["cards"] = fmt.occupations(lang, n["cards"])
    elif k == "saw_items":
        params["cards"] = fmt.cards(lang, n["cards"])
    elif k == "revealed":
        params.update(assoc=fmt.assoc_cards(lang, seen_hand(n)), items=fmt.cards(lang, n["items"]))
    elif k == "saw_association":
        params["assoc"] = association_label(lang, seen_card(n))
        position = n.get("position")
        if position is not None:
            k = "saw_association_card"
            params["position"] = position + 1
    key = (
        f"game.note.{k}.{n['how']}"
        if k in ("got_item", "gave_item", "saw_occupation")
        else f"game.note.{k}"
    )
    return t(lang, "game.note.line", round=n["round"], text=t(lang, key, **params))


def notes_text(v: SeatView, lang: str) -> str:
    """Your cards now, then every notebook entry in order; the oldest go first if it is long
    (``v`` is the seat's ``engine.view``)."""
    me = v["me"]
    head = [
        t(lang, "game.notes.title"),
        t(
            lang,
            "game.notes.now",
            assoc=association_label(lang, me["association"]),
            occupation=occupation_label(lang, me["occupation"]),
            state=_occupation_state(lang, me),
            items=fmt.cards(lang, me["items"]),
        ),
    ]
    if me["drink"]:
        head.append(drink_label(lang))
    head.append(t(lang, "game.notes.log"))
    entries = [note_text(v["table"], lang, n) for n in v["notes"]]
    budget = fmt.MAX_TEXT - fmt.size(fmt.lines(*head)) - 200
    kept: list[str] = []
    for line in reversed(entries):
        budget -= fmt.size(line) + 1
        if budget < 0:
            break
        kept.append(line)
    kept.reverse()
    if len(kept) < len(entries):
        head.append(t(lang, "game.notes.truncated", count=len(entries) - len(kept)))
    return fmt.lines(*head, *kept)
