"""A prompt whose send is still in the outbox (Telegram failed to take it, or it waits for its
slot) when its decision ends: the send is rewritten to the prompt's closed form (no buttons, what
happened), so it still arrives (every promised send does) but never asks a question that is over,
with a deadline already past. Private to the prompt's seat: the group sees nothing of it (R-D1).
"""

from __future__ import annotations

from handlers import fmt
from handlers.message_tags import Kind, tag_of
from handlers.transaction import Txn


def close_unsent(txn: Txn, chat: int, seat: int, dec: int, text: str, lead: str | None) -> bool:
    """The unsent sends of ``seat``'s prompt for decision ``dec`` in ``chat`` say ``text`` (under
    ``lead``, the news sent with it) and carry no buttons; whether there was one."""
    rewritten = False
    for e in txn.doc.get("outbox", []):
        tag = tag_of(e)
        if e["op"] != "send" or e["chat"] != chat or tag.kind != Kind.PROMPT:
            continue
        if tag.seat != seat or tag.dec != dec or e["seq"] in txn.acks:
            continue
        e["text"] = fmt.truncate(fmt.lines(lead, "", text)) if lead else text
        e["rows"], e["tag"] = None, str(Kind.CLOSED.value)
        rewritten = txn.changed = True
    return rewritten
