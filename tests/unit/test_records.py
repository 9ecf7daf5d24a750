"""Issue 13: the chat and user records as types, and the unit of work that writes only what a
command changed, version-checked, with the game."""

from __future__ import annotations

from typing import Any

from devtools.fakes import FakeClock
from devtools.memory_store import MemoryStore
from handlers.records import ChatRecord, UserRecord
from handlers.store_keys import chat_key, user_key
from handlers.transaction import Txn
from handlers.unit_of_work import UnitOfWork as Records
from infra.ports import Put


def test_records_round_trip_their_documents_keys_they_do_not_know_included() -> None:
    chat = {"settings": {"language": "de"}, "scores": {"7": {"points": 1}}, "game": "g1", "x": 5}
    assert ChatRecord.from_doc(chat).to_doc() == chat
    chosen = {**chat, "language_chosen": True}
    assert ChatRecord.from_doc(chosen).to_doc() == chosen
    user = {"game": None, "lang": "en", "since": 3}
    assert UserRecord.from_doc(user).to_doc() == user
    assert UserRecord.from_doc({"game": "g"}).to_doc() == {"game": "g"}


def game_txn() -> Txn:
    return Txn(doc={"gid": "g1", "seq": 0, "outbox": []}, version=1, now=0.0)


def stored(store: MemoryStore, key: str, doc: dict[str, Any]) -> None:
    store.commit([Put(key, doc, None)])


def test_commit_puts_only_the_records_that_changed_with_the_version_read() -> None:
    store = MemoryStore(clock=FakeClock())
    stored(store, chat_key(-5), {"settings": {}, "scores": {}, "game": "g1"})
    stored(store, user_key(7), {"game": "g1"})
    stored(store, user_key(8), {"game": "other"})
    txn = game_txn()
    records = Records(store, txn)
    records.chat(-5).game = None
    records.user(7).game = None
    assert records.user(8).game == "other"  # read, not changed
    assert records.user(9).game is None  # missing, not changed
    records.commit()
    assert sorted(txn.extra) == [chat_key(-5), user_key(7)]
    doc, version = txn.extra[user_key(7)]
    assert doc == {"game": None} and version == store.get(user_key(7)).version  # type: ignore[union-attr]


def test_a_missing_record_is_created_once_something_is_set() -> None:
    store = MemoryStore(clock=FakeClock())
    txn = game_txn()
    records = Records(store, txn)
    chat = records.chat(-5)
    assert chat.is_new
    chat.game = "g1"
    records.commit()
    assert txn.extra[chat_key(-5)] == ({"settings": {}, "scores": {}, "game": "g1"}, None)
