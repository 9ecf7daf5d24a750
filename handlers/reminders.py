"""A reminder under a prompt that is still the newest message of its chat: a reply to it.

Shortly before a long deadline (``Presenter.send_reminders``) the seat asked is reminded. When its
prompt is still the newest message of the chat, the reminder is one short message that replies to
the prompt: Telegram quotes it, and tapping the quote jumps to it (it said "… in the message
above", which pointed at nothing once the player deleted the prompt or cleared the chat). It is
never sent without the reply (no ``allow_sending_without_reply``): Telegram refuses a reply to a
message that is gone ("message to be replied not found", ``Sent.reply_gone``), and then the
prompt is sent anew with its buttons, the reminder above it, queued right behind the reply and
sent only then (``needed``; one call in the usual case, as before); the seat's prompt record
takes the new message in place of the gone one (``GameRecord.record_message_id``).
"""

from __future__ import annotations

from typing import Any

from handlers import fmt
from handlers.acks import ACK_REPLY_GONE
from handlers.message_tags import Kind, Tag
from handlers.record_shapes import OpenPrompt
from handlers.transaction import Txn
from infra.ports import Rows, Sent


def in_reply(
    txn: Txn, chat: int, reminder: str, prompt: OpenPrompt, text: str, rows: Rows, tag: Tag
) -> None:
    """Queue ``reminder`` as a reply to the message of the seat's open ``prompt``, and the
    prompt anew (``text``, ``rows``, ``tag``: as its record has it) under the reminder, sent only
    if Telegram refuses the reply because that message is gone."""
    shown = prompt["msg"]
    assert shown is not None
    txn.send(chat, reminder, tag=Kind.REMINDER)
    replying = txn.new_entries[-1]
    replying["reply"] = shown
    txn.send(chat, with_prompt(reminder, prompt.get("lead"), text), rows, tag=tag)
    txn.new_entries[-1].update({"if_gone": replying["seq"], "replaces": shown})


def with_prompt(reminder: str, lead: str | None, text: str) -> str:
    """A prompt sent anew with its reminder: the reminder, the answers given earlier in its
    message (``lead``), the prompt."""
    return fmt.truncate(fmt.lines(reminder, "", lead, "" if lead else None, text))


def needed(e: dict[str, Any], acks: dict[int, int]) -> bool:
    """Whether the outbox entry ``e`` is to be sent: always, unless it waits on a reply
    (``if_gone``: the reply's seq) that Telegram did not refuse as gone (``acks``: seq ->
    acknowledgement, ``handlers.acks``)."""
    reminder = e.get("if_gone")
    return reminder is None or acks.get(int(reminder)) == ACK_REPLY_GONE


def unneeded(e: dict[str, Any], entries: list[dict[str, Any]], sent: Sent) -> list[int]:
    """The entries of ``entries`` queued to go only if the reply ``e`` was refused as gone,
    when Telegram answered ``sent`` otherwise: they do not go."""
    if sent.reply_gone:
        return []
    return [int(x["seq"]) for x in entries if x.get("if_gone") == e["seq"]]
