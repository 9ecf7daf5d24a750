"""The local table's Bot API answers the bot's real gateway over HTTP as Telegram does, and the
page's side (seats, messages, presses, events) keeps each private chat to its owner."""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from telegram import Bot

from devtools.localtable.chats import GROUP_ID, Table
from devtools.localtable.server import TableServer
from devtools.localtable.telegram_html import HtmlError, render
from infra.bot_api import BadRequest, BotApi
from infra.event_loop import LoopRunner
from infra.telegram_markup import Button
from infra.telegram_messenger import TelegramGateway

TOKEN = "1:test"


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[TableServer, TelegramGateway]]:
    server = TableServer(("127.0.0.1", 0), Table(str(tmp_path / "t.sqlite3")), TOKEN)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    api = BotApi(f"http://127.0.0.1:{server.port}/bot{TOKEN}/")  # over http_pool, as in Lambda
    yield server, TelegramGateway(api, network_attempts=1)
    server.shutdown()


def poller(server: TableServer) -> Bot:
    """The local runner polls with python-telegram-bot."""
    return Bot(TOKEN, base_url=f"http://127.0.0.1:{server.port}/bot")


def page(server: TableServer, route: str, **params: Any) -> Any:
    url = f"http://127.0.0.1:{server.port}/api/{route}"
    request = urllib.request.Request(
        url, json.dumps(params).encode(), {"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.loads(answer.read())


RUN = LoopRunner().run


def test_the_gateway_sends_edits_and_answers_through_the_local_bot_api(
    served: tuple[TableServer, TelegramGateway],
) -> None:
    server, gateway = served
    ann = page(server, "join", name="Ann", lang="en")
    seat = {"id": ann["id"], "secret": ann["secret"]}
    sent = gateway.send(GROUP_ID, "<b>Lobby</b> &amp; more", [[Button("Go", data="g:1")]])
    assert sent == 1
    group = page(server, "state", **seat)["group"]
    assert group[0]["html"] == "<b>Lobby</b> &amp; more"
    assert group[0]["markup"] == {"inline_keyboard": [[{"text": "Go", "callback_data": "g:1"}]]}

    # the same text again is Telegram's "message is not modified", which the gateway accepts
    assert gateway.edit(GROUP_ID, 1, "<b>Lobby</b> &amp; more", [[Button("Go", data="g:1")]])
    assert gateway.edit(GROUP_ID, 1, "<i>Started</i>")
    assert page(server, "state", **seat)["group"][0]["markup"] is None
    assert not gateway.edit(GROUP_ID, 99, "gone")

    # a press becomes a callback_query update; its answer reaches only the presser's page
    page(server, "send", chat="group", text="/newgame", **seat)
    gateway.send(GROUP_ID, "Pick", [[Button("A", data="pick:a")]])
    query = page(server, "press", chat="group", message_id=3, data="pick:a", **seat)["query"]
    updates = RUN(poller(server).get_updates(timeout=1))
    assert [u.message.text for u in updates if u.message] == ["/newgame"]
    presses = [u.callback_query for u in updates if u.callback_query]
    assert presses[0] is not None and presses[0].data == "pick:a" and presses[0].id == query
    assert gateway.answer(query, "Saved.", alert=True)
    assert not gateway.answer(query, "twice")  # too old / invalid, as on Telegram
    events = page(server, "events", after=0, **seat)["events"]
    assert {"kind": "answer", "query": query, "text": "Saved.", "alert": True} in events


def test_private_chats_need_start_and_stay_private(
    served: tuple[TableServer, TelegramGateway],
) -> None:
    server, gateway = served
    ann = page(server, "join", name="Ann", lang="en")
    bob = page(server, "join", name="Bob", lang="de")
    # before Ann opens the bot (Telegram's START), the bot cannot write to her
    assert gateway.send(ann["id"], "Your cards") is None
    assert ann["id"] in gateway.unreachable
    page(server, "send", id=ann["id"], secret=ann["secret"], chat="private", start="g1")
    assert gateway.send(ann["id"], "Your <b>cards</b>") is not None
    assert gateway.send(-5, "nobody") is None  # chat not found

    ann_view = page(server, "state", id=ann["id"], secret=ann["secret"])
    bob_view = page(server, "state", id=bob["id"], secret=bob["secret"])
    assert [m["html"] for m in ann_view["private"]] == ["/start", "Your <b>cards</b>"]
    assert bob_view["private"] == []
    bob_events = page(server, "events", id=bob["id"], secret=bob["secret"], after=0)["events"]
    assert all(e.get("message", {}).get("chat") != "private" for e in bob_events)
    # the deep link's payload reaches the bot, though the chat shows only /start
    updates = RUN(poller(server).get_updates(timeout=1))
    assert updates[0].message is not None and updates[0].message.text == "/start g1"


def test_a_seat_needs_its_secret(served: tuple[TableServer, TelegramGateway]) -> None:
    server, _ = served
    ann = page(server, "join", name="Ann")
    with pytest.raises(urllib.error.HTTPError) as refused:
        page(server, "state", id=ann["id"], secret="guess")
    assert refused.value.code == 401
    with pytest.raises(urllib.error.HTTPError) as taken:
        page(server, "join", name="Mallory", id=ann["id"], secret="guess")
    assert taken.value.code == 403


def test_malformed_html_is_refused_as_telegram_refuses_it(
    served: tuple[TableServer, TelegramGateway],
) -> None:
    _, gateway = served
    with pytest.raises(BadRequest, match=r"(?i)can't parse entities"):
        gateway.send(GROUP_ID, "<b>open")
    with pytest.raises(BadRequest, match=r"(?i)can't parse entities"):
        gateway.send(GROUP_ID, "<div>no</div>")


def test_chats_and_update_ids_survive_a_restart(tmp_path: Path) -> None:
    db = str(tmp_path / "t.sqlite3")
    first = Table(db)
    ann = first.join("Ann", "en", None, None)
    first.user_says(ann, "group", "/newgame")
    lobby = {
        "chat_id": GROUP_ID,
        "text": "<b>Lobby</b>",
        "parse_mode": "HTML",
        "reply_markup": {"inline_keyboard": [[{"text": "Go", "callback_data": "go"}]]},
    }
    assert first.api.call("sendMessage", lobby)[0] == 200
    again = Table(db)
    same = again.user(ann.id, ann.secret)
    assert [m["html"] for m in again.snapshot(same)["group"]] == ["/newgame", "<b>Lobby</b>"]
    again.user_presses(same, "group", 2, "go")  # the old keyboard still works
    assert [u["update_id"] for u in again.take_updates(0, 100, 0)] == [2]


def test_telegram_html_subset() -> None:
    shown = render(
        '<b>a</b> <tg-spoiler>s</tg-spoiler> <a href="https://t.me/x?start=1">j</a> &lt;3'
    )
    assert shown.text == "a s j <3"
    assert '<span class="spoiler">s</span>' in shown.html
    assert '<a href="https://t.me/x?start=1" target="_blank" rel="noopener">j</a>' in shown.html
    assert render('<a href="javascript:alert(1)">x</a>').html == "<a>x</a>"
    assert render('<pre><code class="language-py">x</code></pre>').text == "x"
    for bad in ("<b>x", "<b>x</i>", "<script>x</script>", "<br/>"):
        with pytest.raises(HtmlError):
            render(bad)
    # Telegram shows an entity it does not know as written (the tests' emulator flags it)
    assert (render("&nbsp;").text, render("&nbsp;").lints[0][:24]) == (
        "&nbsp;",
        "unsupported entity &nbsp",
    )


def test_pinning_in_the_group_is_refused_as_telegram_refuses_a_plain_member(
    served: tuple[TableServer, TelegramGateway],
) -> None:
    """Issue 9: the bot pins its living status where it may; the local table's bot is a plain
    member of the group, so the gateway hears Telegram's refusal and reports it as False."""
    server, gateway = served
    page(server, "join", name="Ann", lang="en")
    gateway.send(GROUP_ID, "status")
    assert gateway.pin(GROUP_ID, 1) is False
    assert gateway.pin(GROUP_ID, 1, pinned=False) is False


def test_deadlines_render_on_the_table_as_a_date_time_entity() -> None:
    """Issue 23: every prompt with a deadline carries <tg-time>; the table refused it, so the
    human never saw a decision. It is a date-time entity shown in the viewer's time zone."""
    from handlers.fmt import clock

    shown = render(f"⏳ until {clock(1_700_001_260)}")
    assert shown.text == "⏳ until 22:34:20 UTC"
    assert '<time class="tg-time" data-unix="1700001260" data-format="T">' in shown.html
    for bad in (
        '<tg-time unix="x" format="T">a</tg-time>',
        '<tg-time unix="1" format="q">a</tg-time>',
    ):
        with pytest.raises(HtmlError):
            render(bad)


def test_a_game_played_at_the_table_reads_back_as_its_players_read_it(
    served: tuple[TableServer, TelegramGateway], tmp_path: Path
) -> None:
    """`python -m devtools.localtable.transcript`: the chats the table kept, while it runs — the
    group, then every seat's own private chat, each message as shown (deep link as /start, every
    edit applied) with its edits and the buttons it still has. (`devtools.transcript` only plays
    pace games of its own: a game played by hand could not be read back.)"""
    from devtools.localtable import transcript

    server, gateway = served
    ann = page(server, "join", name="Ann", lang="en")
    bob = page(server, "join", name="Bob", lang="en")
    for seat in (ann, bob):
        page(server, "send", id=seat["id"], secret=seat["secret"], chat="private", start="g1")
    page(server, "send", id=ann["id"], secret=ann["secret"], chat="group", text="/newgame")
    gateway.send(GROUP_ID, "<b>Round 1</b>")
    gateway.send(ann["id"], "Your turn", [[Button("⏭️ Pass", data="p:1")]])
    gateway.edit(ann["id"], 2, "Your turn\n✔️ You pass.")
    gateway.send(bob["id"], "Support?", [[Button("⚔️ Attacker", data="s:a")]])

    text = transcript.render(tmp_path / "t.sqlite3")
    group, ann_chat, bob_chat = text.split("\n\n==== ")
    assert group.startswith("==== GROUP (2 messages) ====")
    assert "Ann says\n/newgame" in group and "\nRound 1" in group
    assert ann_chat.startswith("PRIVATE CHAT of Ann (2 messages) ====")
    assert "Ann says\n/start\n" in ann_chat and "g1" not in ann_chat
    assert "edited 1×, last at " in ann_chat  # when the text shown was shown (issue 25)
    assert "\nYour turn\n✔️ You pass." in ann_chat and "[⏭️ Pass]" not in ann_chat
    assert bob_chat.startswith("PRIVATE CHAT of Bob (2 messages) ====")
    assert "Support?\n   [⚔️ Attacker]" in bob_chat and "Your turn" not in bob_chat
