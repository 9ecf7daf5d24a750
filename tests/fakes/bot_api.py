"""A fake Telegram Bot API behind python-telegram-bot's request interface.

``RecordingRequest`` is a :class:`telegram.request.BaseRequest`: hand it to a real
``telegram.Bot(token, request=..., get_updates_request=...)`` and nothing touches the network.
Every call is checked against the machine-readable Bot API spec
(``docs/telegram/bot-api-10.1.json``: method, parameter names, required parameters, JSON
types, recursively into objects such as ``InlineKeyboardMarkup``) and against the limits the spec
only states in prose: message text 1-4096 characters after entity parsing, well-formed Telegram
HTML, ``callback_data`` 1-64 bytes, callback answers of at most 200 characters, bot commands.
A violation is appended to ``violations`` and raised as :class:`ApiViolation`, an
``AssertionError`` (it is also a ``TelegramError``, so python-telegram-bot passes it through
unwrapped).

The fake keeps what a chat would show: per chat a message id counter and, per message, the
current text and inline keyboard with every edit applied. Answers look like Telegram's, including
``400 message is not modified``, ``403 bot was blocked by the user`` for chats in
``blocked_chats`` and injected ``429`` flood-control errors.

Telegram's bad days, for fault injection and load: :class:`Chaos` answers message calls at
random (reproducibly) with flood control of 5-40 s that holds the chat for that long, network
timeouts that cost the caller's clock the request timeout, permanent ``400``s in groups (the bot
muted) and :class:`Killed` (the function dies before a send reaches Telegram);
:class:`RateLimits` answers ``429`` the way Telegram does when a bot sends more than ~30 messages
a second overall or more than 20 a minute in one group.
"""

from __future__ import annotations

import functools
import html
import json
import math
import os
import random
import re
import threading
import time
from collections import Counter, deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any, NamedTuple, NoReturn

from telegram.error import TelegramError, TimedOut
from telegram.request import BaseRequest, RequestData

SPEC_NAME = "bot-api-10.1.json"
SPEC_PATH = Path(__file__).resolve().parents[2] / "docs" / "telegram" / SPEC_NAME
BOT_ID = 7_000_000_001
BOT_USERNAME = "coachride_bot"
BOT_USER: dict[str, Any] = {
    "id": BOT_ID,
    "is_bot": True,
    "first_name": "Coach Ride",
    "username": BOT_USERNAME,
    "can_join_groups": True,
    "can_read_all_group_messages": False,
    "supports_inline_queries": False,
}

MAX_TEXT = 4096
MAX_CALLBACK_DATA_BYTES = 64
MAX_CALLBACK_ANSWER = 200
_BUTTON_ACTIONS = (
    "url",
    "callback_data",
    "web_app",
    "login_url",
    "switch_inline_query",
    "switch_inline_query_current_chat",
    "switch_inline_query_chosen_chat",
    "copy_text",
    "callback_game",
    "pay",
)
_COMMAND = re.compile(r"[a-z0-9_]{1,32}")
_CONSTANT = re.compile(r'(?:must be|always) "?([a-z_]+)"?$')


class ApiViolation(TelegramError, AssertionError):
    """An outgoing call that the real Bot API would reject (or that the fake cannot answer)."""


class Call(NamedTuple):
    method: str
    params: dict[str, Any]


# --------------------------------------------------------------------------------------------
# The spec


def find_spec_path() -> Path:
    """``$TELEGRAM_BOT_API_SPEC``, else the project's copy in ``docs/telegram/``."""
    override = os.environ.get("TELEGRAM_BOT_API_SPEC")
    return Path(override) if override else SPEC_PATH


@dataclass(frozen=True, slots=True)
class SpecField:
    name: str
    types: tuple[str, ...]
    required: bool
    constant: str | None  # the only allowed value of a discriminator field ("type", "status")


def _fields(raw: Iterable[Mapping[str, Any]]) -> dict[str, SpecField]:
    fields = {}
    for f in raw:
        match = _CONSTANT.search(f.get("description", ""))
        constant = match.group(1) if match and f["types"] == ["String"] else None
        fields[f["name"]] = SpecField(f["name"], tuple(f["types"]), f["required"], constant)
    return fields


