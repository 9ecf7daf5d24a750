"""`make run` without a token: the local table on http://HOST:PORT/ (127.0.0.1:8080 by default).

The bot is the real one — ``devtools.local.Runner`` with python-telegram-bot's ``Bot`` — pointed
at the Bot API this process serves, so every message, edit and button answer goes over HTTP as
it does on Telegram. A timer that falls due wakes the bot's ``getUpdates`` so it is applied at
once.
"""

from __future__ import annotations

import dataclasses
import os
import secrets
import sys
import threading

from telegram import Bot
from telegram.request import HTTPXRequest

from devtools.localtable.chats import Table
from devtools.localtable.guards import repair_stored_text
from devtools.localtable.server import TableServer
from devtools.register_webhook import TELEGRAM_LANGUAGE, menus
from handlers.i18n import LANGUAGES, t
from handlers.polling import Runner, StartupError
from infra.settings import Settings
from infra.telegram_polling import TelegramPoller

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8080
MAX_PORT = 65535
POLL_SECONDS = 20  # a due timer wakes the poll, so a long one costs nothing


def _request() -> HTTPXRequest:
    # The table is on this machine: no proxy from the environment may stand in between.
    return HTTPXRequest(read_timeout=POLL_SECONDS + 10, httpx_kwargs={"trust_env": False})


def set_menus(runner: Runner) -> None:
    """The command menus, in every language, as register_webhook sets them on Telegram."""
    gateway = runner.messenger.gateway
    for lang in LANGUAGES:
        for scope, commands in menus(lang).items():
            gateway.set_commands(commands, scope=scope, language_code=TELEGRAM_LANGUAGE[lang])  # type: ignore[arg-type]


def start_server(settings: Settings, host: str, port: int) -> TableServer:
    repair_stored_text(settings.db_path)  # a file the table wrote before it checked text
    table = Table(settings.db_path, time_scale=settings.game_time_scale or 1.0)
    try:
        server = TableServer((host, port), table, token=f"1:{secrets.token_urlsafe(24)}")
    except OSError as error:
        raise StartupError(
            t("en", "local.port_busy", host=host, port=port, reason=error.strerror or error)
        ) from error
    threading.Thread(target=server.serve_forever, name="local-table", daemon=True).start()
    return server


def run_table(settings: Settings) -> int:
    host = os.environ.get("HOST", DEFAULT_HOST).strip() or DEFAULT_HOST
    try:
        port = int(os.environ.get("PORT", DEFAULT_PORT))
        if not 0 <= port <= MAX_PORT:  # bind() would raise OverflowError, not OSError
            raise ValueError(f"a port is a number from 0 to {MAX_PORT}")
    except ValueError as error:
        raise StartupError(
            t("en", "local.port_busy", host=host, port=os.environ["PORT"], reason=error)
        ) from error
    server = start_server(settings, host, port)
    try:
        shown = "127.0.0.1" if host in ("0.0.0.0", "") else host
        api = f"http://{shown}:{server.port}"
        bot = Bot(
            server.token, base_url=f"{api}/bot", request=_request(), get_updates_request=_request()
        )
        table_settings = dataclasses.replace(settings, telegram_api_base_url=api)
        runner = Runner(table_settings, TelegramPoller(bot), wake=server.table.wake)
        set_menus(runner)
        url = f"http://{shown}:{server.port}/"
        print(t("en", "local.table", url=url, db=settings.db_path), file=sys.stderr, flush=True)
        if shown != host:
            print(t("en", "local.table_lan", port=server.port), file=sys.stderr, flush=True)
        runner.poll_forever(POLL_SECONDS)
    finally:
        server.shutdown()
    return 0
