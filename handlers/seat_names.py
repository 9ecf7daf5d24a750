"""A player's name at the table, from the name Telegram gives: one every other player can read
and tell apart from the others at that table.

A Telegram name is whatever its owner typed. At the table it would be shown as given in the
lobby, the seat order, the status, the story and on the buttons that choose a player (an attack,
a trade, a support), so:

- two players called alike (``Ann`` and ``Ann``, or ``ann `` and ``ＡＮＮ``) read alike on the
  buttons that choose between them: the later one is numbered (``Ann (2)``);
- bidirectional formatting characters (an override U+202E, an embedding, an isolate) would
  reverse or reorder the rest of every line the name is shown in (a status line, a story line):
  they are dropped, as are control characters (a line break would start a line of its own);
- a name written right to left (Hebrew, Arabic) would take the text around it along: in
  "نور's turn · pile: 17" the bidirectional algorithm moves "'s turn" and the count to the
  name's side. Such a name is isolated (U+2068 FIRST STRONG ISOLATE … U+2069 POP DIRECTIONAL
  ISOLATE, the bot's own balanced pair), so it reads right to left inside a line that keeps
  its direction;
- a name that shows nothing (blank, or only invisible fillers) is a numbered stand-in;
- a name that starts like an AI passenger's (``🤖 Ada``) would pass a person off as an AI: the
  marker is dropped from a person's name.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

from handlers.i18n import LANGUAGES, t

# Explicit bidirectional formatting: embeddings, overrides, their end, isolates and theirs.
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
# Characters that show nothing though Unicode counts them as letters or symbols.
BLANKS = frozenset("\u115f\u1160\u3164\uffa0\u2800\u17b4\u17b5")
STAND_IN = "👤{n}"
FSI, PDI = "\u2068", "\u2069"
RIGHT_TO_LEFT = frozenset(("R", "AL", "AN"))
# Cyrillic and Greek letters (lowercase, as casefolded) whose form, or their capital's, reads as
# a Latin letter: "Аnn" with a Cyrillic А reads as "Ann" on a button.
LOOKALIKES = str.maketrans(
    "авеікмнорстухѕјԁԛԝһӏүαβεζηικμνορτυχϲı",
    "abeikmhopctyxsjdqwhlyabezhikmnoptyxci",
)


def _shows_something(ch: str) -> bool:
    return not (ch.isspace() or ch in BLANKS or unicodedata.category(ch) in ("Cf", "Mn", "Me"))


def _ai_markers() -> tuple[str, ...]:
    return tuple({t(lang, "ai.marker", name="").strip() for lang in LANGUAGES} - {""})


def cleaned(name: str) -> str:
    """``name`` without what would change the lines around it, or pass a person off as an AI
    passenger; "" when nothing visible is left."""
    kept = "".join(
        " " if ch.isspace() else ch
        for ch in name
        if ch not in BIDI_CONTROLS and (ch.isspace() or unicodedata.category(ch) != "Cc")
    )
    kept = " ".join(kept.split())
    markers = _ai_markers()
    while kept.startswith(markers):
        marker = next(m for m in markers if kept.startswith(m))
        kept = kept[len(marker) :].strip()
    return kept if any(_shows_something(ch) for ch in kept) else ""


def _key(name: str) -> str:
    """What two names that read alike have in common: compatibility forms, case, invisible
    characters (a zero-width space makes "A\u200bnn" read as "Ann") and letters of another
    script that look Latin (``LOOKALIKES``) set aside."""
    folded = unicodedata.normalize("NFKC", name).casefold().translate(LOOKALIKES)
    seen = "".join(ch for ch in folded if unicodedata.category(ch) != "Cf" and ch not in BLANKS)
    return " ".join(seen.split())


def isolated(name: str) -> str:
    """``name``, isolated from the line around it when it has right-to-left letters."""
    if any(unicodedata.bidirectional(ch) in RIGHT_TO_LEFT for ch in name):
        return f"{FSI}{name}{PDI}"
    return name


def seat_name(name: str, taken: Iterable[str]) -> str:
    """The name a player joining a table whose players are called ``taken`` is shown by."""
    return isolated(_unique(name, taken))


def _unique(name: str, taken: Iterable[str]) -> str:
    used = {_key(other) for other in taken}
    base = cleaned(name)
    if not base:
        n = 1
        while _key(STAND_IN.format(n=n)) in used:
            n += 1
        return STAND_IN.format(n=n)
    if _key(base) not in used:
        return base
    n = 2
    while _key(f"{base} ({n})") in used:
        n += 1
    return f"{base} ({n})"
