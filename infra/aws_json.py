"""A small signed client for the AWS calls the Lambda path makes, on AWS's JSON protocols.

botocore costs a cold start about 200 ms of imports and another 130 ms to build a DynamoDB
client (it loads the service model and the endpoint rules): more than the rest of the first
update together. The Lambda path makes five calls (DynamoDB GetItem, BatchGetItem,
TransactWriteItems; SQS SendMessage; Secrets Manager GetSecretValue), all POSTs of a JSON body
named by an ``X-Amz-Target`` header, so it signs them itself (Signature Version 4) and sends
them on kept-alive ``http.client`` connections (``infra.http_pool``, as ``infra.bot_api`` does).

What botocore would do, kept: credentials from the environment (as Lambda provides them), else
botocore's own chain (imported only then, e.g. an operator's profile); the region from
``AWS_REGION``/``AWS_DEFAULT_REGION``; endpoints from ``AWS_ENDPOINT_URL_<SERVICE>``,
``AWS_ENDPOINT_URL`` or the regional default; the standard retry mode (three attempts,
jittered exponential backoff on throttling, 5xx answers and connection errors); an idempotency
token on every TransactWriteItems, so a retry after a lost answer is not applied twice.
The CLI tools (``register_webhook``, ``load``'s table creation) keep botocore (``infra.aws``).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import os
import random
import threading
import time
from collections.abc import Callable, Mapping
from typing import Any, NamedTuple
from urllib.parse import quote, urlsplit

from infra.http_pool import HttpPool

CONNECT_TIMEOUT_SECONDS = 3.0  # a Lambda waiting a minute on a stuck connection holds an update
READ_TIMEOUT_SECONDS = 10.0
MAX_ATTEMPTS = 3  # botocore's standard retry mode
MAX_BACKOFF_SECONDS = 20.0

# botocore's standard retry mode retries these error codes, any of these statuses, and
# connection errors; never a conditional-check failure or a cancelled transaction (400s).
THROTTLING_CODES = frozenset(
    {
        "Throttling",
        "ThrottlingException",
        "ThrottledException",
        "RequestThrottledException",
        "TooManyRequestsException",
        "ProvisionedThroughputExceededException",
        "TransactionInProgressException",
        "RequestLimitExceeded",
        "BandwidthLimitExceeded",
        "LimitExceededException",
        "RequestThrottled",
        "SlowDown",
        "PriorRequestNotComplete",
        "EC2ThrottledException",
    }
)
TRANSIENT_CODES = frozenset(
    {"RequestTimeout", "RequestTimeoutException", "PriorRequestNotComplete"}
)
TRANSIENT_STATUSES = frozenset({500, 502, 503, 504})
UNREACHABLE = "ConnectionError"  # the code of an AwsError raised when no answer came


class AwsError(Exception):
    """AWS refused a call (``code`` and ``message`` as AWS sent them) or did not answer it.

    ``details`` is the rest of the error body, e.g. TransactWriteItems' ``CancellationReasons``.
    """

    def __init__(
        self,
        operation: str,
        code: str,
        message: str,
        status: int = 0,
        details: Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__(f"{operation}: {code}: {message}")
        self.operation = operation
        self.code = code
        self.message = message
        self.status = status
        self.details = dict(details or {})

    @property
    def cancellation_reasons(self) -> list[str] | None:
        """A cancelled transaction's reason code per item (``"None"``: that item was fine)."""
        reasons = self.details.get("CancellationReasons")
        if self.code != "TransactionCanceledException" or not isinstance(reasons, list):
            return None
        return [str(r.get("Code") or "None") if isinstance(r, dict) else "None" for r in reasons]

    @property
    def retryable(self) -> bool:
        return (
            self.code in THROTTLING_CODES
            or self.code in TRANSIENT_CODES
            or self.code == UNREACHABLE
            or self.status in TRANSIENT_STATUSES
        )


class Credentials(NamedTuple):
    access_key: str
    secret_key: str
    token: str | None = None


# --- Signature Version 4 ------------------------------------------------------------------------

