"""Issue 28: the game record is typed (pydantic) and documents stored by the code before it load
unchanged, and a game loaded from them plays on. The fixtures in ``data/stored_games`` were
written by the main branch before the typed record (commit 791fdeb), through the real service:
a lobby, a game mid-play (open prompts, a turn chosen ahead, status, story, due and decision
timing) and a game over. A stored value of the wrong shape is refused with an error that names
the game and the field."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

import engine
from devtools.fakes import FakeClock, FakeTimers
from devtools.memory_messenger import MemoryMessenger
from devtools.memory_store import MemoryStore
from handlers import action_payloads, txn_store
from handlers.acks import ACK_UNREACHABLE
from handlers.app import CoachRideBot
from handlers.game_record import GameRecord, Phase, StoredGameInvalid
from handlers.store_keys import ack_key
from infra.ports import Put

STORED = Path(__file__).parent / "data" / "stored_games"


def stored(name: str) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads((STORED / f"{name}.json").read_text())
    return doc


@pytest.mark.parametrize("name", ["lobby", "midgame", "over"])
def test_a_stored_document_loads_typed_and_is_written_back_unchanged(name: str) -> None:
    doc = stored(name)
    record = GameRecord.from_doc(copy.deepcopy(doc))
    assert isinstance(record.phase, Phase) and record.phase == doc["phase"]
    back = record.to_doc()
    kept = {k: v for k, v in doc.items() if k not in ("seq", "outbox", "timer", "muted_told")}
    assert back == kept


def test_a_game_loaded_from_a_stored_document_plays_on() -> None:
    """The mid-game document, put in a store as the old code left it: the player whose prompt
    is open presses its first button, and the game moves on to its next decision."""
    doc = stored("midgame")
    clock, store, messenger = FakeClock(), MemoryStore(), MemoryMessenger()
    store.clock = clock
    clock.advance(doc["touched"] + 1 - clock.now())
    svc = CoachRideBot(store, messenger, FakeTimers(), clock, bot_username="b")
    key = f"GAME#{doc['gid']}"
    store.commit([Put(key, doc, None)])
    before = engine.State.from_dict(doc["engine"])
    aw = engine.awaiting(before)
    assert aw is not None
    seat = aw.seats[0]
    uid = doc["players"][seat]["uid"]
    prompt = doc["prompts"][str(seat)]
    legal = engine.legal_actions(before, seat)
    assert legal
    payload = action_payloads.encode_action(legal[0])
    svc.handle_update(
        {
            "update_id": 1,
            "callback_query": {
                "id": "q1",
                "from": {"id": uid, "is_bot": False, "first_name": "P"},
                "chat_instance": "x",
                "message": {
                    "message_id": prompt["msg"] or 77,
                    "date": 0,
                    "chat": {"id": uid, "type": "private"},
                },
                "data": f"{doc['gid']}:{aw.decision}:{payload}",
            },
        }
    )
    got = store.get(key)
    assert got is not None
    after = engine.State.from_dict(got.doc["engine"])
    assert after.pending is not None and after.pending.id != aw.decision
    GameRecord.from_doc(got.doc)  # and what it wrote loads again


@pytest.mark.parametrize(
    ("field", "value", "named"),
    [
        ("phase", "paused", "phase"),
        ("settings", {"ai_level": "bogus"}, "ai_level"),
        ("settings", {"deadlines": {"turn": 1}}, "turn"),
        ("due", {"dec": 3}, "at"),
        ("prompts", {"0": {"msg": 5}}, "dec"),
        ("dec", {"id": "x", "opened": 1.0}, "id"),
    ],
)
def test_an_invalid_stored_value_is_refused_naming_the_game_and_field(
    field: str, value: Any, named: str
) -> None:
    doc = stored("midgame") | {field: value}
    with pytest.raises(StoredGameInvalid) as refused:
        GameRecord.from_doc(doc)
    assert doc["gid"] in str(refused.value) and named in str(refused.value)


def test_settings_are_typed_and_written_back_as_stored_until_changed() -> None:
    """Issue 28: the record's settings are a validated ``GroupSettings``; a stored key this
    code does not know stays while they are unchanged, and a change is written as a whole."""
    doc = stored("midgame")
    doc["settings"] = {**doc["settings"], "retired_option": 1}
    record = GameRecord.from_doc(copy.deepcopy(doc))
    assert record.settings.language == doc["settings"].get("language", "en")
    assert record.to_doc()["settings"] == doc["settings"]
    record.settings = record.settings.changed(ai_level="expert")
    written = record.to_doc()["settings"]
    assert written["ai_level"] == "expert" and "retired_option" not in written
    assert GameRecord.from_doc(record.to_doc()).settings.ai_level == "expert"


def test_acknowledgements_of_a_stored_outbox_land_on_the_record_by_typed_tag() -> None:
    """Issue 28: message ids are recorded by a typed tag the record owns. The mid-game document
    and the acknowledgements of three of its sends (an edit to a chat the bot can no longer
    write to, the turn chosen ahead, seat 2's prompt), as the old code stored them: on load,
    each lands where its tag says, the acknowledged entries leave the outbox, and every other
    key stays as stored."""
    doc = stored("midgame")
    clock, store = FakeClock(), MemoryStore()
    store.clock = clock
    clock.advance(doc["touched"] + 1 - clock.now())
    key = f"GAME#{doc['gid']}"
    acks = {"acks": {"164": ACK_UNREACHABLE, "168": 501, "169": 502}}
    store.commit([Put(key, doc, None), Put(ack_key(key), acks, None)])
    txn = txn_store.load(store, clock, key, None)
    assert txn is not None
    got = txn.doc
    assert got["prompts"]["2"]["msg"] == 502 and got["ahead"]["msg"] == 501
    assert got["unreachable"] == [doc["outbox"][0]["chat"]]
    assert [e["seq"] for e in got["outbox"]] == [165, 166, 167]
    for k in set(doc) - {"prompts", "ahead", "outbox"}:
        assert got[k] == doc[k], k
    for k in ("prompts", "ahead"):
        assert GameRecord.from_doc(got).to_doc()[k] == got[k]
    assert {k: v for k, v in got["ahead"].items() if k != "msg"} == {
        k: v for k, v in doc["ahead"].items() if k != "msg"
    }


def test_a_newer_versions_keys_survive_the_record_at_every_level() -> None:
    """The record keeps a stored key it does not know (record_shapes: "a document written by a
    newer version loses nothing"): a player's was dropped, by every load that took in a
    message id (``_absorb_acks`` writes the record back) and by every command's save."""
    doc = stored("midgame")
    doc["players"][0]["badge"] = "🎖"
    doc["prompts"]["2"]["newer"] = 1
    doc["newer_top"] = {"x": 1}
    clock, store = FakeClock(), MemoryStore()
    store.clock = clock
    clock.advance(doc["touched"] + 1 - clock.now())
    key = f"GAME#{doc['gid']}"
    store.commit([Put(key, doc, None), Put(ack_key(key), {"acks": {"169": 502}}, None)])
    txn = txn_store.load(store, clock, key, None)
    assert txn is not None and txn.doc["prompts"]["2"]["msg"] == 502
    for got in (txn.doc, GameRecord.from_doc(copy.deepcopy(txn.doc)).to_doc()):
        assert got["players"][0]["badge"] == "🎖"
        assert got["players"][1:] == doc["players"][1:]
        assert got["prompts"]["2"]["newer"] == 1 and got["newer_top"] == {"x": 1}
