"""What the local table refuses of a request, whoever on the network (or any web page the user
visits) sends it: a ``Host`` it does not serve (DNS rebinding), and text UTF-8 cannot encode or
JSON nested too deep; and the stored messages such text left behind before it was refused."""

from __future__ import annotations

import contextlib
import ipaddress
import json
import logging
import re
import socket
import sqlite3
from typing import Any

log = logging.getLogger(__name__)

MAX_DEPTH = 16  # of a JSON body: the Bot API's deepest (a keyboard of buttons) needs 5
LOOPBACK_NAMES = ("localhost", "127.0.0.1", "[::1]")
_SURROGATE = re.compile("[\ud800-\udfff]")  # lone: json.loads joins a valid pair


def allowed_hosts(host: str, port: int) -> frozenset[str]:
    """The ``Host`` values the table answers: the address it serves, with its port; bound to
    loopback also the loopback names; bound to every address (``HOST=0.0.0.0`` for friends on
    the LAN) any IP address and this machine's names. A name an attacker controls (DNS
    rebinding) is never among them."""
    names = {host}
    wildcard = host in ("", "0.0.0.0", "::")
    with contextlib.suppress(ValueError):
        address = ipaddress.ip_address(host)
        names = {f"[{host}]" if address.version == 6 else host}
        if address.is_loopback:
            names.update(LOOPBACK_NAMES)
    if host == "localhost":
        names.update(LOOPBACK_NAMES)
    if wildcard:
        names = {*LOOPBACK_NAMES, socket.gethostname(), f"{socket.gethostname()}.local"}
    return frozenset(f"{name}:{port}".lower() for name in names if name)


def host_allowed(value: str, hosts: frozenset[str], wildcard: bool, port: int) -> bool:
    value = value.strip().lower()
    if value in hosts:
        return True
    if not wildcard:
        return False
    name, _, given = value.rpartition(":")
    if given != str(port):
        return False
    with contextlib.suppress(ValueError):
        ipaddress.ip_address(name.removeprefix("[").removesuffix("]"))
        return True  # an IP address is never a rebound name
    return False


def encodable(value: Any) -> bool:
    """Whether every string in ``value`` (a JSON value) is text UTF-8 can encode, and it nests
    at most ``MAX_DEPTH`` deep."""
    stack = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if depth > MAX_DEPTH:
            return False
        if isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                return False
        elif isinstance(item, dict):
            stack.extend((k, depth + 1) for k in item)
            stack.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, list):
            stack.extend((v, depth + 1) for v in item)
    return True


def repair_stored_text(db_path: str) -> int:
    """Messages stored with text UTF-8 cannot encode (a lone surrogate the table accepted before
    it checked) get U+FFFD in its place, so they can be shown and sent again; how many."""
    db = sqlite3.connect(db_path)
    try:
        try:
            rows = db.execute("SELECT chat_id, message_id, body FROM table_messages").fetchall()
        except sqlite3.OperationalError:
            return 0  # a new file: no table yet
        fixed = 0
        for chat_id, message_id, body in rows:
            value = json.loads(body)
            if encodable(value):
                continue
            clean = _SURROGATE.sub("\ufffd", json.dumps(value, ensure_ascii=False))
            db.execute(
                "UPDATE table_messages SET body = ? WHERE chat_id = ? AND message_id = ?",
                (clean, chat_id, message_id),
            )
            fixed += 1
        db.commit()
        if fixed:
            log.warning("the local table repaired %d stored messages with unencodable text", fixed)
        return fixed
    finally:
        db.close()
