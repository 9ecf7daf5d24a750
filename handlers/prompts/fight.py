"""Fights (R-A1…R-A10): Priest, support, Hypnotist, boost and Doctor windows, rewards."""

from __future__ import annotations

from engine.cards import DOCTOR, HYPNOTIST, OCCUPATIONS, POISON_MIXER, POISON_RING, PRIEST
from engine.kinds import ActionKind
from handlers import action_payloads, fmt
from handlers.card_labels import card_label, item_kind, occupation_label
from handlers.i18n import t
from handlers.prompts.base import Ask, Button, Page, act, card_buttons, grid


def played_label(lang: str, card: str) -> str:
    return occupation_label(lang, card) if card in OCCUPATIONS else card_label(lang, card)


def fight_header(table: fmt.Table, lang: str) -> str:
    """Who attacks whom (``table["fight"]`` must be set)."""
    fight = table["fight"]
    assert fight is not None
    attacker, defender = fmt.name(table, fight["attacker"]), fmt.name(table, fight["defender"])
    return t(lang, "game.fight.header", attacker=attacker, defender=defender)


def fight_lines(table: fmt.Table, lang: str, frozen: bool = False) -> list[str]:
    """The fight so far, as the whole table saw it: supports, void supports, cards played and
    the strengths they make (all public, R-V1). ``table`` is the public view. ``frozen``: in a
    message that will not be edited as the fight goes on (answered, closed, told once), the
    strength is said as of that moment, never as "now" (issue 25)."""
    fight = table["fight"]
    if fight is None or fight["strength"] is None:
        return []
    a, d = fight["attacker"], fight["defender"]
    out = [fight_header(table, lang)]
    sides: dict[str, list[int]] = {"attacker": [], "defender": [], "neutral": []}
    for seat_s, side in fight["supports"].items():
        sides[side].append(int(seat_s))
    if any(sides.values()):
        out.append(
            t(
                lang,
                "game.fight.supports",
                attacker=fmt.names(table, lang, sides["attacker"]),
                defender=fmt.names(table, lang, sides["defender"]),
                neutral=fmt.names(table, lang, sides["neutral"]),
            )
        )
    if fight["hypnotized"] is not None:
        out.append(t(lang, "game.fight.hypnotized", name=fmt.name(table, fight["hypnotized"])))
    for seat, card, choice in fight["played"]:
        if choice is not None:
            made_win = a if choice == "attacker" else d
            text = t(
                lang,
                "game.fight.played_mixer",
                name=fmt.name(table, seat),
                card=played_label(lang, card),
                winner=fmt.name(table, made_win),
            )
        else:
            text = t(
                lang, "game.fight.played", name=fmt.name(table, seat), card=played_label(lang, card)
            )
        out.append(text)
    att, dfn = fight["strength"]
    how = fight["how"]
    if not fight["decided"]:
        key = "game.fight.strength_then" if frozen else "game.fight.strength"
        out.append(t(lang, key, attack=att, defence=dfn))
    elif how == "tie":
        out.append(t(lang, "game.fight.result_tie", attack=att, defence=dfn))
    else:
        assert fight["winner"] is not None  # decided, not a tie
        winner = fmt.name(table, fight["winner"])
        out.append(
            t(
                lang,
                f"game.fight.result_{how}",
                attack=att,
                defence=dfn,
                name=winner,
                ring=card_label(lang, POISON_RING),
                mixer=occupation_label(lang, POISON_MIXER),
            )
        )
    return out


def _window(a: Ask, occ: str, body: str, **params: object) -> Page:
    page = Page([a.t("game.window.title", label=occupation_label(a.lang, occ))])
    if occ == HYPNOTIST:  # whom to void: the supports matter
        page.lines += fight_lines(a.table, a.lang, a.frozen)
    else:  # read in a window's 5 s (R-D1, issue 25): who fights whom and, known, the result
        fight = a.table["fight"]
        decided = fight is not None and fight["decided"]
        page.lines += [fight_header(a.table, a.lang)]
        page.lines += fight_lines(a.table, a.lang, a.frozen)[-1:] if decided else []
    page.add(a.asking(body, label=occupation_label(a.lang, occ), **params))
    page.info.append(action_payloads.info_occupation(occ))
    return page


def priest_page(a: Ask, path: list[str]) -> Page:
    page = _window(a, PRIEST, "game.priest.body")
    page.rows = [
        [
            (
                a.t("game.btn.use", label=occupation_label(a.lang, PRIEST)),
                act(a.of(ActionKind.USE)[0]),
            )
        ],
        [(a.t("game.btn.not_now"), act(a.of(ActionKind.PASS)[0]))],
    ]
    return page


def doctor_page(a: Ask, path: list[str]) -> Page:
    page = _window(a, DOCTOR, "game.doctor.body")
    page.rows = [
        [
            (
                a.t("game.btn.use", label=occupation_label(a.lang, DOCTOR)),
                act(a.of(ActionKind.USE)[0]),
            )
        ],
        [(a.t("game.btn.not_now"), act(a.of(ActionKind.PASS)[0]))],
    ]
    return page


def hypnotist_page(a: Ask, path: list[str]) -> Page:
    page = _window(a, HYPNOTIST, "game.hypnotist.body")
    buttons = [
        (a.label(x.target), act(x)) for x in a.of(ActionKind.HYPNOTIZE) if x.target is not None
    ]
    page.rows = grid(buttons, 2)
    page.rows.append([(a.t("game.btn.not_now"), act(a.of(ActionKind.PASS)[0]))])
    return page


