"""The game document as a type: who plays, the phase, the engine's state, the decision's timing
and the presentation's bookkeeping (which message shows what).

The stored document also holds its outbox (``seq``, ``outbox``), the armed timer and the muted
notice's mark; the pipeline keeps those for every document it sends from, so the record leaves
them to it (``PIPELINE_KEYS``). ``to_doc`` writes the stored shape unchanged: a key an older
document did not have is not added while it is empty.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from handlers.group_settings import GroupSettings

PIPELINE_KEYS = frozenset({"seq", "outbox", "timer", "muted_told"})
LOBBY, PLAYING, OVER, CANCELLED = "lobby", "playing", "over", "cancelled"
ACTIVE = (LOBBY, PLAYING)


@dataclass
class Player:
    """A seat's person: a Telegram user (their chat is their id) or an AI passenger (``ai``,
    with a negative id that is no chat)."""

    uid: int
    name: str
    lang: str | None = None
    ai: bool = False

    @classmethod
    def from_doc(cls, doc: dict[str, Any]) -> Player:
        return cls(int(doc["uid"]), str(doc["name"]), doc.get("lang"), bool(doc.get("ai")))

    def to_doc(self) -> dict[str, Any]:
        doc: dict[str, Any] = {"uid": self.uid, "name": self.name, "lang": self.lang}
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
    "unreachable",
    "unreachable_noted",
)


@dataclass
class GameRecord:
    """One game, from its lobby to its end.

    ``due``: the next wake-up ``{"dec", "at", "deadline"}``; ``dec``: the pending decision's
    timing ``{"id", "opened", "played"?, "reminded"?, "told"?}``; ``prompts``: per seat (as a
    string) the open prompt ``{"dec", "msg", "v", "title", "closed"}``; ``ahead``: the prompt of
    the next turn chosen ahead (engine.premove) ``{"seat", "dec", "msg", "seq", "v", "title"}``;
    ``status`` and ``story``: the group's living status and newest story message."""

    gid: str
    chat: int
    creator: int
    settings: dict[str, Any]
    phase: str = LOBBY
    players: list[Player] = field(default_factory=list)
    touched: float = 0.0
    engine: dict[str, Any] | None = None
    due: dict[str, Any] | None = None
    dec: dict[str, Any] | None = None
    prompts: dict[str, dict[str, Any]] = field(default_factory=dict)
    ahead: dict[str, Any] | None = None
    status: dict[str, Any] | None = None
    story: dict[str, Any] | None = None
    lobby_msg: int | None = None
    unreachable: list[int] = field(default_factory=list)  # chats the bot cannot write to
    unreachable_noted: list[int] = field(default_factory=list)  # ... the table was told of
    extra: dict[str, Any] = field(default_factory=dict)  # keys this code does not know
    # the optional keys the loaded document had, written back even when empty
    stored_keys: frozenset[str] = field(default=frozenset(), compare=False, repr=False)

    @classmethod
    def from_doc(cls, doc: dict[str, Any]) -> GameRecord:
        """The record of a document handed over to it (they share values: a store returns a
        fresh document per read, and copying a game's costs more than the rest of a command)."""
        known = {f for f in cls.__dataclass_fields__ if f not in ("extra", "stored_keys")}
        return cls(
            gid=doc["gid"],
            chat=int(doc["chat"]),
            creator=int(doc["creator"]),
            settings=doc.get("settings", {}),
            phase=doc["phase"],
            players=[Player.from_doc(p) for p in doc.get("players", [])],
            touched=doc.get("touched", 0.0),
            engine=doc.get("engine"),
            due=doc.get("due"),
            dec=doc.get("dec"),
            prompts=doc.get("prompts") or {},
            ahead=doc.get("ahead"),
            status=doc.get("status"),
            story=doc.get("story"),
            lobby_msg=doc.get("lobby_msg"),
            unreachable=doc.get("unreachable") or [],
            unreachable_noted=doc.get("unreachable_noted") or [],
            extra={k: v for k, v in doc.items() if k not in known and k not in PIPELINE_KEYS},
            stored_keys=frozenset(k for k in _OPTIONAL if k in doc),
        )

    def to_doc(self) -> dict[str, Any]:
        """The stored document's keys the record holds (not the pipeline's). It shares the
        record's values: the record is not changed once it was written."""
        doc: dict[str, Any] = {
            **self.extra,
            "gid": self.gid,
            "chat": self.chat,
            "phase": self.phase,
            "creator": self.creator,
            "players": [p.to_doc() for p in self.players],
            "settings": self.settings,
            "touched": self.touched,
            "engine": self.engine,
        }
        for key in _OPTIONAL:
            value = getattr(self, key)
            if key in self.stored_keys or value not in (None, [], {}):
                doc[key] = value
        return doc

    # -- reading -------------------------------------------------------------------------------
    @property
    def active(self) -> bool:
        """A lobby or a game being played."""
        return self.phase in ACTIVE

    @property
    def group_settings(self) -> GroupSettings:
        return GroupSettings.model_validate(self.settings)

    def seat_of(self, uid: int) -> int | None:
        return next((seat for seat, p in enumerate(self.players) if p.uid == uid), None)

    def humans(self) -> list[Player]:
        return [p for p in self.players if not p.ai]
