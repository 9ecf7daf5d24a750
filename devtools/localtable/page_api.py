"""The page's small JSON API on the local table: take a seat, its texts and menus, the chats,
long-polled changes, typing a message, pressing a button. A seat is an id (the server's) and a
secret kept in the browser; a field of the wrong type is a 400, never a traceback.
``devtools.localtable.server`` checks the request (host, origin, body) before it comes here."""

from __future__ import annotations

import contextlib
import threading
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from devtools.localtable.chats import BOT_FIRST_NAME, BOT_USERNAME, ApiError, Table, User
from handlers.i18n import catalog, negotiate

EVENT_POLL_SECONDS = 25.0
POLLS_PER_SEAT = 3  # a page holds one; a second tab or a reload may hold another for a while
TELEGRAM_LANGUAGE = {"en": None, "de": "de", "zh-Hans": "zh"}
CHANGES = ("join", "send", "press")  # the routes that change something


@dataclass(eq=False)
class Poll:
    """One open long poll: its seat, its browser tab (if the page said), whether another poll
    took its place (a newer poll of the same tab, or of a seat that held none, ``Polls._spare``)."""

    uid: int
    tab: str | None
    superseded: bool = False


class Polls:
    """Counts the page's open long polls, per seat and in all.

    A tab polls once at a time, so a tab's new poll means its page was reloaded: the earlier poll
    is superseded (its slot handed on, its wait woken, ``wake``) rather than counted until it
    timed out (it held its slot 25 s, and a few reloads got the page 429s)."""

    def __init__(self, in_all: int, wake: Callable[[], None] = lambda: None) -> None:
        self._in_all = in_all
        self._wake = wake
        self._lock = threading.Lock()
        self._open: list[Poll] = []

    @contextlib.contextmanager
    def slot(self, uid: int, tab: str | None = None) -> Iterator[Poll]:
        with self._lock:
            before = next((p for p in self._open if tab and (p.uid, p.tab) == (uid, tab)), None)
            if before is None and len(self._open) >= self._in_all:
                before = self._spare(uid)
            if before is not None:
                before.superseded = True
                self._open.remove(before)
            elif (
                sum(p.uid == uid for p in self._open) >= POLLS_PER_SEAT
                or len(self._open) >= self._in_all
            ):
                raise ApiError(429, "Too Many Requests: retry after 1")
            poll = Poll(uid, tab)
            self._open.append(poll)
        if before is not None:
            self._wake()
        try:
            yield poll
        finally:
            with self._lock:
                if poll in self._open:
                    self._open.remove(poll)

    def _spare(self, uid: int) -> Poll | None:
        """When every slot is held, a seat that holds none takes the oldest poll of a seat that
        holds more than one (its other poll goes on): a few seats' extra polls (3 each) filled
        the table's, and every other page met 429s until they ended."""
        if any(p.uid == uid for p in self._open):
            return None
        held = Counter(p.uid for p in self._open)
        most = max(held, key=held.__getitem__, default=None)
        if most is None or held[most] < 2:
            return None
        return next(p for p in self._open if p.uid == most)


def seat_of(table: Table, params: dict[str, Any]) -> User:
    """The seat the request names, with its secret."""
    if params.get("id") in (None, ""):
        raise ApiError(401, "Unauthorized: take a seat first")
    return table.user(_int(params, "id"), _str(params, "secret"))


def answer(table: Table, polls: Polls, name: str, p: dict[str, Any]) -> Any:
    """The route ``name``'s answer to the parameters ``p`` (refusals as :class:`ApiError`)."""
    if name == "join":
        user = table.join(
            _str(p, "name"),
            _str(p, "lang") or None,
            _int(p, "id") if p.get("id") not in (None, "") else None,
            _str(p, "secret") or None,
        )
        return {"id": user.id, "secret": user.secret, "name": user.name}
    if name == "texts":
        return texts(table, _str(p, "lang"))
    if name not in ("state", "events", "send", "press"):
        raise ApiError(404, "Not Found")
    user = seat_of(table, p)
    if name == "state":
        return table.snapshot(user)
    if name == "events":
        after = _int(p, "after") if p.get("after") not in (None, "") else 0
        tab = _str(p, "tab")[:64] or None
        with polls.slot(user.id, tab) as poll:
            return table.events_for(user, after, EVENT_POLL_SECONDS, lambda: poll.superseded)
    chat = "group" if _str(p, "chat") == "group" else "private"
    if name == "send":
        payload = _str(p, "start")
        if payload:  # a deep link t.me/<bot>?start=<payload>: Telegram shows only /start
            message_id = table.user_says(user, "private", f"/start {payload}", "/start")
        else:
            message_id = table.user_says(user, chat, _str(p, "text"))
        return {"id": message_id}
    query = table.user_presses(user, chat, _int(p, "message_id"), _str(p, "data"))
    return {"query": query}


def texts(table: Table, language: str) -> dict[str, Any]:
    """The page's texts in the language nearest ``language``, and the bot's command menus."""
    lang = negotiate(language)
    shown = {k[6:]: v for k, v in catalog(lang).items() if k.startswith("table.")}
    menus = table.commands

    def menu(scope: str) -> list[dict[str, str]]:
        return menus.get((scope, TELEGRAM_LANGUAGE[lang])) or menus.get((scope, None)) or []

    return {
        "lang": lang,
        "texts": shown,
        "bot": {"username": BOT_USERNAME, "name": BOT_FIRST_NAME},
        "menus": {"group": menu("all_group_chats"), "private": menu("all_private_chats")},
    }


def _str(params: dict[str, Any], key: str) -> str:
    value = params.get(key, "")
    if not isinstance(value, str):
        raise ApiError(400, f"Bad Request: {key} must be a string")
    return value


def _int(params: dict[str, Any], key: str) -> int:
    """A whole number, as JSON or in a query string or form; ids are never negative here."""
    value = params.get(key)
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise ApiError(400, f"Bad Request: {key} must be an integer")
    if isinstance(value, str):
        if not (value.isascii() and value.isdigit()) or len(value) > 19:
            raise ApiError(400, f"Bad Request: {key} must be an integer")
        value = int(value)
    if not 0 <= value < 2**63:
        raise ApiError(400, f"Bad Request: {key} is out of range")
    return value
