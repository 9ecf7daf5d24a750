"""The game document as a type: who plays, the phase, the engine's state, the decision's timing
and the presentation's bookkeeping (which message shows what).

A pydantic model, validated when a stored document is loaded: a stored value of the wrong shape
is refused with ``StoredGameInvalid`` naming the game and the field (not a ``KeyError`` three
modules later). The settings are a ``GroupSettings`` (every field validated, ``ai_level``
included) and are written back as stored while unchanged. The engine's state is an
``EngineDoc`` (its top level typed; only the engine reads inside its frames and notes), and the
bookkeeping fields are typed by TypedDicts (``Due``, ``Dec``, ``OpenPrompt``, ``Ahead``,
``Status``, ``Story``, ``Mention``), read and written by typed key everywhere and checked on
load; they keep a key this code does not know, so a document written by a newer version loses
nothing, and a top-level key this code does not know is kept as JSON (``extra``).

The stored document also holds its outbox (``seq``, ``outbox``), the armed timer and the muted
notice's mark; the pipeline keeps those for every document it sends from, so the record leaves
them to it (``PIPELINE_KEYS``). ``to_doc`` writes the stored shape unchanged: a key an older
document did not have is not added while it is empty. What the sends found out the record takes
in itself, by each sent entry's typed tag (``record_message_id``, ``settle_uncertain``,
``mark_unreachable``; ``handlers.message_tags``, called by ``handlers.txn_store`` on load).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Required

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError
from typing_extensions import TypedDict

from handlers.engine_doc import EngineDoc
from handlers.group_settings import GroupSettings
from handlers.message_tags import Kind, TaggedEntry
from handlers.record_shapes import Ahead as Ahead
from handlers.record_shapes import AheadOff, Json, Mention, PlayerDoc
from handlers.record_shapes import Dec as Dec
from handlers.record_shapes import Due as Due
from handlers.record_shapes import OpenPrompt as OpenPrompt
from handlers.record_shapes import Status as Status
from handlers.record_shapes import Story as Story

PIPELINE_KEYS = frozenset({"seq", "outbox", "timer", "muted_told"})


class Phase(StrEnum):
    LOBBY = "lobby"
    PLAYING = "playing"
    OVER = "over"
    CANCELLED = "cancelled"


LOBBY, PLAYING, OVER, CANCELLED = Phase.LOBBY, Phase.PLAYING, Phase.OVER, Phase.CANCELLED
ACTIVE = (LOBBY, PLAYING)


class Bookkeeping(TypedDict, total=False):
    """A stored game's shape, but its engine state and settings (``GroupSettings``): checked on
    load (``from_doc``) by one adapter built on the first load; the model's own validator is
    built only when a record is made from its fields (a new lobby)."""

    gid: Required[str]
    chat: Required[int]
    creator: Required[int]
    phase: Required[Phase]
    players: list[PlayerDoc]
    touched: float
    engine: EngineDoc | None
    due: Due | None
    dec: Dec | None
    prompts: dict[str, OpenPrompt] | None
    ahead: Ahead | None
    status: Status | None
    story: Story | None
    lobby_msg: int | None
    lobby_edits: list[float] | None
    unreachable: list[int] | None
    unreachable_noted: list[int] | None
    mention: Mention | None
    away_notices: dict[str, int] | None
    newest: dict[str, int] | None
    ahead_unused: dict[str, int] | None
    ahead_off: dict[str, AheadOff] | None


_bookkeeping: TypeAdapter[Bookkeeping] | None = None  # built on the first load (cold start)


def _check_bookkeeping(doc: dict[str, Any]) -> None:
    global _bookkeeping
    if _bookkeeping is None:
        _bookkeeping = TypeAdapter(Bookkeeping)
    _bookkeeping.validate_python({k: doc[k] for k in Bookkeeping.__annotations__ if k in doc})


class StoredGameInvalid(ValueError):
    """A stored game document that does not have the record's shape."""


@dataclass
class Player:
    """A seat's person: a Telegram user (their chat is their id) or an AI passenger (``ai``,
    with a negative id that is no chat)."""

    uid: int
    name: str
    lang: str | None = None
    ai: bool = False
    extra: dict[str, Any] = field(default_factory=dict)  # stored keys this code does not know

    @classmethod
    def from_doc(cls, doc: dict[str, Any]) -> Player:
        extra = {k: v for k, v in doc.items() if k not in ("uid", "name", "lang", "ai")}
        return cls(int(doc["uid"]), str(doc["name"]), doc.get("lang"), bool(doc.get("ai")), extra)

    def to_doc(self) -> dict[str, Any]:
        doc: dict[str, Any] = {**self.extra, "uid": self.uid, "name": self.name, "lang": self.lang}
        if self.ai:
            doc["ai"] = True
        return doc


# Keys written only once they hold something (older documents may lack them).
_OPTIONAL = (
    "due",
    "dec",
    "prompts",
    "ahead",
    "status",
    "story",
    "lobby_msg",
    "lobby_edits",
    "unreachable",
    "unreachable_noted",
    "mention",
    "away_notices",
    "newest",
    "ahead_unused",
    "ahead_off",
    "muted",
    "cancel_votes",
)


