"""The fake Bot API accepts what Telegram accepts and rejects what it rejects (issue #4 e2e)."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any, TypeVar

import pytest
from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup, LinkPreviewOptions, Update
from telegram.error import BadRequest, Forbidden, RetryAfter

from devtools.botapi import ApiViolation, BotApiSpec, RecordingRequest
from devtools.botapi.html import parse_telegram_html
from devtools.botapi.updates import callback_update, chat_member, message_update, my_chat_member

pytestmark = pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")

T = TypeVar("T")
CHAT = 1001
KEYBOARD = {
    "inline_keyboard": [
        [{"text": "🗝️ Key", "callback_data": "g1:7:key1"}],
        [{"text": "Join", "url": "https://t.me/coachride_bot?start=j123"}],
    ]
}


@pytest.fixture
def api() -> RecordingRequest:
    return RecordingRequest(blocked_chats={666})


def run(coro: Coroutine[Any, Any, T]) -> T:
    return asyncio.run(coro)


def send(api: RecordingRequest, **params: Any) -> tuple[int, bytes]:
    return api.handle("sendMessage", {"chat_id": CHAT, "text": "hi", **params})


def test_valid_send_message_with_inline_keyboard_is_accepted_and_stored(
    api: RecordingRequest,
) -> None:
    status, _ = send(
        api,
        text="<b>Your turn</b> &amp; more",
        parse_mode="HTML",
        reply_markup=KEYBOARD,
        link_preview_options={"is_disabled": True},
    )
    assert status == 200
    assert api.violations == []
    message = api.last_message(CHAT)
    assert message.text == "Your turn & more"
    assert api.buttons(CHAT, message.message_id) == [
        ("🗝️ Key", "g1:7:key1"),
        ("Join", "https://t.me/coachride_bot?start=j123"),
    ]


@pytest.mark.parametrize(
    ("params", "problem"),
    [
        ({"colour": "red"}, "colour: unknown parameter of sendMessage"),
        ({"chat_id": None}, "chat_id: required by sendMessage but missing"),
        ({"text": ""}, "text must not be empty"),
        ({"text": "x" * 4097}, "4097 characters after entity parsing, limit 4096"),
        ({"text": "<b>open", "parse_mode": "HTML"}, "unclosed <b>"),
        ({"text": "<b>a</i>", "parse_mode": "HTML"}, "</i> closes <b>"),
        ({"text": "<div>a</div>", "parse_mode": "HTML"}, "unsupported tag <div>"),
        ({"text": "1 < 2", "parse_mode": "HTML"}, "unescaped '<'"),
        ({"text": "a &nbsp; b", "parse_mode": "HTML"}, "unsupported entity &nbsp;"),
        ({"chat_id": 1.5}, "chat_id: expected Integer or String"),
        ({"disable_notification": "yes"}, "disable_notification: expected Boolean"),
        (
            {"reply_markup": {"inline_keyboard": [[{"text": "x", "callback_data": "é" * 33}]]}},
            "callback_data is 66 bytes, must be 1-64",
        ),
        (
            {"reply_markup": {"inline_keyboard": [[{"text": "x", "callback_data": "a" * 65}]]}},
            "callback_data is 65 bytes",
        ),
        (
            {"reply_markup": {"inline_keyboard": [[{"text": "x", "callback_data": 5}]]}},
            "reply_markup.inline_keyboard[0][0].callback_data: expected String",
        ),
        (
            {"reply_markup": {"inline_keyboard": [[{"text": "x", "callbackdata": "a"}]]}},
            "callbackdata: unknown parameter of InlineKeyboardButton",
        ),
        (
            {"reply_markup": {"inline_keyboard": [{"text": "x", "callback_data": "a"}]}},
            "inline_keyboard[0]: expected Array of InlineKeyboardButton",
        ),
        ({"reply_markup": {"inline_keyboard": [[{"text": "x"}]]}}, "needs exactly one of"),
    ],
)
def test_invalid_send_message_is_rejected(
    api: RecordingRequest, params: dict[str, Any], problem: str
) -> None:
    params = {k: v for k, v in {"chat_id": CHAT, "text": "hi", **params}.items() if v is not None}
    with pytest.raises(AssertionError) as raised:
        api.handle("sendMessage", params)
    assert problem in str(raised.value)
    assert api.violations == [str(raised.value)]
    assert api.messages_in(CHAT) == []


def test_html_length_counts_text_after_entity_parsing(api: RecordingRequest) -> None:
    text = "<b>" + "a" * 4090 + "</b> &lt;&gt;&amp;"
    assert send(api, text=text, parse_mode="HTML")[0] == 200
    assert len(api.last_message(CHAT).text) == 4094


def test_nested_and_attribute_rules_of_telegram_html() -> None:
    ok = '<b>a <i>b</i></b> <a href="https://x.y">l</a> <span class="tg-spoiler">s</span>'
    assert parse_telegram_html(ok) == ("a b l s", [])
    assert parse_telegram_html("<pre><code>x</code></pre>")[1] == []
    assert parse_telegram_html("<code><b>x</b></code>")[1] == ["<b> inside <code>"]
    assert parse_telegram_html("<span>x</span>")[1] == ['<span> needs class="tg-spoiler"']
    assert parse_telegram_html("<a>x</a>")[1] == ["<a> needs href"]
    assert parse_telegram_html("x<br/>y")[1] == ["self-closing tag <br/>"]


def test_unknown_method_and_long_callback_answer_are_violations(api: RecordingRequest) -> None:
    with pytest.raises(ApiViolation, match="unknown method 'sendMesage'"):
        api.handle("sendMesage", {"chat_id": CHAT, "text": "hi"})
    api.handle("answerCallbackQuery", {"callback_query_id": "1", "text": "x" * 200})
    with pytest.raises(ApiViolation, match="201 characters, limit 200"):
        api.handle("answerCallbackQuery", {"callback_query_id": "1", "text": "x" * 201})


def test_union_types_are_checked_against_the_named_subtype(api: RecordingRequest) -> None:
    commands = [{"command": "newgame", "description": "Open a lobby"}]
    api.handle("setMyCommands", {"commands": commands, "scope": {"type": "chat", "chat_id": -5}})
    with pytest.raises(ApiViolation, match=r"scope\.chat_id: required by BotCommandScopeChat"):
        api.handle("setMyCommands", {"commands": commands, "scope": {"type": "chat"}})
    with pytest.raises(ApiViolation, match="command 'NewGame'"):
        api.handle("setMyCommands", {"commands": [{"command": "NewGame", "description": "x"}]})


def test_real_bot_round_trip_edits_and_telegram_errors(api: RecordingRequest) -> None:
    async def scenario() -> None:
        async with Bot("123:TEST", request=api, get_updates_request=api) as bot:
            assert bot.username == "coachride_bot"
            markup = InlineKeyboardMarkup([[InlineKeyboardButton("Pass", callback_data="p")]])
            sent = await bot.send_message(
                CHAT,
                "<i>Turn</i>",
                parse_mode="HTML",
                reply_markup=markup,
                link_preview_options=LinkPreviewOptions(is_disabled=True),
            )
            assert (sent.message_id, sent.text) == (1, "Turn")
            with pytest.raises(BadRequest, match="not modified"):
                await bot.edit_message_text(
                    "<i>Turn</i>", CHAT, sent.message_id, parse_mode="HTML", reply_markup=markup
                )
            await bot.edit_message_text("Passed", CHAT, sent.message_id)  # drops the keyboard
            with pytest.raises(Forbidden, match="blocked"):
                await bot.send_message(666, "hello")
            api.inject_retry_after("sendMessage", 7)
            with pytest.raises(RetryAfter):
                await bot.send_message(CHAT, "flood")
            second = await bot.send_message(CHAT, "again")
            assert second.message_id == 2

    run(scenario())
    first = api.message(CHAT, 1)
    assert (first.text, first.buttons(), first.edits) == ("Passed", [], 1)
    assert api.count_by_method() == {"getMe": 1, "sendMessage": 4, "editMessageText": 2}
    assert [e[:2] for e in api.errors] == [
        ("editMessageText", 400),
        ("sendMessage", 403),
        ("sendMessage", 429),
    ]
    assert api.violations == []


def test_update_builders_parse_as_telegram_updates() -> None:
    bot = Bot("123:TEST", request=RecordingRequest())
    command = Update.de_json(
        message_update(1, -100, "supergroup", 5, "Ann", "/newgame@coachride_bot", "de"), bot
    )
    assert command.effective_message is not None
    assert command.effective_message.parse_entity(command.effective_message.entities[0]) == (
        "/newgame@coachride_bot"
    )
    press = Update.de_json(callback_update(2, 5, "Ann", 5, 3, "g1:7:p", "zh-hans"), bot)
    assert press.callback_query is not None and press.callback_query.data == "g1:7:p"
    assert press.effective_user is not None and press.effective_user.language_code == "zh-hans"
    blocked = Update.de_json(my_chat_member(3, 5, "private", 5, "Ann", "member", "kicked"), bot)
    assert blocked.my_chat_member is not None
    assert blocked.my_chat_member.new_chat_member.status == "kicked"
    left = Update.de_json(chat_member(4, -100, 5, "Ann"), bot)
    assert left.chat_member is not None and left.chat_member.new_chat_member.status == "left"


def test_spec_is_the_projects_bot_api_10_1() -> None:
    spec = BotApiSpec.load()
    assert spec.version == "Bot API 10.1"
    assert spec.methods["sendMessage"]["chat_id"].required
