"""Issue 9: every closed prompt says what happened — the choice made, the default applied, or why
someone else's move closed it — privately, in the player's language; the group sees nothing of it
(R-D1)."""

from __future__ import annotations

import pytest

import engine
from engine import Action
from handlers import action_payloads, lobby
from handlers.i18n import LANGUAGES, t
from infra.ports import Put
from tests.service.service_game import GROUP, ServiceGame

CLOSED = {lang: t(lang, "prompt.closed") for lang in LANGUAGES}


def _table(lang: str, n: int = 4) -> ServiceGame:
    table = ServiceGame(n=n, lang=lang)
    table.start()
    return table


def _closed_text(table: ServiceGame, seat: int, message_id: int) -> str:
    shown = table.messenger.messages[(table.uids[seat], message_id)]
    assert shown.rows is None, "a closed prompt has no buttons"
    return shown.text


def _group_unchanged_by(table: ServiceGame, needle: str) -> None:
    assert not any(needle in text for text in table.group_texts()), "private to the prompt's owner"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_boost_prompt_closed_by_the_poison_mixer_says_so(lang: str) -> None:
    table = _table(lang)
    attacker = table.state().turn
    defender = (attacker + 1) % table.n
    mixer = (attacker + 2) % table.n
    table.arrange(
        lambda st: (table.give(st, attacker, "dagger"), table.give(st, mixer, "poison_mixer"))
    )
    attack = Action("attack", attacker, table.state().pending.id, target=defender)  # type: ignore[union-attr]
    table.press_payload(attacker, action_payloads.encode_action(attack))  # one tap (issue 27)
    while (aw := engine.awaiting(table.state())) is not None and aw.kind != "boost":
        table.wait_until_due()
    attacker_prompt, _ = table.prompt(attacker)
    decision = table.state().pending.id  # type: ignore[union-attr]
    played = Action("play", mixer, decision, card="poison_mixer", choice="defender")
    table.press_payload(mixer, action_payloads.encode_action(played))
    text = _closed_text(table, attacker, attacker_prompt)
    name = table.state().players[mixer].name
    assert t(lang, "prompt.closed.mixer", name=f"<b>{name}</b>", label="")[:6] in text
    assert name in text.rsplit("\n", 1)[-1]
    assert CLOSED[lang] not in text
    _group_unchanged_by(table, "⌛")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_cancelling_the_game_closes_open_prompts_saying_why(lang: str) -> None:
    table = _table(lang)
    seat = table.state().turn
    prompt_id, _ = table.prompt(seat)
    for uid in table.uids[:3]:  # a majority of the players (handlers.game_cancel)
        table.message(uid, GROUP, "/cancel")
    assert table.doc()["phase"] == "cancelled"
    text = _closed_text(table, seat, prompt_id)
    assert text.endswith(t(lang, "prompt.closed.cancelled"))


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("ai_takeover", [False, True])
def test_a_player_who_leaves_sees_what_was_chosen_for_their_open_prompt_R_D2(
    lang: str, ai_takeover: bool
) -> None:
    table = _table(lang)
    table.arrange(lambda st: None)
    doc = table.doc()
    doc["settings"]["ai_takeover"] = ai_takeover
    got = table.store.get(f"GAME#{table.gid}")
    assert got is not None
    table.store.commit([Put(got.key, doc, got.version)])
    seat = table.state().turn
    decision = table.state().pending.id  # type: ignore[union-attr]
    prompt_id, _ = table.prompt(seat)
    table.service.handle_update(
        {
            "update_id": 9_999,
            "message": {
                "message_id": 5,
                "date": 0,
                "chat": {"id": GROUP, "type": "supergroup"},
                "from": {"id": table.uids[seat], "is_bot": False, "first_name": "x"},
                "left_chat_member": {
                    "id": table.uids[seat],
                    "is_bot": False,
                    "first_name": "x",
                },
            },
        }
    )
    if ai_takeover:
        table.wait_until_due()  # the AI takes the turn after a short pause
    assert table.state().pending.id != decision, "decided for the seat"  # type: ignore[union-attr]
    text = _closed_text(table, seat, prompt_id)
    why = "prompt.ai_chose" if ai_takeover else "prompt.away_default"
    assert t(lang, why) in text
    assert text.splitlines()[-1].startswith("✔️")
    if not ai_takeover:
        assert text.endswith(t(lang, "game.answer.turn.pass"))
    assert CLOSED[lang] not in text


def test_a_timed_out_window_prompt_says_the_default_and_the_group_sees_no_difference(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """R-D1: whether the Priest holder let the window run out or passed, the group's messages
    are the same; only the holder's own prompt tells which. (One deal for both games, seeded
    alike: one where the attack goes to the Priest's holder, who is then no supporter and whose
    window prompt closes with the window.)"""
    monkeypatch.setattr(lobby, "new_game_id", lambda: "samedeal")
    monkeypatch.setattr(lobby, "new_deal_seed", lambda: 13)
    groups = []
    for pass_it in (False, True):
        table = _table("en")
        attacker = table.state().turn
        priest = (attacker + 2) % table.n
        table.arrange(lambda st, table=table, priest=priest: table.give(st, priest, "priest"))
        table.attack()
        assert table.state().pending.kind == "priest"  # type: ignore[union-attr]
        prompt_id, _ = table.prompt(priest)
        if pass_it:
            table.clock.advance(2)
            table.press_payload(priest, "pa")
        table.wait_until_due()
        text = _closed_text(table, priest, prompt_id)
        answer = t("en", "game.answer.priest.pass")
        assert text.endswith(answer)
        assert (t("en", "prompt.timed_out") in text) is not pass_it
        groups.append(table.group_texts())
    assert groups[0] == groups[1]
