"""Decision prompts: the pending decision of one seat as a text and rows of (label, payload)
buttons. The buttons are the legal actions (``apply`` re-checks); multi-step choices walk
through navigation payloads (see :mod:`handlers.action_payloads`)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from engine.actions import Action
from engine.kinds import ActionKind, DecisionKind
from engine.view_types import Me, PublicView, SeatView
from handlers import action_payloads, fmt
from handlers.card_labels import association_label, cards, drink_label, occupation_label
from handlers.i18n import t
from handlers.prompts import fight, trade, turn
from handlers.prompts.answer import answer_line
from handlers.prompts.base import (
    MAX_BUTTONS,
    MAX_PER_ROW,
    Ask,
    Page,
    Prompt,
    Rows,
    ask,
    info_row,
)

PAGES: dict[DecisionKind, Callable[[Ask, list[str]], Page]] = {
    DecisionKind.TURN: turn.turn_page,
    DecisionKind.DIPLOMAT_GIVE: turn.diplomat_give_page,
    DecisionKind.CLAIRVOYANT: turn.clairvoyant_page,
    DecisionKind.TRADE_ANSWER: trade.trade_answer_page,
    DecisionKind.SMUGGLE: trade.smuggle_page,
    DecisionKind.SEXTANT_DIR: trade.sextant_dir_page,
    DecisionKind.SEXTANT_PASS: trade.sextant_pass_page,
    DecisionKind.TOME: trade.tome_page,
    DecisionKind.COAT: trade.coat_page,
    DecisionKind.LOOK_POS: trade.look_pos_page,
    DecisionKind.GIFT: trade.gift_page,
    DecisionKind.PRIEST: fight.priest_page,
    DecisionKind.PRIEST_TRIBUTE: fight.priest_tribute_page,
    DecisionKind.SUPPORT: fight.support_page,
    DecisionKind.HYPNOTIST: fight.hypnotist_page,
    DecisionKind.BOOST: fight.boost_page,
    DecisionKind.DOCTOR: fight.doctor_page,
    DecisionKind.REWARD: fight.reward_page,
    DecisionKind.REWARD_TAKE: fight.reward_take_page,
    DecisionKind.GIVEBACK: fight.giveback_page,
}

INFO_MAX = 200  # answerCallbackQuery alerts


def _page(a: Ask, nav: str) -> Page:
    path = nav.removeprefix("~")
    return PAGES[a.p.kind](a, path.split(".") if path else [])


def render_prompt(
    view: SeatView,
    legal: list[Action],
    lang: str,
    nav: str = "",
    seconds_left: int | None = None,
    *,
    frozen: bool = False,
) -> Prompt:
    """The decision a seat faces now, on the page ``nav`` ("" or "~" is the root), from the
    seat's ``engine.view`` and ``engine.legal_actions``. ``frozen``: the text of a message that
    stays as it is (told once, closed), its numbers said as of now."""
    a = ask(view, legal, lang, _hand(view, lang))
    if a is not None and frozen:
        a = dataclasses.replace(a, frozen=True)
    if a is None:
        return Prompt(t(lang, "game.prompt.nothing"), [])
    page = _page(a, nav)
    rows = _split([row for row in page.rows if row])
    info = info_row(lang, page.info)
    back = [[(t(lang, "game.btn.back"), page.back)]] if page.back is not None else []
    if _count(rows + info + back) > MAX_BUTTONS:
        info = []  # the card texts stay one /rules away
    rows = rows + info + back
    text = fmt.truncate(fmt.lines(*page.lines, fmt.time_left(lang, seconds_left)))
    return Prompt(text, rows)


def _hand(view: SeatView, lang: str, *, then: bool = False) -> str:
    """The seat's hand as its pages show it: made once for a prompt. ``then``: an answered
    prompt that gave an item away shows the hand chosen from, said as such (issue 25)."""
    key = "game.prompt.hand_then" if then else "game.prompt.hand"
    return t(lang, key, cards=cards(lang, view["me"]["items"]))


def _split(rows: Rows) -> Rows:
    return [row[i : i + MAX_PER_ROW] for row in rows for i in range(0, len(row), MAX_PER_ROW)]


def _count(rows: Rows) -> int:
    return sum(len(r) for r in rows)


# Decisions whose prompt shows the fight as it stands (``fight.fight_lines``) and the hand
FIGHT_PROMPTS = frozenset(
    {
        DecisionKind.PRIEST,
        DecisionKind.SUPPORT,
        DecisionKind.HYPNOTIST,
        DecisionKind.BOOST,
        DecisionKind.DOCTOR,
    }
)


@dataclasses.dataclass(frozen=True)
class Question:
    """What a seat is asked, or was when it answered: its ``engine.view`` and
    ``engine.legal_actions`` then, and its language."""

    view: SeatView
    legal: list[Action]
    lang: str


@dataclasses.dataclass(frozen=True)
class Answered:
    """A prompt answered (``asked``, then ``action``); ``now``: the seat's view when its text is
    shown (``render_answered``)."""

    asked: Question
    action: Action
    now: SeatView | None = None


@dataclasses.dataclass(frozen=True)
class Answer:
    """A prompt answered, without buttons: the lines it asked and the choice made, one line."""

    asked: tuple[str, ...]
    chosen: str

    def text(self, why: str | None = None) -> str:
        """The answered prompt's text; ``why``: a line saying why the choice was made for the
        seat, above the choice."""
        return fmt.truncate(fmt.lines(*self.asked, why, self.chosen))


@dataclasses.dataclass(frozen=True)
class Rendered:
    """Every prompt a command shows, by seat: the ones answered and the ones asked."""

    answers: dict[int, Answer]
    prompts: dict[int, Prompt]


def render_all(answered: dict[int, Answered], asked: dict[int, Question]) -> Rendered:
    """The prompts of one command, rendered in one call: each answered one as it was with its
    choice (``answer``), each asked one on its root page (``render_prompt``)."""
    return Rendered(
        {seat: answer(a.asked, a.action, a.now) for seat, a in answered.items()},
        {seat: render_prompt(q.view, q.legal, q.lang) for seat, q in asked.items()},
    )


def answer(asked: Question, action: Action, view_now: SeatView | None = None) -> Answer:
    """The prompt as it was (from the seat's view and legal actions before the answer), without
    buttons, and the choice made. ``view_now``: the seat's view when this text is shown; a fight
    prompt's strengths and hand are said as of then (a card of one's own just played changed
    them: every number in a prompt is true when shown, issue 25)."""
    view, lang = asked.view, asked.lang
    if view_now is not None:
        view = _fight_as_of_now(view, view_now)
    mine = view["decision"]
    # a refused offer gave nothing: the hand is said as it is (it was "Items you chose from")
    giving = (
        mine is not None and mine["kind"] in GIVING_PROMPTS and action.kind != ActionKind.REFUSE
    )
    a = ask(view, asked.legal, lang, _hand(view, lang, then=giving))
    lines = _page(dataclasses.replace(a, frozen=True), "").lines if a is not None else []
    return Answer(tuple(lines), answer_line(view, action, lang))


def render_answered(
    view_before: SeatView,
    legal_before: list[Action],
    action: Action,
    lang: str,
    view_now: SeatView | None = None,
) -> str:
    """``answer``'s text."""
    return answer(Question(view_before, legal_before, lang), action, view_now).text()


