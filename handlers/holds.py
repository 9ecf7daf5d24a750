"""Time the bot owes the players: a chat held by flood control longer than the invocation may wait
is recorded in the game (``hold``): nothing is sent to it until the hold ends, the game's deadlines
move on by the time held (nobody is timed out for a prompt that could not be shown), and a hold
longer than ``LONG_HOLD_SECONDS`` is told to the group once. A decision prompt shown late (the
shared budget's queue, a flush) stretches its decision's deadline by its delay. And a group the bot
may not write in is told to its creator privately, once.

``tell_muted``, ``hold`` and ``stretch`` are the changes delivery asks for after it sent.
"""

from __future__ import annotations

import json
import logging
import math
from typing import Any, cast

from handlers.game_record import Dec, Due
from handlers.i18n import t
from handlers.message_tags import Kind, tag_of
from handlers.transaction import Txn

log = logging.getLogger("coachride")

LONG_HOLD_SECONDS = 60.0  # a flood-control hold this long is told to the group, once
# The game waits for chats flood control holds at most this long (Telegram may hold one for
# days): past it the deadlines run again, and the held chats' messages wait for Telegram alone
# (their players' decisions take their defaults, as an unreachable player's do).
MAX_HOLD_SECONDS = 3600.0
# A decision prompt shown this much later than its decision was committed (the shared budget's
# queue, a flush) stretches the decision's deadline by its delay: nobody loses time to the bot.
STRETCH_AFTER_SECONDS = 1.0


def _dec(doc: dict[str, Any]) -> Dec | None:
    """The game's pending decision's timing, in the shape the game record writes it
    (``handlers.game_record.Dec``)."""
    return cast(Dec | None, doc.get("dec"))


def stretch_deadline(doc: dict[str, Any], waited: float) -> float:
    """The pending decision's deadline moves on by ``waited``, the seconds its prompt waited for
    delivery (less what it was already moved for that); the seconds added. A window's deadline is
    left alone: who it asks is secret, and its length must not tell (R-D1)."""
    dec = _dec(doc)
    if not dec or dec.get("window") or doc.get("phase") != "playing":
        return 0.0
    extra = waited - float(dec.get("stretched", 0.0))
    if extra <= 0:
        return 0.0
    dec["stretched"] = waited
    shift_deadlines(doc, extra)
    return extra


def awaited_prompt(doc: dict[str, Any], e: dict[str, Any]) -> int | None:
    """The decision an outbox entry's prompt asks (sent, or shown by an edit: a follow-up in the
    message pressed, a page of it) when the game waits for its seat to see it: still open for
    that seat (``prompts``) and not a window's. Only such a prompt, undelivered or late, moves
    the deadlines: who a window asks is secret, and neither its length nor a later deadline may
    tell it (R-D1); a prompt whose decision closed for its seat is owed nothing."""
    tag = tag_of(e)
    if tag.kind != Kind.PROMPT or e["op"] not in ("send", "edit") or window_prompt(doc, e):
        return None
    shown = (doc.get("prompts") or {}).get(str(tag.seat))
    return tag.dec if shown is not None and shown.get("dec") == tag.dec else None


def window_prompt(doc: dict[str, Any], e: dict[str, Any]) -> bool:
    """Whether an outbox entry is a prompt of the pending window (a rider's own question asked
    in it too): who a window asks is secret, so neither its prompts' delivery, failed, late or
    left for the flush timer, nor their number may move a deadline (R-D1)."""
    dec, tag = _dec(doc), tag_of(e)
    return bool(dec and dec.get("window") and tag.kind == Kind.PROMPT and tag.dec == dec["id"])


def owes_no_wait(doc: dict[str, Any], e: dict[str, Any]) -> bool:
    """Whether the game never waits for an outbox entry left without a slot: a pending window's
    prompt, or a prompt closed (its closing edit, or one sent closed late, ``late_prompts``):
    nobody answers it, and a window's exists only because someone was asked (R-D1)."""
    return window_prompt(doc, e) or tag_of(e).kind == Kind.CLOSED or "closed_text" in e


def holding_chats(doc: dict[str, Any], now: float) -> dict[int, float]:
    """The game's chats that flood control holds now, and until when."""
    chats = (doc.get("hold") or {}).get("chats") or {}
    return {int(c): float(u) for c, u in chats.items() if float(u) > now}


def shift_deadlines(doc: dict[str, Any], seconds: float, until: float | None = None) -> None:
    """The pending decision's clock (and the timer's) moves on by ``seconds``; ``until``: the end
    of the flood hold that moved it, when one did."""
    dec = _dec(doc)
    if dec:
        dec["opened"] = float(dec["opened"]) + seconds
        played = dec.get("played")
        if played is not None:
            dec["played"] = float(played) + seconds
        if until is not None:
            dec["held"] = until
    due = cast(Due | None, doc.get("due"))
    if due:
        due["at"] = float(due["at"]) + seconds
        deadline = due.get("deadline")
        if deadline is not None:
            due["deadline"] = float(deadline) + seconds


