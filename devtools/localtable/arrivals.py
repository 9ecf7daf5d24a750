"""Connections of the local table wait for their whole request without a thread each: one
selector thread watches them, for at most ``ARRIVAL_SECONDS``, and hands a request over only
once its head and its body (up to ``MAX_BODY``) are there, so slow or idle connections hold no
worker; at most ``MAX_CONNECTIONS`` wait at once."""

from __future__ import annotations

import contextlib
import logging
import re
import selectors
import socket
import threading
import time
from typing import Any

log = logging.getLogger(__name__)

MAX_BODY = 64 * 1024
MAX_HEAD = 16 * 1024  # the request line and headers
MAX_CONNECTIONS = 1024  # accepted and not answered yet; past it a new one is closed at once
ARRIVAL_SECONDS = 10.0  # for a whole request to arrive
_LENGTH = re.compile(rb"^content-length:[ \t]*([^\r\n]*?)[ \t]*\r?$", re.IGNORECASE | re.MULTILINE)


class Arrivals:
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
