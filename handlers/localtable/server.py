"""One HTTP server for the local table: the page, its small JSON API, and the Bot API.

The standard library's ``ThreadingHTTPServer`` is enough here and adds no dependency: a handful
of routes, JSON in and out, and long polls that each hold one thread (the bot's ``getUpdates``
and one per open page). A web framework would bring routing and an ASGI server we do not need.

Routes:
- ``/`` and ``/static/…`` — the page (``handlers/localtable/static``).
- ``/bot<token>/<method>`` — the Bot API the bot's gateway calls, as on Telegram.
- ``/api/join``, ``/api/texts``, ``/api/state``, ``/api/events``, ``/api/send``,
  ``/api/press`` — the page: take a seat, its texts and menus, the chats, long-polled changes,
  typing a message, pressing a button. A seat is an id and a secret kept in the browser.
"""

from __future__ import annotations

import json
import logging
import mimetypes
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from handlers.i18n import catalog, negotiate
from handlers.localtable.bot_api import BotApi, decode
from handlers.localtable.chats import BOT_FIRST_NAME, BOT_USERNAME, ApiError, Table, User

log = logging.getLogger(__name__)

EVENT_POLL_SECONDS = 25.0
MAX_BODY = 64 * 1024
TELEGRAM_LANGUAGE = {"en": None, "de": "de", "zh-Hans": "zh"}
STATIC = resources.files("handlers.localtable") / "static"


class TableServer(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, address: tuple[str, int], table: Table, token: str) -> None:
        self.table = table
        self.token = token
        self.bot_api = BotApi(table)
        super().__init__(address, _Handler)

    @property
    def port(self) -> int:
        return int(self.server_address[1])


class _Handler(BaseHTTPRequestHandler):
    server: TableServer
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:
        log.debug("%s " + format, self.address_string(), *args)

    # -- plumbing -----------------------------------------------------------------------------
    def _reply(self, status: int, body: bytes, content_type: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _json(self, status: int, payload: Any) -> None:
        body = json.dumps(payload, ensure_ascii=False).encode("utf-8")
        self._reply(status, body, "application/json; charset=utf-8")

    def _params(self) -> dict[str, Any]:
        url = urlsplit(self.path)
        params: dict[str, Any] = dict(parse_qsl(url.query))
        length = int(self.headers.get("Content-Length") or 0)
        if length > MAX_BODY:
            raise ApiError(413, "Request Entity Too Large")
        body = self.rfile.read(length) if length else b""
        kind = (self.headers.get("Content-Type") or "").split(";")[0].strip()
        if body and kind == "application/json":
            try:
                data = json.loads(body)
            except ValueError as exc:
                raise ApiError(400, "Bad Request: the body is not JSON") from exc
            if not isinstance(data, dict):
                raise ApiError(400, "Bad Request: the body must be a JSON object")
            params.update(data)
        elif body:
            params.update(parse_qsl(body.decode("utf-8"), keep_blank_values=True))
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
            if path.startswith("/bot"):
                self._bot_api(path)
            elif path.startswith("/api/"):
                self._page_api(path[5:], self._params())
            else:
                self._static(path)
        except ApiError as error:
            self._json(error.code, error.answer())
        except (BrokenPipeError, ConnectionResetError):
            pass  # the browser went away mid-poll

    # -- the Bot API ------------------------------------------------------------------------
    def _bot_api(self, path: str) -> None:
        token, _, method = path[4:].partition("/")
        if token != self.server.token:
            raise ApiError(401, "Unauthorized")
        status, payload = self.server.bot_api.call(method, decode(self._params()))
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
        try:
            uid = int(params.get("id", ""))
        except ValueError as exc:
            raise ApiError(401, "Unauthorized: take a seat first") from exc
        return self.server.table.user(uid, str(params.get("secret", "")))

    def _page_api(self, name: str, p: dict[str, Any]) -> None:
        table = self.server.table
        if name == "join":
            uid = p.get("id")
            user = table.join(
                str(p.get("name", "")),
                str(p.get("lang") or "") or None,
                int(uid) if isinstance(uid, int | str) and str(uid).isdigit() else None,
                str(p.get("secret") or "") or None,
            )
            self._json(200, {"id": user.id, "secret": user.secret, "name": user.name})
        elif name == "texts":
            self._json(200, self._texts(str(p.get("lang", ""))))
        elif name == "state":
            self._json(200, table.snapshot(self._user(p)))
        elif name == "events":
            after = int(p.get("after", 0))
            self._json(200, table.events_for(self._user(p), after, EVENT_POLL_SECONDS))
        elif name == "send":
            user = self._user(p)
            chat = "group" if p.get("chat") == "group" else "private"
            payload = str(p.get("start") or "")
            if payload:  # a deep link t.me/<bot>?start=<payload>: Telegram shows only /start
                message_id = table.user_says(user, "private", f"/start {payload}", "/start")
            else:
                message_id = table.user_says(user, chat, str(p.get("text", "")))
            self._json(200, {"id": message_id})
        elif name == "press":
            user = self._user(p)
            chat = "group" if p.get("chat") == "group" else "private"
            query = table.user_presses(user, chat, int(p.get("message_id", 0)), str(p.get("data")))
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
