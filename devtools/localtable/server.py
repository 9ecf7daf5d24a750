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
  browser.
"""

from __future__ import annotations

import contextlib
import io
import ipaddress
import json
import logging
import mimetypes
import queue
import re
import secrets
import selectors
import socket
import sqlite3
import threading
import time
from collections.abc import Iterator
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, HTTPServer
from importlib import resources
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from devtools.localtable.bot_api import BotApi, decode
from devtools.localtable.chats import BOT_FIRST_NAME, BOT_USERNAME, ApiError, Table, User
from handlers.i18n import catalog, negotiate

log = logging.getLogger(__name__)

EVENT_POLL_SECONDS = 25.0
MAX_BODY = 64 * 1024
MAX_HEAD = 16 * 1024  # the request line and headers
MAX_DEPTH = 16  # of a JSON body: the Bot API's deepest (a keyboard of buttons) needs 5
WORKERS = 32
MAX_POLLS = WORKERS - 8  # long polls of all pages together; the rest serve sends at once
POLLS_PER_SEAT = 3  # a page holds one; a second tab or a reload may hold another for a while
MAX_CONNECTIONS = 1024  # accepted and not answered yet; past it a new one is closed at once
ARRIVAL_SECONDS = 10.0  # for a whole request to arrive
SOCKET_SECONDS = 10.0  # any one read or write of a worker
BACKLOG = 512
TELEGRAM_LANGUAGE = {"en": None, "de": "de", "zh-Hans": "zh"}
STATIC = resources.files("devtools.localtable") / "static"
LOOPBACK_NAMES = ("localhost", "127.0.0.1", "[::1]")
_LENGTH = re.compile(rb"^content-length:[ \t]*([^\r\n]*?)[ \t]*\r?$", re.IGNORECASE | re.MULTILINE)
_SURROGATE = re.compile("[\ud800-\udfff]")  # lone: json.loads joins a valid pair
_CHANGES = ("join", "send", "press")  # the page's routes that change something


def allowed_hosts(host: str, port: int) -> frozenset[str]:
    """The ``Host`` values the table answers: the address it serves, with its port; bound to
    loopback also the loopback names; bound to every address (``HOST=0.0.0.0`` for friends on
    the LAN) any IP address and this machine's names. A name an attacker controls (DNS
    rebinding) is never among them."""
    names = {host}
    wildcard = host in ("", "0.0.0.0", "::")
    with contextlib.suppress(ValueError):
        address = ipaddress.ip_address(host)
        names = {f"[{host}]" if address.version == 6 else host}
        if address.is_loopback:
            names.update(LOOPBACK_NAMES)
    if host == "localhost":
        names.update(LOOPBACK_NAMES)
    if wildcard:
        names = {*LOOPBACK_NAMES, socket.gethostname(), f"{socket.gethostname()}.local"}
    return frozenset(f"{name}:{port}".lower() for name in names if name)


def host_allowed(value: str, hosts: frozenset[str], wildcard: bool, port: int) -> bool:
    value = value.strip().lower()
    if value in hosts:
        return True
    if not wildcard:
        return False
    name, _, given = value.rpartition(":")
    if given != str(port):
        return False
    with contextlib.suppress(ValueError):
        ipaddress.ip_address(name.removeprefix("[").removesuffix("]"))
        return True  # an IP address is never a rebound name
    return False


def encodable(value: Any) -> bool:
    """Whether every string in ``value`` (a JSON value) is text UTF-8 can encode, and it nests
    at most ``MAX_DEPTH`` deep."""
    stack = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if depth > MAX_DEPTH:
            return False
        if isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                return False
        elif isinstance(item, dict):
            stack.extend((k, depth + 1) for k in item)
            stack.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, list):
            stack.extend((v, depth + 1) for v in item)
    return True


def repair_stored_text(db_path: str) -> int:
    """Messages stored with text UTF-8 cannot encode (a lone surrogate the table accepted before
    it checked) get U+FFFD in its place, so they can be shown and sent again; how many."""
    db = sqlite3.connect(db_path)
    try:
        try:
            rows = db.execute("SELECT chat_id, message_id, body FROM table_messages").fetchall()
        except sqlite3.OperationalError:
            return 0  # a new file: no table yet
        fixed = 0
        for chat_id, message_id, body in rows:
            value = json.loads(body)
            if encodable(value):
                continue
            clean = _SURROGATE.sub("\ufffd", json.dumps(value, ensure_ascii=False))
            db.execute(
                "UPDATE table_messages SET body = ? WHERE chat_id = ? AND message_id = ?",
                (clean, chat_id, message_id),
            )
            fixed += 1
        db.commit()
        if fixed:
            log.warning("the local table repaired %d stored messages with unencodable text", fixed)
        return fixed
    finally:
        db.close()


class _Polls:
    """Counts the page's open long polls, per seat and in all."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._open: dict[int, int] = {}

    @contextlib.contextmanager
    def slot(self, uid: int) -> Iterator[None]:
        with self._lock:
            if self._open.get(uid, 0) >= POLLS_PER_SEAT or sum(self._open.values()) >= MAX_POLLS:
                raise ApiError(429, "Too Many Requests: retry after 1")
            self._open[uid] = self._open.get(uid, 0) + 1
        try:
            yield
        finally:
            with self._lock:
                self._open[uid] -= 1
                if not self._open[uid]:
                    del self._open[uid]


