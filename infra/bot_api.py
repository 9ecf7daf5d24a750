"""A small Bot API client on ``http.client``, for the Telegram adapter (infra.telegram_messenger).

A cold Lambda imports this instead of python-telegram-bot (about 280 ms of imports, most of
them for types the gateway never looks at); requests travel on kept-alive connections
(``infra.http_pool``). Requests are JSON bodies, answers the raw
``result``; Telegram's refusals become the exceptions below, sorted the way python-telegram-bot
sorts them (``retry_after`` and ``migrate_to_chat_id`` first, then by HTTP status). Each
request's timeout fits the invocation's remaining time.

python-telegram-bot stays for what it does better: long polling, ``setWebhook`` and the local
table.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from infra.http_pool import HttpPool
from infra.metrics import TELEGRAM_ERRORS, TELEGRAM_FLOODS, TELEGRAM_TOKEN_REFUSED, count
from infra.ports import time_left

REQUEST_SECONDS = 5.0  # connect + read of one request, at most
MIN_REQUEST_SECONDS = 0.5

# (method, JSON-ready params, timeout in seconds) -> (HTTP status, body). Raises TimeoutError
# when the request timed out and OSError when it could not be made.
Transport = Callable[[str, dict[str, Any], float], tuple[int, bytes]]


class TelegramError(Exception):
    """Telegram answered ``ok: false`` or could not be reached."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class NetworkError(TelegramError):
    """Not reached, or a server error: worth a retry."""


class TimedOut(NetworkError):
    """The request timed out: Telegram may or may not have acted on it."""


class BadRequest(TelegramError):
    """400: no retry changes the answer."""


class Forbidden(TelegramError):
    """403: blocked by the user, kicked from the group, never started."""


class InvalidToken(TelegramError):
    """401 or 404: the token is wrong."""


class RetryAfter(TelegramError):
    """429 flood control: ``retry_after`` seconds until Telegram takes the next request."""

    def __init__(self, message: str, retry_after: float) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class ChatMigrated(TelegramError):
    """The group became the supergroup ``new_chat_id``."""

    def __init__(self, message: str, new_chat_id: int) -> None:
        super().__init__(message)
        self.new_chat_id = new_chat_id


def error_for(status: int, body: bytes) -> TelegramError:
    """The exception for a non-``ok`` answer."""
    try:
        answer = json.loads(body)
    except ValueError:
        answer = None
    if not isinstance(answer, dict):
        return NetworkError(f"unreadable answer ({status})")
    description = str(answer.get("description") or f"HTTP {status}")
    parameters = answer.get("parameters") or {}
    if "migrate_to_chat_id" in parameters:
        return ChatMigrated(description, int(parameters["migrate_to_chat_id"]))
    if "retry_after" in parameters:
        return RetryAfter(description, float(parameters["retry_after"]))
    if status == 400:
        return BadRequest(description)
    if status == 403:
        return Forbidden(description)
    if status in (401, 404):
        return InvalidToken(description)
    return NetworkError(f"{description} ({status})")


def http_transport(url_prefix: str) -> Transport:
    """POSTs to ``url_prefix + method`` over kept-alive connections, kept by warm containers.
    ``url_prefix`` holds the token: it is never logged here."""
    pool = HttpPool(max_idle=4)

    def post(method: str, params: dict[str, Any], timeout: float) -> tuple[int, bytes]:
        status, _, body = pool.post(
            url_prefix + method,
            json.dumps(params).encode(),
            {"Content-Type": "application/json"},
            connect_timeout=timeout,
            read_timeout=timeout,
            total=timeout,
        )
        return status, body

    return post


class BotApi:
    """``api.call("sendMessage", chat_id=…, text=…)``: the ``result`` or an exception.

    ``url_prefix`` is the Bot API root with the token, ``…/bot<TOKEN>/``. A call blocks until
    Telegram answers: a function handles one update at a time.
    """

    def __init__(self, url_prefix: str, transport: Transport | None = None) -> None:
        if not url_prefix.endswith("/"):
            url_prefix += "/"
        self._transport = transport or http_transport(url_prefix)
        self._hidden = _token_parts(url_prefix)
        self.refused = False  # Telegram refused the token (401/404) at least once

    def call(self, method: str, **params: Any) -> Any:
        left = time_left() - MIN_REQUEST_SECONDS
        timeout = max(MIN_REQUEST_SECONDS, min(REQUEST_SECONDS, left))
        body = {name: value for name, value in params.items() if value is not None}
        try:
            status, raw = self._transport(method, body, timeout)
        except TimeoutError as error:
            count(TELEGRAM_ERRORS)
            raise TimedOut(f"{method} timed out") from error
        except OSError as error:
            count(TELEGRAM_ERRORS)
            raise NetworkError(f"{method} failed: {error}") from error
        if status == 429:
            count(TELEGRAM_FLOODS)  # the shared budget (infra.rate_limit) or a chat's own limit
        elif status >= 500:
            count(TELEGRAM_ERRORS)
        elif status in (401, 404):
            # The token refused: a warm container's sends fail with it until it reads the secret
            # again (handlers.runtime asks, seeing ``refused``), counted only as SendFailures
            # otherwise, which a player who blocked the bot also raises.
            count(TELEGRAM_TOKEN_REFUSED)
            self.refused = True
        if status == 200:
            try:
                answer = json.loads(raw)
            except ValueError:
                raise NetworkError(f"{method}: unreadable answer") from None
            if isinstance(answer, dict) and answer.get("ok"):
                return answer.get("result")
        for part in self._hidden:  # an answer that echoes the path (a proxy's) holds the token
            raw = raw.replace(part, b"[redacted]")
        raise error_for(status, raw)

    def get_me(self) -> dict[str, Any]:
        me: dict[str, Any] = self.call("getMe")
        return me


def _token_parts(url_prefix: str) -> tuple[bytes, ...]:
    """The token in ``…/bot<TOKEN>/`` and its key after the colon, longest first."""
    last = url_prefix.rstrip("/").rsplit("/", 1)[-1]
    token = last.removeprefix("bot")
    _, _, key = token.partition(":")
    return tuple(p.encode() for p in (token, key) if len(p) >= 8)


def bot_api(token: str, base_url: str, transport: Transport | None = None) -> BotApi:
    """``base_url`` is the Bot API root plus ``/bot`` (as in the settings); the token follows."""
    return BotApi(f"{base_url}{token}/", transport)
