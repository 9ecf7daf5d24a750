"""Answering a trade, trade effects (Smuggling, Sextant, Tome, Coat), looking at one of three
association cards, and gifts over the hand limit."""

from __future__ import annotations

from engine.cards import BAGS, UNREFUSABLE_ITEMS
from engine.kinds import ActionKind
from handlers import action_payloads, fmt
from handlers.card_labels import card_label, item_kind, occupation_label
from handlers.prompts.base import Ask, Page, act, card_buttons, grid


def trade_answer_page(a: Ask, path: list[str]) -> Page:
    offered, giver = a.p.data["card"], a.p.data["seat"]
    label = card_label(a.lang, offered)
    page = Page(
        [
            a.t("game.answer_trade.title", name=a.name(giver)),
            a.t("game.answer_trade.offer", card=label),
        ]
    )
    if offered in UNREFUSABLE_ITEMS:
        page.add(a.telling("game.answer_trade.forced", card=label))
    else:
        page.add(a.asking("game.answer_trade.choose"))
    # R-T3: the other Secret Bag cannot be given back for a Bag; said only to who holds one
    if (
        offered in BAGS
        and not a.table["bags_are_goals"]
        and any(card in BAGS for card in a.me["items"])
    ):
        page.add(a.t("game.answer_trade.no_bag"))
    page.add(a.hand)
    page.info.append(action_payloads.info_item(item_kind(offered)))
    card_buttons(
        a, page, a.of(ActionKind.ACCEPT), label=lambda card: a.t("game.btn.accept_give", card=card)
    )
    refuse = a.of(ActionKind.REFUSE)
    if refuse:
        page.rows.append([(a.t("game.btn.refuse"), act(refuse[0]))])
    return page


def smuggle_page(a: Ask, path: list[str]) -> Page:
    """R-T9: the seat may skip the effect of the item it gave (it knows which; nobody else does)."""
    page = Page([a.t("game.smuggle.title")])
    for card, partner in a.p.data["fire"]:
        page.add(
            a.telling("game.smuggle.body", card=card_label(a.lang, card), name=a.name(partner))
        )
        page.info.append(action_payloads.info_item(item_kind(card)))
    page.rows = [
        [(a.t("game.btn.smuggle_use"), act(a.of(ActionKind.USE)[0]))],
        [(a.t("game.btn.smuggle_skip"), act(a.of(ActionKind.SKIP)[0]))],
    ]
    return page


def sextant_dir_page(a: Ask, path: list[str]) -> Page:
    page = Page([a.t("game.effect.title", label=card_label(a.lang, "sextant"))])
    page.add(a.asking("game.sextant.pick_direction"), a.hand)
    buttons = []
    for x in a.of(ActionKind.DIRECTION):
        step = 1 if x.choice == "left" else -1
        to = (a.seat + step) % a.seats
        buttons.append((a.t(f"game.btn.dir_{x.choice}", name=a.label(to)), act(x)))
    page.rows = grid(buttons, 1)
    page.info.append(action_payloads.info_item("sextant"))
    return page


def sextant_pass_page(a: Ask, path: list[str]) -> Page:
    direction = a.p.data["direction"]
    to = (a.seat + (1 if direction == "left" else -1)) % a.seats
    page = Page(
        [
            a.t("game.effect.title", label=card_label(a.lang, "sextant")),
            a.telling(
                "game.sextant.pick_item", name=a.name(to), direction=a.t(f"game.dir.{direction}")
            ),
        ]
    )
    card_buttons(a, page, a.of(ActionKind.GIVE))
    return page


def tome_page(a: Ask, path: list[str]) -> Page:
    partner = a.p.data["partner"]
    mine = a.me["occupation"]
    page = Page(
        [
            a.t("game.effect.title", label=card_label(a.lang, "tome")),
            a.telling(
                "game.tome.body", name=a.name(partner), occupation=occupation_label(a.lang, mine)
            ),
        ]
    )
    page.rows = [
        [(a.t("game.btn.tome_swap", name=a.label(partner)), act(a.of(ActionKind.SWAP)[0]))],
        [(a.t("game.btn.keep_occupation"), act(a.of(ActionKind.SKIP)[0]))],
    ]
    page.info += [action_payloads.info_item("tome"), action_payloads.info_occupation(mine)]
    return page


def coat_page(a: Ask, path: list[str]) -> Page:
    mine = a.me["occupation"]
    takes = a.of(ActionKind.TAKE)
    offered = [x.card for x in takes if x.card is not None]
    page = Page(
        [
            a.t("game.effect.title", label=card_label(a.lang, "coat")),
            a.telling(
                "game.coat.body",
                deck=fmt.occupations(a.lang, offered),
                occupation=occupation_label(a.lang, mine),
            ),
        ]
    )
    buttons = [(occupation_label(a.lang, x.card or ""), act(x)) for x in takes]
    page.rows = grid(buttons, 2)
    page.rows.append([(a.t("game.btn.keep_occupation"), act(a.of(ActionKind.SKIP)[0]))])
    page.info += [action_payloads.info_occupation(o) for o in [mine, *offered]]
    return page


def look_pos_page(a: Ask, path: list[str]) -> Page:
    about = a.p.data["about"]
    page = Page([a.t("game.look_pos.title"), a.telling("game.look_pos.body", name=a.name(about))])
    buttons = [
        (a.t("game.btn.position", n=int(x.choice or 0) + 1), act(x)) for x in a.of(ActionKind.LOOK)
    ]
    page.rows = grid(buttons, 3)
    return page


def gift_page(a: Ask, path: list[str]) -> Page:
    """R-H1: card first, then the recipient."""
    gifts = a.of(ActionKind.GIFT)
    page = Page(
        [
            a.t("game.gift.title"),
            # answered: the hand chosen from, said in the past (issue 25)
            a.t("game.gift.body_then", count=len(a.me["items"]), limit=a.table["hand_limit"])
            if a.frozen
            else a.t("game.gift.body", count=len(a.me["items"]), limit=a.table["hand_limit"]),
        ]
    )
    card = _card(path, {x.card for x in gifts})
    if card is None:
        page.add(a.asking("game.gift.pick_card"), a.hand)
        one_per_card = {x.card: x for x in gifts}.values()  # the recipient comes next
        card_buttons(
            a, page, one_per_card, lambda x: action_payloads.nav(action_payloads.code(x.card or ""))
        )
        return page
    page.add(a.t("game.gift.pick_player", card=card_label(a.lang, card)))
    buttons = [
        (a.label(x.target), act(x)) for x in gifts if x.card == card and x.target is not None
    ]
    page.rows = grid(buttons, 2)
    page.info.append(action_payloads.info_item(item_kind(card)))
    page.back = action_payloads.nav()
    return page


def _card(path: list[str], allowed: set[str | None]) -> str | None:
    if len(path) != 1:
        return None
    try:
        card = action_payloads.word(path[0])
    except action_payloads.BadPayload:
        return None
    return card if card in allowed else None