class BotApiSpec:
    """Methods and types of the Bot API, and a validator for calls against them."""

    def __init__(self, raw: Mapping[str, Any]) -> None:
        self.version: str = raw["version"]
        self.methods = {name: _fields(m.get("fields", [])) for name, m in raw["methods"].items()}
        self.returns = {name: tuple(m.get("returns", [])) for name, m in raw["methods"].items()}
        self.types = {
            name: _fields(t["fields"]) for name, t in raw["types"].items() if "fields" in t
        }
        self.subtypes = {
            name: tuple(t["subtypes"]) for name, t in raw["types"].items() if "subtypes" in t
        }

    @classmethod
    @functools.cache
    def load(cls, path: Path | None = None) -> BotApiSpec:
        return cls(json.loads((path or find_spec_path()).read_text(encoding="utf-8")))

    def check_call(self, method: str, params: Mapping[str, Any]) -> list[str]:
        """Everything wrong with calling ``method`` with ``params``; empty when valid."""
        fields = self.methods.get(method)
        if fields is None:
            return [f"unknown method {method!r}"]
        problems = self._check_fields(method, fields, params, prefix="")
        problems += _method_limits(method, params)
        return problems

    def check_value(self, value: Any, types: Sequence[str], path: str) -> list[str]:
        """Problems of ``value`` against alternatives like ``("Integer", "String")``."""
        results = [self._check_type(value, t, path) for t in types]
        if any(not r for r in results):
            return []
        shaped = [(t, r) for t, r in zip(types, results, strict=True) if _has_shape(value, t)]
        if len(shaped) > 1 and isinstance(value, dict):
            overlap = {t: len(value.keys() & self._field_names(t)) for t, _ in shaped}
            best = max(overlap.values())
            shaped = [(t, r) for t, r in shaped if overlap[t] == best]
        if len(shaped) == 1:
            return shaped[0][1]
        if len(types) == 1:
            return results[0]
        return [f"{path}: expected {' or '.join(types)}, got {_describe(value)}"]

    def _check_type(self, value: Any, type_name: str, path: str) -> list[str]:
        if type_name.startswith("Array of "):
            if not isinstance(value, list | tuple):
                return [f"{path}: expected {type_name}, got {_describe(value)}"]
            inner = type_name.removeprefix("Array of ")
            return [
                p for i, v in enumerate(value) for p in self.check_value(v, [inner], f"{path}[{i}]")
            ]
        primitive = _PRIMITIVES.get(type_name)
        if primitive is not None:
            return (
                []
                if primitive(value)
                else [f"{path}: expected {type_name}, got {_describe(value)}"]
            )
        if type_name == "InputFile":
            return []
        if not isinstance(value, dict):
            return [f"{path}: expected {type_name} object, got {_describe(value)}"]
        if type_name in self.subtypes:
            return self._check_union(value, type_name, path)
        fields = self.types.get(type_name)
        if fields is None:
            return []  # an opaque type such as CallbackGame
        return self._check_fields(type_name, fields, value, prefix=f"{path}.")

    def _field_names(self, type_name: str) -> set[str]:
        names = set(self.types.get(type_name, {}))
        for subtype in self.subtypes.get(type_name, ()):
            names |= self._field_names(subtype)
        return names

    def _check_union(self, value: dict[str, Any], type_name: str, path: str) -> list[str]:
        """Valid if one subtype accepts it; else the problems of the subtype it names."""
        options = self.subtypes[type_name]
        results = {option: self._check_type(value, option, path) for option in options}
        if any(not problems for problems in results.values()):
            return []
        named = [option for option in options if self._discriminates(option, value)]
        if len(named) == 1:
            return results[named[0]]
        return [f"{path}: matches none of {type_name}'s kinds ({', '.join(options)})"]

    def _discriminates(self, type_name: str, value: Mapping[str, Any]) -> bool:
        constants = [f for f in self.types.get(type_name, {}).values() if f.constant]
        return bool(constants) and all(value.get(f.name) == f.constant for f in constants)

    def _check_fields(
        self, owner: str, fields: Mapping[str, SpecField], values: Mapping[str, Any], prefix: str
    ) -> list[str]:
        problems = [
            f"{prefix}{name}: unknown parameter of {owner}" for name in values if name not in fields
        ]
        for f in fields.values():
            if f.name not in values:
                if f.required:
                    problems.append(f"{prefix}{f.name}: required by {owner} but missing")
                continue
            value = values[f.name]
            problems += self.check_value(value, f.types, f"{prefix}{f.name}")
            if f.constant is not None and value != f.constant:
                problems.append(f"{prefix}{f.name}: must be {f.constant!r} in {owner}")
        extra = _OBJECT_LIMITS.get(owner)
        if extra is not None and not problems:
            problems += [f"{prefix.rstrip('.') or owner}: {p}" for p in extra(values)]
        return problems


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