AMZ_DATE_FORMAT = "%Y%m%dT%H%M%SZ"
# Headers a proxy or the HTTP client may change on the way: never signed (botocore's list).
UNSIGNED_HEADERS = frozenset(
    {
        "authorization",
        "baggage",
        "connection",
        "expect",
        "keep-alive",
        "proxy-authenticate",
        "proxy-authorization",
        "te",
        "traceparent",
        "tracestate",
        "trailer",
        "transfer-encoding",
        "upgrade",
        "user-agent",
        "x-amzn-trace-id",
    }
)


def host_of(url: str) -> str:
    """The Host header for ``url``: lower case, without a scheme's default port."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    if ":" in host:
        host = f"[{host}]"
    if parts.port is not None and parts.port != {"http": 80, "https": 443}.get(parts.scheme):
        host = f"{host}:{parts.port}"
    return host


def _canonical_path(path: str) -> str:
    """The path without empty and dot segments (RFC 3986 5.2.4; AWS wants no ``//``), quoted."""
    if not path:
        return "/"
    segments: list[str] = []
    for segment in path.split("/"):
        if segment == "..":
            if segments:
                segments.pop()
        elif segment and segment != ".":
            segments.append(segment)
    first = "/" if path.startswith("/") else ""
    last = "/" if path.endswith("/") and segments else ""
    return quote(first + "/".join(segments) + last, safe="/~")


def _canonical_query(query: str) -> str:
    """The query as sent (already percent-encoded), its pairs sorted."""
    if not query:
        return ""
    pairs = [pair.partition("=") for pair in query.split("&")]
    return "&".join(f"{key}={value}" for key, _, value in sorted((k, s, v) for k, s, v in pairs))


def _hmac(key: bytes, text: str) -> bytes:
    return hmac.new(key, text.encode(), hashlib.sha256).digest()


def sign(
    method: str,
    url: str,
    headers: Mapping[str, str],
    body: bytes,
    credentials: Credentials,
    region: str,
    service: str,
    now: float,
) -> dict[str, str]:
    """``headers`` plus ``X-Amz-Date`` (``now``, epoch seconds), the session token (if any) and
    ``Authorization``. Every header given is signed (but ``UNSIGNED_HEADERS``), and ``Host``
    (derived from ``url`` unless given): send exactly these headers.
    """
    amz_date = time.strftime(AMZ_DATE_FORMAT, time.gmtime(now))
    signed = {k: v for k, v in headers.items() if k.lower() not in ("authorization", "x-amz-date")}
    signed["X-Amz-Date"] = amz_date
    if credentials.token:
        signed["X-Amz-Security-Token"] = credentials.token
    if not any(k.lower() == "host" for k in signed):
        signed["Host"] = host_of(url)
    canonical: dict[str, list[str]] = {}
    for name, value in signed.items():
        if name.lower() in UNSIGNED_HEADERS:
            continue
        canonical.setdefault(name.lower(), []).append(" ".join(value.split()))
    names = sorted(canonical)
    parts = urlsplit(url)
    request = "\n".join(
        [
            method.upper(),
            _canonical_path(parts.path),
            _canonical_query(parts.query),
            "".join(f"{name}:{','.join(canonical[name])}\n" for name in names),
            ";".join(names),
            hashlib.sha256(body).hexdigest(),
        ]
    )
    scope = f"{amz_date[:8]}/{region}/{service}/aws4_request"
    string_to_sign = "\n".join(
        ["AWS4-HMAC-SHA256", amz_date, scope, hashlib.sha256(request.encode()).hexdigest()]
    )
    key = _hmac(f"AWS4{credentials.secret_key}".encode(), amz_date[:8])
    for part in (region, service, "aws4_request"):
        key = _hmac(key, part)
    signature = hmac.new(key, string_to_sign.encode(), hashlib.sha256).hexdigest()
    signed["Authorization"] = (
        f"AWS4-HMAC-SHA256 Credential={credentials.access_key}/{scope}, "
        f"SignedHeaders={';'.join(names)}, Signature={signature}"
    )
    return signed


# --- where and as whom ----------------------------------------------------------------------


def env_credentials(environ: Mapping[str, str] = os.environ) -> Credentials | None:
    """The credentials Lambda puts in every function's environment, if set."""
    access_key = environ.get("AWS_ACCESS_KEY_ID")
    secret_key = environ.get("AWS_SECRET_ACCESS_KEY")
    if not access_key or not secret_key:
        return None
    return Credentials(access_key, secret_key, environ.get("AWS_SESSION_TOKEN") or None)


def _botocore_session() -> Any:
    import botocore.session  # only off Lambda: an operator's profile, SSO, an instance role

    return botocore.session.get_session()


def credential_source(environ: Mapping[str, str] = os.environ) -> Callable[[], Credentials]:
    """Credentials for each request: the environment's, else botocore's chain (which refreshes
    temporary credentials itself)."""
    fixed = env_credentials(environ)
    if fixed is not None:
        return lambda: fixed
    found = _botocore_session().get_credentials()
    if found is None:
        raise AwsError("credentials", "NoCredentials", "no AWS credentials found")

    def frozen() -> Credentials:
        current = found.get_frozen_credentials()
        return Credentials(current.access_key, current.secret_key, current.token)

    return frozen


def region_name(environ: Mapping[str, str] = os.environ) -> str:
    region = environ.get("AWS_REGION") or environ.get("AWS_DEFAULT_REGION")
    if not region:
        region = _botocore_session().get_config_variable("region")
    if not region:
        raise AwsError("region", "NoRegion", "set AWS_REGION (or AWS_DEFAULT_REGION)")
    return str(region)


def endpoint_url(
    service_id: str, prefix: str, region: str, environ: Mapping[str, str] = os.environ
) -> str:
    """``AWS_ENDPOINT_URL_<SERVICE ID>``, ``AWS_ENDPOINT_URL``, else the regional endpoint."""
    if environ.get("AWS_IGNORE_CONFIGURED_ENDPOINT_URLS", "").lower() != "true":
        own = environ.get("AWS_ENDPOINT_URL_" + service_id.upper().replace(" ", "_"))
        if own or environ.get("AWS_ENDPOINT_URL"):
            return str(own or environ["AWS_ENDPOINT_URL"])
    suffix = "amazonaws.com.cn" if region.startswith("cn-") else "amazonaws.com"
    return f"https://{prefix}.{region}.{suffix}"


# --- the client ---------------------------------------------------------------------------------


class Protocol(NamedTuple):
    service_id: str  # as in AWS_ENDPOINT_URL_<SERVICE ID>
    prefix: str  # the endpoint's first label and the signing name
    target: str  # X-Amz-Target is "<target>.<Operation>"
    content_type: str


DYNAMODB = Protocol("DynamoDB", "dynamodb", "DynamoDB_20120810", "application/x-amz-json-1.0")
SQS = Protocol("SQS", "sqs", "AmazonSQS", "application/x-amz-json-1.0")
SECRETS_MANAGER = Protocol(
    "Secrets Manager", "secretsmanager", "secretsmanager", "application/x-amz-json-1.1"
)

# (url, headers, body) -> (status, headers, body); raises AwsError(code=UNREACHABLE) when
# no answer came.
Transport = Callable[[str, dict[str, str], bytes], tuple[int, Mapping[str, str], bytes]]

_pool_lock = threading.Lock()
_pool: HttpPool | None = None


def http_transport(url: str, headers: dict[str, str], body: bytes) -> tuple[int, Any, bytes]:
    """POST on one connection pool per process (kept by warm containers; thread-safe)."""
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = HttpPool(max_idle=10)
    try:
        return _pool.post(
            url,
            body,
            headers,
            connect_timeout=CONNECT_TIMEOUT_SECONDS,
            read_timeout=READ_TIMEOUT_SECONDS,
        )
    except OSError as error:  # TimeoutError included
        raise AwsError("POST", UNREACHABLE, str(error) or type(error).__name__) from error


class JsonClient:
    """Signed JSON calls to one AWS service: ``call("GetItem", {...})`` → the answer's body."""

    def __init__(
        self,
        protocol: Protocol,
        *,
        region: str | None = None,
        endpoint: str | None = None,
        credentials: Callable[[], Credentials] | None = None,
        transport: Transport = http_transport,
        max_attempts: int = MAX_ATTEMPTS,
        sleep: Callable[[float], None] = time.sleep,
        environ: Mapping[str, str] = os.environ,
    ) -> None:
        self.protocol = protocol
        self.region = region or region_name(environ)
        base = endpoint or endpoint_url(protocol.service_id, protocol.prefix, self.region, environ)
        self.url = base if urlsplit(base).path else base.rstrip("/") + "/"
        self._credentials = credentials or credential_source(environ)
        self._transport = transport
        self._max_attempts = max_attempts
        self._sleep = sleep
        self.retries = 0  # attempts after a first one, over this client's life

    def call(self, operation: str, params: Mapping[str, Any]) -> dict[str, Any]:
        body = json.dumps(params, default=_encode_binary, separators=(",", ":")).encode()
        headers = {
            "Content-Type": self.protocol.content_type,
            "X-Amz-Target": f"{self.protocol.target}.{operation}",
        }
        for attempt in range(1, self._max_attempts + 1):
            signed = sign(
                "POST",
                self.url,
                headers,
                body,
                self._credentials(),
                self.region,
                self.protocol.prefix,
                time.time(),
            )
            try:
                status, answer_headers, raw = self._transport(self.url, signed, body)
            except AwsError as error:
                failure = AwsError(operation, error.code, error.message, error.status)
            else:
                if status == 200:
                    return _decode_binary(json.loads(raw)) if raw else {}
                failure = error_from(operation, status, answer_headers, raw)
            if not failure.retryable or attempt == self._max_attempts:
                raise failure
            self.retries += 1
            self._sleep(random.random() * min(MAX_BACKOFF_SECONDS, 2.0 ** (attempt - 1)))
        raise AssertionError("unreachable: the last attempt returns or raises")


def error_from(operation: str, status: int, headers: Mapping[str, str], raw: bytes) -> AwsError:
    """The AwsError for a non-200 answer of the JSON protocols."""
    try:
        body = json.loads(raw) if raw else {}
    except ValueError:
        body = {}
    if not isinstance(body, dict):
        body = {}
    lowered = {str(k).lower(): str(v) for k, v in headers.items()}
    code = str(body.get("__type") or body.get("code") or lowered.get("x-amzn-errortype") or "")
    code = code.rpartition("#")[2].partition(":")[0]
    if "x-amzn-query-error" in lowered:  # SQS: the code its query protocol had
        code = lowered["x-amzn-query-error"].partition(";")[0] or code
    message = str(body.get("message") or body.get("Message") or "")
    details = {k: v for k, v in body.items() if k not in ("__type", "code", "message", "Message")}
    return AwsError(operation, code or f"HTTP{status}", message, status, details)


def _encode_binary(value: object) -> str:
    if isinstance(value, bytes | bytearray):
        return base64.b64encode(value).decode()
    raise TypeError(f"not JSON serialisable: {type(value).__name__}")


def _decode_binary(value: Any) -> Any:
    """DynamoDB's binary attribute values (``{"B": base64}``, ``{"BS": [...]}``) as bytes."""
    if isinstance(value, dict):
        if len(value) == 1:
            if isinstance(value.get("B"), str):
                return {"B": base64.b64decode(value["B"])}
            if isinstance(value.get("BS"), list):
                return {"BS": [base64.b64decode(v) for v in value["BS"]]}
        return {k: _decode_binary(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_decode_binary(v) for v in value]
    return value


# --- the calls the Lambda path makes ------------------------------------------------------------


class DynamoDB:
    def __init__(self, client: JsonClient | None = None) -> None:
        self.json = client or JsonClient(DYNAMODB)

    def get_item(self, **params: Any) -> dict[str, Any]:
        return self.json.call("GetItem", params)

    def batch_get_item(self, **params: Any) -> dict[str, Any]:
        return self.json.call("BatchGetItem", params)

    def transact_write_items(self, **params: Any) -> dict[str, Any]:
        # The same token on every retry of this call: DynamoDB applies it at most once.
        params.setdefault("ClientRequestToken", os.urandom(16).hex())
        return self.json.call("TransactWriteItems", params)


class Sqs:
    def __init__(self, client: JsonClient | None = None) -> None:
        self.json = client or JsonClient(SQS)

    def send_message(self, **params: Any) -> dict[str, Any]:
        return self.json.call("SendMessage", params)


class SecretsManager:
    def __init__(self, client: JsonClient | None = None) -> None:
        self.json = client or JsonClient(SECRETS_MANAGER)

    def get_secret_value(self, **params: Any) -> dict[str, Any]:
        return self.json.call("GetSecretValue", params)
