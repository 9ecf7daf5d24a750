"""The light Bot API client the Lambda path uses (issue 12): Telegram's answers sorted into the
errors the gateway acts on, parameters as they travel, timeouts within the invocation's time."""

from __future__ import annotations

import json
from typing import Any

import pytest

from devtools.fakes import FakeClock
from infra.bot_api import (
    BadRequest,
    BotApi,
    ChatMigrated,
    Forbidden,
    InvalidToken,
    NetworkError,
    RetryAfter,
    TimedOut,
)
from infra.ports import deadline_scope


class Answers:
    """A transport that records the requests and answers with ``reply``."""

    def __init__(self, status: int = 200, body: Any = None, raises: Exception | None = None):
        self.status = status
        self.body = {"ok": True, "result": True} if body is None else body
        self.raises = raises
        self.requests: list[tuple[str, dict[str, Any], float]] = []

    def __call__(self, method: str, params: dict[str, Any], timeout: float) -> tuple[int, bytes]:
        self.requests.append((method, params, timeout))
        if self.raises is not None:
            raise self.raises
        return self.status, json.dumps(self.body).encode()


def call(transport: Answers, method: str = "sendMessage", **params: Any) -> Any:
    return BotApi("https://x/bot1:T/", transport).call(method, **params)


def refusal(status: int, description: str, **parameters: Any) -> Answers:
    body: dict[str, Any] = {"ok": False, "error_code": status, "description": description}
    if parameters:
        body["parameters"] = parameters
    return Answers(status, body)


def test_the_result_comes_back_and_unset_parameters_stay_home() -> None:
    transport = Answers(body={"ok": True, "result": {"message_id": 7}})
    assert call(transport, chat_id=1, text="hi", reply_markup=None) == {"message_id": 7}
    assert transport.requests[0][:2] == ("sendMessage", {"chat_id": 1, "text": "hi"})


@pytest.mark.parametrize(
    ("answers", "error"),
    [
        (refusal(429, "Too Many Requests: retry after 7", retry_after=7), RetryAfter),
        (
            refusal(400, "Bad Request: group chat was upgraded", migrate_to_chat_id=-100),
            ChatMigrated,
        ),
        (refusal(400, "Bad Request: not enough rights to send text messages"), BadRequest),
        (refusal(403, "Forbidden: bot was blocked by the user"), Forbidden),
        (refusal(401, "Unauthorized"), InvalidToken),
        (refusal(502, "Bad Gateway"), NetworkError),
        (Answers(500, "not json at all"), NetworkError),
        (Answers(raises=TimeoutError()), TimedOut),
        (Answers(raises=ConnectionResetError()), NetworkError),
    ],
)
def test_answers_are_sorted_as_the_gateway_needs(answers: Answers, error: type) -> None:
    with pytest.raises(error) as raised:
        call(answers)
    assert type(raised.value) is error
    if isinstance(raised.value, RetryAfter):
        assert raised.value.retry_after == 7
    if isinstance(raised.value, ChatMigrated):
        assert raised.value.new_chat_id == -100


def test_a_bad_request_is_not_retried_as_a_network_error() -> None:
    assert not issubclass(BadRequest, NetworkError)  # the gateway retries NetworkError only
    assert issubclass(TimedOut, NetworkError)


def test_a_request_never_waits_past_the_invocation() -> None:
    clock = FakeClock()
    transport = Answers()
    call(transport)  # no deadline: the default timeout
    with deadline_scope(clock.now() + 2.0, clock):
        call(transport)
    with deadline_scope(clock.now() + 0.2, clock):
        call(transport)
    assert [timeout for *_, timeout in transport.requests] == [5.0, 1.5, 0.5]
