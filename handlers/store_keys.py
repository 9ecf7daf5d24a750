"""Where a command's records live in the store, and for how long: the keys of games, chats,
users, a chat's direct replies and a document's acknowledgements, and their time to live."""

from __future__ import annotations

import re
import secrets

GAME_TTL_SECONDS = 14 * 24 * 3600  # games and their acknowledgements; chats and users stay
REPLY_PREFIX = "REPLY#"
FLUSH = -1  # the decision id of a timer that only finishes sends a dead process left behind


def game_key(gid: str) -> str:
    return f"GAME#{gid}"


def chat_key(chat_id: int) -> str:
    return f"CHAT#{chat_id}"


def user_key(uid: int) -> str:
    return f"USER#{uid}"


def ttl_for(key: str) -> int | None:
    """Games expire; a group's scores and settings and a user's language do not."""
    return GAME_TTL_SECONDS if key.startswith(("GAME#", "ACK#", REPLY_PREFIX)) else None


def new_game_id() -> str:
    return secrets.token_urlsafe(6).replace("-", "x").replace("_", "y")


def reply_key(chat_id: int) -> str:
    """The outbox of a chat's direct replies."""
    return f"{REPLY_PREFIX}{chat_id}"


def ack_key(key: str) -> str:
    return "ACK#" + key


_GAME_KEY = re.compile(r"GAME#[A-Za-z0-9_-]{1,64}")
_REPLY_KEY = re.compile(re.escape(REPLY_PREFIX) + r"-?[0-9]{1,20}")


def timer_target(key: str, decision: int) -> bool:
    """Whether a timer's key can name what a timer wakes: a game (any decision), or a chat's
    direct replies (only their flush). Anything else was never scheduled by the bot."""
    if _GAME_KEY.fullmatch(key):
        return True
    return decision == FLUSH and _REPLY_KEY.fullmatch(key) is not None
