"""A transaction's way from and to the store: ``load``, the document and what earlier processes
sent (their acknowledgements) folded in, what a dead one left behind claimed, sends whose
outcome is unknown settled, before the command sees it; and ``writes``, before the commit: the
outbox bounded, what must not arrive after the game's end (or in a group the bot was removed
from) dropped.

Every outbox entry carries a lease (``until``): the end of the invocation that committed or
claimed it. Only that invocation sends it, and never after its lease; once the lease is over,
the next process claims the entry with a version-checked write (the fencing), so a slow but
live sender is never doubled and a dead one is always replaced. An entry leaves the outbox only
when it was sent (or its outcome is uncertain), refused for good, or when its game ended (or it
is a direct reply) and ``STALE_OUTBOX_SECONDS`` passed since it was queued.
"""

from __future__ import annotations

import json
import logging
import math
from typing import Any

from handlers.acks import ACK_SENDING, ACK_UNCERTAIN, ACK_UNREACHABLE
from handlers.game_record import GameRecord
from handlers.message_tags import Kind, TaggedEntry, tag_of
from handlers.store_keys import ack_key, ttl_for
from handlers.transaction import DEFAULT_BUDGET_SECONDS, Txn
from infra import metrics
from infra.ports import Clock, DocumentStore, Put, TimerRequest, Timers, time_left

log = logging.getLogger("coachride")

LEGACY_LEASE_SECONDS = 20.0  # entries written before leases existed: ``at`` + this
STALE_OUTBOX_SECONDS = 3600.0  # after its game ended, an entry still unsent is dropped
MAX_OUTBOX = 150  # entries; the oldest beyond go (a game makes a few dozen per round)
UNCERTAIN_SENDS = "UncertainSends"  # the metric of sends whose outcome is unknown
# sends that ask or count down: none arrives after the game's end (``_drop_live_sends``)
LIVE_KINDS = (
    Kind.PROMPT,
    Kind.AHEAD,
    Kind.REMINDER,
    Kind.TURN_REMINDER,
    Kind.AWAY,
    Kind.HOLD,
    Kind.STATUS,
)


def load(store: DocumentStore, clock: Clock, key: str, create: dict[str, Any] | None) -> Txn | None:
    """One attempt's transaction on the document at ``key`` (``create`` when it does not exist;
    None when neither), with what earlier processes sent folded in (``_absorb_acks``)."""
    found = store.get_many([key, ack_key(key)])
    loaded, ack_doc = found.get(key), found.get(ack_key(key))
    if loaded is None and create is None:
        return None
    doc = loaded.doc if loaded else _copy(create)  # a store returns a fresh document
    now = clock.now()
    version = loaded.version if loaded else None
    txn = Txn(doc, version, now, until=now + _budget(), key=key)
    txn.acks = {int(k): v for k, v in ack_doc.doc["acks"].items()} if ack_doc else {}
    txn.ack_version = ack_doc.version if ack_doc else None
    _absorb_acks(txn)
    return txn


def unchanged(txn: Txn) -> bool:
    """Nothing to write: the command changed nothing and the load claimed or settled nothing."""
    return not txn.changed and not txn.stale_entries and not txn.settled


def writes(txn: Txn) -> list[Put]:
    """What the commit writes: the document (its outbox bounded, and, once its game ended,
    without what asks or counts down) and the other records the command changed."""
    _bound_outbox(txn)
    _drop_live_sends(txn)
    _drop_muted_sends(txn)
    key = txn.key
    puts = [Put(key, txn.doc, txn.version, ttl_seconds=ttl_for(key))]
    puts += [Put(k, d, v, ttl_seconds=ttl_for(k)) for k, (d, v) in txn.extra.items()]
    return puts


def arm_timer(timers: Timers, key: str, doc: dict[str, Any]) -> None:
    """The document's next wake-up, armed before the commit: a spurious timer is harmless, a
    lost one is not."""
    due = doc.get("due")
    if not due:
        return
    marker = [due["dec"], due["at"]]
    if doc.get("timer") == marker:
        return
    doc["timer"] = marker
    timers.schedule(TimerRequest(key, due["dec"], due["at"]))


def _budget() -> float:
    left = time_left()
    return DEFAULT_BUDGET_SECONDS if math.isinf(left) else max(0.0, left)


def _copy(doc: dict[str, Any] | None) -> dict[str, Any]:
    return json.loads(json.dumps(doc))


def _lease_end(e: dict[str, Any]) -> float:
    return float(e["until"]) if "until" in e else float(e["at"]) + LEGACY_LEASE_SECONDS


