"""Message ids are recorded by a typed tag the record owns (issue 28): every tag today's code
stores parses and prints back unchanged, and a sent prompt's id lands on its seat's prompt."""

from __future__ import annotations

from typing import Any

import pytest

from handlers.message_tags import Kind, Tag, record_message_id, settle_uncertain

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


def test_a_prompt_tag_names_its_seat_and_decision() -> None:
    tag = Tag.parse(str(Tag.prompt(3, 17)))
    assert (tag.kind, tag.seat, tag.dec) == (Kind.PROMPT, 3, 17)
    assert Tag.parse("something_newer:1").kind is Kind.NONE


def _sent(tag: Tag | str, seq: int = 5, op: str = "send") -> dict[str, Any]:
    return {"seq": seq, "op": op, "chat": 7, "tag": str(tag)}


def test_a_sent_prompt_id_is_recorded_only_on_its_seat_and_decision() -> None:
    doc: dict[str, Any] = {"prompts": {"3": {"dec": 17, "msg": None}, "4": {"dec": 17}}}
    record_message_id(doc, _sent(Tag.prompt(3, 16)), 90)  # an older decision's prompt
    assert doc["prompts"]["3"]["msg"] is None
    record_message_id(doc, _sent(Tag.prompt(3, 17)), 91)
    assert doc["prompts"]["3"]["msg"] == 91
    assert "msg" not in doc["prompts"]["4"]


def test_story_status_ahead_lobby_away_and_mention_ids_are_recorded() -> None:
    doc: dict[str, Any] = {
        "status": {"seq": 5},
        "ahead": {"seq": 5, "msg": None},
        "mention": {"seq": 5},
    }
    for kind in ("status", "story", "ahead", "turn_reminder", "lobby"):
        record_message_id(doc, _sent(kind), 40)
    record_message_id(doc, _sent(Tag.away(2)), 41)
    assert doc["status"]["msg"] == doc["ahead"]["msg"] == doc["mention"]["msg"] == 40
    assert doc["story"] == {}  # not the story's newest message (no seq 5): left alone
    assert doc["lobby_msg"] == 40 and doc["away_notices"] == {"2": 41}
    record_message_id(doc, _sent("ahead"), 42)
    assert doc["ahead"]["msg"] == 40  # the ahead prompt's id, once known, stays


def test_an_uncertain_prompt_is_marked_for_its_reminder() -> None:
    doc: dict[str, Any] = {"prompts": {"3": {"dec": 17, "msg": None}}, "status": {"seq": 5}}
    settle_uncertain(doc, _sent(Tag.prompt(3, 17)))
    settle_uncertain(doc, _sent("status"))
    assert doc["prompts"]["3"]["uncertain"] is True
    assert doc["status"]["uncertain"] is True
