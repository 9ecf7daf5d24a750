"""The record's bookkeeping of what it sent: the ids of messages the bot edits later (prompts,
the story, the status, the lobby), found by each outbox entry's tag, and the rule for a send whose
outcome is unknown (``settle_uncertain``).

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
from typing import Any

from infra import metrics

log = logging.getLogger("coachride")

ACK_UNREACHABLE = -1  # the acknowledgement of a send to a chat the bot cannot write to
UNCERTAIN_SENDS = "UncertainSends"


def settle_uncertain(doc: dict[str, Any], e: dict[str, Any]) -> None:
    """A send that Telegram may or may not have shown leaves the outbox; what the game shows
    later makes up for it, by the kind's rule (see the module's docstring)."""
    log.warning(json.dumps({"event": "uncertain", "seq": e["seq"], "tag": e.get("tag") or ""}))
    metrics.count(UNCERTAIN_SENDS)
    kind, _, rest = (e.get("tag") or "").partition(":")
    if kind == "prompt" and e["op"] == "send":
        seat, _, dec = rest.partition(":")
        prompt = doc.get("prompts", {}).get(seat)
        if prompt is not None and str(prompt.get("dec")) == dec and prompt.get("msg") is None:
            prompt["uncertain"] = True  # its reminder shows it again, with its buttons
    elif kind in ("story", "status") and e["op"] == "send":
        shown = doc.get(kind) or {}
        if shown.get("seq") == e["seq"] and shown.get("msg") is None:
            shown["uncertain"] = True  # merged into the next one (the story), sent anew (status)


def record_message_id(doc: dict[str, Any], e: dict[str, Any], message_id: int) -> None:
    """Remember ids of messages the bot will edit later (prompts, the story, the lobby)."""
    tag = e.get("tag") or ""
    if message_id == ACK_UNREACHABLE:
        doc.setdefault("unreachable", [])
        if e["chat"] not in doc["unreachable"]:
            doc["unreachable"].append(e["chat"])
        return
    if tag == "status_pin" and e["op"] == "pin" and message_id <= 0:
        (doc.get("status") or {})["pin_refused"] = True  # the bot may not pin there
    if message_id <= 0:
        return
    kind, _, rest = tag.partition(":")
    if kind == "prompt":
        seat, _, dec = rest.partition(":")
        prompt = doc.get("prompts", {}).get(seat)
        if prompt is not None and str(prompt.get("dec")) == dec and prompt.get("msg") is None:
            prompt["msg"] = message_id
    elif kind == "ahead" and e["op"] == "send":
        ahead = doc.get("ahead") or {}
        if ahead.get("seq") == e["seq"] and ahead.get("msg") is None:
            ahead["msg"] = message_id
    elif kind == "status" and e["op"] == "send":
        status = doc.get("status") or {}
        if status.get("seq") == e["seq"]:
            status["msg"] = message_id
    elif kind == "story" and e["op"] == "send":
        story = doc.setdefault("story", {})
        if story.get("seq") == e["seq"]:
            story["msg"] = message_id
    elif kind == "lobby" and e["op"] == "send":
        doc["lobby_msg"] = message_id
    elif kind == "turn_reminder" and e["op"] == "send":
        mention = doc.get("mention") or {}
        if mention.get("seq") == e["seq"]:
            mention["msg"] = message_id
    elif kind == "away" and e["op"] == "send":
        doc.setdefault("away_notices", {})[rest] = message_id
