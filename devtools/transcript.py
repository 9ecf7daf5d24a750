"""`python -m devtools.transcript`: one whole game as its players read it, to read it yourself.

A game of the pace command's brisk players (``devtools.pace``: the real service, the Telegram
emulator, a fake clock) is played in the language chosen, and then every chat is printed as it
shows at the end: the group first, then each player's private chat, every message as its
reader sees it (text after Telegram's parsing, every edit applied), with the minute it was first
sent, how often it was edited, and the buttons it still has. Reading one after a change is how
issue 25 asks the table to be checked ("read one whole recorded game, group and every private
chat").

    python -m devtools.transcript --players 5 --seed 3 --lang zh-Hans
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass, field

from devtools.botapi.chats import Message
from devtools.fakes import FakeClock
from devtools.pace_figures import GROUP, CountingMessenger
from devtools.pace_table import PaceTable, Shared
from handlers.i18n import LANGUAGES
from infra.ports import Rows, Sent


@dataclass
class SendTimes(CountingMessenger):
    """The pace command's messenger, noting when each message was first sent."""

    sent_at: dict[tuple[int, int], float] = field(default_factory=dict)

    def send(
        self, chat_id: int, text: str, rows: Rows | None = None, reply_to: int | None = None
    ) -> Sent:
        sent = super().send(chat_id, text, rows, reply_to)
        if sent.ok and sent.message_id is not None and self.clock is not None:
            self.sent_at[(chat_id, sent.message_id)] = self.clock()
        return sent


@dataclass
class Transcript:
    table: PaceTable
    messenger: SendTimes
    started: float

    def chats(self) -> list[tuple[str, int]]:
        """(heading, chat id): the group, then each player's private chat in seat order."""
        st = self.table.state()
        heads = [("GROUP", self.table.group)]
        for seat, uid in enumerate(self.table.uids):
            heads.append((f"PRIVATE CHAT of seat {seat + 1}, {st.players[seat].name}", uid))
        return heads

    def render(self) -> str:
        out: list[str] = []
        for heading, chat in self.chats():
            messages = self.messenger.api.messages_in(chat)
            out += ["", f"==== {heading} ({len(messages)} messages) ===="]
            out += [self._message(m) for m in messages]
        return "\n".join(out).lstrip("\n") + "\n"

    def _message(self, m: Message) -> str:
        at = self.messenger.sent_at.get((m.chat_id, m.message_id), self.started)
        minutes, seconds = divmod(max(0, round(at - self.started)), 60)
        edited = f" · edited {m.edits}×" if m.edits else ""
        lines = [f"-- {minutes:02d}:{seconds:02d}{edited}", m.text]
        for row in m.button_rows():
            lines.append("   " + "  ".join(f"[{label}]" for label, _ in row))
        return "\n".join(lines)


def play(players: int, seed: int, lang: str, ahead: float = 1.0) -> Transcript:
    """Play one pace game with every player's Telegram in ``lang``."""
    clock = FakeClock()
    messenger = SendTimes(clock=clock.now)
    table = PaceTable(players, seed, ahead, shared=Shared.alone(clock, messenger), lang=lang)
    started = clock.now()
    table.play()
    return Transcript(table, messenger, started)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=(__doc__ or "").split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--players", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--lang", choices=LANGUAGES, default="en")
    parser.add_argument(
        "--ahead", type=float, default=1.0, help="share of players who choose their turn ahead"
    )
    args = parser.parse_args(argv)
    print(play(args.players, args.seed, args.lang, args.ahead).render(), end="")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())


__all__ = ["GROUP", "Transcript", "main", "play"]
