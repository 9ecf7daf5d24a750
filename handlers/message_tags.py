"""The record's bookkeeping of what it sent: each outbox entry carries a ``Tag`` (what the message
is: a seat's prompt for a decision, the story, the status, the lobby...), stored as its string;
by it the ids of messages the bot edits later are recorded in the game (``record_message_id``),
and a send whose outcome is unknown is settled (``settle_uncertain``): the record owns both
(``handlers.game_record.GameRecord``), by the entry's typed tag (``TaggedEntry``).

Telegram has no idempotency key, so a send whose outcome is unknown is never sent again blindly
(issue 24). Such an entry leaves the outbox *uncertain*, and each kind has its rule, chosen so that
the player sees what they need without a duplicate:
- a decision prompt is shown again only by its reminder (which then carries the prompt and its
  buttons) or by an edit of a message known to exist;
- a story message's lines are merged into the next story message, and the status at its foot
  (issue 27) comes with them, or alone with its next change (it cannot be edited while its id
  is unknown);
- anything else (private news, a reminder, a reply, the final dossier) counts as delivered:
  at most once.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any


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
    STATUS = "status"  # a status message of its own: games begun before issue 27 moved it
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
        """Never raises: a stored tag this code cannot read (a newer version's, a seat that is
        no number) keeps its text in ``raw``, so it prints back unchanged."""
        text = text or ""
        kind, _, rest = text.partition(":")
        seat, _, dec = rest.partition(":")
        known = kind in Kind.__members__.values()
        tag = cls(
            Kind(kind) if known else Kind.NONE,
            int(seat) if _integer(seat) else None,
            int(dec) if _integer(dec) else None,
        )
        return tag if known and str(tag) == text else replace(tag, raw=text)

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
    """A whole number as this code writes it: ``"--1"`` or ``"²"`` (``isdigit``) are none."""
    return re.fullmatch(r"-?[0-9]+", text) is not None


def tag_of(e: dict[str, Any]) -> Tag:
    """The tag of an outbox entry."""
    return Tag.parse(e.get("tag"))


@dataclass(frozen=True)
class TaggedEntry:
    """What the record needs of a sent outbox entry to record its message's id, or to settle a
    send whose outcome is unknown (``GameRecord.record_message_id``, ``settle_uncertain``)."""

    seq: int
    op: str  # "send", "edit", "pin" or "unpin"
    chat: int
    tag: Tag
    replaces: int | None = None  # a prompt sent anew: the message it replaces (gone)

    @classmethod
    def of(cls, e: dict[str, Any]) -> TaggedEntry:
        replaces = int(e["replaces"]) if e.get("replaces") is not None else None
        return cls(int(e["seq"]), str(e["op"]), int(e["chat"]), tag_of(e), replaces)
