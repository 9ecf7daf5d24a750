"""Issue 25 (a reviewer's recorded games): a prompt's closed form — answered, its time run out,
or closed with nothing left to choose — no longer asks. An answered boost window that ran out
read "Play fight cards … or tap Done" above "⌛ Time ran out: ✔️ Done."; a support read "Whom do
you support?" above "✔️ You stay neutral."; a trade answer "Accept by choosing the item you give
back, or refuse." above the choice. Checked for every decision kind, in every language."""

from __future__ import annotations

import re

import pytest

import engine
from engine.kinds import ActionKind, DecisionKind
from handlers import fmt, prompts
from handlers.i18n import LANGUAGES, catalog, t
from tests.unit import playouts

# Catalog lines that ask (a question, what to tap, how to answer): never in a closed prompt
ASKING = (
    "game.boost.body",
    "game.support.body",
    "game.support.ahead",
    "game.support.held.attacker",
    "game.support.held_window.neutral",
    "game.early.support",
    "game.early.reward",
    "game.hypnotist.body",
    "game.priest.body",
    "game.doctor.body",
    "game.turn.choose",
    "game.turn.choose_claim",
    "game.turn.after",
    "game.turn.free_use",
    "game.answer_trade.choose",
    "game.answer_trade.forced",
    "game.sextant.pick_direction",
    "game.sextant.pick_item",
    "game.gift.pick_card",
    "game.clairvoyant.pick_two",
    "game.clairvoyant.pick_first",
    "game.reward.body",
    "game.reward_take.body",
    "game.giveback.body",
    "game.priest_tribute.body",
    "game.coat.body",
    "game.tome.body",
    "game.look_pos.body",
    "game.smuggle.body",
    "game.diplomat_give.body",
)


def _pattern(text: str) -> re.Pattern[str]:
    """A catalog text as a pattern: its placeholders match anything."""
    parts = re.split(r"\{[a-z_]+\}", text)
    return re.compile(".+?".join(re.escape(p) for p in parts), re.DOTALL)


PATTERNS = {lang: {k: _pattern(catalog(lang)[k]) for k in ASKING} for lang in LANGUAGES}


def asks(text: str, lang: str) -> list[str]:
    return [k for k, pattern in PATTERNS[lang].items() if pattern.search(text)]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_an_answered_prompt_of_every_kind_no_longer_asks(lang: str) -> None:
    """Every decision kind answered (by a player or for them, the clock's default: the text is
    the same, with the reason above the choice) shows what it asked about and the choice, no
    line that asks."""
    kinds: set[str] = set()
    wrong: dict[str, list[str]] = {}
    for seed in range(100, 160):
        for step in playouts.game(seed):
            st = step.before
            p = st.pending
            if step.seat is None or p is None or (p.kind in kinds and p.kind != DecisionKind.TURN):
                continue
            kinds.add(p.kind)
            view = engine.view(st, step.seat)
            legal = engine.legal_actions(st, step.seat)
            answered = prompts.render_answered(view, legal, step.action, lang)
            timed_out = prompts.answer(prompts.Question(view, legal, lang), step.action).text("⌛")
            for text in (answered, timed_out):
                if found := asks(text, lang):
                    wrong.setdefault(p.kind, found)
        if kinds >= set(prompts.PAGES):
            break
    assert kinds == set(prompts.PAGES)
    assert not wrong, wrong


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_prompt_closed_with_nothing_chosen_no_longer_asks(lang: str) -> None:
    """A prompt left as it stands when closed (``render_prompt(frozen=True)``: a boost window
    with nothing left to play) keeps its facts and asks nothing."""
    kinds: set[str] = set()
    for seed in range(100, 130):
        for step in playouts.game(seed):
            st = step.before
            p = st.pending
            if step.seat is None or p is None or p.kind in kinds:
                continue
            kinds.add(p.kind)
            view = engine.view(st, step.seat)
            legal = engine.legal_actions(st, step.seat)
            text = prompts.render_prompt(view, legal, lang, frozen=True).text
            assert not asks(text, lang), (p.kind, text)
            assert (
                text.split("\n")[0] == prompts.render_prompt(view, legal, lang).text.split("\n")[0]
            )
    assert {"turn", "support", "boost", "trade_answer"} <= kinds


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_refused_trade_does_not_say_the_items_were_chosen_from(lang: str) -> None:
    """A reviewer's game: "🔄 Trade offer from P4 / … / Items you chose from: … / ✔️ You
    refuse P4's offer." Nothing was chosen from them: a refusal keeps the hand, said as it is;
    an accepted offer says the hand the item given back was chosen from."""
    seen = set()
    for seed in range(100, 160):
        for step in playouts.game(seed):
            st, p = step.before, step.before.pending
            if step.seat is None or p is None or p.kind != DecisionKind.TRADE_ANSWER:
                continue
            view = engine.view(st, step.seat)
            legal = engine.legal_actions(st, step.seat)
            text = prompts.render_answered(view, legal, step.action, lang)
            cards = fmt.cards(lang, view["me"]["items"])
            then = t(lang, "game.prompt.hand_then", cards=cards)
            now = t(lang, "game.prompt.hand", cards=cards)
            refused = step.action.kind == ActionKind.REFUSE
            assert (now in text and then not in text) if refused else then in text, text
            seen.add(refused)
        if seen == {True, False}:
            break
    assert seen == {True, False}
