"""Issue 13: the game document as a typed record. Stored documents keep their shape: a record
round-trips, documents written before the record existed load and are written back unchanged,
and a command that changes nothing writes nothing."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from pydantic import TypeAdapter

import engine
from devtools.fakes import FakeClock
from devtools.memory_store import MemoryStore
from handlers.engine_doc import EngineDoc, engine_doc
from handlers.game_record import PIPELINE_KEYS, GameRecord, Player, StoredGameInvalid
from handlers.store_keys import game_key
from handlers.transaction import Txn
from handlers.unit_of_work import UnitOfWork
from tests.unit import playouts

# A lobby and a game being played, as the code before the record stored them.
OLD_DOCS: dict[str, dict[str, Any]] = json.loads(
    (Path(__file__).parent / "data" / "game_docs_before_the_record.json").read_text()
)


def full_record() -> GameRecord:
    return GameRecord(
        gid="g1",
        chat=-5,
        creator=7,
        settings={"language": "de"},
        phase="playing",
        players=[Player(7, "Ann", "de"), Player(-1, "Bot (AI)", "de", ai=True)],
        touched=12.5,
        engine=engine_doc(engine.new_game(["Ann", "Bot", "Cy"], 3)[0].to_dict()),
        due={"dec": 4, "at": 99.0, "deadline": 120.0},
        dec={"id": 4, "opened": 60.0, "told": [1]},
        prompts={"0": {"dec": 4, "msg": 11, "v": "turn:0", "title": "T", "closed": False}},
        status={"msg": 3, "seq": 2, "text": "S", "pinned": True},
        story={"msg": 4, "body": "B", "at": 61.0, "seq": 5},
        lobby_msg=1,
        unreachable=[8],
        unreachable_noted=[8],
        mention={"seq": 9, "msg": 21, "seat": 0, "dec": 4},
        away_notices={"1": 22},
        extra={"later_key": {"x": 1}},
    )


def test_a_record_round_trips_through_its_document() -> None:
    record = full_record()
    assert GameRecord.from_doc(record.to_doc()) == record
    bare = GameRecord(gid="g2", chat=-5, creator=7, settings={})
    assert GameRecord.from_doc(bare.to_doc()) == bare


@pytest.mark.parametrize("phase", sorted(OLD_DOCS))
def test_documents_stored_before_the_record_load_and_are_written_back_unchanged(
    phase: str,
) -> None:
    doc = OLD_DOCS[phase]
    record = GameRecord.from_doc(doc)
    assert record.to_doc() == {k: v for k, v in doc.items() if k not in PIPELINE_KEYS}
    assert all(isinstance(p, Player) for p in record.players)


def test_commit_finds_changes_made_in_place_deep_inside_the_record() -> None:
    doc = copy.deepcopy(OLD_DOCS["playing"])
    txn = Txn(doc, version=3, now=0.0, key=game_key(doc["gid"]))
    work = UnitOfWork(MemoryStore(clock=FakeClock()), txn)
    (prompt,) = work.game.prompts.values()
    prompt["closed"] = not prompt.get("closed")
    work.commit()
    assert txn.changed


@pytest.mark.parametrize("phase", sorted(OLD_DOCS))
def test_a_command_that_reads_the_game_and_its_state_but_changes_nothing_writes_nothing(
    phase: str,
) -> None:
    doc = copy.deepcopy(OLD_DOCS[phase])
    txn = Txn(doc, version=3, now=0.0, key=game_key(doc["gid"]))
    work = UnitOfWork(MemoryStore(clock=FakeClock()), txn)
    assert work.game.gid == doc["gid"]
    if work.game.engine is not None:
        assert work.state.n == len(work.game.players)
    work.commit()
    assert not txn.changed and not txn.extra
    assert doc == OLD_DOCS[phase]


def test_commit_writes_what_changed_into_the_transactions_document_and_keeps_the_outbox() -> None:
    doc = copy.deepcopy(OLD_DOCS["playing"])
    txn = Txn(doc, version=3, now=0.0, key=game_key(doc["gid"]))
    work = UnitOfWork(MemoryStore(clock=FakeClock()), txn)
    work.game.prompts = {}
    work.game.players[1].lang = "de"
    work.commit()
    assert txn.changed
    assert doc["prompts"] == {} and doc["players"][1]["lang"] == "de"
    assert (
        doc["outbox"] == OLD_DOCS["playing"]["outbox"] and doc["seq"] == OLD_DOCS["playing"]["seq"]
    )


def test_the_engine_state_the_record_types_is_what_the_engine_stores() -> None:
    """Issue 28: ``EngineDoc`` describes ``State.to_dict`` (every key typed at its top level,
    a seat's and the decision's too) at every step of played games, strictly: no int for a
    string, no string for an int; a key ``EngineDoc`` does not list fails."""
    check = TypeAdapter(EngineDoc)
    listed = set(EngineDoc.__annotations__)
    for seed in range(6):
        for step in playouts.game(seed):
            doc = step.after.to_dict()
            assert set(doc) == listed
            check.validate_python(doc, strict=True)
    with pytest.raises(ValueError, match="seed"):
        check.validate_python({**doc, "seed": "7"}, strict=True)


@pytest.mark.parametrize(
    ("key", "value", "named"),
    [
        ("seed", "x", "seed"),
        ("players", [{"name": "A"}], "players"),
        ("pending", {"id": 1}, "pending"),
        ("frames", {"kind": "turn"}, "frames"),
    ],
)
def test_a_stored_engine_state_of_another_shape_is_refused(
    key: str, value: Any, named: str
) -> None:
    doc = copy.deepcopy(OLD_DOCS["playing"])
    doc["engine"][key] = value
    with pytest.raises(StoredGameInvalid, match=named):
        GameRecord.from_doc(doc)


def test_the_mention_and_the_away_notices_are_typed_fields_not_unknown_keys() -> None:
    """Issue 28: ``extra`` holds only keys this code does not know; the turn mention and the
    away notices, which it does, are record fields, checked on load."""
    record = full_record()
    doc = record.to_doc()
    assert doc["mention"] == {"seq": 9, "msg": 21, "seat": 0, "dec": 4}
    assert doc["away_notices"] == {"1": 22}
    loaded = GameRecord.from_doc(doc)
    assert loaded.mention == record.mention and loaded.extra == {"later_key": {"x": 1}}
    with pytest.raises(StoredGameInvalid, match="seat"):
        GameRecord.from_doc({**doc, "mention": {"seq": 9, "msg": None, "seat": "x", "dec": 4}})
