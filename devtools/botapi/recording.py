"""The emulator behind python-telegram-bot's request interface and ``infra.bot_api``'s
transport: a real ``telegram.Bot(token, request=RecordingRequest(), ...)`` talks to it and
nothing touches the network."""

from __future__ import annotations

import json
from typing import Any

from telegram.error import TimedOut
from telegram.request import BaseRequest, RequestData

from devtools.botapi.emulator import BotApiEmulator


class RecordingRequest(BotApiEmulator, BaseRequest):
    """The emulator behind python-telegram-bot's request interface (and ``infra.bot_api``'s
    transport), in memory: what the tests and the pace and load commands talk to."""

    @property
    def read_timeout(self) -> float | None:
        return None

    async def initialize(self) -> None:
        return None

    async def shutdown(self) -> None:
        return None

    async def do_request(
        self,
        url: str,
        method: str,
        request_data: RequestData | None = None,
        read_timeout: Any = None,
        write_timeout: Any = None,
        connect_timeout: Any = None,
        pool_timeout: Any = None,
    ) -> tuple[int, bytes]:
        api_method = url.rstrip("/").rsplit("/", 1)[-1]
        params = dict(request_data.parameters) if request_data is not None else {}
        return self.handle(api_method, params)

    def transport(self, method: str, params: dict[str, Any], timeout: float) -> tuple[int, bytes]:
        """The emulator as ``infra.bot_api``'s transport, with the parameters as they travel."""
        try:
            return self.handle(method, json.loads(json.dumps(params)))
        except TimedOut as error:  # Chaos's timeouts never reach Telegram: a failed connect
            raise ConnectionError("connect timed out") from error
