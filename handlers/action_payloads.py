"""Compact callback payloads for the decision buttons (the service prefixes ``<game>:<decision>:``).

Three shapes, told apart by the first character:

* an action, e.g. ``tr.t3.ck1`` (trade Key #1 to seat 3): a kind code, then tagged fields
  ``t`` target, ``c`` card, ``h`` choice, ``s`` cards (comma-joined), ``n`` seats (one digit each);
* ``~path``: navigation, only re-renders the prompt (``~`` alone is the root menu);
* ``?i.<code>`` / ``?o.<code>`` / ``?a.<code>`` / ``?d``: explain an item kind, an occupation, an
  association or the Drink of Power.

The pressing user's seat and the decision id never come from the payload. Anything malformed
raises :class:`BadPayload` and nothing else.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.actions import Action
from engine.cards import ASSOCIATIONS, BAG_NAME, ITEM_KINDS, OCCUPATIONS
from engine.kinds import ActionKind

MAX_PAYLOAD = 40

# Every action a player takes (the clock's timeout is never a button).
_KINDS: dict[ActionKind, str] = {
    ActionKind.PASS: "pa",
    ActionKind.TRADE: "tr",
    ActionKind.ATTACK: "at",
    ActionKind.CLAIM: "cl",
    ActionKind.CLAIM_OTHER: "fo",
    ActionKind.SOLO: "so",
    ActionKind.END: "en",
    ActionKind.DIPLOMAT: "dp",
    ActionKind.CLAIRVOYANT: "cv",
    ActionKind.GIVE: "gv",
    ActionKind.ORDER: "or",
    ActionKind.ACCEPT: "ac",
    ActionKind.REFUSE: "rf",
    ActionKind.USE: "us",
    ActionKind.SKIP: "sk",
    ActionKind.SWAP: "sw",
    ActionKind.TAKE: "tk",
    ActionKind.DIRECTION: "dr",
    ActionKind.SUPPORT: "su",
    ActionKind.HYPNOTIZE: "hy",
    ActionKind.PLAY: "pl",
    ActionKind.LOOK: "lk",
    ActionKind.GIFT: "gf",
    ActionKind.KEEP_USE: "ku",
}
_KIND_OF = {code: kind for kind, code in _KINDS.items()}

# Every string an action, a navigation path or an info payload carries: card ids, item kinds
# (Diplomat names, info), occupations, associations and choices.
_VOCAB: dict[str, str] = {
    "key1": "k1",
    "key2": "k2",
    "key3": "k3",
    "goblet1": "g1",
    "goblet2": "g2",
    "goblet3": "g3",
    "bag_key": "bk",
    "bag_goblet": "bg",
    "dagger": "dg",
    "gloves": "gl",
    "poison_ring": "pr",
    "casting_knives": "ck",
    "whip": "wh",
    "tome": "tm",
    "privilege": "pv",
    "coat": "co",
    "monocle": "mo",
    "sextant": "sx",
    "black_pearl": "bp",
    "broken_mirror": "bm",
    "coat_of_arms": "ca",
    "key": "k",
    "goblet": "g",
    "bag": "b",
    "diplomat": "Di",
    "doctor": "Do",
    "duelist": "Du",
    "poison_mixer": "Pm",
    "grand_master": "Gm",
    "clairvoyant": "Cv",
    "hypnotist": "Hy",
    "bodyguard": "Bg",
    "priest": "Pr",
    "thug": "Th",
    "order": "Oo",
    "brotherhood": "Bh",
    "attacker": "a",
    "defender": "d",
    "neutral": "n",
    "left": "l",
    "right": "r",
    "0": "0",
    "1": "1",
    "2": "2",
    "on": "on",
    "off": "of",
}
_WORD = {code: word for word, code in _VOCAB.items()}
assert len(_WORD) == len(_VOCAB)

_INFO_ITEM_KINDS = frozenset(ITEM_KINDS) | {BAG_NAME}
_INFO_KINDS = {"i": "item", "o": "occupation", "a": "association"}
_NAV_RE = re.compile(r"[A-Za-z0-9.,]*")
_TAGS = "tchsn"


class BadPayload(ValueError):
    """The payload is not one this bot produces."""


@dataclass(frozen=True, slots=True)
class Act:
    payload: str


@dataclass(frozen=True, slots=True)
class Nav:
    path: str  # without the leading "~"; "" is the root menu


@dataclass(frozen=True, slots=True)
class Info:
    kind: str  # "item", "occupation", "association" or "drink"
    id: str


Parsed = Act | Nav | Info


def code(word: str) -> str:
    """The short code of a card id, item kind, occupation, association or choice."""
    try:
        return _VOCAB[word]
    except KeyError:
        raise ValueError(f"no payload code for {word!r}") from None


def word(short: str) -> str:
    """The word behind a short code; :class:`BadPayload` if there is none."""
    try:
        return _WORD[short]
    except KeyError:
        raise BadPayload(f"unknown code {short!r}") from None


def nav(*segments: object) -> str:
    return "~" + ".".join(str(s) for s in segments)


def info_item(kind: str) -> str:
    return f"?i.{code(kind)}"


def info_occupation(occupation: str) -> str:
    return f"?o.{code(occupation)}"


def info_association(association: str) -> str:
    return f"?a.{code(association)}"


INFO_DRINK = "?d"


def encode_action(action: Action) -> str:
    try:
        parts = [_KINDS[action.kind]]
    except KeyError:
        raise ValueError(f"action kind {action.kind!r} has no button") from None
    if action.target is not None:
        parts.append(f"t{_digit(action.target)}")
    if action.card is not None:
        parts.append(f"c{code(action.card)}")
    if action.choice is not None:
        parts.append(f"h{code(action.choice)}")
    if action.cards:
        parts.append("s" + ",".join(code(c) for c in action.cards))
    if action.seats:
        parts.append("n" + "".join(_digit(s) for s in action.seats))
    out = ".".join(parts)
    if len(out) > MAX_PAYLOAD:
        raise ValueError(f"payload {out!r} is too long")
    return out


def _digit(seat: int) -> str:
    if not 0 <= seat <= 9:
        raise ValueError(f"seat {seat} does not fit one digit")
    return str(seat)


def _fields(payload: str) -> tuple[ActionKind, dict[str, str]]:
    if not payload or len(payload) > MAX_PAYLOAD or not payload.isascii():
        raise BadPayload("payload length or charset")
    head, *rest = payload.split(".")
    if head not in _KIND_OF:
        raise BadPayload(f"unknown action code {head!r}")
    fields: dict[str, str] = {}
    last = -1
    for part in rest:
        tag, value = part[:1], part[1:]
        pos = _TAGS.find(tag) if tag else -1
        if pos <= last or not value:
            raise BadPayload("fields missing, repeated or out of order")
        last = pos
        fields[tag] = value
    return _KIND_OF[head], fields


def _seat(value: str) -> int:
    if len(value) != 1 or value not in "0123456789":
        raise BadPayload(f"bad seat {value!r}")
    return int(value)


def decode_action(payload: str, seat: int, decision: int) -> Action:
    kind, f = _fields(payload)
    return Action(
        kind,
        seat,
        decision,
        target=_seat(f["t"]) if "t" in f else None,
        card=word(f["c"]) if "c" in f else None,
        choice=word(f["h"]) if "h" in f else None,
        cards=tuple(word(c) for c in f["s"].split(",")) if "s" in f else (),
        seats=tuple(_seat(c) for c in f["n"]) if "n" in f else (),
    )


def parse_payload(payload: str) -> Parsed:
    if not isinstance(payload, str) or len(payload) > MAX_PAYLOAD or not payload.isascii():
        raise BadPayload("payload length or charset")
    if payload.startswith("~"):
        path = payload[1:]
        if not _NAV_RE.fullmatch(path):
            raise BadPayload("bad navigation path")
        return Nav(path)
    if payload.startswith("?"):
        return _parse_info(payload[1:])
    decode_action(payload, 0, 0)
    return Act(payload)


def _parse_info(body: str) -> Info:
    if body == "d":
        return Info("drink", "drink")
    kind, dot, short = body.partition(".")
    if kind not in _INFO_KINDS or not dot:
        raise BadPayload("bad info payload")
    what = word(short)
    wanted = _INFO_KINDS[kind]
    ok = (
        (wanted == "item" and what in _INFO_ITEM_KINDS)
        or (wanted == "occupation" and what in OCCUPATIONS)
        or (wanted == "association" and what in ASSOCIATIONS)
    )
    if not ok:
        raise BadPayload(f"{what!r} is not an {wanted}")
    return Info(wanted, what)


__all__ = [
    "INFO_DRINK",
    "MAX_PAYLOAD",
    "Act",
    "BadPayload",
    "Info",
    "Nav",
    "Parsed",
    "code",
    "decode_action",
    "encode_action",
    "info_association",
    "info_item",
    "info_occupation",
    "nav",
    "parse_payload",
    "word",
]
