"""Private news: per seat, one message joining what the step told that seat alone."""

from __future__ import annotations

from typing import Any

from engine.actions import Event
from handlers import fmt
from handlers.card_labels import association_label, card_label, drink_label, occupation_label
from handlers.i18n import t


def private_line(table: fmt.Table, lang: str, e: Event) -> str | None:
    d: dict[str, Any] = e.data
    k = e.kind

    def name(key: str) -> str:
        return fmt.name(table, d[key])

    if k == "dealt":
        dealt = t(
            lang,
            "game.private.dealt",
            assoc=fmt.assoc_cards(lang, d["assoc"]),
            occupation=occupation_label(lang, d["occupation"]),
            items=fmt.cards(lang, d["items"]),
        )
        drink = t(lang, "game.private.dealt_drink", drink=drink_label(lang))
        return fmt.lines(dealt, drink if d.get("drink") else None)
    if k == "offered":
        return t(lang, "game.private.offered", name=name("seat"), card=card_label(lang, d["card"]))
    if k == "received":
        return t(
            lang,
            f"game.private.received.{d['how']}",
            name=name("source"),
            card=card_label(lang, d["card"]),
        )
    if k == "item_lost":
        return t(lang, "game.private.item_lost", name=name("to"), card=card_label(lang, d["card"]))
    if k == "items_seen":
        return t(
            lang, "game.private.items_seen", name=name("about"), cards=fmt.cards(lang, d["cards"])
        )
    if k == "drew_card":
        return t(lang, "game.private.drew_card", card=card_label(lang, d["card"]))
    if k == "deck_seen":
        return t(lang, "game.private.deck_seen", cards=fmt.occupations(lang, d["cards"]))
    if k == "occupation_received":
        return t(
            lang,
            "game.private.occupation_received",
            name=name("source"),
            occupation=occupation_label(lang, d["occupation"]),
        )
    if k == "occupation_taken":
        occupation = occupation_label(lang, d["occupation"])
        return t(lang, "game.private.occupation_taken", occupation=occupation)
    if k == "association_seen":
        assoc = association_label(lang, d["assoc"])
        if d.get("position") is not None:
            return t(
                lang,
                "game.private.association_card_seen",
                name=name("about"),
                assoc=assoc,
                position=d["position"] + 1,
            )
        return t(lang, "game.private.association_seen", name=name("about"), assoc=assoc)
    if k == "occupation_seen":
        occupation = occupation_label(lang, d["occupation"])
        return t(lang, "game.private.occupation_seen", name=name("about"), occupation=occupation)
    if k == "pile_seen":
        return t(lang, "game.private.pile_seen", cards=numbered(lang, d["cards"]))
    return None


def numbered(lang: str, cards: list[str]) -> str:
    return "\n".join(
        t(lang, "game.list.numbered", n=i + 1, text=card_label(lang, c))
        for i, c in enumerate(cards)
    )


def private_text(events: list[Event], table: fmt.Table, lang: str) -> str | None:
    """One seat's news: the events addressed to it (``engine.events_for``), in order, as one
    text; ``table`` is the public view after the step."""
    lines = [line for e in events if (line := private_line(table, lang, e))]
    return fmt.truncate("\n".join(lines)) if lines else None
