"""Telegram's HTML subset (``parse_mode=HTML``), read the way Telegram reads it.

One scanner, modelled on the one Telegram's servers use: it walks the text byte by byte, knows
the tags ``b strong i em u ins s strike del span.tg-spoiler tg-spoiler a code pre blockquote
[expandable] tg-emoji tg-time``, decodes ``&lt; &gt; &amp; &quot;`` and numeric references, and
refuses what Telegram refuses with Telegram's own words (``Unsupported start tag "div" at byte
offset 0``, ``Can't find end tag corresponding to start tag "b"``, …; the Bot API answers them
as ``Bad Request: can't parse entities: …``).

Some markup Telegram accepts but does not show as written: an unknown entity such as ``&nbsp;``
stays literal text, a lone ``&`` too, ``<a>`` without ``href`` is no link, a bold inside ``code``
is dropped. Those are *lints* (:attr:`Parsed.lints`): the emulator refuses them only when it is
strict (the tests), because the bot meant something Telegram would not show.

:func:`parse` returns the text Telegram stores, its entities (offsets in UTF-16 code units, as
the Bot API counts), and a safe HTML fragment for the local table's page. The scanner is
``html_scan``; what the page shows for each entity, ``html_page``; the entities are made here.
"""

from __future__ import annotations

import html
from dataclasses import dataclass, field
from typing import Any

from devtools.botapi.html_page import safe_href
from devtools.botapi.html_scan import HtmlError, Scanner

__all__ = ["Entity", "HtmlError", "Parsed", "parse", "parse_telegram_html", "plain", "utf16_len"]


@dataclass(frozen=True, slots=True)
class Entity:
    type: str
    offset: int  # UTF-16 code units
    length: int
    extra: tuple[tuple[str, Any], ...] = ()

    def json(self) -> dict[str, Any]:
        return {"type": self.type, "offset": self.offset, "length": self.length, **dict(self.extra)}


@dataclass(slots=True)
class Parsed:
    text: str  # what Telegram stores as the message's text (tags gone, references decoded)
    entities: list[Entity]
    html: str  # a safe fragment for the local table's page
    lints: list[str] = field(default_factory=list)  # accepted, but not shown as written


def utf16_len(text: str) -> int:
    """Telegram measures text in UTF-16 code units."""
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def entities(scanner: Scanner, plain: str, strip: int) -> list[Entity]:
    """Telegram's entities over ``plain`` (the text after ``strip`` leading characters)."""
    full = "".join(scanner.text)
    found: list[Entity] = []
    languages: dict[tuple[int, int], str] = {}
    for opened, end in scanner.spans:
        start, stop = max(opened.start - strip, 0), min(end - strip, len(plain))
        if stop <= start:
            continue
        offset = utf16_len(full[strip : strip + start])
        length = utf16_len(plain[start:stop])
        extra: tuple[tuple[str, Any], ...] = ()
        kind = opened.kind
        if kind == "text_link":
            href = safe_href(opened.attrs.get("href", ""))
            if href is None:
                continue
            extra = (("url", href),)
        elif kind == "custom_emoji":
            extra = (("custom_emoji_id", opened.attrs["emoji-id"]),)
        elif kind == "date_time":
            extra = (
                ("unix_time", int(opened.attrs["unix"])),
                ("date_time_format", opened.attrs["format"]),
            )
        elif kind == "blockquote" and "expandable" in opened.attrs:
            kind = "expandable_blockquote"
        elif kind == "code" and opened.attrs.get("class", "").startswith("language-"):
            languages[(offset, length)] = opened.attrs["class"][9:]
        found.append(Entity(kind, offset, length, extra))
    merged: list[Entity] = []
    for entity in found:  # <pre><code class="language-x">: one pre entity with a language
        pre = merged[-1] if merged else None
        if (
            pre is not None
            and {pre.type, entity.type} == {"pre", "code"}
            and (pre.offset, pre.length) == (entity.offset, entity.length)
        ):
            language = languages.get((entity.offset, entity.length))
            merged[-1] = Entity("pre", pre.offset, pre.length, _language(language))
            continue
        merged.append(entity)
    merged.sort(key=lambda e: (e.offset, -e.length))
    return merged


def _language(language: str | None) -> tuple[tuple[str, Any], ...]:
    return (("language", language),) if language else ()


def parse(markup: str) -> Parsed:
    """Read ``markup`` as Telegram reads ``parse_mode=HTML``; raises :class:`HtmlError` where
    Telegram refuses. Leading and trailing whitespace is dropped, as Telegram drops it."""
    scanner = Scanner(markup)
    scanner.run()
    full = "".join(scanner.text)
    stripped = full.strip()
    lead = len(full) - len(full.lstrip())
    return Parsed(stripped, entities(scanner, stripped, lead), "".join(scanner.out), scanner.lints)


def plain(text: str) -> Parsed:
    """A message without ``parse_mode``: shown exactly as typed (whitespace at the ends gone)."""
    stripped = text.strip()
    return Parsed(stripped, [], html.escape(stripped, quote=False))


def parse_telegram_html(text: str) -> tuple[str, list[str]]:
    """The plain text Telegram would show for ``text`` and what is wrong with its markup (what
    Telegram refuses, or shows other than written); no problems: it shows as meant."""
    try:
        parsed = parse(text)
    except HtmlError as error:
        return "", [error.detail]
    return parsed.text, parsed.lints
