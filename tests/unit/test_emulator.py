"""Issue 23, one model of Telegram: the emulator (devtools.botapi) refuses exactly where Telegram
refuses, in Telegram's words; the tests' emulator (strict) also raises for them, the local
table's (lenient) answers them as Telegram does. Each limit is checked on both sides of it."""

from __future__ import annotations

import json
import sqlite3
from typing import Any

import pytest

from devtools.botapi import ApiViolation, BotApiEmulator, RateLimits, SqliteChats
from devtools.botapi.html import HtmlError, parse
from devtools.fakes import FakeClock

USER = 1001
GROUP = -1_000_000_000_005


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def api(clock: FakeClock) -> BotApiEmulator:
    """The local table's kind: answers refusals; rate limits on the fake clock."""
    return BotApiEmulator(clock=clock.now, strict=False)


def send(api: BotApiEmulator, text: str, chat: int = USER, **extra: Any) -> tuple[int, str]:
    status, body = api.call("sendMessage", {"chat_id": chat, "text": text, **extra})
    return status, body.get("description", "")


def html(api: BotApiEmulator, text: str) -> tuple[int, str]:
    return send(api, text, parse_mode="HTML")


ENTITIES = "Bad Request: can't parse entities: "


@pytest.mark.parametrize(
    ("markup", "words"),
    [
        ("<div>a</div>", 'Unsupported start tag "div" at byte offset 0'),
        ("Ä <p>", 'Unsupported start tag "p" at byte offset 3'),  # bytes, not characters
        ("1 < 2", 'Unsupported start tag "" at byte offset 2'),
        ("x<br/>y", 'Unsupported start tag "br/" at byte offset 1'),
        ("<b>open", 'Can\'t find end tag corresponding to start tag "b"'),
        ("<b>a</i>", 'Unmatched end tag at byte offset 4, expected "</b>", found "</i>"'),
        ("a</b>", "Unexpected end tag at byte offset 1"),
        ("<b", "Unclosed start tag at byte offset 0"),
        ("<span>s</span>", 'Tag "span" must have class "tg-spoiler" at byte offset 0'),
        ("<tg-emoji>😀</tg-emoji>", "Invalid custom emoji identifier specified"),
        ('<tg-time unix="soon" format="T">x</tg-time>', "Invalid date-time entity"),
        ('<tg-time unix="1" format="q">x</tg-time>', "Invalid date-time entity"),
    ],
)
def test_markup_telegram_refuses_is_refused_in_its_words(
    api: BotApiEmulator, markup: str, words: str
) -> None:
    assert html(api, markup) == (400, ENTITIES + words)
    assert api.messages_in(USER) == []
    with pytest.raises(HtmlError, match="can't parse entities"):
        parse(markup)


def test_the_strict_emulator_raises_for_what_telegram_refuses(clock: FakeClock) -> None:
    strict = BotApiEmulator(clock=clock.now)
    with pytest.raises(ApiViolation, match=r"Telegram: Bad Request: can't parse entities: Unsup"):
        html(strict, "<div>a</div>")
    assert len(strict.violations) == 1