_PRIMITIVES: dict[str, Callable[[Any], bool]] = {
    "Integer": _is_int,
    "Float": lambda v: _is_int(v) or isinstance(v, float),
    "String": lambda v: isinstance(v, str),
    "Boolean": lambda v: isinstance(v, bool),
}


def _has_shape(value: Any, type_name: str) -> bool:
    if type_name.startswith("Array of "):
        return isinstance(value, list | tuple)
    if type_name in _PRIMITIVES:
        return _PRIMITIVES[type_name](value)
    return isinstance(value, dict)


def _describe(value: Any) -> str:
    return f"{type(value).__name__} {value!r:.60}"


# --------------------------------------------------------------------------------------------
# Limits the spec states only in prose


def utf16_len(text: str) -> int:
    """Telegram measures text in UTF-16 code units."""
    return len(text.encode("utf-16-le")) // 2


def _check_message_text(text: Any, parse_mode: Any) -> list[str]:
    if not isinstance(text, str):
        return []  # the type check reports it
    plain = text
    if parse_mode is not None and str(parse_mode).upper() == "HTML":
        plain, problems = parse_telegram_html(text)
        if problems:
            return [f"text is not valid Telegram HTML: {'; '.join(problems)}"]
    if not plain.strip():
        return ["text must not be empty (after entity parsing)"]
    if utf16_len(plain) > MAX_TEXT:
        return [f"text is {utf16_len(plain)} characters after entity parsing, limit {MAX_TEXT}"]
    return []


def _method_limits(method: str, params: Mapping[str, Any]) -> list[str]:
    problems = []
    parse_mode = params.get("parse_mode")
    if parse_mode is not None and parse_mode not in ("HTML", "MarkdownV2", "Markdown"):
        problems.append(f"parse_mode {parse_mode!r} is not HTML, MarkdownV2 or Markdown")
    if method in ("sendMessage", "editMessageText"):
        if "text" not in params:
            problems.append("text is required (the fake does not support rich_message)")
        else:
            problems += _check_message_text(params["text"], parse_mode)
    if method == "answerCallbackQuery":
        text = params.get("text")
        if isinstance(text, str) and utf16_len(text) > MAX_CALLBACK_ANSWER:
            problems.append(f"text is {utf16_len(text)} characters, limit {MAX_CALLBACK_ANSWER}")
    return problems


def _button_limits(button: Mapping[str, Any]) -> list[str]:
    problems = []
    if not str(button.get("text", "")).strip():
        problems.append("button text must not be empty")
    actions = [a for a in _BUTTON_ACTIONS if a in button]
    if len(actions) != 1:
        problems.append(f"needs exactly one of {', '.join(_BUTTON_ACTIONS)}; has {actions}")
    data = button.get("callback_data")
    if isinstance(data, str) and not 1 <= len(data.encode("utf-8")) <= MAX_CALLBACK_DATA_BYTES:
        size = len(data.encode("utf-8"))
        problems.append(f"callback_data is {size} bytes, must be 1-{MAX_CALLBACK_DATA_BYTES}")
    url = button.get("url")
    if isinstance(url, str) and not url.startswith(("https://", "http://", "tg://")):
        problems.append(f"url {url!r} is not an HTTP or tg:// URL")
    return problems


def _command_limits(command: Mapping[str, Any]) -> list[str]:
    problems = []
    if not _COMMAND.fullmatch(str(command.get("command", ""))):
        problems.append(f"command {command.get('command')!r}: 1-32 of a-z, 0-9, _")
    if not 1 <= len(str(command.get("description", ""))) <= 256:
        problems.append("command description must be 1-256 characters")
    return problems


_OBJECT_LIMITS: dict[str, Callable[[Mapping[str, Any]], list[str]]] = {
    "InlineKeyboardButton": _button_limits,
    "BotCommand": _command_limits,
}


