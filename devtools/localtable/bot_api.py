"""The Bot API the local table serves: the project's one emulator (``devtools.botapi``) over HTTP.

Parameters arrive the way Telegram accepts them: a form (python-telegram-bot sends
``application/x-www-form-urlencoded`` with JSON-encoded objects), a JSON body or a query string;
they are typed as the spec says before the emulator sees them. Answers are Telegram's envelope:
``{"ok": true, "result": …}`` or ``{"ok": false, "error_code": …, "description": …}`` with
Telegram's status codes and wording — the emulator refuses what Telegram refuses, and the table
logs each refusal.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from devtools.botapi.spec import read_form
from devtools.localtable.chats import ApiError, Table

_JSON_FIELDS = {"reply_markup", "allowed_updates", "link_preview_options", "commands", "scope"}

Params = Mapping[str, Any]


def decode(raw: Mapping[str, Any]) -> dict[str, Any]:
    """Form values are strings; objects and lists among them are JSON (as Telegram reads them)."""
    params: dict[str, Any] = {}
    for key, value in raw.items():
        if key in _JSON_FIELDS and isinstance(value, str):
            try:
                value = json.loads(value)
            except ValueError as exc:
                raise ApiError(400, f"Bad Request: can't parse {key} JSON object") from exc
        params[key] = value
    return params


class BotApi:
    def __init__(self, table: Table) -> None:
        self.table = table

    def call(self, method: str, params: Params) -> tuple[int, dict[str, Any]]:
        """Telegram's status code and answer for one call."""
        api = self.table.api
        return api.call(method, read_form(api.spec, method, params))
