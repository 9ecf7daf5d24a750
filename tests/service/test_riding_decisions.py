"""Issue 9 (pace), R-A3/R-A9 decisions in docs/rules.md: the first supporter is asked during the
Priest window and the winner's reward during the Doctor window. Nobody sees the early answer
before the window closes — not the group, not the window's holder; a Priest or Doctor who uses
the window drops it, and the asked player's prompt says why."""

from __future__ import annotations

import engine
from engine import Action
from engine.cards import PRIEST
from handlers import action_payloads
from handlers.card_labels import occupation_label
from handlers.i18n import t
from tests.service.service_game import ServiceGame


def _attack(table: ServiceGame, priest: int | None = None) -> tuple[int, int, int]:
    attacker = table.state().turn
    defender = (attacker + 1) % table.n
    first = (attacker + 2) % table.n  # the first supporter
    if priest is not None:
        table.arrange(lambda st: table.give(st, priest, "priest"))
    decision = table.state().pending.id  # type: ignore[union-attr]
    table.press_payload(attacker, "~at")
    table.press_payload(
        attacker,
        action_payloads.encode_action(Action("attack", attacker, decision, target=defender)),
    )
    return attacker, defender, first


def test_R_A3_the_first_support_is_told_only_when_the_priest_window_closes() -> None:
    table = ServiceGame(n=4)
    table.start()
    attacker, _, first = _attack(table, priest=(table.state().turn + 3) % 4)
    assert table.state().pending.kind == "priest"  # type: ignore[union-attr]
    table.clock.advance(1)
    table.press_payload(first, "su.ha", prefix=True)  # supports the attacker
    group_before = table.group_texts()
    name = table.state().players[first].name
    assert not any(f"{name}</b> supports" in x for x in group_before), "not told yet"
    holder = (attacker + 3) % 4
    holder_prompt, _ = table.prompt(holder)
    assert name not in table.messenger.messages[(table.uids[holder], holder_prompt)].text
    table.wait_until_due()  # the window's end
    assert any(f"{name}</b> supports" in x for x in table.group_texts())
    pending = table.state().pending
    assert pending is not None and pending.kind == "support" and pending.actors != [first]


def test_R_A2_a_priest_stopping_the_fight_drops_the_early_support_and_says_why() -> None:
    table = ServiceGame(n=4)
    table.start()
    attacker, _, first = _attack(table, priest=(table.state().turn + 3) % 4)
    first_prompt, _ = table.prompt(first)
    table.press_payload((attacker + 3) % 4, "us")  # the Priest stops the fight
    text = table.messenger.messages[(table.uids[first], first_prompt)].text
    assert text.endswith(t("en", "prompt.closed.priest", label=occupation_label("en", PRIEST)))
    assert not any("supports" in x for x in table.group_texts())


def test_R_A9_a_reward_not_chosen_in_the_doctor_window_goes_on_in_the_same_prompt() -> None:
    table = ServiceGame(n=4)
    table.start()
    attacker = table.state().turn
    doctor = (attacker + 3) % 4
    table.arrange(lambda st: (table.give(st, doctor, "doctor"), table.give(st, attacker, "dagger")))
    _attack(table)
    while (aw := engine.awaiting(table.state())) is not None and aw.kind != "doctor":
        supporters = [
            s
            for s in aw.seats
            if (engine.view(table.state(), s)["decision"] or {}).get("kind") == "support"
        ]
        if supporters:  # everyone supports the attacker, who wins
            table.press_payload(supporters[0], "su.ha", prefix=True)
        else:
            table.wait_until_due()
    winner = engine.public_view(table.state())["fight"]["winner"]
    assert winner == attacker
    prompt_id, _ = table.prompt(winner)
    assert table.state().pending.kind == "doctor"  # type: ignore[union-attr]
    table.wait_until_due()  # the window closes, the reward question goes on
    assert table.state().pending.kind == "reward"  # type: ignore[union-attr]
    same_id, _ = table.prompt(winner)
    assert same_id == prompt_id, "the same prompt, not a new message"
