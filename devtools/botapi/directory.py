"""Who and what the emulator's chats are: the :class:`Directory` it asks, and the tests'
:class:`OpenWorld`, where every chat exists (the local table has its own, with its seats)."""

from __future__ import annotations

from typing import Any, Protocol


class Directory(Protocol):
    """Who and what the chats are: the tests' open world, or the local table's seats."""

    def chat_json(self, chat_id: int) -> dict[str, Any]:
        """The chat, or ``Reply(400, "Bad Request: chat not found")``."""
        ...

    def user_json(self, user_id: int) -> dict[str, Any]: ...

    def may_write(self, chat_id: int) -> None:
        """Raise Telegram's refusal when the bot may not write in the chat."""
        ...

    def member_status(self, chat_id: int, user_id: int) -> str: ...


class OpenWorld:
    """Every chat exists: positive ids are private chats, negative ones groups; everyone is a
    member of every chat."""

    def chat_json(self, chat_id: int) -> dict[str, Any]:
        return chat_json(chat_id)

    def user_json(self, user_id: int) -> dict[str, Any]:
        return {"id": user_id, "is_bot": False, "first_name": f"User {user_id}"}

    def may_write(self, chat_id: int) -> None:
        return None

    def member_status(self, chat_id: int, user_id: int) -> str:
        return "member"


def chat_json(chat_id: int) -> dict[str, Any]:
    """A plausible Chat: positive ids are private chats, negative ones groups."""
    if chat_id > 0:
        return {"id": chat_id, "type": "private", "first_name": f"User {chat_id}"}
    kind = "supergroup" if chat_id <= -1_000_000_000_000 else "group"
    return {"id": chat_id, "type": kind, "title": f"Group {chat_id}"}
