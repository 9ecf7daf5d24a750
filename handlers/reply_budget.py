"""How many direct replies a group gets: Telegram takes 20 sends a minute in one group, and the
game's own messages (the story, the status, the lobby) need them. Without a budget a member
typing /help, /status, /rules or a refused /newgame over and over used them up, and Telegram held
the game's messages back for most of a minute (flood control, ``retry_after`` up to 58 s).

So a group's direct replies (to commands, refusals, the notice to anonymous admins) are
rationed in their chat's reply outbox (``store_keys.reply_key``), where they are committed:

- at most ``GROUP_REPLIES_PER_MINUTE`` in any 60 s, the game keeping the rest of the 20;
- a plain reply whose text the group was given in the last ``SAME_REPLY_SECONDS`` is not sent
  again: the ten members asking /rules at once read the one answer (a menu, with buttons, is
  its asker's to press: it is counted, never taken for another);
- one asker gets at most ``ASKER_REPLIES_PER_MINUTE`` of them: a member sending distinct
  commands (``/rules 1``, ``/rules 2``, ``/scores``…) no longer spends the group's minute, and
  a player's ``/status`` after a real event, or a /cancel vote's count, is still answered.

A player's private chat is rationed alike, at ``PRIVATE_REPLIES_PER_MINUTE`` (Telegram takes
about one message a second there, with short bursts): a player typing /help over and over in it
drained the chat's allowance, so the game's own prompt to them was refused (429) and, as nobody
is timed out for a prompt the bot could not deliver, the game waited for them — a player who is
losing could stall the table.

A reply over the budget is dropped, not queued (it would come late and eat the next minute's
sends). Edits are not rationed, but for a settings menu's in a group whose game is being played
(Telegram counts a group's edits in its 20: ``update_replies.rationed_edit``)."""

from __future__ import annotations

import zlib
from typing import Any

# The game's own group sends and edits in its busiest minute: 14 (``devtools.pace --players 5
# --games 6 --seed 1``); with these 6 the group stays within Telegram's 20.
GROUP_REPLIES_PER_MINUTE = 6
PRIVATE_REPLIES_PER_MINUTE = 12
ASKER_REPLIES_PER_MINUTE = 3  # of a group's: one member's share (half)
WINDOW_SECONDS = 60.0
SAME_REPLY_SECONDS = 60.0
PRIVATE_SAME_REPLY_SECONDS = 10.0  # a player asking again a while later is answered again


def _digest(text: str) -> int:
    return zlib.crc32(text.encode())


def admit(
    doc: dict[str, Any],
    chat_id: int,
    text: str,
    now: float,
    menu: bool = False,
    asker: int | None = None,
) -> bool:
    """Whether a direct reply ``text`` (with buttons: ``menu``) to ``chat_id``, asked for by
    ``asker`` (None: nobody known), may be sent now; if so it is counted in ``doc`` (the
    chat's reply outbox, committed with the reply)."""
    group = chat_id < 0
    limit = GROUP_REPLIES_PER_MINUTE if group else PRIVATE_REPLIES_PER_MINUTE
    same = SAME_REPLY_SECONDS if group else PRIVATE_SAME_REPLY_SECONDS
    horizon = now - max(WINDOW_SECONDS, SAME_REPLY_SECONDS)
    recent = [_entry(e) for e in doc.get("replied", []) if float(e[0]) > horizon]
    digest = 0 if menu else _digest(text)
    if not menu and any(d == digest and at > now - same for at, d, _ in recent):
        return False
    window = [who for at, _, who in recent if at > now - WINDOW_SECONDS]
    if len(window) >= limit:
        return False
    if group and asker is not None and window.count(asker) >= ASKER_REPLIES_PER_MINUTE:
        return False
    doc["replied"] = [[at, d, who] for at, d, who in recent] + [[now, digest, asker]]
    return True


def _entry(stored: Any) -> tuple[float, int, int | None]:
    """One counted reply: when, its text's digest, its asker (outboxes written before the
    askers were counted hold none)."""
    who = stored[2] if len(stored) > 2 else None
    return float(stored[0]), int(stored[1]), None if who is None else int(who)
