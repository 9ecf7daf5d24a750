"""Telegram's HTML subset, for the local table's page: the emulator's one parser
(``devtools.botapi.html``), under the names the table has always used."""

from __future__ import annotations

from devtools.botapi.html import HtmlError, Parsed, parse, plain, utf16_len

Rendered = Parsed
render = parse
utf16_length = utf16_len

__all__ = ["HtmlError", "Rendered", "plain", "render", "utf16_length"]
