"""`python -m devtools.localtable.transcript [GAME_DB_PATH]`: a game played at the local table,
as its players read it.

``devtools.transcript`` plays a pace game of its own; this prints the chats a local table kept
(``make run`` without a token, in the SQLite file ``GAME_DB_PATH``): the group first, then each
seat's private chat, every message as it shows now (text after Telegram's parsing, every edit
applied) with the time it was sent (minutes and seconds since the group's first message), how
often it was edited and when last, and the buttons it still has. The file is opened read-only, so
it can be read while the table runs.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import unicodedata
from pathlib import Path

from devtools.botapi.chats import Message
from devtools.botapi.html import parse
from devtools.localtable.chats import BOT_ID, GROUP_ID
from infra.settings import Settings


def render(db_path: str | Path) -> str:
    """The group and every seat's private chat kept in ``db_path``, as text."""
    db = sqlite3.connect(f"file:{Path(db_path).resolve()}?mode=ro", uri=True)
    try:
        rows = db.execute("SELECT chat_id, message_id, body FROM table_messages ORDER BY 1, 2")
        messages = [Message.from_body(c, i, json.loads(body)) for c, i, body in rows]
        seats = db.execute("SELECT id, name FROM table_users ORDER BY joined, id").fetchall()
    finally:
        db.close()
    chats: dict[int, list[Message]] = {}
    for message in messages:
        chats.setdefault(message.chat_id, []).append(message)
    group = chats.get(GROUP_ID, [])
    started = min((m.date for m in group), default=0)
    out = [f"==== GROUP ({len(group)} messages) ===="]
    out += [_message(m, started, dict(seats)) for m in group]
    for uid, name in seats:
        private = chats.get(uid, [])
        out += ["", shown(f"==== PRIVATE CHAT of {name} ({len(private)} messages) ====")]
        out += [_message(m, started, dict(seats)) for m in private]
    return "\n".join(out) + "\n"


def shown(text: str) -> str:
    """``text`` safe for a terminal: a control character a player typed (an escape sequence in
    a name or a message would move the cursor, clear the screen, retitle the window) is printed
    as its code, and only line breaks are kept."""
    return "".join(
        ch if ch == "\n" or unicodedata.category(ch) != "Cc" else f"\\x{ord(ch):02x}" for ch in text
    )


def _message(m: Message, started: int, names: dict[int, str]) -> str:
    sender = "" if m.sender == BOT_ID else f" · {names.get(m.sender, '?')} says"
    # the text shown is the last edit's: when that was, so a line like "see the new message
    # below" is read at the moment it was shown, not at the send (issue 25)
    edited = f" · edited {m.edits}×" if m.edits else ""
    if m.edits and m.edit_date is not None:
        edited += f", last at {_clock(m.edit_date, started)}"
    # a deep link's /start shows as /start: its payload is the bot's, not the reader's
    text = parse(m.shown).text if m.shown is not None else m.text
    lines = [f"-- {_clock(m.date, started)}{sender}{edited}", text]
    for row in m.button_rows():
        lines.append("   " + "  ".join(f"[{label}]" for label, _ in row))
    return shown("\n".join(lines))


def _clock(date: int, started: int) -> str:
    """Minutes and seconds since the group's first message."""
    minutes, seconds = divmod(max(0, date - started), 60)
    return f"{minutes:02d}:{seconds:02d}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=(__doc__ or "").split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "db",
        nargs="?",
        default=Settings().db_path,
        help="the table's SQLite file (default: $GAME_DB_PATH, else %(default)s)",
    )
    args = parser.parse_args(argv)
    if not Path(args.db).is_file():
        parser.error(f"no such file: {args.db} (start the table with `make run` first)")
    print(render(args.db), end="")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
