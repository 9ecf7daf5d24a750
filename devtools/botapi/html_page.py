"""What the local table's page shows for Telegram's formatting: a safe subset of the browser's
HTML for each entity, and the links it may follow."""

from __future__ import annotations

import html
from urllib.parse import urlsplit

# What the page shows for each tag (a safe subset of the browser's HTML).
_PAGE = {"bold": "b", "italic": "i", "underline": "u", "strikethrough": "s", "code": "code"}


def safe_href(href: str) -> str | None:
    parts = urlsplit(href)
    if parts.scheme in ("http", "https", "tg") and (parts.netloc or parts.scheme == "tg"):
        return href
    return None


def page_open(kind: str, attrs: dict[str, str], parent: str | None) -> str:
    """The page's opening tag for an entity of ``kind`` (``parent``: the enclosing tag)."""
    if kind == "code" and parent == "pre":
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


def page_close(kind: str, parent: str | None) -> str:
    """The page's closing tag for an entity of ``kind`` (``parent``: the enclosing tag)."""
    if kind == "code" and parent == "pre":
        return "</code>"
    if kind in _PAGE:
        return f"</{_PAGE[kind]}>"
    closing = {"pre": "</pre>", "text_link": "</a>", "blockquote": "</blockquote>"}
    return closing.get(kind, "</time>" if kind == "date_time" else "</span>")
