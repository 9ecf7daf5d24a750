"""botocore clients for the operator's tools (``register_webhook``); the Lambda path talks to
AWS through ``infra.aws_json`` instead, without botocore's import and client-creation time.

A botocore client reads the region, credentials and endpoint from the environment exactly as
``boto3.client`` does, without importing boto3 and s3transfer.
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