def _votes(stored: Any) -> dict[str, float]:
    """Stored /cancel votes (uid -> when); anything else reads as none."""
    return {str(k): float(v) for k, v in stored.items()} if isinstance(stored, dict) else {}


class GameRecord(BaseModel):
    """One game, from its lobby to its end; see the module's docstring. ``prompts``: the open
    prompt per seat (as a string); ``engine``: the engine's state as it stores it
    (``engine.State.to_dict``; only the engine reads inside it, ``engine.State.from_dict``)."""

    model_config = ConfigDict(defer_build=True, revalidate_instances="never")

    gid: str
    chat: int
    creator: int
    settings: GroupSettings
    phase: Phase = Phase.LOBBY
    players: list[Player] = Field(default_factory=list)
    touched: float = 0.0
    engine: EngineDoc | None = None
    due: Due | None = None
    dec: Dec | None = None
    prompts: dict[str, OpenPrompt] = Field(default_factory=dict)
    ahead: Ahead | None = None
    status: Status | None = None
    story: Story | None = None
    lobby_msg: int | None = None
    lobby_edits: list[float] = Field(default_factory=list)  # its edits' times (``lobby_view``)
    unreachable: list[int] = Field(default_factory=list)  # chats the bot cannot write to
    unreachable_noted: list[int] = Field(default_factory=list)  # ... the table was told of
    mention: Mention | None = None
    away_notices: dict[str, int] = Field(default_factory=dict)  # seat -> its away notice
    # private chat -> the newest message the game sent there (-1: one of unknown id), so a
    # reminder knows whether the prompt is still the last message (``handlers.presenter``)
    newest: dict[str, int] = Field(default_factory=dict)
    # seat -> its "your turn is next" messages closed unused in a row (``handlers.ahead_message``)
    ahead_unused: dict[str, int] = Field(default_factory=dict)
    ahead_off: dict[str, AheadOff] = Field(default_factory=dict)  # seat -> its button's message
    # the bot may not write in the game's group (``handlers.chat_moves``; delivery sets it too,
    # ``handlers.holds.tell_muted``)
    muted: bool = False
    cancel_votes: dict[str, float] = Field(default_factory=dict)  # uid -> its /cancel's time
    extra: Json = Field(default_factory=dict)  # keys this code does not know
    # the optional keys the loaded document had, written back even when empty
    stored_keys: frozenset[str] = Field(default=frozenset(), repr=False)
    # the settings as loaded and their stored form, written back as stored while unchanged
    stored_settings: tuple[GroupSettings, dict[str, Any]] | None = Field(default=None, repr=False)

    @classmethod
    def from_doc(cls, doc: dict[str, Any]) -> GameRecord:
        """The record of a stored document, validated (``StoredGameInvalid`` names the game
        and the field when it is not a game's shape). The engine's state is shared with the
        document (a store returns a fresh document per read, and copying it costs more than
        the rest of a command)."""
        known = set(cls.model_fields) - {"extra", "stored_keys", "stored_settings"}
        stored_settings = doc.get("settings") or {}
        try:
            settings = GroupSettings.model_validate(stored_settings)
            _check_bookkeeping(doc)
        except ValidationError as error:
            gid = doc.get("gid")
            raise StoredGameInvalid(f"stored game {gid!r} is invalid: {error}") from error
        # checked: made without validating again (nor building the model's validator)
        return cls.model_construct(
            gid=str(doc["gid"]),
            chat=int(doc["chat"]),
            creator=int(doc["creator"]),
            settings=settings,
            phase=Phase(doc["phase"]),
            players=[Player.from_doc(p) for p in doc.get("players") or []],
            touched=doc.get("touched", 0.0),
            engine=doc.get("engine"),
            due=doc.get("due"),
            dec=doc.get("dec"),
            prompts=doc.get("prompts") or {},
            ahead=doc.get("ahead"),
            status=doc.get("status"),
            story=doc.get("story"),
            lobby_msg=doc.get("lobby_msg"),
            lobby_edits=doc.get("lobby_edits") or [],
            unreachable=doc.get("unreachable") or [],
            unreachable_noted=doc.get("unreachable_noted") or [],
            mention=doc.get("mention"),
            away_notices=doc.get("away_notices") or {},
            newest=doc.get("newest") or {},
            ahead_unused=doc.get("ahead_unused") or {},
            ahead_off=doc.get("ahead_off") or {},
            muted=bool(doc.get("muted")),
            cancel_votes=_votes(doc.get("cancel_votes")),
            extra={k: v for k, v in doc.items() if k not in known and k not in PIPELINE_KEYS},
            stored_keys=frozenset(k for k in _OPTIONAL if k in doc),
            stored_settings=(settings, stored_settings),
        )

    def to_doc(self) -> dict[str, Any]:
        """The stored document's keys the record holds (not the pipeline's). It shares the
        record's values: the record is not changed once it was written."""
        doc: dict[str, Any] = {
            **self.extra,
            "gid": self.gid,
            "chat": self.chat,
            "phase": str(self.phase),
            "creator": self.creator,
            "players": [p.to_doc() for p in self.players],
            "settings": self.settings_doc(),
            "touched": self.touched,
            "engine": self.engine,
        }
        for key in _OPTIONAL:
            value = getattr(self, key)
            if key in self.stored_keys or (value not in (None, [], {}) and value is not False):
                doc[key] = value
        return doc

    def __eq__(self, other: object) -> bool:
        """The same game in the same state (which optional keys its document had aside)."""
        if not isinstance(other, GameRecord):
            return NotImplemented
        fields = [k for k in type(self).model_fields if k not in ("stored_keys", "stored_settings")]
        return all(getattr(self, k) == getattr(other, k) for k in fields)

    __hash__ = None  # type: ignore[assignment]

    # -- reading -------------------------------------------------------------------------------
    @property
    def active(self) -> bool:
        """A lobby or a game being played."""
        return self.phase in ACTIVE

    def settings_doc(self) -> dict[str, Any]:
        """The settings' stored form: as loaded while they were not replaced (a key this code
        does not know, or a default the document lacks, stays as it was)."""
        if self.stored_settings is not None and self.stored_settings[0] is self.settings:
            return self.stored_settings[1]
        return self.settings.model_dump()

    def seat_of(self, uid: int) -> int | None:
        return next((seat for seat, p in enumerate(self.players) if p.uid == uid), None)

    def humans(self) -> list[Player]:
        return [p for p in self.players if not p.ai]

    # -- what the sends found out (``handlers.message_tags``) ----------------------------------
    def mark_unreachable(self, chat: int) -> None:
        """A send found the chat one the bot cannot write to (blocked, never started)."""
        if chat not in self.unreachable:
            self.unreachable.append(chat)

    def record_message_id(self, sent: TaggedEntry, message_id: int) -> None:
        """Remember the id of a message the bot will edit later (a prompt, the ahead prompt,
        the status, the story, the turn's mention, the lobby, an away notice), by the sent
        entry's tag; an id of 0 or less: the call showed no message (a pin refused)."""
        kind, seat = sent.tag.kind, sent.tag.seat
        if sent.op == "send" and sent.chat > 0 and message_id > 0:
            known = self.newest.get(str(sent.chat), 0)
            self.newest[str(sent.chat)] = message_id if known < 0 else max(known, message_id)
        if message_id <= 0:  # the call showed no message
            if kind == Kind.STATUS_PIN and sent.op == "pin" and self.status is not None:
                self.status["pin_refused"] = True  # the bot may not pin there
            return
        if kind == Kind.PROMPT:  # sent, or edited before its id was known
            prompt = self._open_prompt(sent)
            if prompt is not None:
                prompt["msg"] = message_id
            return
        if sent.op != "send":
            return
        shown = self._shown(sent)
        if kind == Kind.LOBBY:
            self.lobby_msg = message_id
        elif kind == Kind.AWAY and seat is not None:
            self.away_notices[str(seat)] = message_id
        elif shown is not None and not (kind == Kind.AHEAD and shown.get("msg") is not None):
            shown["msg"] = message_id  # the ahead prompt's id, once known, is kept

    def settle_uncertain(self, sent: TaggedEntry) -> None:
        """A send that Telegram may or may not have shown: what the game shows later makes up
        for it, by its kind's rule (``handlers.message_tags``): a prompt is shown again by its
        reminder, the story's lines are merged into the next story message, the status is sent
        anew with its next change."""
        kind = sent.tag.kind
        if sent.op != "send":
            return
        if sent.chat > 0:
            self.newest[str(sent.chat)] = -1  # a message of unknown id may be the newest
        prompt = self._open_prompt(sent) if kind == Kind.PROMPT else None
        newest: Status | Story | None = {Kind.STATUS: self.status, Kind.STORY: self.story}.get(kind)
        if prompt is not None:
            prompt["uncertain"] = True
        elif newest is not None and newest.get("seq") == sent.seq and newest.get("msg") is None:
            newest["uncertain"] = True

    def _open_prompt(self, sent: TaggedEntry) -> OpenPrompt | None:
        """The seat's open prompt the entry sent, while its id is not known yet, or while it
        is the gone message the entry sent the prompt anew in place of (``handlers.reminders``)."""
        tag = sent.tag
        prompt = self.prompts.get(str(tag.seat)) if tag.seat is not None else None
        if prompt is None or prompt["dec"] != tag.dec or prompt.get("msg") != sent.replaces:
            return None
        return prompt

    def _shown(self, sent: TaggedEntry) -> Ahead | Status | Story | Mention | None:
        """The message the game keeps by the entry that sent it (the ahead prompt, the status,
        the story, the turn's mention), while that entry is its newest."""
        shown = {
            Kind.AHEAD: self.ahead,
            Kind.STATUS: self.status,
            Kind.STORY: self.story,
            Kind.TURN_REMINDER: self.mention,
        }.get(sent.tag.kind)
        return shown if shown is not None and shown.get("seq") == sent.seq else None