class _Arrivals:
    """Holds accepted connections, without a thread each, until their whole request is there."""

    def __init__(self, ready: Any, drop: Any) -> None:
        self._ready, self._drop = ready, drop
        self._selector = selectors.DefaultSelector()
        self._lock = threading.Lock()
        self._waiting: dict[socket.socket, tuple[Any, float]] = {}
        self._data: dict[socket.socket, bytearray] = {}  # what arrived of each request
        self._wake_r, self._wake_w = socket.socketpair()
        self._wake_r.setblocking(False)
        self._wake_w.setblocking(False)
        self._selector.register(self._wake_r, selectors.EVENT_READ)
        self._stopped = False
        self._thread = threading.Thread(target=self._run, name="local-table-arrivals", daemon=True)
        self._thread.start()

    def add(self, sock: socket.socket, address: Any) -> None:
        with self._lock:
            if len(self._waiting) >= MAX_CONNECTIONS or self._stopped:
                self._drop(sock)
                return
            self._waiting[sock] = (address, time.monotonic() + ARRIVAL_SECONDS)
            self._data[sock] = bytearray()
            self._selector.register(sock, selectors.EVENT_READ)
        with contextlib.suppress(OSError):  # BlockingIOError: it is awake already
            self._wake_w.send(b"\0")

    def stop(self) -> None:
        with self._lock:
            self._stopped = True
        with contextlib.suppress(OSError):
            self._wake_w.send(b"\0")
        self._thread.join(timeout=5)

    def _run(self) -> None:
        while not self._stopped:
            events = self._selector.select(timeout=1.0)
            now = time.monotonic()
            with self._lock:
                for key, _ in events:
                    sock = key.fileobj
                    if sock is self._wake_r:
                        with contextlib.suppress(BlockingIOError):
                            self._wake_r.recv(4096)
                        continue
                    assert isinstance(sock, socket.socket)
                    data = self._data[sock]
                    try:
                        arrived = _arrived(sock, data)
                    except Exception:  # never let one connection stop the others
                        log.exception("a connection of the local table failed")
                        arrived = False
                    if arrived is None:
                        continue
                    address, _ = self._waiting.pop(sock)
                    del self._data[sock]
                    self._selector.unregister(sock)
                    if arrived:
                        self._ready(sock, address, bytes(data))
                    else:
                        self._drop(sock)
                late = [s for s, (_, deadline) in self._waiting.items() if deadline < now]
                for sock in late:
                    del self._waiting[sock], self._data[sock]
                    self._selector.unregister(sock)
                    self._drop(sock)
        with self._lock:
            for sock in self._waiting:
                self._drop(sock)
            self._waiting.clear()
            self._data.clear()
        self._selector.close()
        self._wake_r.close()
        self._wake_w.close()


def _arrived(sock: socket.socket, data: bytearray) -> bool | None:
    """Reads what is there into ``data``: True when a whole request has arrived (or enough to
    refuse it), False when the peer closed or failed, None while more is to come."""
    try:
        chunk = sock.recv(MAX_HEAD + MAX_BODY, socket.MSG_DONTWAIT)
    except BlockingIOError:
        return None
    except OSError:
        return False
    if not chunk:
        return False
    data += chunk
    end = data.find(b"\r\n\r\n")
    if end < 0:
        return True if len(data) >= MAX_HEAD else None  # too long a head: refused by the handler
    match = _LENGTH.search(data[: end + 2])
    if match is None or not match.group(1).isdigit() or int(match.group(1)) > MAX_BODY:
        return True  # no body, or one the handler refuses without reading it
    return True if len(data) >= end + 4 + int(match.group(1)) else None


