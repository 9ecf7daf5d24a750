"""Telegram update JSON → the few commands the bot understands. Anything else is ``None``.

Parsing is total: garbage, unknown update types and missing fields give ``None``, never raise.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class User:
    id: int
    name: str
    language_code: str | None
    is_bot: bool = False


@dataclass(frozen=True, slots=True)
class CommandMsg:
    """A /command in a chat."""

    update_id: int
    chat_id: int
    chat_type: str  # private, group, supergroup
    user: User
    command: str
    args: str
    chat_title: str | None = None


@dataclass(frozen=True, slots=True)
class ButtonPress:
    update_id: int
    query_id: str
    user: User
    chat_id: int
    message_id: int
    data: str


@dataclass(frozen=True, slots=True)
class MemberLeft:
    """A user left or was removed from a group chat."""

    update_id: int
    chat_id: int
    user: User


@dataclass(frozen=True, slots=True)
class ChatMoved:
    """A group became a supergroup with a new id (a service message in either chat)."""

    update_id: int
    old: int
    new: int


@dataclass(frozen=True, slots=True)
class BotMembership:
    """The bot's own membership of a chat changed: in a group, it may write there (added back,
    made a member or an administrator) or not (removed, banned, restricted from sending); in a
    private chat (``chat_id`` the user's), the user unblocked the bot or blocked it."""

    update_id: int
    chat_id: int
    may_write: bool


@dataclass(frozen=True, slots=True)
class AnonymousCommand:
    """A /command of ours sent on behalf of a chat, not a person: an administrator posting
    anonymously as the group (Telegram's "Remain anonymous"), or a channel. Nobody can be
    seated, asked or told privately for it; the group is told why, once per update."""

    update_id: int
    chat_id: int
    command: str


Command = CommandMsg | ButtonPress | MemberLeft | ChatMoved | BotMembership | AnonymousCommand


def _user(raw: Any) -> User | None:
    if not isinstance(raw, dict):
        return None
    uid = raw.get("id")
    first = raw.get("first_name")
    if not isinstance(uid, int) or isinstance(uid, bool) or not isinstance(first, str):
        return None
    last = raw.get("last_name")
    name = f"{first} {last}" if isinstance(last, str) and last else first
    lang = raw.get("language_code")
    return User(uid, name[:64], lang if isinstance(lang, str) else None, raw.get("is_bot") is True)


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def parse(update: Any, bot_username: str) -> Command | None:
    if not isinstance(update, dict):
        return None
    update_id = _int(update.get("update_id"))
    if update_id is None:
        return None
    if isinstance(update.get("message"), dict):
        return _message(update_id, update["message"], bot_username)
    if isinstance(update.get("callback_query"), dict):
        return _callback(update_id, update["callback_query"])
    if isinstance(update.get("my_chat_member"), dict):
        return _bot_member(update_id, update["my_chat_member"])
    if isinstance(update.get("chat_member"), dict):
        return _member(update_id, update["chat_member"])
    return None


def _message(update_id: int, msg: dict[str, Any], bot_username: str) -> Command | None:
    chat = msg.get("chat")
    moved = _moved(update_id, msg)
    if moved is not None:
        return moved
    user = _user(msg.get("from"))
    text = msg.get("text")
    if not isinstance(chat, dict):
        return None
    chat_id, chat_type = _int(chat.get("id")), chat.get("type")
    if chat_id is None or chat_type not in ("private", "group", "supergroup"):
        return None
    if msg.get("is_automatic_forward") is True:
        return None  # a channel's post copied into its discussion group: nobody's command
    if isinstance(msg.get("sender_chat"), dict) and chat_type != "private":
        command = _command_name(text, bot_username)
        return None if command is None else AnonymousCommand(update_id, chat_id, command)
    if user is None or user.is_bot:
        return None
    left = _user(msg.get("left_chat_member"))
    if left is not None and chat_type != "private":
        return MemberLeft(update_id, chat_id, left)
    name = _command_name(text, bot_username)
    if name is None or not isinstance(text, str):
        return None
    args = text.partition(" ")[2]
    title = chat.get("title")
    return CommandMsg(
        update_id,
        chat_id,
        chat_type,
        user,
        name,
        args.strip()[:128],
        title if isinstance(title, str) else None,
    )


def _command_name(text: Any, bot_username: str) -> str | None:
    """``/name`` or ``/name@ourbot`` at the start of a text, lowercased; anything else None
    (a command for another bot in the same group among them)."""
    if not isinstance(text, str) or not text.startswith("/"):
        return None
    name, _, mention = text.partition(" ")[0][1:].partition("@")
    if mention and mention.lower() != bot_username.lower():
        return None
    if not name or not name.replace("_", "").isalnum():
        return None
    return name.lower()


def _callback(update_id: int, cq: dict[str, Any]) -> Command | None:
    user = _user(cq.get("from"))
    qid = cq.get("id")
    data = cq.get("data")
    msg = cq.get("message")
    if user is None or not isinstance(qid, str) or not isinstance(data, str):
        return None
    if not isinstance(msg, dict) or not isinstance(msg.get("chat"), dict):
        return None
    chat_id, message_id = _int(msg["chat"].get("id")), _int(msg.get("message_id"))
    if chat_id is None or message_id is None:
        return None
    return ButtonPress(update_id, qid, user, chat_id, message_id, data[:64])


def _member(update_id: int, cm: dict[str, Any]) -> Command | None:
    chat = cm.get("chat")
    new = cm.get("new_chat_member")
    if not isinstance(chat, dict) or not isinstance(new, dict):
        return None
    chat_id = _int(chat.get("id"))
    user = _user(new.get("user"))
    if chat_id is None or user is None or new.get("status") not in ("left", "kicked"):
        return None
    return MemberLeft(update_id, chat_id, user)


_SUPERGROUP_IDS = -1_000_000_000_000  # a supergroup's id is -100… (at most this); a group's above


def _basic_group(chat_id: int) -> bool:
    return _SUPERGROUP_IDS < chat_id < 0


def _moved(update_id: int, msg: dict[str, Any]) -> ChatMoved | None:
    """The service message of a group upgraded to a supergroup, in the old chat or the new:
    ``migrate_to_chat_id`` in a basic group naming a supergroup id, ``migrate_from_chat_id`` in
    a supergroup naming a basic group id, and nothing a person writes (no text, no caption). A
    message shaped otherwise (a user's message carrying the field) moves nothing."""
    chat = msg.get("chat")
    if not isinstance(chat, dict) or "text" in msg or "caption" in msg:
        return None
    chat_id, kind = _int(chat.get("id")), chat.get("type")
    to, came_from = _int(msg.get("migrate_to_chat_id")), _int(msg.get("migrate_from_chat_id"))
    if chat_id is None:
        return None
    if kind == "group" and _basic_group(chat_id) and to is not None and to <= _SUPERGROUP_IDS:
        return ChatMoved(update_id, chat_id, to)
    if kind == "supergroup" and chat_id <= _SUPERGROUP_IDS and came_from is not None:
        return ChatMoved(update_id, came_from, chat_id) if _basic_group(came_from) else None
    return None


_MAY_WRITE = ("creator", "administrator", "member")


def _bot_member(update_id: int, cm: dict[str, Any]) -> Command | None:
    """``my_chat_member``: whether the bot may write in the chat now: a group (the bot added,
    removed, restricted) or a private chat (the user unblocked or blocked the bot)."""
    chat, new = cm.get("chat"), cm.get("new_chat_member")
    if not isinstance(chat, dict) or not isinstance(new, dict):
        return None
    chat_id = _int(chat.get("id"))
    status = new.get("status")
    if chat_id is not None and chat_id > 0 and chat.get("type") == "private":
        # a user blocked the bot (kicked) or unblocked it (member)
        if status in ("member", "kicked"):
            return BotMembership(update_id, chat_id, status == "member")
        return None
    if chat_id is None or chat_id >= 0 or chat.get("type") not in ("group", "supergroup"):
        return None
    if status == "restricted":
        writes = new.get("can_send_messages") is True and new.get("is_member") is not False
        return BotMembership(update_id, chat_id, writes)
    if status in _MAY_WRITE or status in ("left", "kicked"):
        return BotMembership(update_id, chat_id, status in _MAY_WRITE)
    return None
