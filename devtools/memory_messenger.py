"""An in-process Messenger that keeps what the bot sent, per chat: for tests and benchmarks."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

from infra.ports import Rows, Sent


@dataclass
class Shown:
    chat: int
    message_id: int
    text: str
    rows: Rows | None


@dataclass
class MemoryMessenger:
    blocked: set[int] = field(default_factory=set)
    messages: dict[tuple[int, int], Shown] = field(default_factory=dict)
    by_chat: dict[int, list[Shown]] = field(default_factory=dict)
    answers: list[tuple[str, str | None, bool]] = field(default_factory=list)
    calls: dict[str, int] = field(default_factory=dict)
    pinned: dict[int, int] = field(default_factory=dict)  # chat -> its pinned message
    no_pinning: set[int] = field(default_factory=set)  # chats where the bot may not pin
    _ids: itertools.count[int] = field(default_factory=lambda: itertools.count(1))

    def _count(self, method: str) -> None:
        self.calls[method] = self.calls.get(method, 0) + 1

    def send(
        self, chat_id: int, text: str, rows: Rows | None = None, reply_to: int | None = None
    ) -> Sent:
        self._count("sendMessage")
        if chat_id in self.blocked:
            return Sent(False, None, unreachable=True)
        if reply_to is not None and (chat_id, reply_to) not in self.messages:
            return Sent(False, None, reply_gone=True)  # as Telegram refuses it
        message_id = next(self._ids)
        shown = Shown(chat_id, message_id, text, rows)
        self.messages[(chat_id, message_id)] = shown
        self.by_chat.setdefault(chat_id, []).append(shown)
        return Sent(True, message_id)

    def edit(self, chat_id: int, message_id: int, text: str, rows: Rows | None = None) -> Sent:
        self._count("editMessageText")
        shown = self.messages.get((chat_id, message_id))
        if shown is None:
            return Sent(False)
        shown.text, shown.rows = text, rows
        return Sent(True, message_id)

    def pin(self, chat_id: int, message_id: int, pinned: bool = True) -> Sent:
        self._count("pinChatMessage" if pinned else "unpinChatMessage")
        if (chat_id, message_id) not in self.messages or chat_id in self.no_pinning:
            return Sent(False)
        if pinned:
            self.pinned[chat_id] = message_id
        elif self.pinned.get(chat_id) == message_id:
            del self.pinned[chat_id]
        return Sent(True, message_id)

    def answer(self, query_id: str, text: str | None = None, alert: bool = False) -> None:
        self._count("answerCallbackQuery")
        self.answers.append((query_id, text, alert))

    def in_chat(self, chat_id: int) -> list[Shown]:
        return list(self.by_chat.get(chat_id, []))
