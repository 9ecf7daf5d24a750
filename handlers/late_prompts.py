"""A prompt whose send is still in the outbox (Telegram failed to take it, or it waits for its
slot) when its decision ends: the send is rewritten to the prompt's closed form (no buttons, what
happened), so it still arrives (every promised send does) but never asks a question that is over,
with a deadline already past. Private to the prompt's seat: the group sees nothing of it (R-D1).
"""

from __future__ import annotations

from typing import Any

from handlers import fmt
from handlers.message_tags import Kind, tag_of
from handlers.record_shapes import OpenPrompt
from handlers.transaction import Txn


def close_unsent(txn: Txn, chat: int, seat: int, dec: int, text: str, lead: str | None) -> bool:
    """The unsent sends of ``seat``'s prompt for decision ``dec`` in ``chat`` say ``text`` (under
    ``lead``, the news sent with it) and carry no buttons; whether there was one."""
    text = fmt.truncate(fmt.lines(lead, "", text)) if lead else text
    rewritten = False
    for e in txn.doc.get("outbox", []):
        tag = tag_of(e)
        if e["op"] != "send" or e["chat"] != chat or tag.kind != Kind.PROMPT:
            continue
        if tag.seat == seat and tag.dec == dec:
            rewritten = _closed(txn, e, text) or rewritten
    return rewritten


def close_answered_elsewhere(txn: Txn, chat: int, seat: int, prompt: OpenPrompt, text: str) -> bool:
    """``seat`` answered its decision ``prompt["dec"]`` on another message than that prompt (the
    first send of a prompt sent anew, "your turn is next") while the prompt's own send still
    waits in the outbox (its message unknown): it arrives closed, saying the answer ``text``
    (under the news sent with it), never with buttons for a question answered; whether it was."""
    if prompt.get("msg"):
        return False  # shown: a press answers on it alone (``game_room._on_own_prompt``)
    return close_unsent(txn, chat, seat, prompt["dec"], text, prompt.get("lead"))


def close_queued(txn: Txn, seq: object, text: str) -> bool:
    """The outbox's send ``seq`` (the "your turn is next" message, while its id is unknown), if
    still unsent, says ``text`` and carries no buttons; whether it was."""
    found = [e for e in txn.doc.get("outbox", []) if e["seq"] == seq and e["op"] == "send"]
    return bool(found) and _closed(txn, found[0], text)


def _closed(txn: Txn, e: dict[str, Any], text: str) -> bool:
    """Rewritten now if this invocation holds the send's lease; else (another's lease, which
    may be sending it this very moment, its ack ``ACK_SENDING``) marked: rewritten by whoever
    claims it next (``reclose_claimed``), never under a live sender's feet, or, if that sender
    got it through, edited closed once its id is known (``txn_store``: the ack folded in)."""
    if e["seq"] in {x["seq"] for x in txn.new_entries + txn.stale_entries}:
        _rewrite(e, text)
    else:
        e["closed_text"] = text  # rewritten when claimed (``reclose_claimed``)
    txn.changed = True
    return True


def reclose_claimed(txn: Txn) -> None:
    """The sends this load claimed (their sender's lease over) that were marked closed while
    another held them (``_closed``): rewritten now, before this invocation sends them."""
    for e in txn.stale_entries:
        if "closed_text" in e:
            _rewrite(e, e.pop("closed_text"))


def _rewrite(e: dict[str, Any], text: str) -> None:
    """The send says ``text``, carries no buttons and is tagged closed (it owes no wait)."""
    e.update(text=text, rows=None, tag=str(Kind.CLOSED.value))
