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
the Bot API counts), and a safe HTML fragment for the local table's page.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

TAGS = frozenset(
    {"a", "b", "strong", "i", "em", "u", "ins", "s", "strike", "del", "span", "tg-spoiler"}
    | {"code", "pre", "blockquote", "tg-emoji", "tg-time"}
)
_ENTITY_TYPE = {
    "b": "bold",
    "strong": "bold",
    "i": "italic",
    "em": "italic",
    "u": "underline",
    "ins": "underline",
    "s": "strikethrough",
    "strike": "strikethrough",
    "del": "strikethrough",
    "span": "spoiler",
    "tg-spoiler": "spoiler",
    "code": "code",
    "pre": "pre",
    "blockquote": "blockquote",
    "a": "text_link",
    "tg-emoji": "custom_emoji",
    "tg-time": "date_time",
}
# What the page shows for each tag (a safe subset of the browser's HTML).
_PAGE = {"bold": "b", "italic": "i", "underline": "u", "strikethrough": "s", "code": "code"}
_NAMED = {"lt": "<", "gt": ">", "amp": "&", "quot": '"'}
_NUMERIC = re.compile(r"#(?:[xX]([0-9a-fA-F]{1,8})|([0-9]{1,10}));")
_NAME = re.compile(r"([a-zA-Z][a-zA-Z0-9]{0,31});")
# <tg-time unix="…" format="…">: "r" (relative) or any of w, d|D, t|T in that order.
TIME_FORMAT = re.compile(r"r|w?[dD]?[tT]?")
# Entities that may hold others / be held (Telegram drops the rest silently).
_PLAIN_STYLE = frozenset({"bold", "italic", "underline", "strikethrough", "spoiler"})
_HOLDS_NOTHING = frozenset({"code", "pre"})


class HtmlError(ValueError):
    """Markup Telegram refuses; ``str()`` is Telegram's ``can't parse entities: …``."""

    def __init__(self, reason: str, detail: str) -> None:
        super().__init__(f"can't parse entities: {reason}")
        self.reason = reason  # Telegram's words after "can't parse entities: "
        self.detail = detail  # what is wrong, in the project's words


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


def safe_href(href: str) -> str | None:
    parts = urlsplit(href)
    if parts.scheme in ("http", "https", "tg") and (parts.netloc or parts.scheme == "tg"):
        return href
    return None


@dataclass(slots=True)
class _Open:
    tag: str
    kind: str
    attrs: dict[str, str]
    start: int  # index into the plain text
    byte: int  # byte offset of "<" in the markup