class TableServer(HTTPServer):
    request_queue_size = BACKLOG
    allow_reuse_address = True

    def __init__(self, address: tuple[str, int], table: Table, token: str) -> None:
        self.table = table
        self.token = token
        self.bot_api = BotApi(table)
        self.polls = _Polls()
        # daemon threads: a long poll in progress never holds up the end of `make run`
        self._work_queue: queue.SimpleQueue[tuple[Any, Any, bytes] | None] = queue.SimpleQueue()
        for n in range(WORKERS):
            threading.Thread(target=self._worker, name=f"local-table-{n}", daemon=True).start()
        self._arrivals = _Arrivals(self._hand_over, self.shutdown_request)
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
        if "/" in name or name.startswith(".") or not (STATIC / name).is_file():
            self._reply(HTTPStatus.NOT_FOUND, b"not found", "text/plain; charset=utf-8")
            return
        kind = mimetypes.guess_type(name)[0] or "application/octet-stream"
        if kind.startswith("text/") or kind.endswith("javascript"):
            kind += "; charset=utf-8"
        self._reply(HTTPStatus.OK, (STATIC / name).read_bytes(), kind)

    def _user(self, params: dict[str, Any]) -> User:
        if params.get("id") in (None, ""):
            raise ApiError(401, "Unauthorized: take a seat first")
        return self.server.table.user(_int(params, "id"), _str(params, "secret"))

    def _page_api(self, name: str) -> None:
        table = self.server.table
        if name in _CHANGES:
            self._same_origin()
        p = self._params()
        if name == "join":
            user = table.join(
                _str(p, "name"),
                _str(p, "lang") or None,
                _int(p, "id") if p.get("id") not in (None, "") else None,
                _str(p, "secret") or None,
            )
            self._json(200, {"id": user.id, "secret": user.secret, "name": user.name})
        elif name == "texts":
            self._json(200, self._texts(_str(p, "lang")))
        elif name == "state":
            self._json(200, table.snapshot(self._user(p)))
        elif name == "events":
            user = self._user(p)
            after = _int(p, "after") if p.get("after") not in (None, "") else 0
            with self.server.polls.slot(user.id):
                self._json(200, table.events_for(user, after, EVENT_POLL_SECONDS))
        elif name == "send":
            user = self._user(p)
            chat = "group" if _str(p, "chat") == "group" else "private"
            payload = _str(p, "start")
            if payload:  # a deep link t.me/<bot>?start=<payload>: Telegram shows only /start
                message_id = table.user_says(user, "private", f"/start {payload}", "/start")
            else:
                message_id = table.user_says(user, chat, _str(p, "text"))
            self._json(200, {"id": message_id})
        elif name == "press":
            user = self._user(p)
            chat = "group" if _str(p, "chat") == "group" else "private"
            query = table.user_presses(user, chat, _int(p, "message_id"), _str(p, "data"))
            self._json(200, {"query": query})
        else:
            raise ApiError(404, "Not Found")

    def _texts(self, language: str) -> dict[str, Any]:
        lang = negotiate(language)
        texts = {k[6:]: v for k, v in catalog(lang).items() if k.startswith("table.")}
        menus = self.server.table.commands

        def menu(scope: str) -> list[dict[str, str]]:
            return menus.get((scope, TELEGRAM_LANGUAGE[lang])) or menus.get((scope, None)) or []

        return {
            "lang": lang,
            "texts": texts,
            "bot": {"username": BOT_USERNAME, "name": BOT_FIRST_NAME},
            "menus": {"group": menu("all_group_chats"), "private": menu("all_private_chats")},
        }


def _str(params: dict[str, Any], key: str) -> str:
    value = params.get(key, "")
    if not isinstance(value, str):
        raise ApiError(400, f"Bad Request: {key} must be a string")
    return value


def _int(params: dict[str, Any], key: str) -> int:
    """A whole number, as JSON or in a query string or form; ids are never negative here."""
    value = params.get(key)
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise ApiError(400, f"Bad Request: {key} must be an integer")
    if isinstance(value, str):
        if not (value.isascii() and value.isdigit()) or len(value) > 19:
            raise ApiError(400, f"Bad Request: {key} must be an integer")
        value = int(value)
    if not 0 <= value < 2**63:
        raise ApiError(400, f"Bad Request: {key} is out of range")
    return value
