"""One model of Telegram's Bot API: the emulator the tests, the pace and load commands and the
local table all talk to (see ``emulator``). Never part of the Lambda package.

- ``html``: Telegram's HTML subset, read as Telegram reads it (text, entities, page HTML);
- ``spec``: calls checked against ``docs/telegram/bot-api-10.1.json``;
- ``limits``: the limits the spec states in prose, refused in Telegram's words;
- ``faults``: Telegram's rate limits on an injectable clock, and its bad days (``Chaos``);
- ``chats``: messages and their storage (memory, or SQLite for the local table);
- ``emulator``: the Bot API itself: a call checked, recorded and answered;
- ``methods``: the methods it answers, on the chats; ``directory``: who the chats are;
- ``recording``: ``RecordingRequest``, the emulator for python-telegram-bot and ``infra.bot_api``;
- ``updates``: Telegram updates as the Bot API delivers them, for driving the bot.
"""

from devtools.botapi.chats import BOT_ID, BOT_USER, ChatStore, MemoryChats, Message, SqliteChats
from devtools.botapi.emulator import BotApiEmulator
from devtools.botapi.faults import Chaos, Killed, RateLimits
from devtools.botapi.methods import ApiViolation
from devtools.botapi.recording import RecordingRequest
from devtools.botapi.spec import BotApiSpec

FakeMessage = Message  # the tests' name for it

__all__ = [
    "BOT_ID",
    "BOT_USER",
    "ApiViolation",
    "BotApiEmulator",
    "BotApiSpec",
    "Chaos",
    "ChatStore",
    "FakeMessage",
    "Killed",
    "MemoryChats",
    "Message",
    "RateLimits",
    "RecordingRequest",
    "SqliteChats",
]
