"""Twin tables (issue 8, R-V1, R-V2, R-D1): two games through the real service, the fake clock and
the fake Bot API that differ only in hidden information — the deal, who was asked in a window,
who passed privately. Each records every Bot API call with its clock time, so a test can compare
what the group, or a player whose own view is the same at both tables, was shown and when."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import pytest

import engine
from engine import Event, State
from handlers import lobby
from infra.ports import Put
from tests.e2e.harness import GROUP, Harness, Player

NAMES = ("Anna", "Ben", "Carla", "Dan", "Eve", "Fay", "Gus", "Hal")
GID = "twinTable"
Rig = Callable[[State], None]
Record = tuple[float, str, int | None, int | None, str | None, str | None]


@contextmanager
def rigged_deal(base_seed: int, rig: Rig) -> Iterator[None]:
    """While a game starts, the engine deals from ``base_seed`` and ``rig`` changes the deal."""
    original = engine.new_game
    patch = pytest.MonkeyPatch()

    def new_game(
        names: list[str], seed: int, options: dict[str, object] | None = None
    ) -> tuple[State, list[Event]]:
        st, events = original(names, base_seed, options)
        rig(st)
        for p in st.players:
            dealt = p.notes[0]
            dealt.update(assoc=list(p.assoc), occupation=p.occupation, items=list(p.items))
        return st, events

    patch.setattr(engine, "new_game", new_game)
    patch.setattr(lobby, "new_game_id", lambda: GID)
    try:
        yield
    finally:
        patch.undo()


@dataclass
class Twin:
    """One of the two tables."""

    n: int
    base_seed: int
    rig: Rig
    harness: Harness = field(init=False)
    calls: list[tuple[float, str, dict[str, Any]]] = field(default_factory=list)
    queries: dict[str, int] = field(default_factory=dict)  # callback query id -> presser

    def __post_init__(self) -> None:
        players = [Player(uid=3000 + i, name=NAMES[i]) for i in range(self.n)]
        self.harness = Harness(players, seed=self.base_seed)
        api = self.harness.api
        handle = api.handle

        def recording(method: str, params: dict[str, Any]) -> tuple[int, bytes]:
            self.calls.append((self.harness.clock.now(), method, dict(params)))
            return handle(method, params)

        api.handle = recording  # type: ignore[method-assign]
        service_handle = self.harness.service.handle_update

        def remember_presser(update: dict[str, Any]) -> Any:
            query = update.get("callback_query")
            if query:
                self.queries[query["id"]] = query["from"]["id"]
            return service_handle(update)

        self.harness.service.handle_update = remember_presser  # type: ignore[method-assign]

    # -- starting and time ---------------------------------------------------------------------
    def start(self) -> None:
        h = self.harness
        with rigged_deal(self.base_seed, self.rig):
            h.open_lobby_and_join()
            h.clock.advance(1.0)
            h.start()

    @property
    def now(self) -> float:
        return self.harness.clock.now()

    def run_until(self, at: float) -> None:
        """Let time pass to ``at``, firing every timer at its own time."""
        h = self.harness
        while True:
            due = [r.due_at for r in h.timers.requests if r.due_at <= at]
            if not due:
                break
            h.clock.advance(max(0.0, min(due) - h.clock.now()))
            h.fire_timers()
        h.clock.advance(max(0.0, at - h.clock.now()))

    def wait(self, seconds: float) -> None:
        self.run_until(self.now + seconds)

    def below_the_prompt(self, seat: int) -> None:
        """Arrange: the game's record knows a message newer than the seat's prompt in its chat
        (its reminder then brings the prompt down, ``Presenter._prompt_last``)."""
        h = self.harness
        got = h.store.get(f"GAME#{h.game_doc()['gid']}")
        assert got is not None
        pending = self.state().pending
        assert pending is not None
        shown, _ = h.prompt_buttons(self.player(seat), pending.id)  # its ack is not read yet
        got.doc.setdefault("newest", {})[str(self.player(seat).uid)] = shown + 1
        h.store.commit([Put(got.key, got.doc, got.version)])

    # -- the game (read only, to know whose phone to look at) ------------------------------
    def state(self) -> State:
        return self.harness.state()

    def player(self, seat: int) -> Player:
        return self.harness.players[seat]

    def due(self) -> float | None:
        """The decision's deadline (the stored timer may first be due for a reminder)."""
        due = self.harness.game_doc().get("due")
        return None if due is None else float(due["deadline"])

    def payloads(self, seat: int) -> list[str]:
        st = self.state()
        assert st.pending is not None
        try:
            _, data = self.harness.prompt_buttons(self.player(seat), st.pending.id)
        except AssertionError:
            return []
        return [d.split(":", 2)[2] for d in data]

    def press(self, seat: int, wanted: Callable[[str], bool] | str) -> str:
        """Press the first button of the seat's prompt whose payload is (or passes) ``wanted``."""
        st = self.state()
        assert st.pending is not None
        player = self.player(seat)
        message_id, data = self.harness.prompt_buttons(player, st.pending.id)
        test = wanted if callable(wanted) else (lambda p: p == wanted)
        button = next(d for d in data if test(d.split(":", 2)[2]))
        self.harness.press(player, player.uid, message_id, button)
        return button.split(":", 2)[2]

    # -- what was shown ------------------------------------------------------------------------
    def stream(self, chat: int) -> list[Record]:
        """Every call that showed something in ``chat`` (a callback answer counts for the chat of
        the player who pressed): time, method, message id, text, buttons."""
        out: list[Record] = []
        start = self.calls[0][0] if self.calls else 0.0
        for at, method, params in self.calls:
            target = params.get("chat_id")
            if method == "answerCallbackQuery":
                target = self.queries.get(str(params.get("callback_query_id")))
            if target != chat:
                continue
            markup = params.get("reply_markup")
            text = params.get("text")
            out.append(
                (
                    round(at - start, 3),
                    method,
                    params.get("message_id"),
                    None if text is None else str(text),
                    None if markup is None else json.dumps(markup, sort_keys=True),
                    str(params.get("show_alert")) if "show_alert" in params else None,
                )
            )
        return out

    def group(self) -> list[Record]:
        return self.stream(GROUP)


