"""The turn menu (pass, trade, attack, victory, free uses), the Clairvoyant and the Diplomat."""

from __future__ import annotations

from collections.abc import Iterable

from engine.actions import Action, action_of
from engine.cards import CLAIRVOYANT, DIPLOMAT
from engine.kinds import ActionKind
from handlers import action_payloads, fmt
from handlers.card_labels import card_label, item_kind, occupation_label
from handlers.prompts.answer import ahead_line
from handlers.prompts.base import (
    Ask,
    Button,
    Page,
    act,
    card_buttons,
    distinct_cards,
    fits,
    grid,
)
from handlers.prompts.claim import claim_page

# Up to so many players to attack (a table of five), the turn's first page offers each at once;
# more, and an "Attack…" page lists them.
INLINE_ATTACKS = 4
# Up to so many offers (an item to a player), the trade's page offers each at once; more, and it
# asks whom first, then which item.
INLINE_OFFERS = 12


def turn_page(a: Ask, path: list[str]) -> Page:
    head, rest = (path[0], path[1:]) if path else ("", [])
    if head == "tr" and a.of(ActionKind.TRADE):
        return _trade(a, rest)
    if head == "at" and a.of(ActionKind.ATTACK):
        return _attack(a)
    if head == "dp" and a.of(ActionKind.DIPLOMAT):
        return _diplomat(a, rest)
    if head in ("cl", "fo", "so"):
        page = claim_page(a, head, rest)
        if page is not None:
            return page
    return _root(a)


def _title(a: Ask) -> str:
    return a.t("game.turn.title", round=a.table["round"])


def _root(a: Ask) -> Page:
    acted = bool(a.p.data.get("acted"))
    if a.p.data.get("ahead") is not None:
        page = _ahead(a)
    else:
        claims = any(
            x.kind in (ActionKind.CLAIM, ActionKind.CLAIM_OTHER, ActionKind.SOLO) for x in a.legal
        )
        choose = "game.turn.choose_claim" if claims else "game.turn.choose"
        page = Page([_title(a)])
        page.add(a.asking("game.turn.after" if acted else choose), a.hand)
    kinds: dict[ActionKind, Action] = {x.kind: x for x in a.legal}
    buttons: list[Button] = []
    kept = a.p.data.get("kept")
    if kept is not None and a.p.data.get("ahead") is None and not a.frozen:
        # chosen ahead, the free use kept (engine.premove): the choice is one tap
        page.add(a.t("game.turn.kept"), ahead_line(a.view, kept, a.lang))
        play = action_of({**kept, "decision": a.p.id})
        buttons.append((a.t("game.btn.play_kept"), act(play)))
    if ActionKind.PASS in kinds:
        buttons.append((a.t("game.btn.pass"), act(kinds[ActionKind.PASS])))
    if ActionKind.END in kinds:
        buttons.append((a.t("game.btn.end"), act(kinds[ActionKind.END])))
    if ActionKind.TRADE in kinds:
        buttons.append((a.t("game.btn.trade"), action_payloads.nav("tr")))
    attacks = {x.target: x for x in a.of(ActionKind.ATTACK) if x.target is not None}
    if 0 < len(attacks) <= INLINE_ATTACKS:
        # one tap (issue 27: the targets' page was an edit of its own, ~20 a 5-player game)
        for s in sorted(attacks):
            # no item count: "your turn is next" would be edited each time one changes
            label = a.t("game.btn.attack_player", name=a.label(s))
            buttons.append((label, act(attacks[s])))
    elif ActionKind.ATTACK in kinds:
        buttons.append((a.t("game.btn.attack"), action_payloads.nav("at")))
    if ActionKind.CLAIM in kinds:
        buttons.append((a.t("game.btn.claim"), action_payloads.nav("cl", 0)))
    if ActionKind.CLAIM_OTHER in kinds:
        buttons.append((a.t("game.btn.fortune"), action_payloads.nav("fo", 0)))
    if ActionKind.SOLO in kinds:
        buttons.append((a.t("game.btn.solo"), action_payloads.nav("so")))
    if ActionKind.DIPLOMAT in kinds:
        label = a.t("game.btn.more", label=occupation_label(a.lang, DIPLOMAT))
        buttons.append((label, action_payloads.nav("dp")))
    if ActionKind.CLAIRVOYANT in kinds:
        buttons.append((occupation_label(a.lang, CLAIRVOYANT), act(kinds[ActionKind.CLAIRVOYANT])))
    keep = kinds.get(ActionKind.KEEP_USE)
    if keep is not None:
        label = occupation_label(a.lang, a.me["occupation"])
        buttons.append((a.t(f"game.btn.keep_use_{keep.choice}", label=label), act(keep)))
    page.rows = grid(buttons, 2)
    page.info = [action_payloads.info_item(item_kind(c)) for c in a.me["items"]]
    if ActionKind.DIPLOMAT in kinds or ActionKind.CLAIRVOYANT in kinds:
        page.info.append(action_payloads.info_occupation(a.me["occupation"]))
        if not acted and a.p.data.get("ahead") is None and not a.frozen:  # its button, said
            label = occupation_label(a.lang, a.me["occupation"])
            page.lines.insert(2, a.t("game.turn.free_use", label=label))
    return page


