"""The Bot API's machine-readable spec (``docs/telegram/bot-api-10.1.json``) and a validator of
calls against it: method, parameter names, required parameters, JSON types, recursively into
objects such as ``InlineKeyboardMarkup`` and into unions such as ``BotCommandScope``.

Telegram itself ignores parameters it does not know and answers ``400`` for a missing or
ill-typed one; :meth:`BotApiSpec.check_call` names every such problem so the emulator can do
either (``devtools.botapi.limits`` has the limits the spec states only in prose).
"""

from __future__ import annotations

import functools
import json
import os
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SPEC_NAME = "bot-api-10.1.json"
SPEC_PATH = Path(__file__).resolve().parents[2] / "docs" / "telegram" / SPEC_NAME
_CONSTANT = re.compile(r'(?:must be|always) "?([a-z_]+)"?$')


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
        return self._check_fields(method, fields, params, prefix="")

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
        return problems


def is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


_PRIMITIVES: dict[str, Callable[[Any], bool]] = {
    "Integer": is_int,
    "Float": lambda v: is_int(v) or isinstance(v, float),
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


def _from_form(value: str, types: Sequence[str]) -> Any:
    """A form value as the JSON value Telegram reads it as (forms carry only strings)."""
    if any(t not in _PRIMITIVES for t in types) and value[:1] in ("{", "["):
        try:
            return json.loads(value)
        except ValueError:
            return value
    if "Integer" in types and re.fullmatch(r"-?[0-9]{1,19}", value):
        return int(value)
    if "Float" in types:
        try:
            return float(value)
        except ValueError:
            return value
    if "Boolean" in types and value.lower() in ("true", "false", "1", "0"):
        return value.lower() in ("true", "1")
    return value


def read_form(spec: BotApiSpec, method: str, raw: Mapping[str, Any]) -> dict[str, Any]:
    """Parameters that arrived as a form or query string, typed as the spec says."""
    fields = spec.methods.get(method, {})
    params: dict[str, Any] = {}
    for key, value in raw.items():
        known = fields.get(key)
        params[key] = _from_form(value, known.types) if known and isinstance(value, str) else value
    return params
