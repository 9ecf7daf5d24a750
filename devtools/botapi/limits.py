"""The Bot API's limits that its spec states only in prose, with Telegram's answers.

Each check returns :class:`Refusal`\\ s: what Telegram answers (a ``400`` in its words) and, for
people, what is wrong. Message text is 1-4096 UTF-16 code units after entity parsing (leading and
trailing whitespace dropped), in Telegram's HTML when ``parse_mode`` is ``HTML``;
``callback_data`` is 1-64 bytes; a button has a non-empty text and exactly one action; a keyboard
has at most 100 buttons; a callback answer's text at most 200 characters; a bot command 1-32 of
``a-z0-9_`` with a 1-256 character description, at most 100 of them in one ``setMyCommands``; a
webhook's URL HTTPS, its ``secret_token`` 1-256 of ``A-Za-z0-9_-``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from devtools.botapi.html import HtmlError, Parsed, parse, plain, utf16_len

MAX_TEXT = 4096
MAX_CALLBACK_DATA_BYTES = 64
MAX_CALLBACK_ANSWER = 200
MAX_BUTTONS = 100
BUTTON_ACTIONS = (
    "url",
    "callback_data",
    "web_app",
    "login_url",
    "switch_inline_query",
    "switch_inline_query_current_chat",
    "switch_inline_query_chosen_chat",
    "copy_text",
    "callback_game",
    "pay",
)
MAX_COMMANDS = 100
_COMMAND = re.compile(r"[a-z0-9_]{1,32}")
_SECRET = re.compile(r"[A-Za-z0-9_-]{1,256}")
PARSE_MODES = ("HTML", "MarkdownV2", "Markdown")

TEXT_EMPTY = "Bad Request: message text is empty"
TEXT_TOO_LONG = "Bad Request: message is too long"
ANSWER_TOO_LONG = "Bad Request: MESSAGE_TOO_LONG"
BUTTON_DATA_INVALID = "Bad Request: BUTTON_DATA_INVALID"
BUTTON_URL_INVALID = "Bad Request: BUTTON_URL_INVALID"
MARKUP_TOO_LONG = "Bad Request: reply markup is too long"
NO_ACTION = (
    "Bad Request: can't parse inline keyboard button: Text buttons are unallowed in the inline "
    "keyboard"
)


@dataclass(frozen=True, slots=True)
class Refusal:
    description: str  # Telegram's answer, e.g. "Bad Request: message is too long"
    detail: str  # what is wrong, for the developer
    code: int = 400


def read_text(text: Any, parse_mode: Any) -> tuple[Parsed | None, list[Refusal]]:
    """The message as Telegram would store it, or why Telegram refuses it."""
    if not isinstance(text, str):
        return None, []  # the spec check reports it
    if parse_mode is not None and parse_mode not in PARSE_MODES:
        detail = f"parse_mode {parse_mode!r} is not HTML, MarkdownV2 or Markdown"
        return None, [Refusal("Bad Request: unsupported parse_mode", detail)]
    if parse_mode == "HTML":
        try:
            shown = parse(text)
        except HtmlError as error:
            return None, [
                Refusal(f"Bad Request: {error}", f"text is not valid Telegram HTML: {error.detail}")
            ]
    elif parse_mode is not None:
        detail = f"the emulator reads only HTML, not {parse_mode}"
        return None, [Refusal("Bad Request: unsupported parse_mode", detail)]
    else:
        shown = plain(text)
    if not shown.text:
        return None, [Refusal(TEXT_EMPTY, "text must not be empty (after entity parsing)")]
    size = utf16_len(shown.text)
    if size > MAX_TEXT:
        detail = f"text is {size} characters after entity parsing, limit {MAX_TEXT}"
        return None, [Refusal(TEXT_TOO_LONG, detail)]
    return shown, []


def keyboard_refusals(markup: Any) -> list[Refusal]:
    """Telegram's refusals of an inline keyboard (its shape is the spec check's business)."""
    rows = markup.get("inline_keyboard") if isinstance(markup, Mapping) else None
    if not isinstance(rows, list):
        return []
    buttons = [b for row in rows if isinstance(row, list) for b in row if isinstance(b, Mapping)]
    refusals = [r for b in buttons for r in button_refusals(b)]
    if len(buttons) > MAX_BUTTONS:
        detail = f"{len(buttons)} buttons, limit {MAX_BUTTONS}"
        refusals.append(Refusal(MARKUP_TOO_LONG, detail))
    return refusals


def button_refusals(button: Mapping[str, Any]) -> list[Refusal]:
    refusals = []
    actions = [a for a in BUTTON_ACTIONS if a in button]
    if len(actions) != 1:
        detail = f"needs exactly one of {', '.join(BUTTON_ACTIONS)}; has {actions}"
        refusals.append(Refusal(NO_ACTION, detail))
    if not str(button.get("text", "")).strip():
        detail = "button text must not be empty"
        refusals.append(
            Refusal(
                "Bad Request: can't parse inline keyboard button: Text must be non-empty", detail
            )
        )
    data = button.get("callback_data")
    if isinstance(data, str) and not 1 <= len(data.encode("utf-8")) <= MAX_CALLBACK_DATA_BYTES:
        size = len(data.encode("utf-8"))
        detail = f"callback_data is {size} bytes, must be 1-{MAX_CALLBACK_DATA_BYTES}"
        refusals.append(Refusal(BUTTON_DATA_INVALID, detail))
    url = button.get("url")
    if isinstance(url, str) and not url.startswith(("https://", "http://", "tg://")):
        refusals.append(Refusal(BUTTON_URL_INVALID, f"url {url!r} is not an HTTP or tg:// URL"))
    return refusals


def command_refusals(command: Mapping[str, Any]) -> list[Refusal]:
    refusals = []
    if not _COMMAND.fullmatch(str(command.get("command", ""))):
        detail = f"command {command.get('command')!r}: 1-32 of a-z, 0-9, _"
        refusals.append(Refusal("Bad Request: BOT_COMMAND_INVALID", detail))
    if not 1 <= len(str(command.get("description", ""))) <= 256:
        detail = "command description must be 1-256 characters"
        refusals.append(Refusal("Bad Request: BOT_COMMAND_DESCRIPTION_INVALID", detail))
    return refusals


def answer_refusals(params: Mapping[str, Any]) -> list[Refusal]:
    text = params.get("text")
    if isinstance(text, str) and utf16_len(text) > MAX_CALLBACK_ANSWER:
        detail = f"text is {utf16_len(text)} characters, limit {MAX_CALLBACK_ANSWER}"
        return [Refusal(ANSWER_TOO_LONG, detail)]
    return []


def commands_refusals(params: Mapping[str, Any]) -> list[Refusal]:
    commands = params.get("commands")
    if not isinstance(commands, list):
        return []
    refusals = [r for c in commands if isinstance(c, Mapping) for r in command_refusals(c)]
    if len(commands) > MAX_COMMANDS:
        detail = f"{len(commands)} commands, at most {MAX_COMMANDS} (the spec's setMyCommands)"
        refusals.append(Refusal("Bad Request: BOT_COMMANDS_TOO_MUCH", detail))
    return refusals


def webhook_refusals(params: Mapping[str, Any]) -> list[Refusal]:
    """setWebhook: an HTTPS URL; a ``secret_token`` of 1-256 of ``A-Za-z0-9_-`` (the spec)."""
    refusals = []
    url = params.get("url")
    if isinstance(url, str) and url and not url.startswith("https://"):
        detail = f"webhook url {url[:40]!r} is not HTTPS"
        description = "Bad Request: bad webhook: An HTTPS URL must be provided for webhook"
        refusals.append(Refusal(description, detail))
    secret = params.get("secret_token")
    if isinstance(secret, str) and not _SECRET.fullmatch(secret):
        detail = "secret_token must be 1-256 characters of A-Z, a-z, 0-9, _ and -"
        description = "Bad Request: secret token contains unallowed characters"
        refusals.append(Refusal(description, detail))
    return refusals