def game_waits_until(doc: dict[str, Any], now: float) -> float:
    """Until when the game itself waits for its held chats (``now``: it does not): the end of
    the holds, at most ``MAX_HOLD_SECONDS`` from when each began to count."""
    end = max(holding_chats(doc, now).values(), default=now)
    until = (doc.get("hold") or {}).get("until")
    return max(now, min(end, float(until))) if until is not None else end


def hold_game(doc: dict[str, Any], holds: dict[int, float], now: float) -> float:
    """Record that flood control holds ``holds`` (chat -> until); the game's deadlines move on
    by the time the game is held beyond what was already recorded, up to ``MAX_HOLD_SECONDS``
    from now. The seconds added."""
    before = game_waits_until(doc, now)
    hold = doc.setdefault("hold", {})
    chats = {str(c): u for c, u in holding_chats(doc, now).items()}
    for chat, until in holds.items():
        chats[str(chat)] = max(chats.get(str(chat), 0.0), until)
    hold["chats"] = chats
    end = max(holds.values(), default=now)  # the chats held before are counted in ``before``
    after = max(before, min(end, now + MAX_HOLD_SECONDS))
    hold["until"] = after
    extended = max(0.0, after - before)
    if extended and doc.get("phase") == "playing":
        shift_deadlines(doc, extended, after)
        hold["extended"] = float(hold.get("extended", 0.0)) + extended
    return extended


def hold_new_decision(doc: dict[str, Any], now: float) -> bool:
    """A decision that opened while its game is held starts its clock when the hold ends."""
    dec = _dec(doc)
    end = game_waits_until(doc, now)
    if not dec or end <= now or doc.get("phase") != "playing":
        return False
    if dec.get("held") == end or float(dec["opened"]) >= end:
        return False
    seconds = end - float(dec["opened"])
    shift_deadlines(doc, seconds, end)
    hold = doc.setdefault("hold", {})
    hold["extended"] = float(hold.get("extended", 0.0)) + seconds
    return True


# -- the changes delivery asks for ------------------------------------------------------------
def stretch(txn: Txn, late: dict[int, float]) -> None:
    """Decision prompts that reached their chats late: the decision's deadline moves on by
    the longest delay (once per decision, by the longest delay seen)."""
    dec = _dec(txn.doc)
    waited = late.get(dec["id"], 0.0) if dec else 0.0
    extended = stretch_deadline(txn.doc, waited)
    if extended:
        txn.changed = True
        log.warning(json.dumps({"event": "deadline_stretched", "s": round(extended, 1)}))


def tell_muted(txn: Txn) -> None:
    """The bot may not write in the game's group: its creator is told privately, once per
    game (the group cannot be told; the rest of the game's group messages are dropped)."""
    doc = txn.doc
    if doc.get("muted_told") or "creator" not in doc:
        return
    doc["muted_told"] = True
    creator = doc["creator"]
    langs = [p.get("lang") for p in doc.get("players", []) if p.get("uid") == creator]
    lang = langs[0] if langs and langs[0] else doc.get("settings", {}).get("language")
    txn.send(creator, t(lang or "en", "bot.muted_in_group"), tag="muted")


def mute(txn: Txn) -> None:
    """The bot was removed from the game's group (Telegram answers it 403): nothing more is
    sent there (``handlers.txn_store``) until the bot is back (``handlers.chat_moves``); the
    creator is told. The game goes on in the private chats: no deadline waits on the group."""
    if txn.doc.get("phase") in ("lobby", "playing") and not txn.doc.get("muted"):
        txn.doc["muted"] = True
        txn.changed = True
        log.warning(json.dumps({"event": "group_muted", "chat": txn.doc.get("chat")}))
    tell_muted(txn)


def hold(txn: Txn, holds: dict[int, float]) -> None:
    """Flood control holds these chats until the given times: the game records it, its
    deadlines move on by the time held, and a long hold is told to the group once."""
    doc = txn.doc
    extended = hold_game(doc, holds, txn.now)
    if extended:
        txn.changed = True
        log.warning(json.dumps({"event": "deadlines_extended", "s": round(extended, 1)}))
    held = doc.get("hold") or {}
    end = game_waits_until(doc, txn.now)  # what the game waits: what the group is told
    if (
        doc.get("phase") == "playing"
        and not held.get("told")
        and end - txn.now >= LONG_HOLD_SECONDS
        and "chat" in doc
    ):
        held["told"] = True
        lang = doc.get("settings", {}).get("language") or "en"
        minutes = max(1, math.ceil((end - txn.now) / 60))
        txn.send(doc["chat"], t(lang, "bot.flood_hold", minutes=minutes), tag="hold")