def test_every_tag_of_telegrams_subset_is_accepted_with_its_entity(api: BotApiEmulator) -> None:
    markup = (
        "<b>b</b><strong>b</strong><i>i</i><em>i</em><u>u</u><ins>u</ins><s>s</s>"
        '<strike>s</strike><del>s</del><span class="tg-spoiler">p</span><tg-spoiler>p</tg-spoiler>'
        '<a href="https://t.me/x">a</a><code>c</code><pre><code class="language-py">p</code></pre>'
        "<blockquote>q</blockquote><blockquote expandable>q</blockquote>"
        '<tg-emoji emoji-id="5368324170671202286">😀</tg-emoji>'
        '<tg-time unix="1700000000" format="wDT">t</tg-time> &lt;&gt;&amp;&quot;&#65;&#x42;'
    )
    assert html(api, markup)[0] == 200
    shown = api.last_message(USER)
    assert shown.text == 'bbiiuusssppacpqq😀t <>&"AB'
    kinds = [e["type"] for e in shown.entities]
    assert kinds == [
        *("bold", "bold", "italic", "italic", "underline", "underline"),
        *("strikethrough", "strikethrough", "strikethrough", "spoiler", "spoiler"),
        *("text_link", "code", "pre", "blockquote", "expandable_blockquote"),
        *("custom_emoji", "date_time"),
    ]
    assert shown.entities[13] == {"type": "pre", "offset": 13, "length": 1, "language": "py"}
    emoji = shown.entities[16]
    assert (emoji["offset"], emoji["length"]) == (16, 2)  # UTF-16 code units
    assert shown.entities[17]["unix_time"] == 1_700_000_000


def test_what_telegram_accepts_but_shows_otherwise_passes_the_table_and_fails_the_tests(
    api: BotApiEmulator, clock: FakeClock
) -> None:
    """An unknown entity and a lone & stay literal, <a> without href is no link, a bold inside
    code is dropped: Telegram sends them, so the table does; the tests call them bugs."""
    for chat, (markup, shown) in enumerate(
        [
            ("a &nbsp; b", "a &nbsp; b"),
            ("R&D", "R&D"),
            ("<a>x</a>", "x"),
            ("<code><b>x</b></code>", "x"),
        ],
        start=1,
    ):
        assert send(api, markup, chat=chat, parse_mode="HTML")[0] == 200
        assert api.last_message(chat).text == shown
        with pytest.raises(ApiViolation, match="shows other than written"):
            html(BotApiEmulator(clock=clock.now), markup)


def test_text_length_is_counted_in_utf16_after_parsing_and_trimming(api: BotApiEmulator) -> None:
    assert html(api, "<b>" + "a" * 4096 + "</b>")[0] == 200
    assert html(api, "a" * 4097) == (400, "Bad Request: message is too long")
    assert send(api, "😀" * 2048, chat=USER + 1)[0] == 200  # 4096 code units
    assert send(api, "😀" * 2049, chat=USER + 2) == (400, "Bad Request: message is too long")
    assert send(api, "  x  ", chat=USER + 3)[0] == 200
    assert api.last_message(USER + 3).text == "x"  # Telegram trims the ends
    for empty in ("", "   ", "<b> </b>"):
        assert html(api, empty) == (400, "Bad Request: message text is empty")


def button(**fields: Any) -> dict[str, Any]:
    return {"inline_keyboard": [[{"text": "x", **fields}]]}


def test_keyboard_limits_are_telegrams(api: BotApiEmulator) -> None:
    ok = [button(callback_data="a"), button(callback_data="a" * 64), button(url="https://t.me")]
    for chat, markup in enumerate(ok, start=1):
        assert send(api, "hi", chat=chat, reply_markup=markup)[0] == 200
    invalid = "Bad Request: BUTTON_DATA_INVALID"
    assert send(api, "hi", chat=9, reply_markup=button(callback_data="a" * 65)) == (400, invalid)
    assert send(api, "hi", chat=9, reply_markup=button(callback_data="é" * 33)) == (400, invalid)
    assert send(api, "hi", chat=9, reply_markup=button(callback_data="")) == (400, invalid)
    status, words = send(api, "hi", chat=9, reply_markup=button())
    assert (status, words.endswith("Text buttons are unallowed in the inline keyboard")) == (
        400,
        True,
    )
    many = {"inline_keyboard": [[{"text": "x", "callback_data": "d"}]] * 101}
    assert send(api, "hi", chat=9, reply_markup=many) == (
        400,
        "Bad Request: reply markup is too long",
    )
    assert api.messages_in(9) == []


