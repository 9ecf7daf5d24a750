"""Kept-alive HTTP(S) connections on the standard library, for the Bot API and AWS clients.

The Lambda path needs little of an HTTP library: POST a body, read the whole answer, keep the
connection for the next request, time out. urllib3 did that for about 35 ms more of a cold
start's imports than ``http.client`` (its URL grammar, its HTTP/2 probe's package metadata);
this does it on ``http.client`` directly. No retries here: the callers decide what is safe to
send again.
"""

from __future__ import annotations

import http.client
import logging
import select
import ssl
import threading
import time
from collections.abc import Mapping
from urllib.parse import urlsplit

log = logging.getLogger(__name__)  # DEBUG lines name the path: infra.logs keeps it quiet

Answer = tuple[int, dict[str, str], bytes]  # status, headers (lower-case names), body


class HttpPool:
    """Connections by scheme, host and port; at most ``max_idle`` kept per origin. Thread-safe:
    a connection serves one request at a time."""

    def __init__(self, max_idle: int = 4) -> None:
        self.max_idle = max_idle
        self._idle: dict[tuple[str, str, int | None], list[http.client.HTTPConnection]] = {}
        self._lock = threading.Lock()
        self._tls: ssl.SSLContext | None = None
        self.connections_made = 0

    def post(
        self,
        url: str,
        body: bytes,
        headers: Mapping[str, str],
        *,
        connect_timeout: float,
        read_timeout: float,
        total: float | None = None,
    ) -> Answer:
        """The answer to a POST. Raises TimeoutError when the answer took too long (the request
        may have been carried out), ConnectionError when connecting did (nothing was sent), and
        OSError when no answer could be had; ``total`` bounds connecting and reading together.
        The messages never hold the URL (it may hold a token)."""
        started = time.monotonic()
        parts = urlsplit(url)
        origin = (parts.scheme, parts.hostname or "", parts.port)
        path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        connection = self._take(origin)
        try:
            if connection is None:
                connection = self._connect(origin, _bounded(connect_timeout, total, started))
            assert connection.sock is not None
            connection.sock.settimeout(_bounded(read_timeout, total, started))
            connection.request("POST", path, body=body, headers=dict(headers))
            response = connection.getresponse()
            data = response.read()
        except (OSError, http.client.HTTPException) as error:
            if connection is not None:
                connection.close()
            if isinstance(error, TimeoutError):
                raise TimeoutError(type(error).__name__) from None
            raise OSError(type(error).__name__) from None
        log.debug(
            '%s://%s:%s "POST %s HTTP/1.1" %s %s',
            *origin,
            path,
            response.status,
            len(data),
        )
        answer_headers = {name.lower(): value for name, value in response.getheaders()}
        if response.will_close:
            connection.close()
        else:
            self._give_back(origin, connection)
        return response.status, answer_headers, data

    def close(self) -> None:
        with self._lock:
            idle, self._idle = self._idle, {}
        for connections in idle.values():
            for connection in connections:
                connection.close()

    def _take(self, origin: tuple[str, str, int | None]) -> http.client.HTTPConnection | None:
        while True:
            with self._lock:
                kept = self._idle.get(origin)
                if not kept:
                    return None
                connection = kept.pop()
            if not _dropped(connection):
                return connection
            connection.close()  # the server closed it while it was idle

    def _give_back(
        self, origin: tuple[str, str, int | None], connection: http.client.HTTPConnection
    ) -> None:
        with self._lock:
            kept = self._idle.setdefault(origin, [])
            if len(kept) < self.max_idle:
                kept.append(connection)
                return
        connection.close()

    def _connect(
        self, origin: tuple[str, str, int | None], timeout: float
    ) -> http.client.HTTPConnection:
        scheme, host, port = origin
        connection: http.client.HTTPConnection
        if scheme == "https":
            connection = http.client.HTTPSConnection(
                host, port, timeout=timeout, context=self._tls_context()
            )
        elif scheme == "http":
            connection = http.client.HTTPConnection(host, port, timeout=timeout)
        else:
            raise OSError(f"unsupported scheme {scheme!r}")
        try:
            connection.connect()
        except TimeoutError:  # nothing was sent: a failure to connect, not an unknown outcome
            connection.close()
            raise ConnectionError("connect timed out") from None
        self.connections_made += 1
        return connection

    def _tls_context(self) -> ssl.SSLContext:
        with self._lock:
            if self._tls is None:  # loads the CA certificates: once per pool, not per connect
                self._tls = ssl.create_default_context()
            return self._tls


def _bounded(timeout: float, total: float | None, started: float) -> float:
    if total is None:
        return timeout
    return max(0.001, min(timeout, total - (time.monotonic() - started)))


def _dropped(connection: http.client.HTTPConnection) -> bool:
    """An idle kept-alive connection that can be read from was closed by the server (or holds
    bytes no request asked for): unusable either way."""
    sock = connection.sock
    if sock is None:
        return True
    try:
        return bool(select.select([sock], [], [], 0)[0])
    except (OSError, ValueError):
        return True
