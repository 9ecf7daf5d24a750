"""Every button's callback data, parsed and built in one place.

    <game>:<decision>:<payload>   a decision button (the payload grammar is
                                  ``handlers.action_payloads``); the decision id is its
                                  version: a press on an older decision is stale
    L:<game>:<version>:leave|start  the lobby's buttons
    S:<chat>:<version>:<setting>  the /settings menu (``items``, a toggle, ``d.<kind>``,
                                  ``ai_fill``, ``ai_level``, ``lang.<code>``)
    G:<chat>|u:<code>             the /language menu of a group or of the user (``u``)
    B:<game>                      "I am back" after being marked away (R-D2)
    N:<game>                      "🔜 offer my turn ahead again" (``handlers.ahead_message``)

A lobby's or a settings menu's version is a digest of what its message shows (``version_of``):
a press on a message showing something else than the lobby or the settings now is stale.
Buttons sent before versions existed (``L:<game>:start``, ``S:<chat>:items``) have none and
are taken as they are.

Telegram allows 64 bytes; game ids are 8 characters, so every kind fits.
"""

from __future__ import annotations

import json
import zlib
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class GameButton:
    gid: str
    decision: int
    payload: str


@dataclass(frozen=True)
class LobbyButton:
    gid: str
    what: str  # "leave" or "start"
    version: str | None = None  # None: a button from before versions


@dataclass(frozen=True)
class SettingsButton:
    chat_id: int
    what: str
    version: str | None = None  # None: a button from before versions


@dataclass(frozen=True)
class LanguageButton:
    chat_id: int | None  # None: the user's own language
    code: str


@dataclass(frozen=True)
class BackButton:
    gid: str


@dataclass(frozen=True)
class AheadButton:
    gid: str


Button = GameButton | LobbyButton | SettingsButton | LanguageButton | BackButton | AheadButton
LOBBY_ACTIONS = ("leave", "start")
USER_TARGET = "u"


def version_of(shown: Any) -> str:
    """A short digest of what a message shows (JSON-serialisable)."""
    digest = zlib.crc32(json.dumps(shown, sort_keys=True, separators=(",", ":")).encode())
    return f"{digest & 0xFFFFFF:06x}"


def _versioned(rest: str) -> tuple[str, str | None, str]:
    """``<target>:<version>:<what>`` or, from before versions, ``<target>:<what>``."""
    target, _, tail = rest.partition(":")
    version, sep, what = tail.partition(":")
    return (target, version, what) if sep else (target, None, tail)


def digits(text: str) -> bool:
    """ASCII digits only: ``str.isdigit`` also takes "²" (which ``int`` refuses) and "١"."""
    return text.isascii() and text.isdigit()


def _chat(text: str) -> int | None:
    return int(text) if digits(text.removeprefix("-")) else None


def parse(data: str) -> Button | None:
    """The button behind ``data``, or None for anything malformed."""
    prefix, _, rest = data.partition(":")
    if prefix == "L":
        gid, version, what = _versioned(rest)
        return LobbyButton(gid, what, version) if gid and what in LOBBY_ACTIONS else None
    if prefix == "S":
        chat_s, version, what = _versioned(rest)
        chat = _chat(chat_s)
        return SettingsButton(chat, what, version) if chat is not None else None
    if prefix == "G":
        target, _, code = rest.partition(":")
        if target == USER_TARGET:
            return LanguageButton(None, code)
        chat = _chat(target)
        return LanguageButton(chat, code) if chat is not None else None
    if prefix == "B":
        return BackButton(rest) if rest else None
    if prefix == "N":
        return AheadButton(rest) if rest else None
    decision_s, _, payload = rest.partition(":")
    if not prefix or not digits(decision_s):
        return None
    return GameButton(prefix, int(decision_s), payload)


def game(gid: str, decision: int, payload: str) -> str:
    return f"{gid}:{decision}:{payload}"


def lobby(gid: str, what: str, version: str | None = None) -> str:
    return f"L:{gid}:{what}" if version is None else f"L:{gid}:{version}:{what}"


def settings(chat_id: int, what: str, version: str | None = None) -> str:
    return f"S:{chat_id}:{what}" if version is None else f"S:{chat_id}:{version}:{what}"


def language(chat_id: int | None, code: str) -> str:
    return f"G:{USER_TARGET if chat_id is None else chat_id}:{code}"


def back(gid: str) -> str:
    return f"B:{gid}"


def ahead_again(gid: str) -> str:
    return f"N:{gid}"
