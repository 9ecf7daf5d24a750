"""Messages nobody of the bot's own wrote, at its entry points: timer messages naming something
else than a game, or due before their time, and repeated ones (the timer Lambda's handler);
callback data no button of the bot carries."""

from __future__ import annotations

import json
import logging

import pytest

from handlers import timer
from handlers.i18n import t
from handlers.store_keys import ack_key, chat_key, game_key, user_key
from tests.service.group_chat import ADMIN, Group
from tests.service.group_chat import GROUP as GROUP_CHAT
from tests.service.service_game import GROUP, ServiceGame


def fire(g: ServiceGame, game: str, decision: int, due_at: float) -> list[dict[str, str]]:
    """One SQS record to the timer handler; the records it reports failed (SQS retries those
    and, after maxReceiveCount, moves them to the dead-letter queue and its alarm)."""
    body = json.dumps({"game": game, "decision": decision, "due_at": due_at})
    event = {"Records": [{"messageId": "m1", "body": body}]}
    return timer.handle(event, g.service, g.timers, g.clock.now())["batchItemFailures"]


@pytest.mark.parametrize("which", ["chat", "user", "acks"])
def test_a_timer_naming_a_chat_or_a_user_is_dropped_not_retried_into_the_dead_letters(
    which: str,
) -> None:
    g = ServiceGame()
    g.start()
    key = {
        "chat": chat_key(GROUP),
        "user": user_key(g.uids[0]),
        "acks": ack_key(game_key(g.gid)),
    }[which]
    before = g.store.get(key)
    assert before is not None
    assert fire(g, key, g.state().pending.id, g.clock.now() - 1) == []
    after = g.store.get(key)
    assert after is not None and (after.doc, after.version) == (before.doc, before.version)


def test_a_timer_forged_due_before_the_deadline_changes_nothing() -> None:
    g = ServiceGame()
    g.start()
    step, version = g.state().step, g.store.get(game_key(g.gid)).version  # type: ignore[union-attr]
    assert fire(g, game_key(g.gid), g.state().pending.id, g.clock.now() - 3600) == []
    assert g.state().step == step
    assert g.store.get(game_key(g.gid)).version == version  # type: ignore[union-attr]


def test_a_deadline_timer_delivered_twice_defaults_once() -> None:
    g = ServiceGame()
    g.start()
    st = g.state()
    deadline = g.doc()["due"]["deadline"]
    g.clock.advance(deadline - g.clock.now() + 0.01)
    assert fire(g, game_key(g.gid), st.pending.id, deadline) == []
    once, group = g.state().step, len(g.group_texts())
    assert once > st.step
    assert fire(g, game_key(g.gid), st.pending.id, deadline) == []
    assert (g.state().step, len(g.group_texts())) == (once, group)


@pytest.mark.parametrize("what", ["ai_fill.²", "ai_fill.٣"])
def test_forged_settings_digits_are_answered_and_change_nothing(
    what: str, caplog: pytest.LogCaptureFixture
) -> None:
    """``str.isdigit`` takes "²" and "٣": ``int("²")`` raised inside the update, which was logged
    as a failure (the handled-errors alarm) and left the press unanswered."""
    g = Group()
    g.say(ADMIN, "en", "/settings")
    menu = g.last()
    answered = len(g.messenger.answers)
    with caplog.at_level(logging.ERROR):
        g.press(ADMIN, "en", menu.message_id, f"S:{GROUP_CHAT}:{what}")
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(g.messenger.answers) == answered + 1
    assert g.store.get(chat_key(GROUP_CHAT)) is None  # nothing was saved


@pytest.mark.parametrize("decision", ["²", "١"])
def test_a_game_button_with_other_digits_is_stale_and_logs_no_failure(
    decision: str, caplog: pytest.LogCaptureFixture
) -> None:
    g = ServiceGame()
    g.start()
    seat = g.state().turn
    message_id, _ = g.prompt(seat)
    version = g.store.get(game_key(g.gid)).version  # type: ignore[union-attr]
    with caplog.at_level(logging.ERROR):
        g.press(g.uids[seat], message_id, f"{g.gid}:{decision}:pa")
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert g.messenger.answers[-1][0] == f"q{g.uids[seat]}"
    assert g.store.get(game_key(g.gid)).version == version  # type: ignore[union-attr]


def test_a_refused_press_is_answered_in_the_language_the_presser_chose() -> None:
    """/language set German for a player whose Telegram speaks English: every answer in their
    private chat is German, but a refused game button was told in Telegram's language."""
    g = ServiceGame()
    g.start()
    seat = (g.state().turn + 2) % g.n  # neither asked nor choosing its turn ahead
    uid = g.uids[seat]
    g.message(uid, uid, "/language")
    g.press(uid, g.messenger.in_chat(uid)[-1].message_id, "G:u:de")
    message_id, data = g.prompt(g.state().turn)
    stale = t("de", "bot.stale")
    g.press(uid, message_id, data[0])  # another seat's decision: not theirs to make
    assert g.messenger.answers[-1][1] == stale
    g.press(uid, message_id, f"{g.gid}:{g.state().pending.id}:!!")  # no payload of the bot's
    assert g.messenger.answers[-1][1] == stale
    g.press(uid, message_id, f"nogame12:{g.state().pending.id}:pa")  # no such game
    assert g.messenger.answers[-1][1] == stale
