"""Inline keyboards: the outbox's rows of (label, kind, value) as :class:`Button` rows, and
those as the Bot API's ``InlineKeyboardMarkup``."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from infra.ports import Rows


@dataclass(frozen=True, slots=True)
class Button:
    """One inline button: a callback button (``data``, 1-64 bytes) or a link (``url``)."""

    text: str
    data: str | None = None
    url: str | None = None

    def __post_init__(self) -> None:
        if (self.data is None) == (self.url is None):
            raise ValueError(f"button {self.text!r} needs exactly one of data and url")


def keyboard(buttons: Sequence[Sequence[Button]] | None) -> dict[str, Any] | None:
    """Rows of buttons as an inline keyboard (``InlineKeyboardMarkup``); no rows, no keyboard."""
    if not buttons:
        return None
    return {
        "inline_keyboard": [
            [
                {"text": b.text, "callback_data": b.data}
                if b.data is not None
                else {"text": b.text, "url": b.url}
                for b in row
            ]
            for row in buttons
        ]
    }


def buttons(rows: Rows | None) -> list[list[Button]] | None:
    """The outbox's rows (label, "d" and callback data, or "u" and a link) as buttons."""
    if not rows:
        return None
    return [
        [
            Button(label, data=value) if kind == "d" else Button(label, url=value)
            for label, kind, value in row
        ]
        for row in rows
    ]


ALERT_MAX = 200  # answerCallbackQuery's text: 0-200 characters (UTF-16 code units)


def fit_alert(text: str | None) -> str | None:
    """A press's toast or alert as Telegram takes it: a longer one is refused whole
    (MESSAGE_TOO_LONG), and the player sees nothing. Texts carry a player's name, whose length
    Telegram does not bound below 128, so a text over the limit loses its end, marked with "…":
    at a space within the last ``WORD_SLACK`` characters, else inside the word (a long name
    or a run of emoji is not dropped whole), never inside a surrogate pair nor after a joiner."""
    if text is None or _units(text) <= ALERT_MAX:
        return text
    units = end = 0
    for end, char in enumerate(text):  # noqa: B007 - ``end``: where the limit falls
        units += _units(char)
        if units > ALERT_MAX - 1:
            break
    cut = text[:end]
    space = cut.rfind(" ")
    if space > 0 and _units(cut[space:]) <= WORD_SLACK:
        cut = cut[:space]
    return cut.rstrip(_DANGLING) + "…"


WORD_SLACK = 30  # a word cut short this near the limit is dropped whole
_DANGLING = " \n\t\u200d\ufe0e\ufe0f"  # a space, a joiner, a variation selector left at the end


def _units(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


CommandScope = Literal["default", "private", "groups"]


def command_scope(scope: CommandScope, chat_id: int | None) -> dict[str, Any]:
    """A ``BotCommandScope``."""
    if chat_id is not None:
        return {"type": "chat", "chat_id": chat_id}
    if scope == "private":
        return {"type": "all_private_chats"}
    if scope == "groups":
        return {"type": "all_group_chats"}
    return {"type": "default"}