def _absorb_acks(txn: Txn) -> None:
    """Fold what earlier processes sent into the document and claim what a dead (or out of
    time) one left: an entry whose lease is over becomes this invocation's, fenced by the
    version-checked commit of the game. What the sends found out (message ids, sends whose
    outcome is unknown) the game's record takes in (``_record_sends``)."""
    doc = txn.doc
    keep, found = [], []
    for e in doc.get("outbox", []):
        ack = txn.acks.get(e["seq"])
        if ack == ACK_SENDING and txn.now < _lease_end(e):
            keep.append(e)  # its sender is still at it
            continue
        if ack in (ACK_SENDING, ACK_UNCERTAIN):
            log.warning(
                json.dumps({"event": "uncertain", "seq": e["seq"], "tag": e.get("tag") or ""})
            )
            metrics.count(UNCERTAIN_SENDS)
            txn.settled += 1
            ack = ACK_UNCERTAIN
        if ack is not None:
            found.append((TaggedEntry.of(e), ack))
            if "closed_text" in e and e["op"] == "send" and ack > 0:
                # its decision ended while another sent it live: closed now its id is known
                txn.edit(e["chat"], ack, e["closed_text"], None, tag=Kind.CLOSED)
            continue
        if txn.now >= _lease_end(e):
            if _outlived(doc, e, txn):
                log.warning(json.dumps({"event": "given_up", "chat": e["chat"], "seq": e["seq"]}))
                continue
            e["claims"] = e.get("claims", 0) + 1
            e["until"] = txn.until
            txn.stale_entries.append(e)
        keep.append(e)
    if "outbox" in doc:
        doc["outbox"] = keep
    if found and txn.key.startswith("GAME#"):
        _record_sends(txn, found)


def _record_sends(txn: Txn, found: list[tuple[TaggedEntry, int]]) -> None:
    """The game's record takes in what the sends found out, by each entry's typed tag; the
    document is the record's again (a direct reply's document records nothing)."""
    record = GameRecord.from_doc(txn.doc)
    for sent, ack in found:
        if ack == ACK_UNCERTAIN:
            record.settle_uncertain(sent)
        elif ack == ACK_UNREACHABLE:
            record.mark_unreachable(sent.chat)
        else:
            record.record_message_id(sent, ack)
    txn.doc.update(record.to_doc())


def _outlived(doc: dict[str, Any], e: dict[str, Any], txn: Txn) -> bool:
    """An entry not sent yet is dropped only once its game ended (a direct reply: at once)
    and ``STALE_OUTBOX_SECONDS`` passed since it was queued."""
    ended = not txn.key.startswith("GAME#") or doc.get("phase") in ("over", "cancelled")
    return ended and txn.now - float(e.get("at", txn.now)) >= STALE_OUTBOX_SECONDS


def _bound_outbox(txn: Txn) -> None:
    outbox = txn.doc.get("outbox", [])
    if len(outbox) <= MAX_OUTBOX:
        return
    gone = {e["seq"] for e in outbox[: len(outbox) - MAX_OUTBOX]}
    log.warning(json.dumps({"event": "outbox_full", "dropped": len(gone)}))
    txn.doc["outbox"] = outbox[-MAX_OUTBOX:]
    txn.stale_entries = [e for e in txn.stale_entries if e["seq"] not in gone]
    txn.new_entries = [e for e in txn.new_entries if e["seq"] not in gone]


def _drop_live_sends(txn: Txn) -> None:
    """Once the game ended (or was cancelled), nothing that asks or counts down arrives: a
    prompt, a reminder, the turn's mention, an away notice or a status still unsent is dropped
    (the ending command's own final status excepted)."""
    doc = txn.doc
    if not txn.key.startswith("GAME#") or doc.get("phase") not in ("over", "cancelled"):
        return
    fresh = {e["seq"] for e in txn.new_entries}

    def live(e: dict[str, Any]) -> bool:
        kind = tag_of(e).kind
        if e["op"] != "send" or kind not in LIVE_KINDS or "closed_text" in e:
            return False  # marked closed: its sender may be at it, edited closed once sent
        return not (kind == Kind.STATUS and e["seq"] in fresh)

    txn.drop_unsent({e["seq"] for e in doc.get("outbox", []) if live(e)}, "dropped_after_end")


def _drop_muted_sends(txn: Txn) -> None:
    """Nothing goes to a group the bot was removed from (``handlers.holds.mute``): each call
    would only be refused again, until the bot is back and shows the game there anew."""
    doc = txn.doc
    if not txn.key.startswith("GAME#") or not doc.get("muted") or "chat" not in doc:
        return
    txn.drop_unsent(
        {e["seq"] for e in doc.get("outbox", []) if e["chat"] == doc["chat"]}, "dropped_muted"
    )
