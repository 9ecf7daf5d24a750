"""A page reload at the local table never shows a 429 (the phone test's reload, a newcomer's F5).

The page long-polls ``/api/events``; a reloaded page's earlier poll stayed counted on the table
until its 25 s ran out, so a few reloads in a row met ``429 Too Many Requests`` in the console.
A tab sends its id (``X-Tab-Id``, kept over a reload): its new poll takes its old poll's place.
"""

from __future__ import annotations

import socket
import time
from typing import Any

from devtools.localtable.page_api import POLLS_PER_SEAT
from devtools.localtable.server import TableServer
from tests.integration.test_local_table_attacks import code, page, seat, served

__all__ = ["served"]  # the fixture, shared


def open_poll(server: TableServer, who: dict[str, Any], tab: str | None) -> socket.socket:
    """A long poll as the page sends it, its answer left unread: the page holding it."""
    seq = page(server, "state", **who)["seq"]
    head = f"GET /api/events?after={seq} HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
    head += f"X-Seat-Id: {who['id']}\r\nX-Seat-Secret: {who['secret']}\r\n"
    head += f"X-Tab-Id: {tab}\r\n" if tab else ""
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=30)
    sock.sendall(head.encode() + b"\r\n")
    time.sleep(0.3)  # the table holds it
    return sock


def answer_of(sock: socket.socket) -> bytes:
    chunks = []
    while chunk := sock.recv(65536):
        chunks.append(chunk)
        if b"\r\n\r\n" in b"".join(chunks) and b"}" in chunk:
            break
    return b"".join(chunks)


def test_a_page_reloaded_again_and_again_gets_its_events_not_a_429(served: TableServer) -> None:
    ann, bob = seat(served, "Ann"), seat(served, "Bob")
    left = []
    for _ in range(POLLS_PER_SEAT + 2):  # each reload leaves its poll behind, open
        left.append(open_poll(served, ann, "tab-1"))
    last = left.pop()
    page(served, "send", chat="group", text="hi", **bob)
    got = answer_of(last)
    assert code(got) == 200 and b"hi" in got, got
    for sock in left:  # the polls left behind were answered at once, not held 25 s
        sock.settimeout(2)
        assert b"superseded" in answer_of(sock)
        sock.close()
    last.close()


def test_two_tabs_of_one_seat_each_keep_a_poll(served: TableServer) -> None:
    """A tab's poll never takes another tab's place: both get the message."""
    ann, bob = seat(served, "Ann"), seat(served, "Bob")
    first, second = open_poll(served, ann, "tab-1"), open_poll(served, ann, "tab-2")
    page(served, "send", chat="group", text="hi", **bob)
    for sock in (first, second):
        got = answer_of(sock)
        assert code(got) == 200 and b"hi" in got and b"superseded" not in got, got
        sock.close()


def test_polls_without_a_tab_are_still_capped_per_seat(served: TableServer) -> None:
    """A client that names no tab is counted as before: the cap per seat still holds."""
    ann = seat(served, "Ann")
    held = [open_poll(served, ann, None) for _ in range(POLLS_PER_SEAT)]
    extra = open_poll(served, ann, None)
    extra.settimeout(5)
    assert code(answer_of(extra)) == 429
    for sock in [*held, extra]:
        sock.close()
