"""A reminder under a prompt that is still the newest message of the chat replies to it
(``handlers.reminders``): tapping the quote jumps to the prompt. It said "… in the message
above", which pointed at nothing once the player deleted the prompt or cleared the chat; now
Telegram refuses a reply to a message that is gone (the bot never sets
``allow_sending_without_reply``), and the bot sends the prompt anew with its buttons, its record
updated. The emulator refuses as Telegram does, and lets a test user delete a message of their
private chat."""

from __future__ import annotations

import json
from typing import Any

from devtools.botapi import RecordingRequest
from devtools.botapi.messenger import EmulatedMessenger
from handlers import txn_store
from handlers.i18n import t
from infra.bot_api import bot_api
from infra.telegram_messenger import TelegramGateway, TelegramMessenger
from tests.service.test_table_polish import _choose, _named, _press, _reminded_trade

USER = 4242
GONE = "Bad Request: message to be replied not found"


def _call(api: RecordingRequest, method: str, **params: object) -> tuple[int, dict[str, Any]]:
    status, body = api.handle(method, {"chat_id": USER, **params})
    return status, json.loads(body)


def test_the_emulator_refuses_a_reply_to_a_message_the_user_deleted_as_telegram_does() -> None:
    api = RecordingRequest()
    status, first = _call(api, "sendMessage", text="the prompt")
    assert status == 200, first
    prompt = int(first["result"]["message_id"])
    status, reply = _call(api, "sendMessage", text="⏰", reply_parameters={"message_id": prompt})
    assert status == 200, reply
    assert reply["result"]["reply_to_message"]["message_id"] == prompt
    api.user_deletes(USER, prompt)
    assert prompt not in [m.message_id for m in api.messages_in(USER)]
    status, refused = _call(api, "sendMessage", text="⏰", reply_parameters={"message_id": prompt})
    assert (status, refused["description"]) == (400, GONE)
    allowed = {"message_id": prompt, "allow_sending_without_reply": True}
    status, sent = _call(api, "sendMessage", text="⏰", reply_parameters=allowed)
    assert status == 200 and "reply_to_message" not in sent["result"]
    # both messengers say so: the sender sends the prompt anew
    assert EmulatedMessenger(api=api).send(USER, "⏰", reply_to=prompt).reply_gone
    gateway = TelegramGateway(bot_api("123:TEST", "https://api.telegram.org/bot", api.transport))
    gone = TelegramMessenger(gateway).send(USER, "⏰", reply_to=prompt)
    assert gone.reply_gone and not gone.ok and not gone.dropped


def test_a_reminder_replies_to_the_prompt_it_reminds_of_one_call() -> None:
    table, _, partner, first, _ = _reminded_trade()
    before = len(table.messenger.api.calls_to("sendMessage"))
    edits = table.messenger.api.calls_to("editMessageText")
    edited = len([c for c in edits if c["chat_id"] == table.uids[partner]])
    table.wait_until_due()  # the reminder
    sent = table.messenger.api.calls_to("sendMessage")[before:]
    assert len(sent) == 1 and sent[0]["reply_parameters"] == {"message_id": first}, sent
    reminder = table.messenger.api.last_message(table.uids[partner])
    assert reminder.reply_to == first
    edits = table.messenger.api.calls_to("editMessageText")
    assert not [c for c in edits if c["chat_id"] == table.uids[partner]][edited:]


def test_a_reminder_of_a_prompt_the_player_deleted_sends_the_prompt_anew() -> None:
    """The partner deleted the trade's prompt: the reminder's reply is refused, and the prompt
    comes anew under the reminder's line, with its buttons; it answers as the first did."""
    table, trader, partner, first, _ = _reminded_trade()
    uid = table.uids[partner]
    table.messenger.api.user_deletes(uid, first)
    table.wait_until_due()  # the reminder
    shown = table.messenger.api.messages_in(uid)
    anew = shown[-1]
    what = t("en", "game.kind.trade_answer")
    assert anew.text.startswith(t("en", "bot.reminder", what=what, seconds=15)), anew.text
    assert anew.buttons() and anew.reply_to is None and anew.message_id != first
    assert [m for m in shown if m.message_id == first] == []
    # the next load of the game takes the new message into the seat's prompt record
    txn = txn_store.load(table.store, table.clock, f"GAME#{table.gid}", None)
    assert txn is not None
    assert txn.doc["prompts"][str(partner)]["msg"] == anew.message_id, txn.doc["prompts"]
    assert not txn.doc.get("outbox"), txn.doc["outbox"]
    reminded, _ = table.prompt(partner)
    assert reminded == anew.message_id
    _press(table, partner, _choose(table, partner, "refuse"))
    answered = table.messenger.api.message(uid, anew.message_id).text
    refused = t("en", "game.answer.trade_answer.refuse", name=_named(table, trader))
    assert answered.endswith(refused.replace("<b>", "").replace("</b>", "")), answered
