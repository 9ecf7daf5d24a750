"""The unit of work of one command: every record it reads, loaded once per attempt with its
version, and ``commit``, which puts what changed into the attempt's transaction (version-checked,
written together or not at all). Changes are found by comparing each record's document with the
one loaded; nothing is marked changed by hand and nothing is written while rendering.

``Work`` is a command's way through, as a context manager that owns its retry::

    with Work(service, key, update_id, query=query_id) as work:
        outcome = work.run(room, command)

``run`` calls the room, a plain function of (command, unit of work), on each attempt: load (the
document and the acknowledgements of what was sent, ``handlers.txn_store``), the room's change,
``commit`` into the transaction, the version-checked write; a version conflict reruns it on fresh
reads. Leaving the block delivers what the commit queued (``handlers.delivery``), the callback
query's answer (``txn.toast``) first, or answers the query alone when nothing was committed
(``handlers.update_replies``), then records in the game what the sends found out
(``handlers.holds``), each as a unit of work of its own. ``reading`` gives a ``RecordReader`` to a
command that only reads (it has nothing to commit).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from types import TracebackType
from typing import Any, Protocol, TypeVar

from engine import State, upgrade_stored_state
from handlers import holds, late_prompts, page_turn, pressure, txn_store
from handlers.delivery import MIN_SEND_SECONDS, Delivery
from handlers.engine_doc import EngineDoc, engine_doc
from handlers.game_record import GameRecord
from handlers.holds import STRETCH_AFTER_SECONDS
from handlers.i18n import negotiate
from handlers.records import ChatRecord, UserRecord
from handlers.store_keys import chat_key, game_key, user_key
from handlers.transaction import MAX_ATTEMPTS, Txn, invocation
from handlers.update_replies import UpdateReplies
from infra import metrics
from infra.ports import Clock, DocumentStore, DuplicateUpdate, Timers, VersionConflict, time_left

log = logging.getLogger("coachride")

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
        self._engine_loaded: EngineDoc | None = None  # the state as loaded (never changed)
        self._state: State | None = None

    # -- the command's own game document ---------------------------------------------------
    @property
    def game(self) -> GameRecord:
        """The game whose document the transaction holds."""
        if self._game is None:
            self._game = GameRecord.from_doc(self.txn.doc)
            self._game_loaded = _serialised(self._game.to_doc(), but="engine")
            if self._game.engine is not None:  # an older shape is migrated, not taken for a change
                self._game.engine = engine_doc(upgrade_stored_state(self._game.engine))
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
            self._game.engine = engine_doc(self._state.to_dict())
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


class Service(Protocol):
    """What a unit of work runs on (``handlers.pipeline.Pipeline``)."""

    @property
    def store(self) -> DocumentStore: ...

    @property
    def clock(self) -> Clock: ...

    @property
    def timers(self) -> Timers: ...

    @property
    def delivery(self) -> Delivery: ...

    @property
    def replies(self) -> UpdateReplies: ...

    @property
    def follow_moves(self) -> Callable[[str, dict[int, int]], None] | None: ...


C = TypeVar("C")


class Work:
    """A command's unit of work on the document at ``key`` (or on ``create`` if it does not
    exist), retried on version conflicts; see the module's docstring. ``query``: the callback
    query answered when the block is left, before any message goes out.

    After the block, ``txn`` is the attempt that committed (or found nothing to write), None
    when the update was already applied (a redelivery), the document does not exist, or every
    attempt met a conflict. ``follow_up``: a change a delivery asked for (``_follow``), which
    delivers nothing once the invocation is out of time."""

    def __init__(
        self,
        service: Service,
        key: str,
        update_id: int | None,
        *,
        create: dict[str, Any] | None = None,
        query: str | None = None,
        follow_up: bool = False,
    ) -> None:
        self.service = service
        self.key = key
        self.update_id = update_id
        self.create = create
        self.query = query
        self.follow_up = follow_up
        self.txn: Txn | None = None
        self.committed = False

    def __enter__(self) -> Work:
        return self

    def run(self, room: Callable[[C, UnitOfWork], T], command: C) -> T | None:
        """``room(command, unit of work)`` on fresh reads until its change commits; what the
        committed attempt returned (None when nothing was run to the end)."""
        store, key = self.service.store, self.key
        inv = invocation()
        if inv is not None and inv.duplicate:
            return None
        update_id = None if inv is not None and inv.claimed else self.update_id
        for _ in range(MAX_ATTEMPTS):
            txn = txn_store.load(store, self.service.clock, key, self.create)
            if txn is None:
                return None
            late_prompts.reclose_claimed(txn)  # a prompt whose decision ended: sent closed
            work = UnitOfWork(store, txn)
            result = room(command, work)
            work.commit()
            pressure.defer_under_pressure(txn, self.service.delivery.pressed)
            if txn_store.unchanged(txn):
                self.txn = txn
                return result
            # the document's last changes (a decision opened during a flood hold waits for its
            # end; the armed timer's mark), then what the commit writes, then a flush timer for
            # what it queued (``Delivery.schedule_flush``: once, after the drops of ``writes``)
            holds.hold_new_decision(txn.doc, txn.now)
            txn_store.arm_timer(self.service.timers, key, txn.doc)
            writes = txn_store.writes(txn)
            self.service.delivery.schedule_flush(key, txn)
            try:
                store.commit(writes, update_id)
            except VersionConflict:
                continue
            except DuplicateUpdate:
                if inv is not None:
                    inv.duplicate = True
                return None
            if inv is not None and update_id is not None:
                inv.claimed = True  # this process holds the update's marker now
            self.txn, self.committed = txn, True
            return result
        metrics.count(metrics.GAVE_UPS)
        log.warning("gave up after %d version conflicts", MAX_ATTEMPTS, extra={"key": key})
        return None

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        txn = self.txn
        if kind is not None or txn is None:
            return
        replies, delivery = self.service.replies, self.service.delivery
        if not self.committed:  # nothing to deliver: the answer (and page turn) alone
            if self.query is not None and replies.answering(self.query):
                self._paged(txn, delivery.answer(self.query, txn))
            return
        if self.follow_up and time_left() < MIN_SEND_SECONDS:
            # a follow-up of a delivery that ran out of time: delivering again would claim the
            # same entries and fail again, each try a follow-up of its own (a recursion); what it
            # queued is the flush timer's (``Delivery.schedule_flush``), as after ``OutOfTime``
            return
        # the change's answer goes out with its messages, first (``Delivery.deliver``); a page
        # turn's right after it, its wait moving the deadline on before the rest goes (the
        # deadline's timer may fire meanwhile)
        query = self.query if self.query is not None and replies.answering(self.query) else None
        if query is not None and txn.page is not None:
            self._paged(txn, delivery.answer(query, txn))
            query = None
        delivered = delivery.deliver(self.key, txn, query)
        if delivered.late:
            self._follow(holds.stretch, delivered.late)
        if delivered.removed:
            self._follow(lambda t, _: holds.mute(t), None)
        elif delivered.muted:
            self._follow(lambda t, _: holds.tell_muted(t), None)
        if delivered.holds:
            self._follow(holds.hold, delivered.holds)
        if delivered.moved and self.service.follow_moves is not None:
            self.service.follow_moves(self.key, delivered.moved)

    def _paged(self, txn: Txn, waited: float | None) -> None:
        """The player waited ``waited`` s for the page their press asked for (``txn.page``):
        their decision's deadline moves on by it (``page_turn.stretch_for_page``); None: it
        found no slot in this invocation, and is queued in the game's outbox instead."""
        if txn.page is None:
            return
        if waited is None:
            self._follow(page_turn.queue, txn.page)
        elif txn.page.dec is not None and waited > STRETCH_AFTER_SECONDS:
            self._follow(page_turn.stretch, (txn.page.dec, waited))

    def _follow(self, change: Callable[[Txn, C], None], command: C) -> None:
        """A change the delivery asks of the game, committed and delivered on its own."""
        with Work(self.service, self.key, None, follow_up=True) as work:
            work.run(_on_txn, (change, command))


def _on_txn(change: tuple[Callable[[Txn, C], None], C], work: UnitOfWork) -> None:
    """A change made on the transaction itself (its outbox, the raw document)."""
    apply, command = change
    apply(work.txn, command)