# --------------------------------------------------------------------------------------------
# Telegram's HTML subset (https://core.telegram.org/bots/api#html-style)

_TAGS = frozenset(
    {"b", "strong", "i", "em", "u", "ins", "s", "strike", "del", "span", "tg-spoiler", "a"}
    | {"code", "pre", "blockquote", "tg-emoji", "tg-time"}
)
_TIME_FORMAT = re.compile(r"r|w?[dD]?[tT]?")
_NAMED_ENTITIES = {"lt": "<", "gt": ">", "amp": "&", "quot": '"'}


class _TelegramHtml(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=False)
        self.stack: list[str] = []
        self.plain: list[str] = []
        self.problems: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        if tag not in _TAGS:
            self.problems.append(f"unsupported tag <{tag}>")
        elif tag == "span" and attributes.get("class") != "tg-spoiler":
            self.problems.append('<span> needs class="tg-spoiler"')
        elif tag == "a" and not attributes.get("href"):
            self.problems.append("<a> needs href")
        elif tag == "tg-emoji" and not attributes.get("emoji-id"):
            self.problems.append("<tg-emoji> needs emoji-id")
        elif tag == "tg-time" and not (
            (attributes.get("unix") or "").isdigit()
            and _TIME_FORMAT.fullmatch(attributes.get("format") or "")
        ):
            self.problems.append("<tg-time> needs a unix time and a date-time format")
        parent = self.stack[-1] if self.stack else None
        if parent in ("code", "pre") and (tag, parent) != ("code", "pre"):
            self.problems.append(f"<{tag}> inside <{parent}>")
        if tag in ("a", "blockquote") and tag in self.stack:
            self.problems.append(f"nested <{tag}>")
        self.stack.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.problems.append(f"self-closing tag <{tag}/>")

    def handle_endtag(self, tag: str) -> None:
        if not self.stack:
            self.problems.append(f"</{tag}> without an open tag")
        elif self.stack[-1] != tag:
            self.problems.append(f"</{tag}> closes <{self.stack[-1]}>")
        else:
            self.stack.pop()

    def handle_data(self, data: str) -> None:
        for char, entity in (("<", "&lt;"), ("&", "&amp;")):
            if char in data:
                self.problems.append(f"unescaped {char!r} (write {entity})")
        self.plain.append(data)

    def handle_entityref(self, name: str) -> None:
        if name in _NAMED_ENTITIES:
            self.plain.append(_NAMED_ENTITIES[name])
        else:
            self.problems.append(f"unsupported entity &{name};")

    def handle_charref(self, name: str) -> None:
        self.plain.append(html.unescape(f"&#{name};"))

    def handle_comment(self, data: str) -> None:
        self.problems.append("comments are not supported")

    def handle_decl(self, decl: str) -> None:
        self.problems.append("declarations are not supported")

    def handle_pi(self, data: str) -> None:
        self.problems.append("processing instructions are not supported")

    def unknown_decl(self, data: str) -> None:
        self.problems.append("declarations are not supported")


def parse_telegram_html(text: str) -> tuple[str, list[str]]:
    """The plain text Telegram would show for ``text`` and the problems of its markup."""
    parser = _TelegramHtml()
    parser.feed(text)
    parser.close()
    if parser.stack:
        parser.problems.append(f"unclosed {', '.join(f'<{t}>' for t in parser.stack)}")
    return "".join(parser.plain), parser.problems


# --------------------------------------------------------------------------------------------
# The fake server


@dataclass
class FakeMessage:
    """One message as a chat shows it now."""

    chat_id: int
    message_id: int
    text: str  # after entity parsing, as the user reads it
    raw_text: str  # as sent, with markup
    parse_mode: str | None
    reply_markup: dict[str, Any] | None
    date: int
    edits: int = 0
    pinned: bool = False

    def button_rows(self) -> list[list[tuple[str, str | None]]]:
        rows = (self.reply_markup or {}).get("inline_keyboard", [])
        return [[(b["text"], b.get("callback_data", b.get("url"))) for b in row] for row in rows]

    def buttons(self) -> list[tuple[str, str | None]]:
        return [button for row in self.button_rows() for button in row]


