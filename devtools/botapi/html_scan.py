"""Telegram's scanner of ``parse_mode=HTML``: it walks the markup byte by byte, decodes
references, reads tags and their attributes, and refuses what Telegram refuses, in Telegram's
words (:class:`HtmlError`). What it reads (the text, the closed tags and where they span, the
lints) becomes a message in ``devtools.botapi.html``."""

from __future__ import annotations

import html
import re
from dataclasses import dataclass

from devtools.botapi.html_page import page_close, page_open

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


@dataclass(slots=True)
class OpenTag:
    tag: str
    kind: str
    attrs: dict[str, str]
    start: int  # index into the plain text
    byte: int  # byte offset of "<" in the markup


class Scanner:
    def __init__(self, markup: str) -> None:
        self.s = markup
        self.i = 0
        self.text: list[str] = []
        self.length = 0  # characters in self.text
        self.out: list[str] = []
        self.open: list[OpenTag] = []
        self.spans: list[tuple[OpenTag, int]] = []  # closed tags and where they ended
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
        self.out.append(page_open(kind, attrs, parent.tag if parent is not None else None))
        self.open.append(OpenTag(name, kind, attrs, self.length, self.byte(begin)))

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
        parent = self.open[-1].tag if self.open else None
        self.out.append(page_close(top.kind, parent))
        self.spans.append((top, self.length))
