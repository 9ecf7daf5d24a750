"""Issue 25: every number in a prompt is true when it is shown. A message that will not be
edited as the fight goes on (told once, answered, closed) says the strength as of that moment,
never "now"; a claim that fails says why in words."""

from __future__ import annotations

import engine
from engine import Action
from handlers import fmt
from handlers.i18n import t
from tests.service.test_conversation_pace import press_action, table


def test_a_boost_message_left_behind_never_says_strength_now() -> None:
    t_, _ = table()
    attacker = t_.state().turn
    t_.arrange(lambda st: t_.give(st, attacker, "dagger"))
    t_.attack()
    while (aw := engine.awaiting(t_.state())) is not None and aw.kind != "boost":
        t_.wait_until_due()
    aw = engine.awaiting(t_.state())
    assert aw is not None
    others = [s for s in range(t_.n) if s != attacker and s not in aw.seats]
    assert others
    press_action(t_, attacker, Action("play", attacker, aw.decision, card="dagger"))
    now = t("en", "game.fight.strength", attack=0, defence=0).split("0")[0]  # "Strength now: …"
    boost = t("en", "game.boost.nothing")
    for s in others:  # nothing to play: no message at all (issue 27), so none says "now"
        assert not any(boost in m.text for m in t_.messenger.in_chat(t_.uids[s]))
        assert not any(now in m.text for m in t_.messenger.in_chat(t_.uids[s]))


def test_a_supporter_asked_in_the_priest_window_sees_its_own_deadline_and_wording() -> None:
    """Issue 25: supporters were shown the window's 5-second deadline, then a new one; the
    first supporter, declaring during the window, read "Kept until your turn". The first
    supporter's own deadline (R-A3: from the start of the fight) is shown from the start,
    never the window's (issue 27: not an edit as the window closes)."""
    t_, _ = table()
    attacker = t_.state().turn
    priest = (attacker + 3) % t_.n
    t_.arrange(lambda st: t_.give(st, priest, "priest"))
    t_.attack()
    assert t_.state().pending.kind == "priest"  # type: ignore[union-attr]
    fight = engine.current_fight(t_.state())
    assert fight is not None
    first = fight["support_order"][0]  # R-A3: the first to declare (the defender never does)
    msg, _ = t_.prompt(first)
    text = t_.messenger.messages[(t_.uids[first], msg)].text
    window = t_.doc()["due"]["deadline"]  # its own: tests/service/test_spend.py
    assert fmt.clock(window) not in text and text.count("⏳") == 1, text
    t_.press_payload(first, "su", prefix=True)
    shown = t_.messenger.answers[-1][1]  # the press's answer says it (issue 27: the edit waits)
    kept = t("en", "game.support.held_window.neutral")[:20]
    assert kept in shown and t("en", "game.support.held.neutral")[:20] not in shown


def test_a_boost_prompt_answered_with_ones_own_card_says_the_strength_it_made() -> None:
    """A newcomer played their Dagger in the boost window: the answered prompt said "Strength at
    this moment: attacker 1 : 1" from before the card, while the Dagger had made it 2 : 1. The
    answered prompt's strength is the fight's when it is shown."""
    t_, _ = table()
    attacker = t_.state().turn
    t_.arrange(lambda st: t_.give(st, attacker, "dagger"))
    t_.attack()
    while (aw := engine.awaiting(t_.state())) is not None and aw.kind != "boost":
        t_.wait_until_due()
    aw = engine.awaiting(t_.state())
    assert aw is not None
    prompt_id, _ = t_.prompt(attacker)
    before = engine.public_view(t_.state())["fight"]
    assert before is not None and before["strength"] is not None
    press_action(t_, attacker, Action("play", attacker, aw.decision, card="dagger"))
    fight = engine.public_view(t_.state())["fight"]
    assert fight is not None and fight["strength"] is not None and not fight["decided"]
    att, dfn = fight["strength"]
    assert (att, dfn) != tuple(before["strength"])  # the Dagger changed it
    shown = t_.messenger.messages[(t_.uids[attacker], prompt_id)].text
    assert t("en", "game.fight.strength_then", attack=att, defence=dfn) in shown
    b_att, b_dfn = before["strength"]
    assert t("en", "game.fight.strength_then", attack=b_att, defence=b_dfn) not in shown
