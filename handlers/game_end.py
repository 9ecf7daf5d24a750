"""After the engine ran in a command: show what happened, and close a game that is over
(the group's scores, the players' pointers, each player's final dossier)."""

from __future__ import annotations

import engine
from handlers import story
from handlers.game_runner import GameRunner
from handlers.pipeline import Txn
from handlers.presenter import Presenter
from handlers.records import Records, clear_pointer
from infra.ports import DocumentStore


def after_play(
    store: DocumentStore,
    bot_username: str,
    txn: Txn,
    table: GameRunner,
    answered: dict[int, tuple[int, str]] | None = None,
) -> None:
    """``answered``: the pressing seat's prompt message and the text showing its choice."""
    table.save()
    Presenter(table, bot_username).render(answered)
    if table.state.over:
        finish_game(store, txn, table)


def finish_game(store: DocumentStore, txn: Txn, table: GameRunner) -> None:
    doc = txn.doc
    doc["phase"] = "over"
    doc["due"] = None
    result = table.state.result or {}
    records = Records(store, txn)
    chat = records.chat(doc["chat"])
    if chat.is_new:
        chat.settings = doc["settings"]
    if chat.game == doc["gid"]:
        chat.game = None
    for seat, pts in enumerate(result.get("scores") or []):
        p = doc["players"][seat]
        if p.get("ai"):
            continue
        entry = chat.scores.get(str(p["uid"]), {"name": p["name"], "points": 0, "games": 0})
        entry["points"] += pts
        entry["games"] += 1
        entry["name"] = p["name"]
        chat.scores[str(p["uid"])] = entry
    for p in doc["players"]:
        if not p.get("ai"):
            clear_pointer(records, p["uid"])
    records.commit()
    for seat in range(table.state.n):
        if not table.no_chat(seat):
            final_view = engine.view(table.state, seat)
            txn.send(table.chat_of(seat), story.game_over_text(final_view, table.lang_of(seat)))
