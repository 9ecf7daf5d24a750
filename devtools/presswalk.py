"""`python -m devtools.presswalk`: one button press walked from the webhook to the Bot API.

A four-player table is opened, joined and started through the real service (the webhook Lambda's
``handle``, the Telegram messenger on python-telegram-bot, the Bot API emulator, the in-memory
store); then the first player the game asks presses their prompt's first button, and that one
invocation of ``handlers.webhook.handle`` runs under ``sys.setprofile``.

Only the table's modules count (``handlers``, ``infra``); a call into the engine, a library or the
emulator is part of the module that made it. The walk lists each *hop*: a call from one of those
modules into another whose callee went on into a third (or is the Bot API call itself); a call
into a leaf that returns at once (``game_key``, a catalog's ``t``) is a look-up, not the flow
leaving (``--all`` lists those too). The same way (the same modules, nested the same) taken again
by the caller's next call that goes on (a loop over the outbox: messenger, Bot API; the look-ups
between, an acknowledgement written, do not break the run) is one path, shown with its count and
the other functions folded into it; a way taken again after another way is counted again (the
presenter going to the prompts, the group board, then the prompts again: three). Then:

- ``calls``: the hops; ``modules``: the project modules the press went through;
- ``returns into a module already left``: hops whose callee went on into other modules before it
  returned, so the flow comes back into a module it had left for somewhere else;
- ``re-entries``: hops into a module that is still on the stack below its caller (a callback:
  the flow circles back into a module it is still inside).

``--tree`` prints the hops as a tree (indentation: depth), ``--json`` the figures as JSON.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from dataclasses import dataclass, field
from types import FrameType
from typing import Any

PROJECT = ("handlers", "infra")  # the table; the engine is the far side of a hop
ENTRY = ("handlers.webhook", "handle")
API = ("infra.bot_api", "BotApi.call")  # the last project frame before the Bot API
SECRET = "presswalk-secret"
GROUP = -100321
BOT = "coachride_bot"


@dataclass
class Hop:
    """A call from one project module into another, and the hops its callee made."""

    module: str
    function: str
    parent: Hop | None = None
    hops: list[Hop] = field(default_factory=list)
    times: int = 1  # the same way taken again right after (``flow`` folds repeats)
    also: set[str] = field(default_factory=set)  # other functions folded into this hop

    def shape(self) -> str:
        """The modules this hop goes through, as a nested string."""
        return self.module + "(" + ",".join(h.shape() for h in self.hops) + ")"

    def walk(self) -> list[tuple[int, Hop]]:
        out: list[tuple[int, Hop]] = []
        stack = [(0, h) for h in reversed(self.hops)]
        while stack:
            depth, hop = stack.pop()
            out.append((depth, hop))
            stack.extend((depth + 1, h) for h in reversed(hop.hops))
        return out

    def on_stack_below(self) -> set[str]:
        """The modules of this hop's callers, but its direct caller."""
        seen: set[str] = set()
        node = self.parent.parent if self.parent is not None else None
        while node is not None:
            seen.add(node.module)
            node = node.parent
        return seen


def _module(frame: FrameType) -> str | None:
    name = frame.f_globals.get("__name__", "")
    return name if isinstance(name, str) and name.split(".")[0] in PROJECT else None


class Tracer:
    """The hops of every call made under ``ENTRY``, from ``sys.setprofile``'s events."""

    def __init__(self) -> None:
        self.root = Hop("(telegram)", "update")
        self.frames: list[tuple[FrameType, Hop]] = []  # project frames, innermost last

    def __call__(self, frame: FrameType, event: str, arg: Any) -> None:
        if event not in ("call", "return"):
            return
        module = _module(frame)
        if module is None:
            return
        if event == "call":
            current = self.frames[-1][1] if self.frames else self.root
            if not self.frames and (module, frame.f_code.co_name) != ENTRY:
                return
            if current is self.root or current.module != module:
                hop = Hop(module, frame.f_code.co_qualname, current)
                current.hops.append(hop)
            else:
                hop = current
            self.frames.append((frame, hop))
        elif self.frames and self.frames[-1][0] is frame:
            self.frames.pop()


def flow(root: Hop, fold: bool = True) -> Hop:
    """The hops without the look-ups: a hop whose callee returned without going on into another
    module (``game_key``, a catalog's ``t``, a dataclass's ``__init__``) is not the flow leaving."""

    def keep(hop: Hop, parent: Hop | None) -> Hop:
        kept = Hop(hop.module, hop.function, parent)
        last: Hop | None = None  # the caller's last hop that went on (a look-up between is not)
        for h in hop.hops:
            if not h.hops and (h.module, h.function) != API:
                continue
            k = keep(h, kept)
            if fold and last is not None and k.shape() == last.shape():
                last.times += 1  # the same way again (a loop over the outbox, say): one path
                last.also.update({k.function} - {last.function})
                continue
            if k.hops or (k.module, k.function) == API:
                last = k
            elif fold and kept.hops and k.shape() == kept.hops[-1].shape():
                kept.hops[-1].times += 1  # look-ups in a row, into the same module
                kept.hops[-1].also.update({k.function} - {kept.hops[-1].function})
                continue
            kept.hops.append(k)
        return kept

    return keep(root, None)


