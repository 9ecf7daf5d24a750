"""Issue 23: the local table holds against its own users, and against web pages they visit.

Each test is one attack from the issue, made over real sockets against the table's server:
choosing one's user id, another site's page or a rebound DNS name, text that cannot be encoded,
lying ``Content-Length``, deep or mistyped JSON, slow connections, floods of long polls.
"""

from __future__ import annotations

import json
import socket
import sqlite3
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from devtools.localtable import arrivals
from devtools.localtable.chats import BOT_ID, GROUP_ID, MAX_SEATS, ApiError, Table
from devtools.localtable.run import start_server
from devtools.localtable.server import TableServer
from infra.settings import Settings

TOKEN = "1:attacks"
MAX_THREADS = 64  # a bounded pool (server.WORKERS), whatever the connections
MAX_POLLS_PER_SEAT = 10  # server.POLLS_PER_SEAT is less


@pytest.fixture
def served(tmp_path: Path) -> Iterator[TableServer]:
    server = TableServer(("127.0.0.1", 0), Table(str(tmp_path / "t.sqlite3")), TOKEN)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield server
    server.shutdown()


def page(server: TableServer, route: str, **params: Any) -> Any:
    """The page's POST, as the browser sends it (no Origin: as a same-origin client)."""
    url = f"http://127.0.0.1:{server.port}/api/{route}"
    request = urllib.request.Request(
        url, json.dumps(params).encode(), {"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.loads(answer.read())


def status(server: TableServer, route: str, **params: Any) -> int:
    try:
        page(server, route, **params)
    except urllib.error.HTTPError as error:
        return error.code
    return 200


def raw(server: TableServer, head: str, body: bytes = b"", timeout: float = 10.0) -> bytes:
    """One request written by hand; what came back (b"" if the connection was dropped)."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=timeout) as sock:
        sock.sendall(head.replace("\n", "\r\n").encode() + b"\r\n" + body)
        chunks = []
        try:
            while chunk := sock.recv(65536):
                chunks.append(chunk)
        except (ConnectionResetError, TimeoutError):
            pass
        return b"".join(chunks)


def code(answer: bytes) -> int:
    return int(answer.split(b" ", 2)[1]) if answer.startswith(b"HTTP/") else 0


def post(server: TableServer, route: str, body: bytes, *headers: str) -> bytes:
    head = (
        f"POST /api/{route} HTTP/1.1\nHost: 127.0.0.1:{server.port}\n"
        "Content-Type: application/json\n" + "".join(f"{h}\n" for h in headers)
    )
    if not any(h.lower().startswith("content-length") for h in headers):
        head += f"Content-Length: {len(body)}\n"
    return raw(server, head, body)


def seat(server: TableServer, name: str) -> dict[str, Any]:
    joined = page(server, "join", name=name, lang="en")
    return {"id": joined["id"], "secret": joined["secret"]}


# -- who one is ------------------------------------------------------------------------------
def test_the_server_assigns_each_seats_user_id(served: TableServer) -> None:
    """The browser chose its id: the bot's own was accepted, and its group messages were
    shown as the bot's."""
    for chosen in (BOT_ID, 123_456_789, 1):
        joined = page(served, "join", name="Mallory", id=chosen, secret="mine")
        assert joined["id"] != chosen
        assert joined["secret"] != "mine"
    again = page(served, "join", name="Ann", **seat(served, "Ann"))  # one's own seat back
    assert again["name"] == "Ann"


# -- who may ask -----------------------------------------------------------------------------
def test_a_host_other_than_the_tables_is_refused(served: TableServer) -> None:
    """DNS rebinding: a page on attacker.example whose name now points at 127.0.0.1."""
    for host in ("attacker.example", f"attacker.example:{served.port}", "127.0.0.1:1", ""):
        answer = raw(served, f"GET /api/texts HTTP/1.1\nHost: {host}\n")
        assert code(answer) == 421, host
    for host in (f"127.0.0.1:{served.port}", f"localhost:{served.port}"):
        assert code(raw(served, f"GET /api/texts HTTP/1.1\nHost: {host}\n")) == 200, host


def test_a_page_of_another_site_cannot_change_anything(served: TableServer) -> None:
    ann = seat(served, "Ann")
    body = json.dumps({"chat": "group", "text": "/newgame", **ann}).encode()
    for header in (
        "Origin: http://attacker.example",
        f"Origin: http://attacker.example:{served.port}",
        "Origin: null",
        "Sec-Fetch-Site: cross-site",
        "Sec-Fetch-Site: same-site",
    ):
        assert code(post(served, "send", body, header)) == 403, header
        assert code(post(served, "join", b'{"name": "Eve"}', header)) == 403, header
    origin = f"Origin: http://127.0.0.1:{served.port}"
    assert code(post(served, "send", body, origin, "Sec-Fetch-Site: same-origin")) == 200
    # a GET (an <img>, a link) changes nothing
    query = f"/api/send?chat=group&text=hi&id={ann['id']}&secret={ann['secret']}"
    assert code(raw(served, f"GET {query} HTTP/1.1\nHost: 127.0.0.1:{served.port}\n")) == 405
    group = page(served, "state", **ann)["group"]
    assert [m["html"] for m in group] == ["/newgame"]
    assert page(served, "state", **seat(served, "Bob"))["members"] == 2


# -- what one may say ------------------------------------------------------------------------
def test_text_that_cannot_be_encoded_is_refused(served: TableServer) -> None:
    """A lone surrogate was stored; then every state and events request failed for everyone."""
    ann = seat(served, "Ann")
    assert status(served, "send", chat="group", text="hi \ud800", **ann) == 400
    assert status(served, "join", name="\udfff") == 400
    head = "POST /api/send HTTP/1.1\n"
    head += f"X-Seat-Id: {ann['id']}\nX-Seat-Secret: {ann['secret']}\n"
    head += f"Host: 127.0.0.1:{served.port}\n"
    head += "Content-Type: application/x-www-form-urlencoded\n"
    for form, expected in (
        (b"chat=group&text=%ED%A0%80", 200),  # %-decoding replaces the bytes: no harm
        (b"chat=group&text=\xed\xa0\x80", 400),  # a surrogate's bytes are not UTF-8
    ):
        answer = raw(served, head + f"Content-Length: {len(form)}\n", form)
        assert code(answer) == expected
    bob = seat(served, "Bob")
    assert page(served, "state", **bob)["group"][0]["html"] == "\ufffd\ufffd\ufffd"
    assert page(served, "events", after=0, **bob)["events"]


def test_a_database_poisoned_by_the_old_table_recovers_on_start(tmp_path: Path) -> None:
    """The old table stored the lone surrogate (JSON escapes it); every page and the bot's
    polling failed, also after a restart."""
    db = str(tmp_path / "t.sqlite3")
    old = Table(db)
    ann = old.join("Ann", "en", None, None)
    old.user_says(ann, "group", "fine")
    body = {"sender": ann.id, "date": 1, "text": "hi \ud800", "html": "hi \ud800"}
    body |= {"markup": None, "edited": False, "shown": None}
    sqlite3.connect(db, isolation_level=None).execute(
        "INSERT INTO table_messages VALUES (?, 2, ?)", (GROUP_ID, json.dumps(body))
    )
    server = start_server(Settings(db_path=db), "127.0.0.1", 0)
    try:
        state = page(server, "state", id=ann.id, secret=ann.secret)
        assert [m["html"] for m in state["group"]] == ["fine", "hi \ufffd"]
    finally:
        server.shutdown()
    assert Table(db).snapshot(ann)["group"][1]["html"] == "hi \ufffd"  # repaired for good


# -- what a request may be -------------------------------------------------------------------
@pytest.mark.parametrize(
    ("length", "expected"),
    [("-1", 400), ("abc", 400), ("1e3", 400), (" +5", 400), (str(10**12), 413)],
)
def test_content_length_must_be_a_non_negative_integer_within_the_limit(
    served: TableServer, length: str, expected: int
) -> None:
    """``Content-Length: -1`` streamed 150 MiB into memory; ``abc`` dropped the connection."""
    started = time.monotonic()
    answer = post(served, "join", b'{"name": "Ann"}', f"Content-Length: {length}")
    assert code(answer) == expected
    assert time.monotonic() - started < 5
    chunked = "Transfer-Encoding: chunked"
    assert code(post(served, "join", b"5\r\nhello\r\n0\r\n\r\n", chunked)) == 411


def test_deep_or_mistyped_json_and_non_numeric_ids_are_refused_with_400(
    served: TableServer,
) -> None:
    deep = b'{"name": ' + b"[" * 30_000 + b"]" * 30_000 + b"}"
    assert code(post(served, "join", deep)) == 400
    assert code(post(served, "join", b'{"name": ' + b"[" * 20 + b"]" * 20 + b"}")) == 400
    assert code(post(served, "join", b"[1, 2]")) == 400
    assert code(post(served, "join", b"{not json")) == 400
    ann = seat(served, "Ann")
    for params in (
        {"name": 5},
        {"name": ["Ann"]},
        {"name": "Ann", "lang": {"x": 1}},
    ):
        assert status(served, "join", **params) == 400, params
    for route, params in (
        ("state", {"id": "abc", "secret": ann["secret"]}),
        ("state", {"id": [ann["id"]], "secret": ann["secret"]}),
        ("state", {"id": ann["id"], "secret": 5}),
        ("events", {"after": "x", **ann}),
        ("send", {"chat": "group", "text": ["hi"], **ann}),
        ("press", {"chat": "group", "message_id": "one", "data": "x", **ann}),
        ("press", {"chat": "group", "message_id": 1, "data": {"x": 1}, **ann}),
    ):
        assert status(served, route, **params) == 400, (route, params)
    head = f"GET /api/state HTTP/1.1\nX-Seat-Id: 1x\nX-Seat-Secret: {ann['secret']}\n"
    assert code(raw(served, head + f"Host: 127.0.0.1:{served.port}\n")) == 400
    # the Bot API: a value of the wrong type is Telegram's 400, not a dropped connection
    bot = f"POST /bot{TOKEN}/getUpdates HTTP/1.1\nHost: 127.0.0.1:{served.port}\n"
    form = b"timeout=soon"
    bot += f"Content-Type: application/x-www-form-urlencoded\nContent-Length: {len(form)}\n"
    assert code(raw(served, bot, form)) == 400


# -- how many may wait -----------------------------------------------------------------------
def test_slow_connections_hold_no_thread_and_are_closed(
    served: TableServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """800 connections that never finish their request left 806 threads for good."""
    monkeypatch.setattr(arrivals, "ARRIVAL_SECONDS", 2.0)
    before = threading.active_count()
    slow = []
    for _ in range(800):
        sock = socket.create_connection(("127.0.0.1", served.port), timeout=10)
        sock.sendall(b"POST /api/join HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 50\r\n\r\n{")
        slow.append(sock)
    try:
        started = time.monotonic()
        assert page(served, "join", name="Ann")["name"] == "Ann"  # others are still served
        assert time.monotonic() - started < 2
        assert threading.active_count() - before <= MAX_THREADS
        time.sleep(3.5)
        closed = 0
        for sock in slow:
            sock.settimeout(0.5)
            try:
                closed += sock.recv(1) == b""
            except (ConnectionResetError, TimeoutError):
                closed += 1
        assert closed == len(slow)  # each got its per-connection timeout
    finally:
        for sock in slow:
            sock.close()
    assert served.request_queue_size >= 128  # the listen backlog fits a burst


def test_one_seats_long_polls_do_not_delay_the_others(served: TableServer) -> None:
    """300 long polls from one seat delayed the others' sends to 2 s."""
    ann, bob = seat(served, "Ann"), seat(served, "Bob")
    seq = page(served, "state", **ann)["seq"]
    poll = f"GET /api/events?after={seq} HTTP/1.1\n"
    poll += f"X-Seat-Id: {ann['id']}\nX-Seat-Secret: {ann['secret']}\n"
    poll += f"Host: 127.0.0.1:{served.port}\n"
    with ThreadPoolExecutor(300) as pool:
        polls = [pool.submit(raw, served, poll, b"", 40.0) for _ in range(300)]
        time.sleep(1.0)
        started = time.monotonic()
        for n in range(5):
            assert status(served, "send", chat="group", text=f"hi {n}", **bob) == 200
        took = time.monotonic() - started
        answers = [code(p.result()) for p in polls]  # Bob's messages end the polls held
    assert took < 1.0
    assert answers.count(429) >= 300 - MAX_POLLS_PER_SEAT
    assert set(answers) <= {200, 429}


def test_a_seats_event_numbers_do_not_count_the_other_seats_private_messages(
    tmp_path: Path,
) -> None:
    """R-D1 on the local table: a window's prompt goes to its card's holder alone; a number
    shared by all pages (the poll's ``seq``, the snapshot's) went up for everyone, so the others
    counted the private messages between two of their own and learnt that someone was asked."""
    table = Table(str(tmp_path / "t.sqlite3"))
    ann = table.join("Ann", "en", None, None)
    bob = table.join("Bob", "en", None, None)
    for user in (ann, bob):
        table.user_says(user, "private", "/start")
    seen = table.events_for(bob, 0, 0)["seq"]
    snapshot = table.snapshot(bob)["seq"]
    assert table.api.call("sendMessage", {"chat_id": ann.id, "text": "Use the Priest?"})[0] == 200
    polled = table.events_for(bob, seen, 0)
    assert polled["events"] == []
    assert polled["seq"] == seen
    assert table.snapshot(bob)["seq"] == snapshot
    # Ann's page gets her prompt, and the group's messages still reach both pages in order
    assert table.events_for(ann, 0, 0)["events"][-1]["message"]["html"] == "Use the Priest?"
    assert table.api.call("sendMessage", {"chat_id": GROUP_ID, "text": "Round 2"})[0] == 200
    for user, after in ((ann, 0), (bob, seen)):
        events = table.events_for(user, after, 0)["events"]
        assert events[-1]["message"]["html"] == "Round 2"


def test_a_flood_of_joins_gets_a_bounded_number_of_seats(tmp_path: Path) -> None:
    """Every page keeps its own stream of the group's events: the seats a table gives out are
    bounded, so a flood of joins cannot make one group message cost without bound; a seat
    already taken is still taken back with its secret."""
    table = Table(str(tmp_path / "t.sqlite3"))
    first = table.join("Ann", "en", None, None)
    for n in range(MAX_SEATS - 1):
        table.join(f"Bot {n}", "en", None, None)
    with pytest.raises(ApiError) as full:
        table.join("One too many", "en", None, None)
    assert full.value.code == 403
    assert table.member_count() == MAX_SEATS
    assert table.join("Ann again", "en", first.id, first.secret).id == first.id


def test_terminal_escapes_from_players_reach_no_terminal(tmp_path: Path) -> None:
    """A seat named, or a message typed, with an escape sequence (clear the screen, retitle the
    window) printed it raw in `python -m devtools.localtable.transcript`; a seat's name, as
    Telegram's, keeps no control character."""
    from devtools.localtable import transcript

    db = tmp_path / "t.sqlite3"
    table = Table(str(db))
    eve = table.join("Eve\x1b]0;pwned\x07\x1b[2J", "en", None, None)
    assert eve.name == "Eve]0;pwned[2J"
    table.user_says(eve, "group", "hello\x1b[2J\x1b[31mred")
    printed = transcript.render(db)
    assert not any(ord(c) < 32 and c != "\n" for c in printed)
    assert "hello\\x1b[2J\\x1b[31mred" in printed
