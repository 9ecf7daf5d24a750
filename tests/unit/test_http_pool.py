"""infra.http_pool: kept-alive connections, a closed one never reused, timeouts, and errors
that never hold the URL."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from infra.http_pool import HttpPool


class EchoServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), _Echo)
        self.peers: list[tuple[str, int]] = []
        self.close_after_answer = False
        self.delay = 0.0

    def handle_error(self, request: Any, client_address: Any) -> None:
        pass  # a client that timed out closed its end: expected here

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"


class _Echo(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, as AWS and Telegram
    server: EchoServer

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers["Content-Length"]))
        self.server.peers.append(self.client_address)
        time.sleep(self.server.delay)
        answer = self.path.encode() + b" " + body
        self.send_response(201)
        self.send_header("Content-Length", str(len(answer)))
        self.send_header("X-Seen-Type", self.headers.get("Content-Type", ""))
        if self.server.close_after_answer:
            self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(answer)

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def server() -> Iterator[EchoServer]:
    server = EchoServer()
    threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True).start()
    yield server
    server.shutdown()
    server.server_close()


def post(pool: HttpPool, url: str, body: bytes = b"hi", **timeouts: float) -> Any:
    limits = {"connect_timeout": 2.0, "read_timeout": 2.0, **timeouts}
    return pool.post(url, body, {"Content-Type": "text/plain"}, **limits)


def test_answers_come_back_and_the_connection_is_kept(server: EchoServer) -> None:
    pool = HttpPool()
    status, headers, body = post(pool, server.url + "/bot1:x/sendMessage?a=1", b"{}")
    assert (status, body) == (201, b"/bot1:x/sendMessage?a=1 {}")
    assert headers["x-seen-type"] == "text/plain"
    post(pool, server.url + "/again")
    post(pool, server.url + "/and-again")
    assert pool.connections_made == 1
    assert len(set(server.peers)) == 1  # one TCP connection served all three


def test_a_connection_the_server_closed_is_not_reused(server: EchoServer) -> None:
    pool = HttpPool()
    server.close_after_answer = True
    post(pool, server.url + "/one")
    server.close_after_answer = False
    assert post(pool, server.url + "/two")[2] == b"/two hi"
    assert pool.connections_made == 2


def test_an_idle_connection_closed_meanwhile_is_replaced(server: EchoServer) -> None:
    pool = HttpPool()
    post(pool, server.url + "/one")
    for kept in pool._idle.values():  # the server side closes while the connection is idle
        for connection in kept:
            assert connection.sock is not None
            connection.sock.shutdown(0)
    assert post(pool, server.url + "/two")[2] == b"/two hi"
    assert pool.connections_made == 2


def test_a_slow_answer_times_out_without_the_url(server: EchoServer) -> None:
    pool = HttpPool()
    server.delay = 0.5
    with pytest.raises(TimeoutError) as raised:
        post(pool, server.url + "/botSECRET/getMe", read_timeout=0.1)
    assert "SECRET" not in str(raised.value)
    with pytest.raises(TimeoutError):
        post(pool, server.url + "/slow", read_timeout=5.0, total=0.1)


def test_nobody_listening_is_an_os_error_without_the_url() -> None:
    with ThreadingHTTPServer(("127.0.0.1", 0), _Echo) as closed:
        port = closed.server_address[1]
    with pytest.raises(OSError) as raised:
        post(HttpPool(), f"http://127.0.0.1:{port}/botSECRET/getMe")
    assert not isinstance(raised.value, TimeoutError)
    assert "SECRET" not in str(raised.value)