def test_a_parameter_of_the_wrong_type_is_refused_and_an_unknown_method_not_found(
    api: BotApiEmulator,
) -> None:
    status, words = send(api, "hi", disable_notification="yes")
    assert status == 400 and "disable_notification: expected Boolean" in words
    assert api.call("sendMesage", {"chat_id": USER, "text": "hi"})[1] == {
        "ok": False,
        "error_code": 404,
        "description": "Not Found",
    }


def edit(api: BotApiEmulator, message_id: int, text: str, **extra: Any) -> tuple[int, str]:
    params = {"chat_id": USER, "message_id": message_id, "text": text, **extra}
    status, body = api.call("editMessageText", params)
    return status, body.get("description", "")


def test_edit_semantics(api: BotApiEmulator) -> None:
    keys = button(callback_data="k")
    send(api, "<b>Turn</b>", parse_mode="HTML", reply_markup=keys)
    not_modified = edit(api, 1, "<strong>Turn</strong>", parse_mode="HTML", reply_markup=keys)
    assert not_modified[0] == 400 and not_modified[1].startswith(
        "Bad Request: message is not modified: specified new message content"
    )
    assert edit(api, 1, "<b>Turn</b>", parse_mode="HTML")[0] == 200  # the keyboard goes
    assert api.last_message(USER).reply_markup is None
    assert edit(api, 9, "x") == (400, "Bad Request: message to edit not found")
    markup = {"chat_id": USER, "message_id": 1}
    assert api.call("editMessageReplyMarkup", markup)[1]["description"].startswith(
        "Bad Request: message is not modified"
    )
    typed = api.add_message(USER, USER, parse("hello"))  # a message the user typed
    assert edit(api, typed.message_id, "x") == (400, "Bad Request: message can't be edited")
    assert api.last_message(USER).edits == 0


def test_delete_and_pin_semantics(api: BotApiEmulator, clock: FakeClock) -> None:
    send(api, "status", chat=GROUP)
    pin = {"chat_id": GROUP, "message_id": 1}
    rights = "Bad Request: not enough rights to manage pinned messages in the chat"
    assert api.call("pinChatMessage", pin)[1]["description"] == rights
    api.set_member_status(GROUP, api.bot_id, "administrator")
    assert api.call("pinChatMessage", pin)[0] == 200
    assert api.call("pinChatMessage", {"chat_id": GROUP, "message_id": 7})[1]["description"] == (
        "Bad Request: message to pin not found"
    )
    api.set_member_status(GROUP, api.bot_id, "member")
    typed = api.add_message(GROUP, USER, parse("hi"))
    gone = {"chat_id": GROUP, "message_id": typed.message_id}
    assert api.call("deleteMessage", gone)[1]["description"] == (
        "Bad Request: message can't be deleted"
    )
    assert api.call("deleteMessage", pin)[0] == 200
    assert api.call("deleteMessage", pin)[1]["description"] == (
        "Bad Request: message to delete not found"
    )
    send(api, "old", chat=GROUP)
    clock.advance(48 * 3600 + 1)
    old = {"chat_id": GROUP, "message_id": 3}
    assert api.call("deleteMessage", old)[1]["description"] == (
        "Bad Request: message can't be deleted for everyone"
    )


def test_a_callback_query_is_answered_once_and_soon(api: BotApiEmulator, clock: FakeClock) -> None:
    invalid = "Bad Request: query is too old and response timeout expired or query ID is invalid"

    def answer(query: str, **extra: Any) -> tuple[int, str]:
        status, body = api.call("answerCallbackQuery", {"callback_query_id": query, **extra})
        return status, body.get("description", "")

    assert answer("never") == (400, invalid)
    api.open_query("q1", USER)
    assert answer("q1", text="x" * 201) == (400, "Bad Request: MESSAGE_TOO_LONG")
    assert answer("q1", text="x" * 200) == (200, "")
    assert answer("q1") == (400, invalid)  # twice
    api.open_query("q2", USER)
    clock.advance(16)
    assert answer("q2") == (400, invalid)  # too late


