"""Private news: per seat, one message joining what the step told that seat alone."""

from __future__ import annotations

from engine.actions import Event
from engine.cards import PRIEST
from engine.event_shapes import (
    AssociationSeenData,
    CardsData,
    DealtData,
    DrewCardData,
    ItemLostData,
    ItemsSeenData,
    OccupationData,
    OccupationReceivedData,
    OccupationSeenData,
    OfferedData,
    PriestStoppedData,
    ReceivedData,
)
from engine.events import data_as
from engine.kinds import EventKind as K
from handlers import fmt
from handlers.card_labels import association_label, card_label, drink_label, occupation_label
from handlers.i18n import t


def private_line(table: fmt.Table, lang: str, e: Event) -> str | None:
    k = e.kind

    def name(seat: int) -> str:
        return fmt.name(table, seat)

    if k == K.DEALT:
        dealt_data = data_as(e, DealtData)
        dealt = t(
            lang,
            "game.private.dealt",
            assoc=fmt.assoc_cards(lang, dealt_data["assoc"]),
            occupation=occupation_label(lang, dealt_data["occupation"]),
            items=fmt.cards(lang, dealt_data["items"]),
        )
        drink = t(lang, "game.private.dealt_drink", drink=drink_label(lang))
        return fmt.lines(dealt, drink if dealt_data["drink"] else None)
    if k == K.OFFERED:
        offered = data_as(e, OfferedData)
        card = card_label(lang, offered["card"])
        return t(lang, "game.private.offered", name=name(offered["seat"]), card=card)
    if k == K.RECEIVED:
        got = data_as(e, ReceivedData)
        return t(
            lang,
            f"game.private.received.{got['how']}",
            name=name(got["source"]),
            card=card_label(lang, got["card"]),
        )
    if k == K.ITEM_LOST:
        lost = data_as(e, ItemLostData)
        card = card_label(lang, lost["card"])
        return t(lang, "game.private.item_lost", name=name(lost["to"]), card=card)
    if k == K.ITEMS_SEEN:
        seen = data_as(e, ItemsSeenData)
        cards = fmt.cards(lang, seen["cards"])
        return t(lang, "game.private.items_seen", name=name(seen["about"]), cards=cards)
    if k == K.DREW_CARD:
        return t(
            lang, "game.private.drew_card", card=card_label(lang, data_as(e, DrewCardData)["card"])
        )
    if k == K.DECK_SEEN:
        return t(
            lang,
            "game.private.deck_seen",
            cards=fmt.occupations(lang, data_as(e, CardsData)["cards"]),
        )
    if k == K.OCCUPATION_RECEIVED:
        swapped = data_as(e, OccupationReceivedData)
        return t(
            lang,
            "game.private.occupation_received",
            name=name(swapped["source"]),
            occupation=occupation_label(lang, swapped["occupation"]),
        )
    if k == K.OCCUPATION_TAKEN:
        occupation = occupation_label(lang, data_as(e, OccupationData)["occupation"])
        return t(lang, "game.private.occupation_taken", occupation=occupation)
    if k == K.ASSOCIATION_SEEN:
        looked = data_as(e, AssociationSeenData)
        assoc = association_label(lang, looked["assoc"])
        position = looked["position"]
        if position is not None:
            return t(
                lang,
                "game.private.association_card_seen",
                name=name(looked["about"]),
                assoc=assoc,
                position=position + 1,
            )
        return t(lang, "game.private.association_seen", name=name(looked["about"]), assoc=assoc)
    if k == K.OCCUPATION_SEEN:
        seen_occ = data_as(e, OccupationSeenData)
        occupation = occupation_label(lang, seen_occ["occupation"])
        about = name(seen_occ["about"])
        return t(lang, "game.private.occupation_seen", name=about, occupation=occupation)
    if k == K.PRIEST_NO_TRIBUTE:
        priest = data_as(e, PriestStoppedData)["seat"]
        label = occupation_label(lang, PRIEST)
        return t(lang, "game.private.priest_no_tribute", name=name(priest), label=label)
    if k == K.PILE_SEEN:
        return t(
            lang, "game.private.pile_seen", cards=numbered(lang, data_as(e, CardsData)["cards"])
        )
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
