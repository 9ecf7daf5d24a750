"""Telegram's HTML subset (``parse_mode=HTML``), read as Telegram reads it.

``render`` returns the plain text Telegram would store and a safe HTML fragment for the page,
or raises :class:`HtmlError` with Telegram's own wording ("can't parse entities: …") for
markup Telegram rejects: unknown tags, unclosed or mismatched tags, unknown entities.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from html.parser import HTMLParser
from urllib.parse import urlsplit

# Telegram's tags and what the page shows for each.
_SIMPLE = {
    "b": "b",
    "strong": "b",
    "i": "i",
    "em": "i",
    "u": "u",
    "ins": "u",
    "s": "s",
    "strike": "s",
    "del": "s",
    "code": "code",
    "pre": "pre",
}
_KNOWN_ENTITIES = {"lt", "gt", "amp", "quot"}
# <tg-time unix="…" format="…">: "r" (relative) or any of w, d|D, t|T in that order.
_TIME_FORMAT = re.compile(r"r|w?[dD]?[tT]?")


class HtmlError(ValueError):
    """Telegram's "Bad Request: can't parse entities: …"."""


@dataclass(frozen=True, slots=True)
class Rendered:
    text: str  # what Telegram stores as the message's text (tags gone, entities decoded)
    html: str  # a safe fragment for the page


def _safe_href(href: str) -> str | None:
    parts = urlsplit(href)
    if parts.scheme in ("http", "https", "tg") and (parts.netloc or parts.scheme == "tg"):
        return href
    return None


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=False)
        self.text: list[str] = []
        self.out: list[str] = []
        self.open: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag in _SIMPLE:
            page = _SIMPLE[tag]
            if tag == "code" and self.open and self.open[-1] == "pre":
                language = (values.get("class") or "").removeprefix("language-")
                self.out.append(f'<code data-language="{html.escape(language)}">')
            else:
                self.out.append(f"<{page}>")
        elif tag == "tg-spoiler" or (tag == "span" and values.get("class") == "tg-spoiler"):
            self.out.append('<span class="spoiler">')
        elif tag == "a":
            href = _safe_href(values.get("href") or "")
            if href is None:
                self.out.append("<a>")
            else:
                self.out.append(f'<a href="{html.escape(href)}" target="_blank" rel="noopener">')
        elif tag == "blockquote":
            expandable = "expandable" in values
            self.out.append('<blockquote class="expandable">' if expandable else "<blockquote>")
        elif tag == "tg-emoji":
            self.out.append("<span>")
        elif tag == "tg-time":
            unix, fmt = values.get("unix") or "", values.get("format") or ""
            if not unix.isdigit() or not _TIME_FORMAT.fullmatch(fmt):
                raise HtmlError("can't parse entities: Invalid date-time entity")
            # The page shows it in the viewer's own time zone and format, as Telegram's apps do.
            self.out.append(f'<time class="tg-time" data-unix="{unix}" data-format="{fmt}">')
        else:
            raise HtmlError(f'can\'t parse entities: Unsupported start tag "{tag}"')
        self.open.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        raise HtmlError(f'can\'t parse entities: Unsupported start tag "{tag}"')

    def handle_endtag(self, tag: str) -> None:
        if not self.open or self.open[-1] != tag:
            raise HtmlError(
                f"can't parse entities: Can't find end tag corresponding to start tag \"{tag}\""
            )
        opened = self.open.pop()
        if opened in _SIMPLE:
            inner = opened == "code" and self.open and self.open[-1] == "pre"
            self.out.append("</code>" if inner else f"</{_SIMPLE[opened]}>")
        elif opened == "a":
            self.out.append("</a>")
        elif opened == "blockquote":
            self.out.append("</blockquote>")
        elif opened == "tg-time":
            self.out.append("</time>")
        else:
            self.out.append("</span>")

    def handle_data(self, data: str) -> None:
        self.text.append(data)
        self.out.append(html.escape(data, quote=False))

    def handle_entityref(self, name: str) -> None:
        if name not in _KNOWN_ENTITIES:
            raise HtmlError(f'can\'t parse entities: Unknown entity "&{name};"')
        self.handle_data(html.unescape(f"&{name};"))

    def handle_charref(self, name: str) -> None:
        self.handle_data(html.unescape(f"&#{name};"))

    def handle_comment(self, data: str) -> None:
        raise HtmlError("can't parse entities: Unsupported comment")


def render(markup: str) -> Rendered:
    reader = _Reader()
    reader.feed(markup)
    reader.close()
    if reader.open:
        tag = reader.open[-1]
        raise HtmlError(
            f"can't parse entities: Can't find end tag corresponding to start tag \"{tag}\""
        )
    rest = reader.rawdata  # HTMLParser keeps a lone "<" or "&" it could not finish
    if rest:
        raise HtmlError("can't parse entities: Unexpected end of input")
    return Rendered("".join(reader.text), "".join(reader.out))


def plain(text: str) -> Rendered:
    """A message without parse_mode: shown exactly as typed."""
    return Rendered(text, html.escape(text, quote=False))


def utf16_length(text: str) -> int:
    """Telegram counts message length in UTF-16 code units."""
    return len(text.encode("utf-16-le")) // 2
