"""After the engine ran in a command: show what happened, and close a game that is over
(the group's scores, the players' pointers, each player's final dossier)."""

from __future__ import annotations

import engine
from handlers import story
from handlers.play import Table
from handlers.records import clear_pointer
from handlers.service import Txn, chat_key
from infra.ports import DocumentStore


def after_play(
    store: DocumentStore,
    txn: Txn,
    table: Table,
    answered: dict[int, tuple[int, str]] | None = None,
) -> None:
    table.render(answered)
    if table.state.over:
        finish_game(store, txn, table)


def finish_game(store: DocumentStore, txn: Txn, table: Table) -> None:
    doc = txn.doc
    doc["phase"] = "over"
    doc["due"] = None
    result = table.state.result or {}
    chat = store.get(chat_key(doc["chat"]))
    chat_doc = dict(chat.doc) if chat else {"settings": doc["settings"], "scores": {}}
    if chat_doc.get("game") == doc["gid"]:
        chat_doc["game"] = None
    scores = result.get("scores")
    if scores:
        totals = dict(chat_doc.get("scores", {}))
        for seat, pts in enumerate(scores):
            p = doc["players"][seat]
            if p.get("ai"):
                continue
            entry = totals.get(str(p["uid"]), {"name": p["name"], "points": 0, "games": 0})
            entry["points"] += pts
            entry["games"] += 1
            entry["name"] = p["name"]
            totals[str(p["uid"])] = entry
        chat_doc["scores"] = totals
    txn.put(chat_key(doc["chat"]), chat_doc, chat.version if chat else None)
    for p in doc["players"]:
        if not p.get("ai"):
            clear_pointer(store, txn, p["uid"])
    for seat in range(table.state.n):
        if not table.no_chat(seat):
            final_view = engine.view(table.state, seat)
            txn.send(table.chat_of(seat), story.game_over_text(final_view, table.lang_of(seat)))
