"""Telegram update JSON as the Bot API delivers it, for driving the webhook in tests.

Each builder returns a plain dict (what the webhook body parses to). Private chats have the
user's id as chat id; group ids are negative. The bot itself is ``chats.BOT_USER``.
"""

from __future__ import annotations

from typing import Any

from devtools.botapi.chats import BOT_USER
from devtools.botapi.directory import chat_json
from devtools.botapi.html import utf16_len

DATE = 1_800_000_000


def user_json(user_id: int, first_name: str, language_code: str | None = "en") -> dict[str, Any]:
    user: dict[str, Any] = {"id": user_id, "is_bot": False, "first_name": first_name}
    if language_code is not None:
        user["language_code"] = language_code
    return user


def _chat(chat_id: int, chat_type: str, title: str | None) -> dict[str, Any]:
    if chat_type == "private":
        return {"id": chat_id, "type": "private", "first_name": title or f"User {chat_id}"}
    return {"id": chat_id, "type": chat_type, "title": title or f"Group {chat_id}"}


def message_update(
    update_id: int,
    chat_id: int,
    chat_type: str,
    user_id: int,
    first_name: str,
    text: str,
    language_code: str | None = "en",
    *,
    message_id: int | None = None,
    chat_title: str | None = None,
    date: int = DATE,
) -> dict[str, Any]:
    """A text message; a leading ``/command`` (or ``/command@bot``) gets a bot_command entity."""
    message: dict[str, Any] = {
        "message_id": message_id if message_id is not None else update_id,
        "date": date,
        "chat": _chat(chat_id, chat_type, first_name if chat_type == "private" else chat_title),
        "from": user_json(user_id, first_name, language_code),
        "text": text,
    }
    if text.startswith("/"):
        command = text.split(maxsplit=1)[0]
        message["entities"] = [{"type": "bot_command", "offset": 0, "length": utf16_len(command)}]
    return {"update_id": update_id, "message": message}


def callback_update(
    update_id: int,
    user_id: int,
    first_name: str,
    message_chat_id: int,
    message_id: int,
    data: str,
    language_code: str | None = "en",
    *,
    message_text: str = "…",
    query_id: str | None = None,
    date: int = DATE,
) -> dict[str, Any]:
    """A press on an inline button of the bot's message ``message_id`` in ``message_chat_id``."""
    return {
        "update_id": update_id,
        "callback_query": {
            "id": query_id or f"cq{update_id}",
            "from": user_json(user_id, first_name, language_code),
            "chat_instance": f"ci{message_chat_id}",
            "data": data,
            "message": {
                "message_id": message_id,
                "date": date,
                "chat": chat_json(message_chat_id),
                "from": BOT_USER,
                "text": message_text,
            },
        },
    }


def _member(user: dict[str, Any], status: str) -> dict[str, Any]:
    member: dict[str, Any] = {"user": user, "status": status}
    if status == "kicked":
        member["until_date"] = 0
    return member


def my_chat_member(
    update_id: int,
    chat_id: int,
    chat_type: str,
    user_id: int,
    first_name: str,
    old_status: str,
    new_status: str,
    *,
    date: int = DATE,
) -> dict[str, Any]:
    """The bot's own membership changed: e.g. a user blocked it in private (member -> kicked),
    or someone added it to a group (left -> member)."""
    return {
        "update_id": update_id,
        "my_chat_member": {
            "chat": _chat(chat_id, chat_type, first_name if chat_type == "private" else None),
            "from": user_json(user_id, first_name),
            "date": date,
            "old_chat_member": _member(BOT_USER, old_status),
            "new_chat_member": _member(BOT_USER, new_status),
        },
    }


def chat_member(
    update_id: int,
    chat_id: int,
    user_id: int,
    first_name: str,
    new_status: str = "left",
    old_status: str = "member",
    *,
    by_user_id: int | None = None,
    chat_type: str = "supergroup",
    date: int = DATE,
) -> dict[str, Any]:
    """A group member's status changed: ``left`` by themselves, ``kicked`` by ``by_user_id``."""
    user = user_json(user_id, first_name)
    actor = user_json(by_user_id, f"User {by_user_id}") if by_user_id is not None else user
    return {
        "update_id": update_id,
        "chat_member": {
            "chat": _chat(chat_id, chat_type, None),
            "from": actor,
            "date": date,
            "old_chat_member": _member(user, old_status),
            "new_chat_member": _member(user, new_status),
        },
    }


def migration_updates(
    first_update_id: int,
    group_id: int,
    supergroup_id: int,
    user_id: int,
    first_name: str,
    *,
    title: str | None = None,
    date: int = DATE,
) -> list[dict[str, Any]]:
    """A group upgraded to a supergroup, as Telegram tells a bot in it: a service message in
    the old group with ``migrate_to_chat_id`` and one in the new supergroup with
    ``migrate_from_chat_id`` (both from the user who upgraded it)."""
    user = user_json(user_id, first_name)
    old: dict[str, Any] = {
        "message_id": first_update_id,
        "date": date,
        "chat": _chat(group_id, "group", title),
        "from": user,
        "migrate_to_chat_id": supergroup_id,
    }
    new: dict[str, Any] = {
        "message_id": 1,
        "date": date,
        "chat": _chat(supergroup_id, "supergroup", title),
        "from": user,
        "migrate_from_chat_id": group_id,
    }
    return [
        {"update_id": first_update_id, "message": old},
        {"update_id": first_update_id + 1, "message": new},
    ]
