"""The local table (``make run`` without a token) attacked over HTTP by a stranger on the
network: the seat's secret never travels in a URL, and odd requests (wrong methods, path
tricks, huge or broken bodies) are answered with a 4xx/5xx status, never a dropped connection, a
file outside the page, or a seat taken over."""

from __future__ import annotations

import json

import pytest

from devtools.localtable.arrivals import MAX_BODY
from devtools.localtable.server import TableServer
from tests.integration.test_local_table_attacks import TOKEN, code, page, post, raw, seat, served

__all__ = ["served"]  # the fixture, shared


def _get(server: TableServer, target: str, *headers: str) -> bytes:
    head = f"GET {target} HTTP/1.1\nHost: 127.0.0.1:{server.port}\n"
    return raw(server, head + "".join(f"{h}\n" for h in headers))


def _seat_headers(ann: dict[str, object]) -> tuple[str, str]:
    return f"X-Seat-Id: {ann['id']}", f"X-Seat-Secret: {ann['secret']}"


def test_the_seat_secret_is_refused_in_a_url_and_taken_from_headers(served: TableServer) -> None:
    """Before: the page long-polled ``GET /api/events?...&secret=…``: the secret stood in every
    log line of the server or a proxy and in the browser's history, and this URL was answered."""
    ann = seat(served, "Ann")
    in_url = f"/api/events?after=0&id={ann['id']}&secret={ann['secret']}"
    assert code(_get(served, in_url)) == 400
    assert code(_get(served, f"/api/state?id={ann['id']}&secret={ann['secret']}")) == 400
    answer = _get(served, "/api/state", *_seat_headers(ann))
    assert code(answer) == 200 and b'"group"' in answer
    wrong = _get(served, "/api/state", f"X-Seat-Id: {ann['id']}", "X-Seat-Secret: guess")
    assert code(wrong) == 401


def test_the_page_sends_its_seat_in_headers() -> None:
    from importlib import resources

    script = (resources.files("devtools.localtable") / "static" / "api.js").read_text()
    assert "X-Seat-Secret" in script
    assert "secret: state.seat.secret" not in script  # no longer merged into the parameters


@pytest.mark.parametrize("method", ["PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "BREW"])
def test_other_methods_are_answered_not_dropped(served: TableServer, method: str) -> None:
    ann = seat(served, "Ann")
    head = f"{method} /api/state HTTP/1.1\nHost: 127.0.0.1:{served.port}\n"
    head += "".join(f"{h}\n" for h in _seat_headers(ann)) + "Content-Length: 0\n"
    assert code(raw(served, head)) in (405, 501)


def test_a_head_or_get_changes_nothing(served: TableServer) -> None:
    ann = seat(served, "Ann")
    for verb in ("HEAD", "GET"):
        head = f"{verb} /api/send?chat=group&text=hi HTTP/1.1\nHost: 127.0.0.1:{served.port}\n"
        head += "".join(f"{h}\n" for h in _seat_headers(ann))
        assert code(raw(served, head)) == 405
    assert page(served, "state", **ann)["group"] == []


@pytest.mark.parametrize(
    "target",
    [
        "/static/../server.py",
        "/static/%2e%2e/server.py",
        "/static/..%2fserver.py",
        "/static//etc/passwd",
        "/static/.hidden",
        "/../../etc/passwd",
        "/static/app.js%00.png",
        "//127.0.0.1/api/state",
        "/static/" + "a" * 5000,  # before: the file system's "name too long" dropped it
        "/static/app\x00.js",  # before: "embedded null byte" dropped it
    ],
)
def test_path_tricks_find_nothing_outside_the_page(served: TableServer, target: str) -> None:
    answer = _get(served, target)
    assert code(answer) in (400, 401, 404, 414, 431), answer[:80]
    assert b"import " not in answer and b"root:" not in answer


def test_huge_and_broken_bodies_are_4xx(served: TableServer) -> None:
    ann = seat(served, "Ann")
    seat_h = _seat_headers(ann)
    big = json.dumps({"chat": "group", "text": "x" * (MAX_BODY + 10)}).encode()
    assert code(post(served, "send", big, *seat_h)) in (413, 0)  # refused before it is read
    assert code(post(served, "send", b"{", *seat_h)) == 400
    assert code(post(served, "send", b"[1, 2]", *seat_h)) == 400
    assert code(post(served, "send", b"[" * 5000 + b"]" * 5000, *seat_h)) == 400
    assert code(post(served, "send", b'{"chat": "group", "text": null}', *seat_h)) == 400
    assert code(post(served, "send", b"{}", "Content-Length: -1", *seat_h)) == 400
    assert code(post(served, "send", b"{}", "Content-Length: 1e3", *seat_h)) == 400
    assert page(served, "state", **ann)["group"] == []


def test_the_bot_api_wants_the_token(served: TableServer) -> None:
    for target in ("/bot/getMe", "/bot1:guess/getMe", f"/bot{TOKEN}x/getMe", "/botgetMe"):
        assert code(_get(served, target)) == 401, target
    assert code(_get(served, f"/bot{TOKEN}/getMe")) == 200


def test_a_seat_id_header_of_garbage_is_a_400(served: TableServer) -> None:
    ann = seat(served, "Ann")
    for value in ("-1", "1" * 40, "١٢٣", "0x10"):
        head = f"X-Seat-Id: {value}"
        assert code(_get(served, "/api/state", head, f"X-Seat-Secret: {ann['secret']}")) in (
            400,
            401,
        ), value