def test_rate_limits_answer_429_with_retry_after_on_the_emulators_clock(
    api: BotApiEmulator, clock: FakeClock
) -> None:
    # a private chat: a short burst, then about one a second
    assert api.limits is not None
    burst = api.limits.private_burst
    assert [send(api, "m")[0] for _ in range(burst + 1)] == [200] * burst + [429]
    status, body = api.call("sendMessage", {"chat_id": USER, "text": "m"})
    assert (status, body["parameters"]) == (429, {"retry_after": 1})
    clock.advance(1)
    assert send(api, "m")[0] == 200
    # a group: 20 a minute
    groups = [send(api, "g", chat=GROUP)[0] for _ in range(20)]
    clock.advance(1)  # (the 30 a second overall is another limit)
    status, body = api.call("sendMessage", {"chat_id": GROUP, "text": "g"})
    assert groups == [200] * 20 and status == 429 and body["parameters"]["retry_after"] == 59
    clock.advance(59)
    assert send(api, "g", chat=GROUP)[0] == 200
    # overall: 30 a second across chats
    clock.advance(60)
    overall = [send(api, "o", chat=USER + i)[0] for i in range(31)]
    assert overall == [200] * 30 + [429]
    assert api.limits.by_reason == {
        "private": 2,
        "group": 1,
        "overall": 1,
    }


def test_rate_limits_run_on_an_injected_clock() -> None:
    now = [0.0]
    limits = RateLimits(clock=lambda: now[0], private_burst=1)
    limits.admit("sendMessage", {"chat_id": USER})
    with pytest.raises(Exception, match="retry after 1"):
        limits.admit("sendMessage", {"chat_id": USER})
    now[0] = 1.0
    limits.admit("sendMessage", {"chat_id": USER})


def test_sqlite_storage_keeps_the_chats_across_a_restart(tmp_path: Any, clock: FakeClock) -> None:
    db = sqlite3.connect(tmp_path / "t.sqlite3", isolation_level=None)
    first = BotApiEmulator(chats=SqliteChats(db), clock=clock.now, strict=False)
    send(first, "<b>Lobby</b>", parse_mode="HTML", reply_markup=button(callback_data="go"))
    again = BotApiEmulator(chats=SqliteChats(db), clock=clock.now, strict=False)
    shown = again.last_message(USER)
    assert (shown.text, shown.html, shown.buttons()) == ("Lobby", "<b>Lobby</b>", [("x", "go")])
    assert send(again, "next")[0] == 200
    assert again.last_message(USER).message_id == 2  # ids go on


def test_sqlite_storage_reads_the_chats_the_table_kept_before_the_emulator(tmp_path: Any) -> None:
    db = sqlite3.connect(tmp_path / "t.sqlite3", isolation_level=None)
    db.execute(
        "CREATE TABLE table_messages (chat_id INTEGER NOT NULL, message_id INTEGER NOT NULL, "
        "body TEXT NOT NULL, PRIMARY KEY (chat_id, message_id))"
    )
    old = {
        "sender": 7,
        "date": 1,
        "text": "Lobby",
        "html": "<b>Lobby</b>",
        "markup": {"inline_keyboard": [[{"text": "Go", "callback_data": "go"}]]},
        "edited": True,
        "shown": None,
    }
    db.execute("INSERT INTO table_messages VALUES (?, ?, ?)", (GROUP, 4, json.dumps(old)))
    db.execute("INSERT INTO table_messages VALUES (?, ?, ?)", (GROUP, 5, "{not json"))
    api = BotApiEmulator(chats=SqliteChats(db), strict=False)
    shown = api.last_message(GROUP)
    assert (shown.message_id, shown.html, shown.buttons(), shown.edits) == (
        4,
        "<b>Lobby</b>",
        [("Go", "go")],
        1,
    )