def figures(root: Hop) -> dict[str, Any]:
    hops = [hop for _, hop in root.walk()]
    returns = [h for h in hops if h.hops and h.parent is not root]
    reentries = [h for h in hops if h.module in h.on_stack_below()]
    left = Counter(h.parent.module for h in returns if h.parent is not None)
    return {
        "calls": len(hops),
        "modules": len({h.module for h in hops}),
        "returns_into_left_modules": len(returns),
        "reentries": len(reentries),
        "returns_by_module": dict(left.most_common()),
        "reentries_by_module": dict(Counter(h.module for h in reentries).most_common()),
    }


def press_once() -> Hop:
    """Play a table up to its first decision and walk one press of its first button."""
    import engine
    from devtools.botapi import RecordingRequest
    from devtools.botapi.updates import callback_update, message_update
    from devtools.fakes import FakeClock, FakeTimers
    from devtools.memory_store import MemoryStore
    from handlers import webhook
    from handlers.app import CoachRideBot
    from infra.telegram_messenger import TelegramGateway, TelegramMessenger, make_bot

    clock, timers = FakeClock(), FakeTimers()
    api = RecordingRequest(clock=clock.now)
    bot = make_bot("123456:TEST", "https://api.telegram.org/bot", api.transport)
    messenger = TelegramMessenger(TelegramGateway(bot, sleep=clock.advance))
    store = MemoryStore(clock=clock)
    service = CoachRideBot(
        store, messenger, timers, clock, bot_username=BOT, sleep=clock.advance, deal_seeds=lambda: 7
    )
    ids = iter(range(1, 10**6))
    uids = [3001, 3002, 3003, 3004]

    def deliver(update: dict[str, Any]) -> None:
        event = {"headers": {webhook.SECRET_HEADER: SECRET}, "body": json.dumps(update)}
        webhook.handle(event, lambda: service, SECRET)

    def say(uid: int, chat: int, text: str) -> None:
        kind = "private" if chat > 0 else "supergroup"
        deliver(message_update(next(ids), chat, kind, uid, f"P{uid}", text, "en"))

    say(uids[0], GROUP, "/newgame")
    chat = store.get(f"CHAT#{GROUP}")
    assert chat is not None, "no lobby opened"
    gid = str(chat.doc["game"])
    for uid in uids:
        say(uid, uid, f"/start {gid}")
    say(uids[0], GROUP, "/startgame")
    game = store.get(f"GAME#{gid}")
    assert game is not None
    st = engine.State.from_dict(game.doc["engine"])
    aw = engine.awaiting(st)
    assert aw is not None, "the game asks nobody"
    uid = int(game.doc["players"][aw.seats[0]]["uid"])
    prefix = f"{gid}:{aw.decision}:"
    for msg in reversed(api.messages_in(uid)):
        data = [d for _, d in msg.buttons() if d and d.startswith(prefix) and ":?" not in d]
        if data:
            break
    else:
        raise AssertionError(f"no prompt for decision {aw.decision} in {uid}'s chat")
    update = api.pressed(callback_update(next(ids), uid, f"P{uid}", uid, msg.message_id, data[0]))
    tracer = Tracer()
    sys.setprofile(tracer)
    try:
        deliver(update)
    finally:
        sys.setprofile(None)
    return tracer.root


def render(root: Hop, tree: bool) -> str:
    lines = []
    for depth, hop in root.walk():
        back = " ↩" if hop.hops and hop.parent is not root else ""
        again = " ⟲" if hop.module in hop.on_stack_below() else ""
        indent = "  " * depth if tree else ""
        times = f" ×{hop.times}" if hop.times > 1 else ""
        if hop.also:
            times += " (also " + ", ".join(sorted(hop.also)) + ")"
        lines.append(f"{indent}{hop.module}.{hop.function}{times}{back}{again}")
    f = figures(root)
    lines.append("")
    lines.append(
        f"{f['calls']} calls through {f['modules']} modules; "
        f"{f['returns_into_left_modules']} returns into a module the flow had already left (↩); "
        f"{f['reentries']} re-entries into a module still on the stack (⟲)"
    )
    lines.append(f"returns by module: {f['returns_by_module']}")
    lines.append(f"re-entries by module: {f['reentries_by_module']}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m devtools.presswalk", description=__doc__)
    parser.add_argument("--tree", action="store_true", help="indent the hops by depth")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument(
        "--all", action="store_true", help="every hop, the look-ups into leaf modules too"
    )
    args = parser.parse_args(argv)
    traced = press_once()
    root = traced if args.all else flow(traced)
    unfolded = figures(flow(traced, fold=False))
    if args.json:
        print(json.dumps({"folded": figures(root), "unfolded": unfolded}, indent=2))
    else:
        print(render(root, args.tree))
        print(
            f"unfolded (each repeat counted): {unfolded['calls']} calls through "
            f"{unfolded['modules']} modules; {unfolded['returns_into_left_modules']} returns into "
            f"a module already left; {unfolded['reentries']} re-entries"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