class _Reply(Exception):
    """Internal: an HTTP error answer of the fake server."""

    def __init__(self, code: int, description: str, parameters: dict[str, Any] | None = None):
        super().__init__(description)
        self.code = code
        self.description = description
        self.parameters = parameters


_NOT_MODIFIED = (
    "Bad Request: message is not modified: specified new message content and reply markup are "
    "exactly the same as a current content and reply markup of the message"
)


_MESSAGE_METHODS = ("sendMessage", "editMessageText")
_MUTED = "Bad Request: not enough rights to send text messages to the chat"


class Killed(BaseException):
    """The function dies (a crash, or its timeout) before the request reaches Telegram. A
    ``BaseException``, so no ``except Exception`` in the code under test survives it."""


@dataclass
class Chaos:
    """Telegram's bad days on message calls (``sendMessage``, ``editMessageText``), drawn from
    ``rng`` so a run can be repeated. ``advance`` moves the caller's fake clock (a timeout costs
    ``timeout_cost`` seconds of the function's time)."""

    rng: random.Random
    flood: float = 0.0  # chance a call answers 429; the chat then stays flooded that long
    flood_seconds: tuple[int, int] = (5, 40)
    timeout: float = 0.0  # chance of a network timeout (the message does not arrive)
    timeout_cost: float = 5.0
    refuse: float = 0.0  # chance a group send is refused for good (the bot muted)
    kill: float = 0.0  # chance the function dies just before the call
    advance: Callable[[float], None] | None = None
    flooded_until: dict[int, float] = field(default_factory=dict)
    counts: Counter[str] = field(default_factory=Counter)
    refused: list[tuple[int, str]] = field(default_factory=list)  # (chat, text) never shown

    def strike(self, method: str, params: Mapping[str, Any], now: float) -> None:
        """Raise what Telegram (or the function's death) does to this call, if anything."""
        if method not in _MESSAGE_METHODS:
            return
        raw = params.get("chat_id")
        chat = raw if isinstance(raw, int) else 0
        if self.rng.random() < self.kill:
            self.counts["killed"] += 1
            raise Killed(f"killed before {method} to {chat}")
        held = self.flooded_until.get(chat, 0.0)
        if held > now:
            self.counts["429"] += 1
            wait = math.ceil(held - now)
            raise _Reply(429, f"Too Many Requests: retry after {wait}", {"retry_after": wait})
        if self.rng.random() < self.flood:
            wait = self.rng.randint(*self.flood_seconds)
            self.flooded_until[chat] = now + wait
            self.counts["429"] += 1
            raise _Reply(429, f"Too Many Requests: retry after {wait}", {"retry_after": wait})
        if self.rng.random() < self.timeout:
            self.counts["timeout"] += 1
            if self.advance is not None:
                self.advance(self.timeout_cost)
            raise TimedOut()
        group_send = method == "sendMessage" and chat < 0
        if group_send and self.rng.random() < self.refuse:
            self.counts["refused"] += 1
            self.refused.append((chat, str(params.get("text"))))
            raise _Reply(400, _MUTED)


@dataclass
class RateLimits:
    """Telegram's limits for one bot: ``overall`` messages per second across chats and
    ``group_per_minute`` sends per group; beyond them, 429 with the seconds until a slot."""

    overall: int = 30
    group_per_minute: int = 20
    limited: int = 0  # 429s answered
    by_reason: Counter[str] = field(default_factory=Counter)  # "overall" or "group"
    _recent: deque[float] = field(default_factory=deque)
    _groups: dict[int, deque[float]] = field(default_factory=dict)

    def admit(self, method: str, params: Mapping[str, Any], now: float) -> None:
        if method not in _MESSAGE_METHODS:
            return
        while self._recent and self._recent[0] <= now - 1.0:
            self._recent.popleft()
        if len(self._recent) >= self.overall:
            self._refuse(self._recent[0] + 1.0 - now, "overall")
        raw = params.get("chat_id")
        chat = raw if isinstance(raw, int) else 0
        if method == "sendMessage" and chat < 0:
            sent = self._groups.setdefault(chat, deque())
            while sent and sent[0] <= now - 60.0:
                sent.popleft()
            if len(sent) >= self.group_per_minute:
                self._refuse(sent[0] + 60.0 - now, "group")
            sent.append(now)
        self._recent.append(now)

    def _refuse(self, seconds: float, reason: str) -> NoReturn:
        self.limited += 1
        self.by_reason[reason] += 1
        wait = max(1, math.ceil(seconds))
        raise _Reply(429, f"Too Many Requests: retry after {wait}", {"retry_after": wait})


