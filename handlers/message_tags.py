"""The record's bookkeeping of what it sent: each outbox entry carries a ``Tag`` (what the message
is: a seat's prompt for a decision, the story, the status, the lobby...), stored as its string;
by it the ids of messages the bot edits later are recorded in the game (``record_message_id``),
and a send whose outcome is unknown is settled (``settle_uncertain``).

Telegram has no idempotency key, so a send whose outcome is unknown is never sent again blindly
(issue 24). Such an entry leaves the outbox *uncertain*, and each kind has its rule, chosen so that
the player sees what they need without a duplicate:
- a decision prompt is shown again only by its reminder (which then carries the prompt and its
  buttons) or by an edit of a message known to exist;
- a story message's lines are merged into the next story message;
- the living status is sent anew with its next change (it cannot be edited while its id is
  unknown);
- anything else (private news, a reminder, a reply, the final dossier) counts as delivered:
  at most once.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from infra import metrics

log = logging.getLogger("coachride")

ACK_UNREACHABLE = -1  # the acknowledgement of a send to a chat the bot cannot write to
UNCERTAIN_SENDS = "UncertainSends"


class Kind(StrEnum):
    """What an outbox entry's message is."""

    PROMPT = "prompt"  # a seat's decision prompt (sent: with its seat and decision)
    AHEAD = "ahead"  # the prompt of a turn chosen ahead (engine.premove)
    CLOSED = "closed"  # a prompt edited closed (someone else's move, its deadline, the end)
    ANSWERED = "answered"  # the prompt a player pressed, edited to show their answer
    RESHOWN = "reshown"  # a shown prompt edited with newer facts, its buttons there already
    REMINDER = "reminder"
    TURN_REMINDER = "turn_reminder"  # the turn's mention in the group
    AWAY = "away"  # a seat's away notice (with its seat)
    STORY = "story"
    STATUS = "status"
    STATUS_PIN = "status_pin"
    LOBBY = "lobby"
    LOBBY_EDIT = "lobby_edit"
    MUTED = "muted"
    HOLD = "hold"
    REPLY = "reply"
    NONE = ""


@dataclass(frozen=True)
class Tag:
    """An outbox entry's tag, stored as ``kind[:seat[:decision]]`` (``str``). A stored kind this
    code does not know parses as ``Kind.NONE`` with its text kept in ``raw``."""

    kind: Kind
    seat: int | None = None
    dec: int | None = None
    raw: str = ""

    @classmethod
    def prompt(cls, seat: int, dec: int) -> Tag:
        return cls(Kind.PROMPT, seat, dec)

    @classmethod
    def away(cls, seat: int) -> Tag:
        return cls(Kind.AWAY, seat)

    @classmethod
    def parse(cls, text: str | None) -> Tag:
        kind, _, rest = (text or "").partition(":")
        seat, _, dec = rest.partition(":")
        known = kind in Kind.__members__.values()
        return cls(
            Kind(kind) if known else Kind.NONE,
            int(seat) if _integer(seat) else None,
            int(dec) if _integer(dec) else None,
            "" if known else (text or ""),
        )

    def __str__(self) -> str:
        if self.raw:
            return self.raw
        parts = [str(self.kind.value)]
        if self.seat is not None:
            parts.append(str(self.seat))
            if self.dec is not None:
                parts.append(str(self.dec))
        return ":".join(parts)


def _integer(text: str) -> bool:
    return text.lstrip("-").isdigit()


def tag_of(e: dict[str, Any]) -> Tag:
    """The tag of an outbox entry."""
    return Tag.parse(e.get("tag"))


def settle_uncertain(doc: dict[str, Any], e: dict[str, Any]) -> None:
    """A send that Telegram may or may not have shown leaves the outbox; what the game shows
    later makes up for it, by the kind's rule (see the module's docstring)."""
    log.warning(json.dumps({"event": "uncertain", "seq": e["seq"], "tag": e.get("tag") or ""}))
    metrics.count(UNCERTAIN_SENDS)
    tag = tag_of(e)
    if e["op"] != "send":
        return
    if tag.kind == Kind.PROMPT and tag.seat is not None:
        prompt = doc.get("prompts", {}).get(str(tag.seat))
        if prompt is not None and prompt.get("dec") == tag.dec and prompt.get("msg") is None:
            prompt["uncertain"] = True  # its reminder shows it again, with its buttons
    elif tag.kind in (Kind.STORY, Kind.STATUS):
        shown = doc.get(tag.kind.value) or {}
        if shown.get("seq") == e["seq"] and shown.get("msg") is None:
            shown["uncertain"] = True  # merged into the next one (the story), sent anew (status)


def record_message_id(doc: dict[str, Any], e: dict[str, Any], message_id: int) -> None:
    """Remember ids of messages the bot will edit later (prompts, the story, the lobby)."""
    tag = tag_of(e)
    if message_id == ACK_UNREACHABLE:
        doc.setdefault("unreachable", [])
        if e["chat"] not in doc["unreachable"]:
            doc["unreachable"].append(e["chat"])
        return
    if tag.kind == Kind.STATUS_PIN and e["op"] == "pin" and message_id <= 0:
        (doc.get("status") or {})["pin_refused"] = True  # the bot may not pin there
    if message_id <= 0:
        return
    if tag.kind == Kind.PROMPT:
        prompt = doc.get("prompts", {}).get(str(tag.seat)) if tag.seat is not None else None
        if prompt is not None and prompt.get("dec") == tag.dec and prompt.get("msg") is None:
            prompt["msg"] = message_id
        return
    if e["op"] != "send":
        return
    if tag.kind == Kind.LOBBY:
        doc["lobby_msg"] = message_id
    elif tag.kind == Kind.AWAY and tag.seat is not None:
        doc.setdefault("away_notices", {})[str(tag.seat)] = message_id
    elif tag.kind in _SHOWN:
        shown = doc.get(_SHOWN[tag.kind]) or {}
        if tag.kind == Kind.STORY:
            shown = doc.setdefault("story", shown)
        once = tag.kind == Kind.AHEAD  # its id, once known, is kept
        if shown.get("seq") == e["seq"] and not (once and shown.get("msg") is not None):
            shown["msg"] = message_id


# the kinds whose sent message's id the game keeps in a key of its own, by the entry's seq
_SHOWN = {
    Kind.AHEAD: "ahead",
    Kind.STATUS: "status",
    Kind.STORY: "story",
    Kind.TURN_REMINDER: "mention",
}