def first_difference(a: list[Record], b: list[Record]) -> str:
    for i, (x, y) in enumerate(zip(a, b, strict=False)):
        if x != y:
            return f"#{i}:\n  A {x}\n  B {y}"
    if len(a) != len(b):
        longer, name = (a, "A") if len(a) > len(b) else (b, "B")
        return f"#{min(len(a), len(b))}: only {name} has {longer[min(len(a), len(b))]}"
    return "none"


def assert_same_streams(a: Twin, b: Twin, hidden: set[int]) -> None:
    """The group's stream and that of every seat not in ``hidden`` are identical, call by call,
    with the clock time of each."""
    assert a.group(), "the group was shown nothing"
    assert a.group() == b.group(), "group: " + first_difference(a.group(), b.group())
    for seat in range(a.n):
        if seat in hidden:
            continue
        uid = a.player(seat).uid
        sa, sb = a.stream(uid), b.stream(uid)
        assert sa == sb, f"seat {seat}: " + first_difference(sa, sb)


# -- deals ------------------------------------------------------------------------------------
def give_occupation(st: State, seat: int, occupation: str) -> None:
    """Swap ``seat``'s occupation with ``occupation`` from the face-down deck (nobody saw it)."""
    assert occupation in st.occ_deck, f"{occupation} is held by someone"
    mine = st.players[seat].occupation
    st.occ_deck[st.occ_deck.index(occupation)] = mine
    st.players[seat].occupation = occupation


def give_item(st: State, seat: int, card: str) -> None:
    """Swap ``seat``'s first item with ``card`` from the draw pile (nobody saw either)."""
    assert card in st.pile, f"{card} is not in the pile"
    mine = st.players[seat].items[0]
    st.pile[st.pile.index(card)] = mine
    st.players[seat].items[0] = card


def deal(n: int, seed: int) -> State:
    names = list(NAMES[:n])
    st, _ = engine.new_game(names, seed)
    return st


__all__ = [
    "GROUP",
    "Twin",
    "assert_same_streams",
    "deal",
    "first_difference",
    "give_item",
    "give_occupation",
]