@dataclass
class _Injected:
    method: str | None  # None: any method
    times: int
    make: Callable[[], Exception]


class RecordingRequest(BaseRequest):
    """A Bot API in memory that validates, records and answers every call.

    ``blocked_chats``: calls to them answer 403 "bot was blocked by the user";
    ``missing_chats``: 400 "chat not found"; ``migrated_chats`` (group id -> supergroup id):
    400 with ``migrate_to_chat_id``. ``clock`` gives the message dates.
    """

    def __init__(
        self,
        *,
        spec: BotApiSpec | None = None,
        blocked_chats: Iterable[int] = (),
        missing_chats: Iterable[int] = (),
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.spec = spec or BotApiSpec.load()
        self.blocked_chats: set[int] = set(blocked_chats)
        self.missing_chats: set[int] = set(missing_chats)
        self.migrated_chats: dict[int, int] = {}
        self.clock = clock
        self.calls: list[Call] = []
        self.violations: list[str] = []
        self.errors: list[tuple[str, int, str]] = []  # (method, HTTP code, description) answered
        self.updates: list[dict[str, Any]] = []  # handed out by getUpdates
        self.sent: list[tuple[int, str]] = []  # (chat, text as sent) of every message delivered
        self.member_status: dict[tuple[int, int], str] = {}  # (chat, user) -> status
        self._chats: dict[int, dict[int, FakeMessage]] = {}
        self._last_id: dict[int, int] = {}
        self._injected: list[_Injected] = []
        self.chaos: Chaos | None = None
        self.limits: RateLimits | None = None
        self._lock = threading.RLock()  # several functions may call at once (the load command)

    # -- BaseRequest ---------------------------------------------------------------------------

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
        """The fake as ``infra.bot_api``'s transport, with the parameters as they travel."""
        try:
            return self.handle(method, json.loads(json.dumps(params)))
        except TimedOut as error:  # Chaos's timeouts never reach Telegram: a failed connect
            raise ConnectionError("connect timed out") from error

    def handle(self, method: str, params: dict[str, Any]) -> tuple[int, bytes]:
        """Validate, record and answer one call; returns (HTTP status, JSON body)."""
        with self._lock:
            return self._handle(method, params)

    def _handle(self, method: str, params: dict[str, Any]) -> tuple[int, bytes]:
        self.calls.append(Call(method, params))
        problems = self.spec.check_call(method, params)
        if problems:
            self._violate(f"{method}({_short(params)}): " + "; ".join(problems))
        try:
            if self.chaos is not None:
                self.chaos.strike(method, params, self.clock())
            self._raise_injected(method)
            self._check_chat(params.get("chat_id"))
            if self.limits is not None:
                self.limits.admit(method, params, self.clock())
            result = self._answer(method, params)
        except _Reply as reply:
            self.errors.append((method, reply.code, reply.description))
            body: dict[str, Any] = {
                "ok": False,
                "error_code": reply.code,
                "description": reply.description,
            }
            if reply.parameters:
                body["parameters"] = reply.parameters
            return reply.code, json.dumps(body).encode()
        return 200, json.dumps({"ok": True, "result": result}).encode()

    # -- configuration -------------------------------------------------------------------------

    def inject_retry_after(self, method: str | None, retry_after: int, times: int = 1) -> None:
        """The next ``times`` calls of ``method`` (None: of any method) answer 429."""
        description = f"Too Many Requests: retry after {retry_after}"

        def make() -> Exception:
            return _Reply(429, description, {"retry_after": retry_after})

        self._injected.append(_Injected(method, times, make))

    def inject_error(self, method: str | None, code: int, description: str, times: int = 1) -> None:
        self._injected.append(_Injected(method, times, lambda: _Reply(code, description)))

    def inject_timeout(self, method: str | None, times: int = 1) -> None:
        self._injected.append(_Injected(method, times, lambda: TimedOut()))

    def set_member_status(self, chat_id: int, user_id: int, status: str) -> None:
        """One of creator, administrator, member, restricted, left, kicked."""
        self.member_status[(chat_id, user_id)] = status

    # -- what tests read -----------------------------------------------------------------------

    def messages_in(self, chat_id: int) -> list[FakeMessage]:
        """The chat's messages that still exist, oldest first."""
        return list(self._chats.get(chat_id, {}).values())

    def last_message(self, chat_id: int) -> FakeMessage:
        messages = self.messages_in(chat_id)
        assert messages, f"no message in chat {chat_id}"
        return messages[-1]

    def message(self, chat_id: int, message_id: int) -> FakeMessage:
        found = self._chats.get(chat_id, {}).get(int(message_id))
        assert found is not None, f"no message {message_id} in chat {chat_id}"
        return found

    def buttons(self, chat_id: int, message_id: int) -> list[tuple[str, str | None]]:
        """The message's current buttons as (text, callback_data or url), row by row."""
        return self.message(chat_id, message_id).buttons()

    def count_by_method(self) -> dict[str, int]:
        return dict(Counter(call.method for call in self.calls))

    def calls_to(self, method: str) -> list[dict[str, Any]]:
        return [call.params for call in self.calls if call.method == method]

    # -- internals -----------------------------------------------------------------------------

    def _violate(self, message: str) -> NoReturn:
        self.violations.append(message)
        raise ApiViolation(message)

    def _raise_injected(self, method: str) -> None:
        for injected in self._injected:
            if injected.times > 0 and injected.method in (None, method):
                injected.times -= 1
                raise injected.make()

    def _check_chat(self, chat_id: Any) -> None:
        if chat_id in self.blocked_chats:
            raise _Reply(403, "Forbidden: bot was blocked by the user")
        if chat_id in self.missing_chats:
            raise _Reply(400, "Bad Request: chat not found")
        if chat_id in self.migrated_chats:
            description = "Bad Request: group chat was upgraded to a supergroup chat"
            raise _Reply(400, description, {"migrate_to_chat_id": self.migrated_chats[chat_id]})

    def _answer(self, method: str, params: dict[str, Any]) -> Any:
        handler = getattr(self, f"_api_{method}", None)
        if handler is not None:
            return handler(params)
        if self.spec.returns.get(method) == ("Boolean",):
            return True  # answerCallbackQuery, setMyCommands, setWebhook, sendChatAction, …
        self._violate(f"the fake Bot API does not implement {method}")

    def _chat(self, chat_id: Any) -> int:
        if not _is_int(chat_id):
            self._violate(f"the fake Bot API needs integer chat ids, got {chat_id!r}")
        return int(chat_id)

    def _find(self, params: Mapping[str, Any], missing: str) -> FakeMessage:
        if "inline_message_id" in params:
            self._violate("the fake Bot API does not support inline messages")
        chat_id, message_id = self._chat(params.get("chat_id")), params.get("message_id", "")
        if not _is_int(message_id):
            self._violate(f"message_id must be an integer, got {message_id!r}")
        found = self._chats.get(chat_id, {}).get(int(message_id))
        if found is None:
            raise _Reply(400, f"Bad Request: {missing}")
        return found

    def _message_json(self, message: FakeMessage) -> dict[str, Any]:
        result: dict[str, Any] = {
            "message_id": message.message_id,
            "date": message.date,
            "chat": chat_json(message.chat_id),
            "from": BOT_USER,
            "text": message.text,
        }
        if message.reply_markup:
            result["reply_markup"] = message.reply_markup
        if message.edits:
            result["edit_date"] = int(self.clock())
        return result

    def _api_getMe(self, params: Mapping[str, Any]) -> Any:
        return BOT_USER

    def _api_getUpdates(self, params: Mapping[str, Any]) -> Any:
        updates, self.updates = self.updates, []
        return updates

    def _api_sendMessage(self, params: Mapping[str, Any]) -> Any:
        chat_id = self._chat(params["chat_id"])
        message_id = self._last_id.get(chat_id, 0) + 1
        self._last_id[chat_id] = message_id
        message = FakeMessage(
            chat_id=chat_id,
            message_id=message_id,
            text=_plain(params["text"], params.get("parse_mode")),
            raw_text=params["text"],
            parse_mode=params.get("parse_mode"),
            reply_markup=params.get("reply_markup"),
            date=int(self.clock()),
        )
        self._chats.setdefault(chat_id, {})[message_id] = message
        self.sent.append((chat_id, params["text"]))
        return self._message_json(message)

    def _api_editMessageText(self, params: Mapping[str, Any]) -> Any:
        message = self._find(params, "message to edit not found")
        markup = params.get("reply_markup")  # Telegram drops the keyboard when none is given
        if (params["text"], params.get("parse_mode"), markup) == (
            message.raw_text,
            message.parse_mode,
            message.reply_markup,
        ):
            raise _Reply(400, _NOT_MODIFIED)
        message.text = _plain(params["text"], params.get("parse_mode"))
        message.raw_text = params["text"]
        message.parse_mode = params.get("parse_mode")
        message.reply_markup = markup
        message.edits += 1
        return self._message_json(message)

    def _api_editMessageReplyMarkup(self, params: Mapping[str, Any]) -> Any:
        message = self._find(params, "message to edit not found")
        markup = params.get("reply_markup")
        if markup == message.reply_markup:
            raise _Reply(400, _NOT_MODIFIED)
        message.reply_markup = markup
        message.edits += 1
        return self._message_json(message)

    def _api_deleteMessage(self, params: Mapping[str, Any]) -> Any:
        message = self._find(params, "message to delete not found")
        del self._chats[message.chat_id][message.message_id]
        return True

    def _api_pinChatMessage(self, params: Mapping[str, Any]) -> Any:
        self._may_pin(params)
        self._find(params, "message to pin not found").pinned = True
        return True

    def _may_pin(self, params: Mapping[str, Any]) -> None:
        """In a group only an administrator may pin (the bot, like anyone, as ``member_status``
        says; a member by default)."""
        chat_id = self._chat(params["chat_id"])
        status = self.member_status.get((chat_id, BOT_ID), "member")
        if chat_id < 0 and status not in ("administrator", "creator"):
            raise _Reply(
                400, "Bad Request: not enough rights to manage pinned messages in the chat"
            )

    def _api_unpinChatMessage(self, params: Mapping[str, Any]) -> Any:
        self._may_pin(params)
        chat_id = self._chat(params["chat_id"])
        pinned = [m for m in self.messages_in(chat_id) if m.pinned]
        if "message_id" in params:
            pinned = [m for m in pinned if m.message_id == params["message_id"]]
        if pinned:
            pinned[-1].pinned = False
        return True

    def _api_getChatMember(self, params: Mapping[str, Any]) -> Any:
        key = (self._chat(params["chat_id"]), params["user_id"])
        return self._member_json(params["user_id"], self.member_status.get(key, "member"))

    def _api_getChatAdministrators(self, params: Mapping[str, Any]) -> Any:
        chat_id = self._chat(params["chat_id"])
        return [
            self._member_json(user_id, status)
            for (chat, user_id), status in self.member_status.items()
            if chat == chat_id and status in ("creator", "administrator")
        ]

    def _member_json(self, user_id: int, status: str) -> dict[str, Any]:
        type_name = _MEMBER_TYPES[status]
        member: dict[str, Any] = {
            "status": status,
            "user": {"id": user_id, "is_bot": False, "first_name": f"User {user_id}"},
        }
        for f in self.spec.types[type_name].values():
            if f.required and f.name not in member:
                member[f.name] = 0 if f.types == ("Integer",) else f.name == "can_manage_chat"
        return member


_MEMBER_TYPES = {
    "creator": "ChatMemberOwner",
    "administrator": "ChatMemberAdministrator",
    "member": "ChatMemberMember",
    "restricted": "ChatMemberRestricted",
    "left": "ChatMemberLeft",
    "kicked": "ChatMemberBanned",
}


def chat_json(chat_id: int) -> dict[str, Any]:
    """A plausible Chat: positive ids are private chats, negative ones groups."""
    if chat_id > 0:
        return {"id": chat_id, "type": "private", "first_name": f"User {chat_id}"}
    kind = "supergroup" if chat_id <= -1_000_000_000_000 else "group"
    return {"id": chat_id, "type": kind, "title": f"Group {chat_id}"}


def _plain(text: str, parse_mode: str | None) -> str:
    if parse_mode == "HTML":
        return parse_telegram_html(text)[0]
    return text


def _short(params: Mapping[str, Any]) -> str:
    return ", ".join(f"{k}={v!r:.40}" for k, v in params.items())
