"""A Bot API behind a local HTTP server, for tests that go through a real HTTP client (the
gateway's urllib3, python-telegram-bot's httpx): each POST is answered by a function of its
path and body."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

# (status, JSON body), or None: the connection is dropped without an answer
Answer = tuple[int, bytes] | None


@contextmanager
def serving(answer: Callable[[str, str, bytes], Answer], root: str = "") -> Iterator[str]:
    """``answer(path, content type, body)`` answers every POST; yields
    ``http://127.0.0.1:<port>`` + ``root``."""

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            got = answer(self.path, self.headers.get("Content-Type", ""), body)
            if got is None:
                self.close_connection = True
                return
            status, text = got
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(text)))
            self.end_headers()
            self.wfile.write(text)

        def log_message(self, format: str, *args: Any) -> None:
            return None

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}{root}"
    finally:
        server.shutdown()
        server.server_close()
