"""The webhook's edge: the secret header, and garbage of every shape answered 200 (issue 3)."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from handlers import webhook
from tests.service.service_game import GROUP, ServiceGame

SECRET = "s3cret-token"


def event(body: Any, secret: str | None = SECRET) -> dict[str, Any]:
    headers = {"content-type": "application/json"}
    if secret is not None:
        headers["X-Telegram-Bot-Api-Secret-Token"] = secret
    return {"headers": headers, "body": body if isinstance(body, str) else json.dumps(body)}


def test_missing_secret_is_401_and_touches_nothing() -> None:
    table = ServiceGame()
    reads = table.store.stats.reads
    reply = webhook.handle(event({"update_id": 1}, secret=None), lambda: table.service, SECRET)
    assert reply["statusCode"] == 401
    assert table.store.stats.reads == reads


def test_wrong_secret_is_403_and_touches_nothing() -> None:
    table = ServiceGame()
    reads = table.store.stats.reads
    reply = webhook.handle(event({"update_id": 1}, secret="nope"), lambda: table.service, SECRET)
    assert reply["statusCode"] == 403
    assert table.store.stats.reads == reads


def test_right_secret_runs_the_update() -> None:
    table = ServiceGame()
    update = {
        "update_id": 5,
        "message": {
            "message_id": 1,
            "date": 0,
            "chat": {"id": GROUP, "type": "supergroup"},
            "from": {"id": 101, "is_bot": False, "first_name": "A"},
            "text": "/newgame",
        },
    }
    reply = webhook.handle(event(update), lambda: table.service, SECRET)
    assert reply["statusCode"] == 200
    assert table.store.get(f"CHAT#{GROUP}") is not None


def test_handler_failure_still_answers_200() -> None:
    def broken() -> Any:
        raise RuntimeError("store down")

    assert webhook.handle(event({"update_id": 1}), broken, SECRET)["statusCode"] == 200


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=12), children, max_size=5)
    ),
    max_leaves=20,
)
update_like = st.fixed_dictionaries(
    {"update_id": st.integers(min_value=1, max_value=10**9)},
    optional={
        "message": st.dictionaries(
            st.sampled_from(["chat", "from", "text", "message_id", "left_chat_member"]), json_values
        ),
        "callback_query": st.dictionaries(
            st.sampled_from(["id", "from", "data", "message"]), json_values
        ),
        "chat_member": json_values,
        "edited_message": json_values,
    },
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(body=st.one_of(json_values, update_like, st.text(max_size=50)))
def test_garbage_is_answered_200_and_changes_nothing(body: Any) -> None:
    table = ServiceGame()
    table.start()
    version = table.store.get(f"GAME#{table.gid}").version  # type: ignore[union-attr]
    reply = webhook.handle(event(body), lambda: table.service, SECRET)
    assert reply["statusCode"] == 200
    assert table.store.get(f"GAME#{table.gid}").version == version  # type: ignore[union-attr]


@settings(max_examples=150, deadline=None)
@given(data=st.text(max_size=64))
def test_foreign_callback_data_changes_nothing(data: str) -> None:
    table = ServiceGame()
    table.start()
    version = table.store.get(f"GAME#{table.gid}").version  # type: ignore[union-attr]
    seat = table.state().turn
    message_id, _ = table.prompt(seat)
    table.press(table.uids[seat], message_id, data)
    if not data.startswith(f"{table.gid}:"):
        assert table.store.get(f"GAME#{table.gid}").version == version  # type: ignore[union-attr]
