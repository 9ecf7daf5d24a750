"""moto's threaded server, made to apply each request atomically as DynamoDB does."""

from __future__ import annotations

import threading
from typing import Any


class OneRequestAtATime:
    """DynamoDB runs each request atomically; moto's threaded server does not (a cancelled
    transaction restores a table snapshot, undoing a concurrent commit), so serialise requests.
    Clients still interleave freely between their read and their commit."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.lock = threading.Lock()

    def __call__(self, environ: Any, start_response: Any) -> list[bytes]:
        with self.lock:
            return list(self.app(environ, start_response))