def _ahead(a: Ask) -> Page:
    """The next turn, chosen ahead (engine.premove): whose turn it is, what is kept."""
    now = int(a.p.data["ahead"])
    page = Page([a.t("game.turn.next_title"), a.t("game.turn.next_body", name=a.name(now))])
    held = a.p.data.get("held")
    if held is not None:
        page.add(a.t("game.turn.next_held"), ahead_line(a.view, held, a.lang))
    if a.of(ActionKind.KEEP_USE):
        # a face-down Diplomat or Clairvoyant: what choosing ahead gives up, and how to keep it
        label = occupation_label(a.lang, a.me["occupation"])
        key = "game.turn.next_keep_on" if a.p.data.get("keep_use") else "game.turn.next_keep_off"
        page.add(a.t(key, label=label))
    page.add(a.hand)
    return page


def _player_buttons(a: Ask, seats: list[int], payload: dict[int, str]) -> list[list[Button]]:
    buttons = [
        (a.t("game.btn.player", name=a.label(s), items=a.table["players"][s]["items"]), payload[s])
        for s in seats
    ]
    return grid(buttons, 2)


def _trade(a: Ask, rest: list[str]) -> Page:
    targets = sorted({x.target for x in a.of(ActionKind.TRADE) if x.target is not None})
    if rest and rest[0].isdigit() and int(rest[0]) in targets:
        target = int(rest[0])
        page = Page([a.t("game.trade.title"), a.t("game.trade.pick_card", name=a.name(target))])
        card_buttons(a, page, [x for x in a.of(ActionKind.TRADE) if x.target == target])
        page.back = action_payloads.nav("tr")
        return page
    offers = {
        s: distinct_cards(x for x in a.of(ActionKind.TRADE) if x.target == s) for s in targets
    }
    if sum(len(o) for o in offers.values()) <= INLINE_OFFERS and _one_each(offers.values()):
        # every offer on this page (issue 27: the item's page was an edit of its own), unless
        # one reads cut on a phone ("👜 Geheimer Koffer (Schlüssel) → 🤖 Bruno · 🎒5"): then
        # the player first, then the item, each whole
        page = Page([a.t("game.trade.title"), a.t("game.trade.pick_offer"), a.hand])
        cards = dict.fromkeys(item_kind(o.card) for got in offers.values() for o in got if o.card)
        for kind in cards:
            buttons: list[Button] = []
            for s in targets:
                for o in offers[s]:
                    if o.card is not None and item_kind(o.card) == kind:
                        items = a.table["players"][s]["items"]
                        card = card_label(a.lang, o.card)
                        label = a.t("game.btn.offer_to", card=card, name=a.label(s), items=items)
                        buttons.append((label, act(o)))
            page.rows += grid(buttons, 2)
            page.info.append(action_payloads.info_item(kind))
        page.back = action_payloads.nav()
        if fits([b[0] for row in page.rows for b in row], 1):
            return page
    page = Page([a.t("game.trade.title"), a.t("game.trade.pick_target"), a.hand])
    page.rows = _player_buttons(a, targets, {s: action_payloads.nav("tr", s) for s in targets})
    page.back = action_payloads.nav()
    return page


def _one_each(offers: Iterable[list[Action]]) -> bool:
    """Each item offered to each player is one action (not two, with and without its trade
    effect: the Smuggling variant, R-T9)."""
    return all(len({item_kind(o.card) for o in got if o.card}) == len(got) for got in offers)


