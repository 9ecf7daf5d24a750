"""Outbox entries: what the service will send, committed with the game before it is sent."""

from __future__ import annotations

import html
import re
from typing import Any

from infra.ports import Rows


def entry(
    seq: int, at: float, op: str, chat: int, text: str, rows: Rows | None, msg: int | None, tag: str
) -> dict[str, Any]:
    """One outbox entry: committed with the game, sent after the commit, acknowledged after."""
    return {
        "seq": seq,
        "at": at,
        "op": op,
        "chat": chat,
        "text": text,
        "rows": rows,
        "msg": msg,
        "tag": tag,
    }


MAX_ANSWER_CHARS = 200  # a callback answer's text (Bot API: 0-200 characters)


def answer_text(line: str) -> str:
    """An HTML line as a callback answer shows it (under pressure, the choice of a press whose
    prompt's edit waits, issue 27): plain text, at most 200 characters."""
    return fit_answer(html.unescape(re.sub(r"<[^>]*>", "", line)))


def fit_answer(text: str) -> str:
    """A callback answer's plain text within Telegram's 200, counted as Telegram counts (UTF-16
    code units; a toast's limit and an alert's are the same), cut with "…" when longer."""
    if _utf16(text) <= MAX_ANSWER_CHARS:
        return text
    while _utf16(text) > MAX_ANSWER_CHARS - 1:
        text = text[:-1]
    return text + "…"


def _utf16(text: str) -> int:
    return len(text.encode("utf-16-le", "surrogatepass")) // 2
