"""The unit of work of one command: every record it reads, loaded once per attempt with its
version, and ``commit``, which puts what changed into the attempt's transaction (version-checked,
written together or not at all). Changes are found by comparing each record's document with the
one loaded; nothing is marked changed by hand and nothing is written while rendering.

``run`` runs a command's change in a unit of work on the pipeline (load, change, commit, deliver;
a version conflict reruns it on fresh reads); ``reading`` gives a ``RecordReader`` to a command
that only reads (it has nothing to commit).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, TypeVar

from engine import State, upgrade_stored_state
from handlers.game_record import GameRecord
from handlers.i18n import negotiate
from handlers.pipeline import Pipeline
from handlers.records import ChatRecord, UserRecord
from handlers.store_keys import chat_key, game_key, user_key
from handlers.transaction import Txn
from infra.ports import DocumentStore

R = TypeVar("R", ChatRecord, UserRecord)


class RecordReader:
    """The records a command reads, each loaded once (with its version)."""

    def __init__(self, store: DocumentStore) -> None:
        self.store = store
        self._others: dict[str, GameRecord | None] = {}
        self._chats: dict[int, tuple[ChatRecord, dict[str, Any] | None, int | None]] = {}
        self._users: dict[int, tuple[UserRecord, dict[str, Any] | None, int | None]] = {}

    def other_game(self, gid: str | None) -> GameRecord | None:
        """A game read only (a check: is it running, who manages it)."""
        if not gid:
            return None
        if gid not in self._others:
            loaded = self.store.get(game_key(gid))
            self._others[gid] = GameRecord.from_doc(loaded.doc) if loaded else None
        return self._others[gid]

    def running_game(self, chat_id: int) -> GameRecord | None:
        """The chat's game while it is a lobby or being played."""
        game = self.other_game(self.chat(chat_id).game)
        return game if game is not None and game.active else None

    def chat(self, chat_id: int) -> ChatRecord:
        return self._record(self._chats, chat_id, chat_key(chat_id), ChatRecord)

    def user(self, uid: int) -> UserRecord:
        return self._record(self._users, uid, user_key(uid), UserRecord)

    def user_lang(self, uid: int, language_code: str | None) -> str:
        """The language the user chose with /language, else their Telegram language."""
        return self.user(uid).lang or negotiate(language_code)

    def _load(self, key: str) -> tuple[dict[str, Any] | None, int | None]:
        loaded = self.store.get(key)
        return (loaded.doc, loaded.version) if loaded else (None, None)

    def _record(
        self,
        records: dict[int, tuple[R, dict[str, Any] | None, int | None]],
        ident: int,
        key: str,
        kind: type[R],
    ) -> R:
        if ident not in records:
            doc, version = self._load(key)
            loaded_doc = None if doc is None else _copy(kind.from_doc(doc).to_doc())
            records[ident] = (kind.from_doc(doc), loaded_doc, version)
        return records[ident][0]


class UnitOfWork(RecordReader):
    """The records of one attempt of one command in its transaction ``txn``: the document the
    transaction holds (``game``, or a chat's or user's record when the command runs on it) and
    any other record, read once each; ``commit`` puts those that changed into ``txn``."""

    def __init__(self, store: DocumentStore, txn: Txn) -> None:
        super().__init__(store)
        self.txn = txn
        self._game: GameRecord | None = None
        self._game_loaded = ""  # the game's document as loaded but its engine state, serialised
        self._engine_loaded: dict[str, Any] | None = None  # the state as loaded (never changed)
        self._state: State | None = None

    # -- the command's own game document ---------------------------------------------------
    @property
    def game(self) -> GameRecord:
        """The game whose document the transaction holds."""
        if self._game is None:
            self._game = GameRecord.from_doc(self.txn.doc)
            self._game_loaded = _serialised(self._game.to_doc(), but="engine")
            if self._game.engine is not None:  # an older shape is migrated, not taken for a change
                self._game.engine = upgrade_stored_state(self._game.engine)
            self._engine_loaded = self._game.engine
        return self._game

    @property
    def state(self) -> State:
        """The game's engine state, loaded once; ``commit`` stores it back."""
        if self._state is None:
            assert self.game.engine is not None, "the game has not started"
            self._state = State.from_dict(self.game.engine)
        return self._state

    @state.setter
    def state(self, state: State) -> None:
        self._state = state

    def other_game(self, gid: str | None) -> GameRecord | None:
        if gid and self.txn.key == game_key(gid):
            return self.game
        return super().other_game(gid)

    def clear_pointer(self, uid: int) -> None:
        """The user is no longer in this game (may join another)."""
        user = self.user(uid)
        if user.game == self.game.gid:
            user.game = None

    def _load(self, key: str) -> tuple[dict[str, Any] | None, int | None]:
        if key == self.txn.key:  # the transaction's own document (None: one it creates)
            return (None, None) if self.txn.version is None else (self.txn.doc, self.txn.version)
        return super()._load(key)

    # -- committing ------------------------------------------------------------------------
    def commit(self) -> None:
        """Put every record that changed into the transaction: the command's own document in
        place, the others as version-checked writes beside it."""
        txn = self.txn
        if self._state is not None and self._game is not None:
            self._game.engine = self._state.to_dict()
        if self._game is not None:
            doc = self._game.to_doc()
            engine_changed = doc["engine"] != self._engine_loaded  # compared as dicts: fast
            if engine_changed or _serialised(doc, but="engine") != self._game_loaded:
                txn.doc.update(doc)  # a record never drops a key it loaded
                txn.changed = True
        for chat_id, (chat, before, version) in self._chats.items():
            self._put(chat_key(chat_id), chat.to_doc(), before, version)
        for uid, (user, before_user, version) in self._users.items():
            self._put(user_key(uid), user.to_doc(), before_user, version)

    def _put(
        self, key: str, doc: dict[str, Any], before: dict[str, Any] | None, version: int | None
    ) -> None:
        if doc == before or (before is None and doc == _missing_doc(key)):
            return
        if key == self.txn.key:
            self.txn.doc.clear()
            self.txn.doc.update(doc)
            self.txn.changed = True
        else:
            self.txn.put(key, doc, version)


def _serialised(doc: dict[str, Any], but: str = "") -> str:
    """A document (but one key) as stored, to compare with what it becomes: changes in place
    show, and it is many times faster than a deep copy."""
    return json.dumps({k: v for k, v in doc.items() if k != but}, sort_keys=True)


def _copy(doc: dict[str, Any]) -> dict[str, Any]:
    return dict(json.loads(json.dumps(doc)))


def _missing_doc(key: str) -> dict[str, Any]:
    """A missing record's document: not written until something is set."""
    record = ChatRecord() if key.startswith("CHAT#") else UserRecord()
    return record.to_doc()


T = TypeVar("T")


def reading(store: DocumentStore, read: Callable[[RecordReader], T]) -> T:
    """What ``read`` finds in the records (a command that only reads: nothing is written)."""
    return read(RecordReader(store))


def run(
    pipeline: Pipeline,
    key: str,
    change: Callable[[UnitOfWork], None],
    update_id: int | None,
    *,
    create: dict[str, Any] | None = None,
    query: str | None = None,
) -> Txn | None:
    """``change`` in a unit of work on the document at ``key``, committed after it returns
    (see ``Pipeline.run`` for ``create``, ``query`` and what None means)."""

    def attempt(txn: Txn) -> None:
        work = UnitOfWork(pipeline.store, txn)
        change(work)
        work.commit()

    return pipeline.run(key, attempt, update_id, create=create, query=query)
