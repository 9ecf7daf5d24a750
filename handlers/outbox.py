"""Outbox entries: what the service will send, committed with the game before it is sent."""

from __future__ import annotations

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
