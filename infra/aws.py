"""botocore clients, one per service per container, and the one retry policy of every AWS call.

The Lambda path (DynamoDB, SQS, Secrets Manager) and the operator's tools get their clients
here. A client reads the region, credentials and endpoint exactly as ``boto3.client`` does
(``AWS_REGION``/``AWS_DEFAULT_REGION``, the environment's or a container's credentials, a profile,
``AWS_ENDPOINT_URL…``) without importing boto3 and s3transfer.

The retry policy (``POLICY``), for every call of every client made here:

- each attempt: connect within ``connect_timeout``, each read within ``read_timeout``;
- botocore's standard retry mode: at most ``max_attempts`` (per service) for throttling, 5xx
  answers, a bad CRC32 and connection errors, jittered exponential backoff, a retry quota;
- bounded by the invocation's time: a call starts only if one attempt fits what is left of the
  invocation (``infra.ports.time_left``, the Lambda's remaining time, minus ``margin``), else it
  raises ``OutOfTime`` without sending; a retry is made only if its pause and one more attempt
  still fit, else botocore raises the last answer's error. Outside any invocation a call gets
  ``call_budget`` seconds;
- TransactWriteItems' idempotency token (``ClientRequestToken``): botocore fills it once per
  call, so every retry of the call carries the same token and DynamoDB applies it at most once.

The clients of the services the Lambda path calls (``LEAN_SERVICES``) come from a session that
registers only those of botocore's built-in handlers that can fire for these services
(``lean_session``): botocore's own session registers ~130, most for other services (S3, EC2,
Glacier, …), and each client copies them; leaving them out saves a cold start ~40 ms of CPU
(README, *Cold start and sizing*). Clients of any other service (the operator's tools) come from
botocore's full session.

The layers above (the store sends a transaction again that DynamoDB cancelled for another
transaction or throttling; the pipeline reads again after a version conflict) go through these
clients, so every request they make is held to the same deadline.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from infra.ports import OutOfTime, time_left

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class RetryPolicy:
    connect_timeout: float = 1.0
    read_timeout: float = 3.0
    # botocore's standard mode defaults: 4 attempts for DynamoDB, 3 for the others.
    max_attempts: dict[str, int] = field(default_factory=lambda: {"dynamodb": 4})
    default_attempts: int = 3
    margin: float = 0.5  # seconds left to the caller after the last attempt
    call_budget: float = 10.0  # seconds for a call made outside any invocation

    @property
    def attempt_seconds(self) -> float:
        """The longest one attempt may take (a connection, then a read)."""
        return self.connect_timeout + self.read_timeout

    def attempts(self, service: str) -> int:
        return self.max_attempts.get(service, self.default_attempts)

    def seconds_left(self, call_started: float) -> float:
        """What is left for this call: of the invocation, and of the call's own budget."""
        own = self.call_budget - (time.monotonic() - call_started)
        return min(time_left() - self.margin, own)


POLICY = RetryPolicy()

# The services the Lambda path calls and those botocore's credential providers may call (a role
# to assume, SSO), as botocore names them in its events (the model's service id, hyphenized); the
# same services as the models deploy/package.py ships (its AWS_SERVICES).
LEAN_SERVICES = {
    "dynamodb": "dynamodb",
    "sqs": "sqs",
    "secretsmanager": "secrets-manager",
    "sts": "sts",
    "sso": "sso",
    "sso-oidc": "sso-oidc",
}

_lock = threading.Lock()
# by the environment's access key (one in Lambda; tests change it) and whether it is lean
_sessions: dict[tuple[str, bool], Any] = {}
_clients: dict[tuple[str, ...], Any] = {}


def client(service: str, region: str | None = None, policy: RetryPolicy = POLICY) -> Any:
    """The client for ``service``, made on first use and kept for the container's life (thread
    safe: botocore clients are; creating them is locked). A change of the region or the
    configured endpoint (tests) makes a new one."""
    env = os.environ
    access_key = env.get("AWS_ACCESS_KEY_ID", "")
    endpoint = env.get("AWS_ENDPOINT_URL_" + service.upper()) or env.get("AWS_ENDPOINT_URL", "")
    key = (service, region or "", endpoint, access_key, str(id(policy)))
    with _lock:
        found = _clients.get(key)
        if found is None:
            lean = service in LEAN_SERVICES
            session = _sessions.get((access_key, lean))
            if session is None:
                session = _sessions[access_key, lean] = lean_session() if lean else full_session()
            found = _clients[key] = new_client(session, service, region, policy)
        return found


