"""One HTTP server for the local table: the page, its small JSON API, and the Bot API.

The standard library's ``http.server`` parses the requests; around it, what a server that
anyone on the network (or any web page the user visits) can reach needs:

- a request is handed to a worker thread only once it has fully arrived (its head, and its
  body up to ``MAX_BODY``): until then one selector thread watches it, for at most
  ``ARRIVAL_SECONDS``, so slow or idle connections hold no thread; the workers are a bounded
  pool (``WORKERS``), connections waiting for one are bounded (``MAX_CONNECTIONS``), and the
  listen backlog fits a burst;
- one request per connection (``Connection: close``), and a socket timeout on every one;
- ``Host`` must name the address the table serves (DNS rebinding), and a request that changes
  something must come from the table's own page (``Origin`` / ``Sec-Fetch-Site``) and be a POST;
- bodies: ``Content-Length`` a non-negative integer within ``MAX_BODY``, JSON objects of a
  bounded depth, text that UTF-8 can encode (no lone surrogates), fields of the right type;
  anything else is a 4xx answer, never a dropped connection or a traceback;
- long polls of the page are capped per seat (``POLLS_PER_SEAT``) and in all (``MAX_POLLS``),
  so they never take the threads the others' sends need.

Routes:
- ``/`` and ``/static/…`` — the page (``devtools/localtable/static``).
- ``/bot<token>/<method>`` — the Bot API the bot's gateway calls, as on Telegram.
- ``/api/join``, ``/api/texts``, ``/api/state``, ``/api/events``, ``/api/send``,
  ``/api/press`` — the page: take a seat, its texts and menus, the chats, long-polled changes,
  typing a message, pressing a button. A seat is an id (the server's) and a secret kept in the
  browser, sent in the ``X-Seat-Id`` and ``X-Seat-Secret`` headers (or a POST's body), never
  in a URL.

Here the server, its workers and the routing; how requests arrive without a thread each is
``arrivals``, what a request may not be (host, text) ``guards``, the page's routes ``page_api``.
"""

from __future__ import annotations

import io
import json
import logging
import mimetypes
import queue
import secrets
import threading
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, HTTPServer
from importlib import resources
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from devtools.localtable import page_api
from devtools.localtable.arrivals import MAX_BODY, Arrivals
from devtools.localtable.bot_api import BotApi, decode
from devtools.localtable.chats import ApiError, Table
from devtools.localtable.guards import allowed_hosts, encodable, host_allowed
from devtools.localtable.page_api import CHANGES, Polls

log = logging.getLogger(__name__)

# The page's seat travels in these headers (a POST may carry it in its JSON body too), never
# in a URL: the seat's secret in the query of the long-polled GET /api/events was in every
# proxy's and server's log line and the browser's history.
ID_HEADER, SECRET_HEADER, SEAT_SECRET = "X-Seat-Id", "X-Seat-Secret", "secret"
TAB_HEADER = "X-Tab-Id"  # the browser tab a long poll comes from (a reload keeps it)
WORKERS = 32
MAX_POLLS = WORKERS - 8  # long polls of all pages together; the rest serve sends at once
SOCKET_SECONDS = 10.0  # any one read or write of a worker
BACKLOG = 512
STATIC = resources.files("devtools.localtable") / "static"


