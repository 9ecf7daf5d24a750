"""AWS clients from botocore, created once per process and only when first needed.

boto3 adds nothing the stores use, and importing it also imports s3transfer: about a third of
boto3's import time, on every cold start. A botocore client reads the region, credentials and
endpoint from the environment exactly as ``boto3.client`` does.
"""

from __future__ import annotations

import threading
from typing import Any

_lock = threading.Lock()
_session: Any = None


def client(service: str, region: str | None = None) -> Any:
    """A new client for ``service``; callers keep it (a session is not thread-safe: locked)."""
    global _session
    import botocore.session
    from botocore.config import Config

    # Short timeouts: a Lambda waiting a minute on a stuck connection holds a Telegram update.
    config = Config(connect_timeout=3, read_timeout=10, retries={"mode": "standard"})
    with _lock:
        if _session is None:
            _session = botocore.session.get_session()
        return _session.create_client(service, region_name=region, config=config)
