"""The shapes of a stored game's bookkeeping (``handlers.game_record``): TypedDicts, read and
written by typed key and checked by pydantic on load. Each keeps a stored key this code does not
know (``_KEEP``), so a document written by a newer version loses nothing."""

from __future__ import annotations

from typing import NotRequired

from pydantic import ConfigDict, JsonValue, with_config
from typing_extensions import TypedDict

_KEEP = ConfigDict(extra="allow")  # a stored key this code does not know is kept


@with_config(_KEEP)
class Due(TypedDict):
    """The next wake-up: the decision it is for, when, and the decision's deadline."""

    dec: int
    at: float
    deadline: NotRequired[float | None]


@with_config(_KEEP)
class Dec(TypedDict):
    """The pending decision's timing (``GameRunner._track_decision``, ``handlers.holds``)."""

    id: int
    opened: float
    part: NotRequired[int]  # the supporter asked, in a support decision (R-A3)
    window: NotRequired[bool]  # a window: who is asked is secret, its deadline never moves
    played: NotRequired[float | None]  # a boost card played, at
    reminded: NotRequired[bool]  # its reminder was sent
    told: NotRequired[list[int]]  # the seats told of it
    stretched: NotRequired[float]  # seconds its prompt waited for delivery, already added
    paged: NotRequired[float]  # seconds its page turns waited for delivery, already added
    held: NotRequired[float]  # the end of the flood hold that moved its clock


@with_config(_KEEP)
class OpenPrompt(TypedDict):
    """A seat's open prompt: its decision, message, version shown, title, closed or not."""

    dec: int
    msg: int | None
    v: NotRequired[str]
    title: NotRequired[str]
    closed: NotRequired[bool]
    uncertain: NotRequired[bool]  # its send's outcome is unknown: its reminder shows it again
    lead: NotRequired[str]  # the answers given earlier in its message (a follow-up's, issue 25)


@with_config(_KEEP)
class Ahead(TypedDict):
    """The prompt of the next turn chosen ahead (engine.premove)."""

    seat: int
    dec: int
    msg: int | None
    seq: int
    v: NotRequired[str]
    title: NotRequired[str]
    lead: NotRequired[str]  # the news sent above it, in the same message (issue 27)
    was: NotRequired[int]  # the decision its buttons still carry while its edit waits ...
    was_until: NotRequired[float]  # ... until then (``AheadMessage.update``)


@with_config(_KEEP)
class AheadOff(TypedDict):
    """The closing of a seat's last "your turn is next", carrying "🔜 Offer my turn ahead again"
    (``handlers.ahead_message``): its message and text, to take the button away."""

    msg: int
    text: str


@with_config(_KEEP)
class Status(TypedDict):
    """The group's status message of a game begun before the status moved to the foot of the
    story (issue 27): retired by ``GroupBoard.retire_status``."""

    msg: int | None
    seq: NotRequired[int]
    text: NotRequired[str]
    pinned: NotRequired[bool]
    pin_refused: NotRequired[bool]
    uncertain: NotRequired[bool]
    edit_at: NotRequired[float]  # its next edit may go then (``GroupBoard._throttle``)


@with_config(_KEEP)
class Story(TypedDict, total=False):
    """The group's newest story message (lines are merged into it while it is the newest), the
    living status at its foot."""

    msg: int | None
    seq: int
    body: str
    foot: str  # the status shown under its lines (issue 27); "" once the game is over
    at: float
    uncertain: bool
    edit_at: float  # its next edit may go then (``GroupBoard._throttle``)


@with_config(_KEEP)
class Mention(TypedDict):
    """The group's "it is your turn" mention (``GroupBoard.mention_turn``): the outbox entry
    that sends it, its message once known, the seat and decision it is about."""

    seq: int
    msg: int | None
    seat: int
    dec: int | None


Json = dict[str, JsonValue]  # a JSON object this code does not read inside


@with_config(_KEEP)
class PlayerDoc(TypedDict):
    uid: int
    name: str
    lang: NotRequired[str | None]
    ai: NotRequired[bool]
