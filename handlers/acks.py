"""Acknowledgements of sent outbox entries (``handlers.delivery``): each written as soon as its
message went out, merged monotonically with what other processes wrote."""

from __future__ import annotations

import json
import logging
from typing import Any

from handlers.store_keys import ack_key, ttl_for
from handlers.transaction import MAX_ATTEMPTS, Txn
from infra.ports import DocumentStore, Put, Sent, VersionConflict

log = logging.getLogger("coachride")

ACK_DROPPED = -2  # acknowledgement of an entry Telegram refused for good
ACK_UNREACHABLE = -1  # a send to a chat the bot cannot write to
ACK_UNCERTAIN = -3  # a send whose answer was lost: shown or not, it is never sent again
ACK_SENDING = -4  # a send under way; uncertain once its sender's lease is over
# A reply refused: the message it replies to is gone (``handlers.reminders``)
ACK_REPLY_GONE = -5
# An entry queued to go only if a reply before it was refused, and it was not (``reminders``)
ACK_NOT_NEEDED = -6


class AckWriter:
    """Writes each acknowledgement as soon as its message went out, so a process killed
    between two sends leaves nothing to resend but what it had not sent. Merges monotonically:
    an ack is dropped only for an entry this process knows has left the outbox."""

    def __init__(self, store: DocumentStore, game: str, txn: Txn) -> None:
        self.store = store
        self.key = ack_key(game)
        self.known = dict(txn.acks)
        self.version = txn.ack_version
        outbox = txn.doc.get("outbox", [])
        # ... and a reminder's while the prompt queued to go anew if it was refused waits on it
        # (``handlers.reminders``; dropped, a 5xx on that prompt left it never sent)
        self.live = {e["seq"] for e in outbox} | {
            int(e["if_gone"]) for e in outbox if "if_gone" in e
        }
        self.newest = int(txn.doc.get("seq", 0))

    def settled(self, seqs: list[int], value: int) -> None:
        """``seqs`` acknowledged as ``value`` with the next ``write`` (one store write)."""
        for seq in seqs:
            self.known[seq] = value

    def forget(self, seq: int) -> None:
        """The send did not go out (Telegram said so): no longer under way."""
        self.write(seq, None)

    def write(self, seq: int, value: int | None) -> None:
        for _ in range(MAX_ATTEMPTS):
            if value is None:
                self.known.pop(seq, None)
            else:
                self.known[seq] = value
            keep = {str(k): v for k, v in self.known.items() if k in self.live or k > self.newest}
            try:
                versions = self.store.commit(
                    [Put(self.key, {"acks": keep}, self.version, ttl_seconds=ttl_for(self.key))]
                )
            except VersionConflict:
                current = self.store.get(self.key)
                self.known = {int(k): v for k, v in current.doc["acks"].items()} if current else {}
                self.version = current.version if current else None
                continue
            self.version = versions.get(self.key, (self.version or 0) + 1)
            return
        log.warning(json.dumps({"event": "ack_gave_up", "key": self.key, "seq": seq}))


def ack_value(e: dict[str, Any], sent: Sent) -> int:
    if sent.uncertain:
        return ACK_UNCERTAIN
    if sent.unreachable:
        return ACK_UNREACHABLE
    if sent.reply_gone:
        return ACK_REPLY_GONE
    if sent.dropped:
        log.warning(json.dumps({"event": "dropped", "chat": e["chat"], "tag": e.get("tag")}))
        return ACK_DROPPED
    return sent.message_id or 0