def support_page(a: Ask, path: list[str]) -> Page:
    att, dfn = a.p.data["attacker"], a.p.data["defender"]
    page = Page([a.t("game.support.title")])
    # Before one's turn, a declaration told leaves the prompt as shown (issue 27,
    # ``prompt_versions``): its strength is said as of then, never "now" (issue 25).
    page.lines += fight_lines(a.table, a.lang, a.frozen or bool(a.p.data.get("before")))
    page.add(a.asking("game.support.body"))
    names = {"attacker": a.label(att), "defender": a.label(dfn)}
    buttons: list[Button] = []
    for x in a.of(ActionKind.SUPPORT):
        choice = x.choice or "neutral"
        buttons.append((a.t(f"game.btn.support_{choice}", name=names.get(choice, "")), act(x)))
    page.rows = grid(buttons, 1)
    _support_order(a, page)
    _during_window(a, page, PRIEST)
    return page


def _support_order(a: Ask, page: Page) -> None:
    """R-A3 (issue 9): asked before its turn, a supporter sees who declares before it and may
    declare now; the declaration is kept from everyone, and may be changed, until it is told."""
    data = a.p.data
    before = data.get("before") or []
    if before:
        page.add(a.asking("game.support.ahead", names=fmt.names(a.table, a.lang, before)))
    held = data.get("declared")
    if held is not None:
        about = data["attacker"] if held == "attacker" else data["defender"]
        # the first in the order has no turn to wait for: only the window's end (issue 25)
        key = "held" if before else "held_window"
        page.add(a.asking(f"game.support.{key}.{held}", name=a.name(about)))


def _during_window(a: Ask, page: Page, occupation: str) -> None:
    """A decision asked while a Priest or Doctor window is open (engine.fight's riders): it
    takes effect when the window closes; a seat holding that occupation may use it instead."""
    if "early" not in a.p.data:
        return
    page.add(a.asking(f"game.early.{a.p.kind}", label=occupation_label(a.lang, occupation)))
    for x in a.of(ActionKind.USE):
        page.rows.append(
            [(a.t("game.btn.use", label=occupation_label(a.lang, occupation)), act(x))]
        )
    for x in a.of(ActionKind.PASS):  # a supporter holding the Priest may say "not now" to it
        page.rows.append([(a.t("game.btn.not_now"), act(x))])


def boost_page(a: Ask, path: list[str]) -> Page:
    page = Page([a.t("game.boost.title")])
    page.lines += fight_lines(a.table, a.lang, a.frozen)
    plays = a.of(ActionKind.PLAY)
    page.add(a.asking("game.boost.body") if plays else a.t("game.boost.nothing"), a.hand)
    att, dfn = a.p.data["attacker"], a.p.data["defender"]
    buttons: list[Button] = []
    wide: list[Button] = []  # "🧪 Giftmischer: 🤖 Elfriede gewinnt" was cut off two to a row
    for x in plays:
        card = x.card or ""
        if card == POISON_MIXER:
            winner = a.label(att if x.choice == "attacker" else dfn)
            label = a.t("game.btn.mixer", label=occupation_label(a.lang, card), name=winner)
            wide.append((label, act(x)))
        else:
            buttons.append((played_label(a.lang, card), act(x)))
        is_occ = card in OCCUPATIONS
        page.info.append(
            action_payloads.info_occupation(card)
            if is_occ
            else action_payloads.info_item(item_kind(card))
        )
    page.rows = grid(buttons, 2) + grid(wide, 1)
    page.rows.append([(a.t("game.btn.done"), act(a.of(ActionKind.PASS)[0]))])
    return page


def reward_page(a: Ask, path: list[str]) -> Page:
    loser = a.p.data["loser"]
    page = Page([a.t("game.reward.title")])
    page.lines += fight_lines(a.table, a.lang, a.frozen)
    page.add(a.telling("game.reward.body", name=a.name(loser)))
    page.rows = [
        [(a.t("game.btn.reward_look"), act(a.of(ActionKind.LOOK)[0]))],
        [(a.t("game.btn.reward_take"), act(a.of(ActionKind.TAKE)[0]))],
    ]
    _during_window(a, page, DOCTOR)
    return page


def reward_take_page(a: Ask, path: list[str]) -> Page:
    loser = a.p.data["loser"]
    items = a.p.data["hand"]
    page = Page(
        [
            a.t("game.reward.title"),
            a.telling("game.reward_take.body", name=a.name(loser), cards=fmt.cards(a.lang, items)),
        ]
    )
    card_buttons(a, page, a.of(ActionKind.TAKE))
    return page


def giveback_page(a: Ask, path: list[str]) -> Page:
    loser = a.p.data["loser"]
    page = Page([a.t("game.reward.title")])
    took = _taken_from(a, loser)
    if took is not None:  # the loser's only item, taken without asking (R-A9)
        page.add(a.t("game.giveback.took", card=fmt.cards(a.lang, [took]), name=a.name(loser)))
    page.add(a.telling("game.giveback.body", name=a.name(loser)))
    page.add(a.hand)
    card_buttons(a, page, a.of(ActionKind.GIVE))
    return page


def _taken_from(a: Ask, loser: int) -> str | None:
    """The item the winner just took from ``loser`` (their latest note of it)."""
    for note in reversed(a.view["notes"]):
        if note.get("k") == "got_item" and note.get("how") == "fight":
            return str(note["card"]) if note.get("about") == loser else None
    return None


def priest_tribute_page(a: Ask, path: list[str]) -> Page:
    priest = a.p.data["priest"]
    page = Page(
        [
            a.t("game.window.title", label=occupation_label(a.lang, PRIEST)),
            a.telling(
                "game.priest_tribute.body",
                name=a.name(priest),
                label=occupation_label(a.lang, PRIEST),
            ),
            a.hand,
        ]
    )
    card_buttons(a, page, a.of(ActionKind.GIVE))
    return page