def full_session() -> Any:
    import botocore.session

    return botocore.session.get_session()


def handler_service(event: str) -> str | None:
    """The service a built-in handler's event is for (``before-call.s3.PutObject``: ``s3``;
    ``docs.*.s3.*.complete-section``: ``s3``), or None when it is for every service."""
    parts = event.split(".")
    at = 2 if parts[0] == "docs" else 1
    name = parts[at] if len(parts) > at else "*"
    return None if name == "*" else name


def lean_session(
    services: frozenset[str] = frozenset({*LEAN_SERVICES, *LEAN_SERVICES.values()}),
) -> Any:
    """A botocore session whose clients of ``services`` (by their events' names, or their
    models' names, which botocore aliases to those) behave as the full session's: it registers
    botocore's built-in handlers, in botocore's order and as botocore registers them
    (``Session._register_builtin_handlers``), but those for other services, which no client of
    ``services`` can fire (tests/integration/test_aws_clients.py compares what every
    operation's events reach)."""
    import botocore.session
    from botocore import handlers

    session = botocore.session.Session(include_builtin_handlers=False)
    emitter = session.get_component("event_emitter")
    for event, handler, *order in handlers.BUILTIN_HANDLERS:
        service = handler_service(event)
        if service is not None and service not in services:
            continue
        if not order:
            session.register(event, handler)
        elif order[0] is handlers.REGISTER_FIRST:
            emitter.register_first(event, handler)
        elif order[0] is handlers.REGISTER_LAST:
            emitter.register_last(event, handler)
    return session


def new_client(session: Any, service: str, region: str | None, policy: RetryPolicy) -> Any:
    """A client of ``session`` that follows ``policy`` (see the module's docstring)."""
    from botocore.config import Config
    from botocore.retries import standard

    attempts = policy.attempts(service)
    config = Config(
        connect_timeout=policy.connect_timeout,
        read_timeout=policy.read_timeout,
        retries={"mode": "standard", "total_max_attempts": attempts},
        tcp_keepalive=True,
    )
    made = session.create_client(service, region_name=region, config=config)
    events = made.meta.events
    name = made.meta.service_model.service_id.hyphenize()
    # botocore registered its standard retry handler under this id; keep one as an object and
    # put it back behind the deadline check.
    needs_retry, unique_id = f"needs-retry.{name}", f"retry-config-{name}"
    events.unregister(needs_retry, unique_id=unique_id)
    handler = standard.register_retry_handler(made, max_attempts=attempts)
    events.unregister(needs_retry, unique_id=unique_id)
    bounded = _Bounded(policy, handler.needs_retry)
    events.register(needs_retry, bounded.needs_retry, unique_id=unique_id)
    events.register_first(f"before-call.{name}", bounded.before_call)
    return made


class _Bounded:
    """Holds every request of a call to the invocation's remaining time."""

    def __init__(self, policy: RetryPolicy, standard: Any) -> None:
        self.policy = policy
        self.standard = standard

    def before_call(self, model: Any, context: dict[str, Any], **_: Any) -> None:
        context["deadline_call_started"] = started = time.monotonic()
        left = self.policy.seconds_left(started)
        if left < self.policy.attempt_seconds:
            raise OutOfTime(f"{model.name}: {left:.1f} s left, one attempt may take longer")

    def needs_retry(self, **kwargs: Any) -> float | None:
        delay: float | None = self.standard(**kwargs)
        if delay is None:
            return None
        context = (kwargs.get("request_dict") or {}).get("context") or {}
        left = self.policy.seconds_left(context.get("deadline_call_started", time.monotonic()))
        if delay + self.policy.attempt_seconds > left:
            log.warning(
                "AWS call not retried: %.1f s left of the invocation",
                left,
                extra={"operation": getattr(kwargs.get("operation"), "name", None)},
            )
            return None
        return delay


def reset() -> None:
    """Forget the kept clients and sessions."""
    with _lock:
        _clients.clear()
        _sessions.clear()