class TableServer(HTTPServer):
    request_queue_size = BACKLOG
    allow_reuse_address = True

    def __init__(self, address: tuple[str, int], table: Table, token: str) -> None:
        self.table = table
        self.token = token
        self.bot_api = BotApi(table)
        self.polls = Polls(MAX_POLLS, table.wake_pages)
        # daemon threads: a long poll in progress never holds up the end of `make run`
        self._work_queue: queue.SimpleQueue[tuple[Any, Any, bytes] | None] = queue.SimpleQueue()
        for n in range(WORKERS):
            threading.Thread(target=self._worker, name=f"local-table-{n}", daemon=True).start()
        self._arrivals = Arrivals(self._hand_over, self.shutdown_request)
        super().__init__(address, _Handler)  # a busy port: closed again, and OSError
        host = address[0]
        self.wildcard = host in ("", "0.0.0.0", "::")
        self.hosts = allowed_hosts(host, self.port)

    @property
    def port(self) -> int:
        return int(self.server_address[1])

    def process_request(self, request: Any, client_address: Any) -> None:
        self._arrivals.add(request, client_address)

    def _hand_over(self, request: Any, client_address: Any, data: bytes) -> None:
        self._work_queue.put((request, client_address, data))

    def _worker(self) -> None:
        while (job := self._work_queue.get()) is not None:
            self._work(*job)

    def _work(self, request: Any, client_address: Any, data: bytes) -> None:
        try:
            _Handler(request, client_address, self, data)
        except Exception:
            self.handle_error(request, client_address)
        finally:
            self.shutdown_request(request)

    def handle_error(self, request: Any, client_address: Any) -> None:
        log.debug("a connection of the local table failed", exc_info=True)

    def server_close(self) -> None:
        super().server_close()
        self._arrivals.stop()
        for _ in range(WORKERS):
            self._work_queue.put(None)

    def shutdown(self) -> None:
        super().shutdown()
        self.server_close()

    def host_allowed(self, value: str) -> bool:
        return host_allowed(value, self.hosts, self.wildcard, self.port)

    def origin_allowed(self, origin: str) -> bool:
        url = urlsplit(origin)
        return url.scheme == "http" and self.host_allowed(url.netloc)