def _attack(a: Ask) -> Page:
    page = Page([a.t("game.attack.title"), a.t("game.attack.pick_target")])
    attacks = {x.target: act(x) for x in a.of(ActionKind.ATTACK) if x.target is not None}
    page.rows = _player_buttons(a, sorted(attacks), attacks)
    page.back = action_payloads.nav()
    return page


def _diplomat(a: Ask, rest: list[str]) -> Page:
    label = occupation_label(a.lang, DIPLOMAT)
    demands = a.of(ActionKind.DIPLOMAT)
    targets = sorted({x.target for x in demands if x.target is not None})
    page = Page([a.t("game.diplomat.title", label=label)])
    page.info.append(action_payloads.info_occupation(DIPLOMAT))
    if rest and rest[0].isdigit() and int(rest[0]) in targets:
        target = int(rest[0])
        page.add(a.t("game.diplomat.pick_item", name=a.name(target)))
        buttons = []
        for x in demands:
            if x.target == target and x.card is not None:
                buttons.append((fmt.item_name(a.lang, x.card), act(x)))
        # the item names alone: one ℹ️ per name would double the page (31 buttons, issue 25)
        page.rows = grid(buttons, 2)
        page.back = action_payloads.nav("dp")
        return page
    page.add(a.t("game.diplomat.pick_target"))
    page.rows = _player_buttons(a, targets, {s: action_payloads.nav("dp", s) for s in targets})
    page.back = action_payloads.nav()
    return page


def diplomat_give_page(a: Ask, path: list[str]) -> Page:
    receive = a.p.data["receive"]
    target = a.p.data["target"]
    page = Page(
        [
            a.t("game.diplomat.title", label=occupation_label(a.lang, DIPLOMAT)),
            a.telling(
                "game.diplomat_give.body", name=a.name(target), card=card_label(a.lang, receive)
            ),
        ]
    )
    page.info.append(action_payloads.info_item(item_kind(receive)))
    card_buttons(a, page, a.legal)
    return page


def clairvoyant_page(a: Ask, path: list[str]) -> Page:
    orders = a.of(ActionKind.ORDER)
    top_first = list(a.p.data["pile"])
    page = Page(
        [
            a.t("game.clairvoyant.title", label=occupation_label(a.lang, CLAIRVOYANT)),
            a.t("game.clairvoyant.pile", cards=_numbered(a, top_first)),
        ]
    )
    page.info = [action_payloads.info_item(item_kind(c)) for c in top_first]
    first = _first_choice(path, orders)
    if first is None:  # two cards go on top, chosen one at a time
        two = len(orders[0].cards) > 1
        page.add(a.asking("game.clairvoyant.pick_two" if two else "game.clairvoyant.pick_first"))
        if len(orders) == 1:
            page.rows = [[(card_label(a.lang, orders[0].cards[0]), act(orders[0]))]]
            return page
        firsts = _distinct(orders, 0)
        buttons = [
            (card_label(a.lang, o.cards[0]), action_payloads.nav(action_payloads.code(o.cards[0])))
            for o in firsts
        ]
        page.rows = grid(buttons, 2)
        return page
    page.add(a.t("game.clairvoyant.pick_second", card=card_label(a.lang, first)))
    seconds = _distinct([o for o in orders if o.cards[0] == first], 1)
    page.rows = grid([(card_label(a.lang, o.cards[1]), act(o)) for o in seconds], 2)
    page.back = action_payloads.nav()
    return page


def _first_choice(path: list[str], orders: list[Action]) -> str | None:
    if len(path) != 1:
        return None
    try:
        card = action_payloads.word(path[0])
    except action_payloads.BadPayload:
        return None
    return card if any(len(o.cards) == 2 and o.cards[0] == card for o in orders) else None


def _distinct(orders: list[Action], index: int) -> list[Action]:
    seen: set[str] = set()
    out = []
    for o in orders:
        k = item_kind(o.cards[index])
        if k not in seen:
            seen.add(k)
            out.append(o)
    return out


def _numbered(a: Ask, cards: list[str]) -> str:
    return "\n".join(
        a.t("game.list.numbered", n=i + 1, text=card_label(a.lang, c)) for i, c in enumerate(cards)
    )
