"""Declaring victory: the ally multi-select (a bitmask in the navigation path), the confirmation
that shows what the player can know (R-W6), Fortune-telling (R-W7) and the Coat of Arms solo."""

from __future__ import annotations

from engine.actions import Action
from engine.cards import ASSOCIATIONS, COAT_OF_ARMS, GOAL_KIND
from engine.kinds import ActionKind
from engine.view_types import Note, seen_card, seen_hand
from handlers import action_payloads, fmt
from handlers.card_labels import association_label, card_label, drink_label
from handlers.prompts.base import Ask, Button, Page, act, grid

_KIND = {"cl": ActionKind.CLAIM, "fo": ActionKind.CLAIM_OTHER}


def claim_page(a: Ask, head: str, rest: list[str]) -> Page | None:
    if head == "so":
        return _solo(a) if a.of(ActionKind.SOLO) else None
    kind = _KIND[head]
    if not a.of(kind):
        return None
    mask = _mask(a, rest[0]) if rest else None
    if mask is None:
        return None
    if rest[1:] == ["ok"]:
        return _confirm(a, head, kind, mask)
    return _select(a, head, kind, mask)


def _mask(a: Ask, raw: str) -> int | None:
    if not raw.isdigit() or len(raw) > 4:
        return None
    mask = int(raw)
    if mask >= 1 << a.seats or mask & (1 << a.seat):
        return None
    return mask


def _seats(mask: int, n: int) -> list[int]:
    return [s for s in range(n) if mask & (1 << s)]


def _sides(a: Ask, kind: ActionKind) -> tuple[str, str]:
    """The association whose goal items count, and the goal item's label."""
    mine = a.me["association"]
    side = mine if kind == ActionKind.CLAIM else next(x for x in ASSOCIATIONS if x != mine)
    return side, card_label(a.lang, GOAL_KIND[side])


def _title(a: Ask, kind: ActionKind) -> str:
    return a.t("game.claim.title" if kind == ActionKind.CLAIM else "game.fortune.title")


def _select(a: Ask, head: str, kind: ActionKind, mask: int) -> Page:
    side, goal = _sides(a, kind)
    chosen = _seats(mask, a.seats)
    page = Page(
        [
            _title(a, kind),
            a.t(
                "game.claim.select" if kind == ActionKind.CLAIM else "game.fortune.select",
                goal=goal,
                association=association_label(a.lang, side),
            ),
            a.t("game.claim.chosen", names=fmt.names(a.table, a.lang, chosen)),
        ]
    )
    buttons: list[Button] = []
    for s in range(a.seats):
        if s == a.seat:
            continue
        key = "game.btn.toggle_on" if mask & (1 << s) else "game.btn.toggle_off"
        buttons.append((a.t(key, name=a.label(s)), action_payloads.nav(head, mask ^ (1 << s))))
    page.rows = grid(buttons, 2)
    page.rows.append([(a.t("game.btn.continue"), action_payloads.nav(head, mask, "ok"))])
    page.info = _info(a, side)
    page.back = action_payloads.nav()
    return page


def _info(a: Ask, side: str) -> list[str]:
    out = [action_payloads.info_association(side), action_payloads.info_item(GOAL_KIND[side])]
    return [*out, action_payloads.INFO_DRINK] if a.me["drink"] else out


def _confirm(a: Ask, head: str, kind: ActionKind, mask: int) -> Page:
    me = a.me
    side, goal = _sides(a, kind)
    chosen = _seats(mask, a.seats)
    page = Page([_title(a, kind)])
    if chosen:
        page.add(a.t("game.claim.named", names=fmt.names(a.table, a.lang, chosen)))
    else:
        page.add(a.t("game.claim.named_none"))
    if kind == ActionKind.CLAIM:
        page.add(a.t("game.claim.own", count=me["goals"][side], goal=goal))
        if me["drink"]:
            page.add(a.t("game.claim.drink", drink=drink_label(a.lang)))
        page.add(a.t("game.claim.rule", goal=goal))
    else:
        page.add(a.t("game.fortune.rule", goal=goal, association=association_label(a.lang, side)))
    if chosen:
        notes = a.view["notes"]
        page.add(a.t("game.claim.notes"))
        page.lines += [_knowledge(a, s, notes) for s in chosen]
    action = Action(kind, a.seat, a.p.id, seats=tuple(chosen))
    confirm = "game.btn.confirm_claim" if kind == ActionKind.CLAIM else "game.btn.confirm_fortune"
    page.rows = [
        [(a.t(confirm), act(action))],
        [(a.t("game.btn.change_allies"), action_payloads.nav(head, mask))],
    ]
    page.info = _info(a, side)
    page.back = action_payloads.nav()
    return page


def _knowledge(a: Ask, about: int, notes: list[Note]) -> str:
    """What ``a.seat``'s notebook says about ``about``: association, last full look at the items
    and every single item seen changing hands with them since."""
    mine = [n for n in notes if n.get("about") == about]
    assoc = next((n for n in reversed(mine) if n["k"] in ("saw_association", "revealed")), None)
    if assoc is None:
        assoc_text = a.t("game.claim.assoc_unknown")
    elif assoc["k"] == "revealed":
        assoc_text = a.t(
            "game.claim.assoc_known",
            assoc=fmt.assoc_cards(a.lang, seen_hand(assoc)),
            round=assoc["round"],
        )
    elif (position := assoc.get("position")) is not None:
        assoc_text = a.t(
            "game.claim.assoc_one_card",
            assoc=association_label(a.lang, seen_card(assoc)),
            position=position + 1,
            round=assoc["round"],
        )
    else:
        assoc_text = a.t(
            "game.claim.assoc_known",
            assoc=association_label(a.lang, seen_card(assoc)),
            round=assoc["round"],
        )
    parts = [assoc_text, _items_known(a, mine)]
    parts.append(a.t("game.claim.count_now", count=a.table["players"][about]["items"]))
    return a.t("game.claim.about", name=a.name(about), text=a.t("game.list.semi").join(parts))


def _items_known(a: Ask, mine: list[Note]) -> str:
    """The items the notebook places in that hand: the last full look, then every single item
    seen offered, given to or taken from them since."""
    known: list[str] = []
    when = None
    for n in mine:
        k = n["k"]
        if k in ("saw_items", "revealed"):
            known = list(n["items" if k == "revealed" else "cards"])
        elif k in ("saw_item", "gave_item") and n["card"] not in known:
            known.append(n["card"])
        elif k == "got_item" and n["card"] in known:
            known.remove(n["card"])
        else:
            continue
        when = n["round"]
    if when is None:
        return a.t("game.claim.items_unknown")
    return a.t("game.claim.items_known", cards=fmt.cards(a.lang, known), round=when)


def _solo(a: Ask) -> Page:
    page = Page(
        [
            a.t("game.solo.title"),
            a.t(
                "game.solo.body",
                coa=card_label(a.lang, COAT_OF_ARMS),
                count=sum(a.me["goals"].values()),
            ),
            a.hand,
        ]
    )
    page.rows = [[(a.t("game.btn.confirm_solo"), act(a.of(ActionKind.SOLO)[0]))]]
    page.info.append(action_payloads.info_item(COAT_OF_ARMS))
    page.back = action_payloads.nav()
    return page