class _Handler(BaseHTTPRequestHandler):
    server: TableServer
    protocol_version = "HTTP/1.1"
    timeout = SOCKET_SECONDS

    def __init__(
        self, request: Any, client_address: Any, server: TableServer, data: bytes = b""
    ) -> None:
        self._arrived = data
        super().__init__(request, client_address, server)

    def setup(self) -> None:
        super().setup()
        self.rfile = io.BytesIO(self._arrived)  # the whole request, read before a thread was given

    def log_message(self, format: str, *args: Any) -> None:
        log.debug("%s " + format, self.address_string(), *args)

    # -- plumbing -----------------------------------------------------------------------------
    def _reply(self, status: int, body: bytes, content_type: str, *headers: str) -> None:
        self.close_connection = True
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Connection", "close")
        for header in headers:
            name, _, value = header.partition(": ")
            self.send_header(name, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _json(self, status: int, payload: Any, *headers: str) -> None:
        # "replace": a string UTF-8 cannot encode shows as "?", and breaks no page or poll
        body = json.dumps(payload, ensure_ascii=False).encode("utf-8", "replace")
        self._reply(status, body, "application/json; charset=utf-8", *headers)

    def _body(self) -> bytes:
        if self.headers.get("Transfer-Encoding"):
            raise ApiError(411, "Length Required: send the body with a Content-Length")
        raw = self.headers.get_all("Content-Length") or []
        if len(raw) > 1 or not all(v.strip().isdigit() and v.strip().isascii() for v in raw):
            raise ApiError(400, "Bad Request: Content-Length must be a non-negative integer")
        length = int(raw[0]) if raw else 0
        if length > MAX_BODY:
            raise ApiError(413, "Request Entity Too Large")
        body = self.rfile.read(length) if length else b""
        if len(body) != length:
            raise ApiError(400, "Bad Request: the body is shorter than its Content-Length")
        return body

    def _params(self) -> dict[str, Any]:
        url = urlsplit(self.path)
        params: dict[str, Any] = dict(parse_qsl(url.query))
        if SEAT_SECRET in params:  # a URL is logged, kept in history, sent on as a Referer
            raise ApiError(400, f"Bad Request: send the seat's secret in {SECRET_HEADER}")
        body = self._body()
        kind = (self.headers.get("Content-Type") or "").split(";")[0].strip().lower()
        try:
            if body and kind == "application/json":
                data = json.loads(body)
                if not isinstance(data, dict):
                    raise ApiError(400, "Bad Request: the body must be a JSON object")
                params.update(data)
            elif body:
                params.update(parse_qsl(body.decode("utf-8"), keep_blank_values=True))
        except (ValueError, RecursionError) as exc:  # UnicodeDecodeError is a ValueError
            raise ApiError(400, "Bad Request: the body is not JSON or a UTF-8 form") from exc
        for header, key in ((ID_HEADER, "id"), (SECRET_HEADER, SEAT_SECRET), (TAB_HEADER, "tab")):
            value = self.headers.get(header)
            if value is not None:
                params[key] = value
        if not encodable(params):
            raise ApiError(400, "Bad Request: text must be valid Unicode, nested at most 16 deep")
        return params

    def do_HEAD(self) -> None:
        self.do_GET()

    def do_GET(self) -> None:
        self._route()

    def do_POST(self) -> None:
        self._route()

    def _route(self) -> None:
        path = urlsplit(self.path).path
        try:
            if not self.server.host_allowed(self.headers.get("Host") or ""):
                raise ApiError(421, "Misdirected Request: this table is not served at that host")
            if path.startswith("/bot"):
                self._bot_api(path)
            elif path.startswith("/api/"):
                self._page_api(path[5:])
            else:
                self._static(path)
        except ApiError as error:
            extra = ("Retry-After: 1",) if error.code == 429 else ()
            self._json(error.code, error.answer(), *extra)
        except (BrokenPipeError, ConnectionResetError, TimeoutError):
            self.close_connection = True  # the browser went away mid-poll, or stalled

    def _same_origin(self) -> None:
        """A request that changes something comes from the table's own page: a POST (a page
        elsewhere cannot send one without ``Origin``), from this origin."""
        if self.command != "POST":
            raise ApiError(405, "Method Not Allowed: POST")
        origin = self.headers.get("Origin")
        site = self.headers.get("Sec-Fetch-Site")
        if (origin is not None and not self.server.origin_allowed(origin)) or (
            site is not None and site not in ("same-origin", "none")
        ):
            raise ApiError(403, "Forbidden: only the table's own page may do this")

    # -- the Bot API ------------------------------------------------------------------------
    def _bot_api(self, path: str) -> None:
        token, _, method = path[4:].partition("/")
        if not secrets.compare_digest(token, self.server.token):
            raise ApiError(401, "Unauthorized")
        try:
            status, payload = self.server.bot_api.call(method, decode(self._params()))
        except (TypeError, ValueError, AttributeError) as exc:
            raise ApiError(400, f"Bad Request: {type(exc).__name__}") from exc
        self._json(status, payload)

    # -- the page ---------------------------------------------------------------------------
    def _static(self, path: str) -> None:
        if path == "/favicon.ico":
            self._reply(HTTPStatus.NO_CONTENT, b"", "image/x-icon")
            return
        name = "index.html" if path in ("/", "/index.html") else path.removeprefix("/static/")
        if "/" in name or name.startswith(".") or not _a_file(name):
            self._reply(HTTPStatus.NOT_FOUND, b"not found", "text/plain; charset=utf-8")
            return
        kind = mimetypes.guess_type(name)[0] or "application/octet-stream"
        if kind.startswith("text/") or kind.endswith("javascript"):
            kind += "; charset=utf-8"
        self._reply(HTTPStatus.OK, (STATIC / name).read_bytes(), kind)

    def _page_api(self, name: str) -> None:
        if name in CHANGES:
            self._same_origin()
        self._json(200, page_api.answer(self.server.table, self.server.polls, name, self._params()))


def _a_file(name: str) -> bool:
    """Whether the page has a file ``name``: a name too long for the file system, or with a NUL
    in it, is none (it raised, and the connection was dropped without an answer)."""
    try:
        return (STATIC / name).is_file()
    except (OSError, ValueError):
        return False
