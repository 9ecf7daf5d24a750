"""The port through which the service talks to Telegram, and the outbox entries it drains."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

# A button row: [[label, "d", callback_data] or [label, "u", url], ...]
Rows = list[list[list[str]]]


@dataclass(frozen=True, slots=True)
class Sent:
    ok: bool
    message_id: int | None = None
    unreachable: bool = False  # the user blocked the bot or never opened it


class Messenger(Protocol):
    def send(self, chat_id: int, text: str, rows: Rows | None = None) -> Sent: ...

    def edit(self, chat_id: int, message_id: int, text: str, rows: Rows | None = None) -> Sent: ...

    def answer(self, query_id: str, text: str | None = None, alert: bool = False) -> None: ...


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