class _Scanner:
    def __init__(self, markup: str) -> None:
        self.s = markup
        self.i = 0
        self.text: list[str] = []
        self.length = 0  # characters in self.text
        self.out: list[str] = []
        self.open: list[_Open] = []
        self.spans: list[tuple[_Open, int]] = []  # closed tags and where they ended
        self.lints: list[str] = []

    def byte(self, index: int) -> int:
        return len(self.s[:index].encode("utf-8", "surrogatepass"))

    def emit(self, chars: str) -> None:
        self.text.append(chars)
        self.length += len(chars)
        self.out.append(html.escape(chars, quote=False))

    def refuse(self, reason: str, detail: str) -> HtmlError:
        return HtmlError(reason, detail)

    # -- references ---------------------------------------------------------------------------
    def reference(self, s: str, i: int) -> tuple[str | None, int]:
        """The character ``&…;`` at ``i`` stands for, and where it ends; None: a literal "&"."""
        numeric = _NUMERIC.match(s, i + 1)
        if numeric:
            code = int(numeric.group(1), 16) if numeric.group(1) else int(numeric.group(2))
            if 0 < code <= 0x10FFFF and not 0xD800 <= code <= 0xDFFF:
                return chr(code), numeric.end()
            return None, i + 1
        named = _NAME.match(s, i + 1)
        if named and named.group(1) in _NAMED:
            return _NAMED[named.group(1)], named.end()
        if named:
            self.lints.append(f"unsupported entity &{named.group(1)}; (Telegram shows it as is)")
        else:
            self.lints.append("unescaped '&' (write &amp;)")
        return None, i + 1

    # -- the scan -----------------------------------------------------------------------------
    def run(self) -> None:
        s, n = self.s, len(self.s)
        while self.i < n:
            c = s[self.i]
            if c == "&":
                char, end = self.reference(s, self.i)
                self.emit(char if char is not None else "&")
                self.i = end
            elif c == "<":
                if self.i + 1 < n and s[self.i + 1] == "/":
                    self.end_tag()
                else:
                    self.start_tag()
            else:
                j = self.i
                while j < n and s[j] not in "&<":
                    j += 1
                self.emit(s[self.i : j])
                self.i = j
        if self.open:
            tag = self.open[-1].tag
            raise self.refuse(
                f'Can\'t find end tag corresponding to start tag "{tag}"', f"unclosed <{tag}>"
            )

    def start_tag(self) -> None:
        s, n, begin = self.s, len(self.s), self.i
        j = begin + 1
        while j < n and not s[j].isspace() and s[j] != ">":
            j += 1
        if j >= n:
            raise self.refuse(
                f"Unclosed start tag at byte offset {self.byte(begin)}", "unescaped '<'"
            )
        name = s[begin + 1 : j].lower()
        if name not in TAGS:
            if name == "":
                detail = "unescaped '<' (write &lt;)"
            elif name.endswith("/"):
                detail = f"self-closing tag <{name}>"
            else:
                detail = f"unsupported tag <{name}>"
            raise self.refuse(
                f'Unsupported start tag "{name}" at byte offset {self.byte(begin)}', detail
            )
        attrs: dict[str, str] = {}
        while True:
            while j < n and s[j].isspace():
                j += 1
            if j >= n:
                raise self.refuse(
                    f'Unclosed start tag "{name}" at byte offset {self.byte(begin)}',
                    f"unclosed <{name}",
                )
            if s[j] == ">":
                j += 1
                break
            a = j
            while j < n and not s[j].isspace() and s[j] not in "=>/\"'":
                j += 1
            attr = s[a:j].lower()
            if not attr:
                raise self.refuse(
                    f'Empty attribute name in the tag "{name}" at byte offset {self.byte(begin)}',
                    f"a stray {s[j]!r} in <{name}>",
                )
            while j < n and s[j].isspace():
                j += 1
            if j >= n:
                raise self.refuse(
                    f'Unclosed start tag "{name}" at byte offset {self.byte(begin)}',
                    f"unclosed <{name}",
                )
            if s[j] != "=":
                attrs[attr] = ""
                continue
            j += 1
            while j < n and s[j].isspace():
                j += 1
            if j >= n:
                raise self.refuse(
                    f'Unclosed start tag "{name}" at byte offset {self.byte(begin)}',
                    f"unclosed <{name}",
                )
            if s[j] in "\"'":
                quote, j = s[j], j + 1
                value: list[str] = []
                while j < n and s[j] != quote:
                    if s[j] == "&":
                        char, end = self.reference(s, j)
                        value.append(char if char is not None else "&")
                        j = end
                    else:
                        value.append(s[j])
                        j += 1
                if j >= n:
                    raise self.refuse(
                        f"Unclosed start tag at byte offset {self.byte(begin)}",
                        f"unclosed quote in <{name}>",
                    )
                j += 1
                attrs[attr] = "".join(value)
            else:
                a = j
                while j < n and (s[j].isascii() and (s[j].isalnum() or s[j] in ".-")):
                    j += 1
                if j >= n or not (s[j].isspace() or s[j] == ">"):
                    raise self.refuse(
                        f"Unexpected end of name token at byte offset {self.byte(a)}",
                        f"unquoted attribute value in <{name}>",
                    )
                attrs[attr] = s[a:j].lower()
        self.i = j
        self.open_tag(name, attrs, begin)

    def open_tag(self, name: str, attrs: dict[str, str], begin: int) -> None:
        if name == "span" and attrs.get("class") != "tg-spoiler":
            raise self.refuse(
                f'Tag "span" must have class "tg-spoiler" at byte offset {self.byte(begin)}',
                '<span> needs class="tg-spoiler"',
            )
        if name == "tg-time" and not (
            attrs.get("unix", "").isdigit() and TIME_FORMAT.fullmatch(attrs.get("format", ""))
        ):
            raise self.refuse(
                "Invalid date-time entity", "<tg-time> needs a unix time and a date-time format"
            )
        kind = _ENTITY_TYPE[name]
        if name == "a" and not attrs.get("href"):
            self.lints.append("<a> needs href")
        parent = self.open[-1] if self.open else None
        inside = parent is not None and parent.kind in _HOLDS_NOTHING
        if parent is not None and inside and (name, parent.tag) != ("code", "pre"):
            self.lints.append(f"<{name}> inside <{parent.tag}>")
        if kind in ("text_link", "blockquote") and any(o.kind == kind for o in self.open):
            self.lints.append(f"nested <{name}>")
        self.out.append(self.page_open(name, kind, attrs, parent))
        self.open.append(_Open(name, kind, attrs, self.length, self.byte(begin)))

    def page_open(self, name: str, kind: str, attrs: dict[str, str], parent: _Open | None) -> str:
        if kind == "code" and parent is not None and parent.tag == "pre":
            language = attrs.get("class", "").removeprefix("language-")
            return f'<code data-language="{html.escape(language)}">'
        if kind in _PAGE:
            return f"<{_PAGE[kind]}>"
        if kind == "pre":
            return "<pre>"
        if kind == "spoiler":
            return '<span class="spoiler">'
        if kind == "text_link":
            href = safe_href(attrs.get("href", ""))
            if href is None:
                return "<a>"
            return f'<a href="{html.escape(href)}" target="_blank" rel="noopener">'
        if kind == "blockquote":
            return '<blockquote class="expandable">' if "expandable" in attrs else "<blockquote>"
        if kind == "date_time":
            # The page shows it in the viewer's own time zone and format, as Telegram's apps do.
            unix, fmt = attrs["unix"], attrs["format"]
            return f'<time class="tg-time" data-unix="{unix}" data-format="{fmt}">'
        return "<span>"  # custom emoji: the page shows the fallback emoji

    def end_tag(self) -> None:
        s, n, begin = self.s, len(self.s), self.i
        if not self.open:
            raise self.refuse(
                f"Unexpected end tag at byte offset {self.byte(begin)}",
                f"{s[begin : s.find('>', begin) + 1 or n]} without an open tag",
            )
        j = begin + 2
        while j < n and not s[j].isspace() and s[j] != ">":
            j += 1
        name = s[begin + 2 : j].lower()
        while j < n and s[j].isspace():
            j += 1
        if j >= n or s[j] != ">":
            raise self.refuse(
                f"Unclosed end tag at byte offset {self.byte(begin)}", f"unclosed </{name}"
            )
        top = self.open[-1]
        if name and name != top.tag:
            raise self.refuse(
                f"Unmatched end tag at byte offset {self.byte(begin)}, expected "
                f'"</{top.tag}>", found "</{name}>"',
                f"</{name}> closes <{top.tag}>",
            )
        if top.kind == "custom_emoji" and not (
            top.attrs.get("emoji-id", "").isdigit() and int(top.attrs["emoji-id"]) > 0
        ):
            raise self.refuse(
                "Invalid custom emoji identifier specified", "<tg-emoji> needs emoji-id"
            )
        self.open.pop()
        self.i = j + 1
        parent = self.open[-1] if self.open else None
        if top.kind == "code" and parent is not None and parent.tag == "pre":
            self.out.append("</code>")
        elif top.kind in _PAGE:
            self.out.append(f"</{_PAGE[top.kind]}>")
        else:
            self.out.append(
                {"pre": "</pre>", "text_link": "</a>", "blockquote": "</blockquote>"}.get(
                    top.kind, "</time>" if top.kind == "date_time" else "</span>"
                )
            )
        self.spans.append((top, self.length))

    # -- entities -----------------------------------------------------------------------------
    def entities(self, plain: str, strip: int) -> list[Entity]:
        """Telegram's entities over ``plain`` (the text after ``strip`` leading characters)."""
        full = "".join(self.text)
        found: list[Entity] = []
        self.languages: dict[tuple[int, int], str] = {}
        for opened, end in self.spans:
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
                self.languages[(offset, length)] = opened.attrs["class"][9:]
            found.append(Entity(kind, offset, length, extra))
        merged: list[Entity] = []
        for entity in found:  # <pre><code class="language-x">: one pre entity with a language
            pre = merged[-1] if merged else None
            if (
                pre is not None
                and {pre.type, entity.type} == {"pre", "code"}
                and (pre.offset, pre.length) == (entity.offset, entity.length)
            ):
                language = self.languages.get((entity.offset, entity.length))
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
    scanner = _Scanner(markup)
    scanner.run()
    full = "".join(scanner.text)
    stripped = full.strip()
    lead = len(full) - len(full.lstrip())
    return Parsed(stripped, scanner.entities(stripped, lead), "".join(scanner.out), scanner.lints)


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
