"""Every button's callback data, parsed and built in one place.

    <game>:<decision>:<payload>   a decision button (the payload grammar is
                                  ``handlers.action_payloads``); the decision id is its
                                  version: a press on an older decision is stale
    L:<game>:leave|start          the lobby's buttons
    S:<chat>:<setting>            the /settings menu (``items``, a toggle, ``d.<kind>``,
                                  ``ai_fill``, ``ai_level``, ``lang.<code>``)
    G:<chat>|u:<code>             the /language menu of a group or of the user (``u``)
    B:<game>                      "I am back" after being marked away (R-D2)

Telegram allows 64 bytes; game ids are 8 characters, so every kind fits.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class GameButton:
    gid: str
    decision: int
    payload: str


@dataclass(frozen=True)
class LobbyButton:
    gid: str
    what: str  # "leave" or "start"


@dataclass(frozen=True)
class SettingsButton:
    chat_id: int
    what: str


@dataclass(frozen=True)
class LanguageButton:
    chat_id: int | None  # None: the user's own language
    code: str


@dataclass(frozen=True)
class BackButton:
    gid: str


Button = GameButton | LobbyButton | SettingsButton | LanguageButton | BackButton
LOBBY_ACTIONS = ("leave", "start")
USER_TARGET = "u"


def _chat(text: str) -> int | None:
    return int(text) if text.lstrip("-").isdigit() and text not in ("", "-") else None


def parse(data: str) -> Button | None:
    """The button behind ``data``, or None for anything malformed."""
    prefix, _, rest = data.partition(":")
    if prefix == "L":
        gid, _, what = rest.partition(":")
        return LobbyButton(gid, what) if gid and what in LOBBY_ACTIONS else None
    if prefix == "S":
        chat_s, _, what = rest.partition(":")
        chat = _chat(chat_s)
        return SettingsButton(chat, what) if chat is not None else None
    if prefix == "G":
        target, _, code = rest.partition(":")
        if target == USER_TARGET:
            return LanguageButton(None, code)
        chat = _chat(target)
        return LanguageButton(chat, code) if chat is not None else None
    if prefix == "B":
        return BackButton(rest) if rest else None
    decision_s, _, payload = rest.partition(":")
    if not prefix or not decision_s.isdigit():
        return None
    return GameButton(prefix, int(decision_s), payload)


def game(gid: str, decision: int, payload: str) -> str:
    return f"{gid}:{decision}:{payload}"


def lobby(gid: str, what: str) -> str:
    return f"L:{gid}:{what}"


def settings(chat_id: int, what: str) -> str:
    return f"S:{chat_id}:{what}"


def language(chat_id: int | None, code: str) -> str:
    return f"G:{USER_TARGET if chat_id is None else chat_id}:{code}"


def back(gid: str) -> str:
    return f"B:{gid}"