# Decisions that ask which of one's own items to give away: once answered, the hand (and the
# hand limit's count) are the ones the player chose from, said in the past ("Items you chose
# from"): the hand after the gift read as if the item given had never been there (issue 25)
GIVING_PROMPTS = frozenset(
    {
        DecisionKind.GIFT,
        DecisionKind.GIVEBACK,
        DecisionKind.PRIEST_TRIBUTE,
        DecisionKind.TRADE_ANSWER,
    }
)


def _fight_as_of_now(before: SeatView, now: SeatView) -> SeatView:
    """``before``, with the fight and the seat's items of ``now`` when it asked a fight's
    decision and that fight is still on (the same attacker and defender)."""
    mine, fight, fight_now = before["decision"], before["table"]["fight"], now["table"]["fight"]
    if mine is None or mine["kind"] not in FIGHT_PROMPTS or fight is None or fight_now is None:
        return before
    if (fight["attacker"], fight["defender"]) != (fight_now["attacker"], fight_now["defender"]):
        return before
    later = mine["kind"] != DecisionKind.BOOST and len(fight_now["played"]) > len(fight["played"])
    if later or fight_now["hypnotized"] != fight["hypnotized"]:
        # cards played after it (an AI's, at once) would read as played before, "💫 X is
        # hypnotized" above "✔️ You hypnotize X" (issue 25): the fight as asked, its strength as
        # of now (the void support said "4 : 1" when it made 3 : 1)
        if fight_now["strength"] is None:
            return before
        fight = {**fight, "strength": fight_now["strength"]}
        return {**before, "table": {**before["table"], "fight": fight}}
    table: PublicView = {**before["table"], "fight": fight_now}
    me: Me = {**before["me"], "items": list(now["me"]["items"])}
    return {**before, "table": table, "me": me}


def render_info(lang: str, info: action_payloads.Info) -> str:
    """A card's name and text for an alert: the catalogs keep every one within INFO_MAX
    UTF-16 units (Telegram's limit), so it is never cut."""
    if info.kind == "item":
        label = fmt.item_name(lang, info.id)
        text = t(lang, f"item.{info.id}.text")
    elif info.kind == "occupation":
        label, text = occupation_label(lang, info.id), t(lang, f"occupation.{info.id}.text")
    elif info.kind == "association":
        label, text = association_label(lang, info.id), t(lang, f"association.{info.id}.text")
    else:
        label, text = drink_label(lang), t(lang, "drink.text")
    return t(lang, "game.info", label=label, text=text)


__all__ = [
    "PAGES",
    "Answer",
    "Answered",
    "Prompt",
    "Question",
    "Rendered",
    "answer",
    "render_all",
    "render_answered",
    "render_info",
    "render_prompt",
]
