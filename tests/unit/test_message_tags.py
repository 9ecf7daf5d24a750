"""Message ids are recorded by a typed tag the record owns (issue 28): every tag today's code
stores parses and prints back unchanged, and a sent prompt's id lands on its seat's prompt."""

from __future__ import annotations

from typing import Any

import pytest

from handlers.game_record import GameRecord
from handlers.message_tags import Kind, Tag, TaggedEntry

STORED = [
    "prompt:3:17",
    "prompt",
    "ahead",
    "closed",
    "reminder",
    "turn_reminder",
    "away:2",
    "story",
    "status",
    "status_pin",
    "lobby",
    "lobby_edit",
    "muted",
    "hold",
    "reply",
    "",
    "something_newer:1",  # a kind a newer version stored: kept as it was
]


@pytest.mark.parametrize("text", STORED)
def test_a_stored_tag_prints_back_unchanged(text: str) -> None:
    assert str(Tag.parse(text)) == text


# Stored tags this code cannot read whole: a seat that is no number as this code writes one
# (``"--1"`` and ``"²"`` pass ``str.isdigit``), a newer version's extra part. Tag.parse raised
# ValueError on the first two, so the game's every load (``_absorb_acks``) failed: the game stuck.
ODD = [
    "prompt:--1:2",
    "prompt:1:²",
    "something_newer:--5",
    "prompt:3:17:2",
    "prompt: 3:17",
    "away:x",
]


@pytest.mark.parametrize("text", ODD)
def test_a_stored_tag_this_code_cannot_read_neither_raises_nor_changes(text: str) -> None:
    tag = Tag.parse(text)
    assert str(tag) == text
    record = _record(prompts={"3": {"dec": 17, "msg": None}, "1": {"dec": 2, "msg": None}})
    sent = TaggedEntry.of({"seq": 5, "op": "send", "chat": 7, "tag": text})
    record.record_message_id(sent, 90)
    record.settle_uncertain(sent)
    assert record.prompts == {"3": {"dec": 17, "msg": None}, "1": {"dec": 2, "msg": None}}


def test_a_prompt_tag_names_its_seat_and_decision() -> None:
    tag = Tag.parse(str(Tag.prompt(3, 17)))
    assert (tag.kind, tag.seat, tag.dec) == (Kind.PROMPT, 3, 17)
    assert Tag.parse("something_newer:1").kind is Kind.NONE


def _sent(tag: Tag | str, seq: int = 5, op: str = "send", chat: int = 7) -> TaggedEntry:
    return TaggedEntry.of({"seq": seq, "op": op, "chat": chat, "tag": str(tag)})


def _record(**bookkeeping: Any) -> GameRecord:
    """A stored game with this bookkeeping, loaded as the record."""
    doc = {"gid": "g", "chat": -100, "creator": 1, "phase": "playing", "settings": {}}
    return GameRecord.from_doc(doc | bookkeeping)


def test_a_sent_prompt_id_is_recorded_only_on_its_seat_and_decision() -> None:
    record = _record(prompts={"3": {"dec": 17, "msg": None}, "4": {"dec": 17, "msg": None}})
    record.record_message_id(_sent(Tag.prompt(3, 16)), 90)  # an older decision's prompt
    assert record.prompts["3"]["msg"] is None
    record.record_message_id(_sent(Tag.prompt(3, 17)), 91)
    assert record.prompts["3"]["msg"] == 91
    assert record.prompts["4"]["msg"] is None
    record.record_message_id(_sent(Tag.prompt(3, 17)), 92)  # known once: kept
    assert record.prompts["3"]["msg"] == 91


def test_story_status_ahead_lobby_away_and_mention_ids_are_recorded() -> None:
    record = _record(
        status={"seq": 5, "msg": None},
        ahead={"seat": 1, "dec": 17, "seq": 5, "msg": None},
        mention={"seq": 5, "msg": None, "seat": 1, "dec": 17},
        story={"seq": 4, "msg": None},
    )
    for kind in (Kind.STATUS, Kind.STORY, Kind.AHEAD, Kind.TURN_REMINDER, Kind.LOBBY):
        record.record_message_id(_sent(Tag(kind)), 40)
    record.record_message_id(_sent(Tag.away(2)), 41)
    assert record.status is not None and record.ahead is not None and record.mention is not None
    assert record.status["msg"] == record.ahead["msg"] == record.mention["msg"] == 40
    assert record.story == {"seq": 4, "msg": None}  # not the story's newest message: left alone
    assert record.lobby_msg == 40 and record.away_notices == {"2": 41}
    record.record_message_id(_sent("ahead"), 42)
    assert record.ahead["msg"] == 40  # the ahead prompt's id, once known, stays
    record.record_message_id(_sent("status", op="edit"), 43)  # an edit's answer: no new id
    assert record.status["msg"] == 40


def test_an_unreachable_chat_and_a_refused_pin_are_recorded() -> None:
    record = _record(status={"seq": 5, "msg": 3})
    record.mark_unreachable(12)
    record.mark_unreachable(12)
    record.record_message_id(_sent("status_pin", op="pin"), 0)
    assert record.unreachable == [12]
    assert record.status is not None and record.status.get("pin_refused") is True


def test_an_uncertain_prompt_is_marked_for_its_reminder() -> None:
    record = _record(prompts={"3": {"dec": 17, "msg": None}}, status={"seq": 5, "msg": None})
    record.settle_uncertain(_sent(Tag.prompt(3, 17)))
    record.settle_uncertain(_sent("status"))
    record.settle_uncertain(_sent("story"))  # no story shown: nothing to mark
    assert record.prompts["3"].get("uncertain") is True
    assert record.status is not None and record.status.get("uncertain") is True
    assert record.story is None
