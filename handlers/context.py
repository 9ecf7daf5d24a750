"""What the conversation's rooms (lobby, settings, language, info, the running game) need from
the bot, as protocols: each takes only these, never the bot itself, so no room imports it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from handlers.pipeline import Pipeline
from infra.ports import Clock, DocumentStore, Messenger


class Replies(Protocol):
    """Direct replies: at most once per update (``Pipeline.replies``)."""

    @property
    def messenger(self) -> Messenger: ...


class Reads(Protocol):
    """The store the records are read from (``handlers.unit_of_work``), and the language a
    user's reply is written in."""

    @property
    def store(self) -> DocumentStore: ...

    def user_lang(self, uid: int, language_code: str | None) -> str: ...


class Rooms(Replies, Reads, Protocol):
    """Everything a command that changes a game needs."""

    @property
    def pipeline(self) -> Pipeline: ...

    @property
    def clock(self) -> Clock: ...

    @property
    def bot_username(self) -> str: ...

    @property
    def scale(self) -> float: ...

    @property
    def is_admin(self) -> Callable[[int, int], bool]: ...

    @property
    def is_member(self) -> Callable[[int, int], bool]: ...

    @property
    def deal_seeds(self) -> Callable[[], int]: ...
