"""A game the engine says is over, closed once the presenter showed what happened
(``handlers.presenter.show``): the group's scores, the players' pointers, each player's final
dossier."""

from __future__ import annotations

import engine
from handlers import story
from handlers.game_record import OVER
from handlers.game_runner import GameRunner
from handlers.unit_of_work import UnitOfWork


def finish_game(work: UnitOfWork, table: GameRunner) -> None:
    game = work.game
    game.phase = OVER
    game.due = None
    result = table.state.result or {}
    chat = work.chat(game.chat)
    if chat.is_new:
        chat.settings = game.settings_doc()
    if chat.game == game.gid:
        chat.game = None
    for seat, pts in enumerate(result.get("scores") or []):
        p = game.players[seat]
        if p.ai:
            continue
        entry = chat.scores.get(str(p.uid), {"name": p.name, "points": 0, "games": 0})
        entry["points"] += pts
        entry["games"] += 1
        entry["name"] = p.name
        chat.scores[str(p.uid)] = entry
    for p in game.humans():
        work.clear_pointer(p.uid)
    for seat in range(table.state.n):
        if not table.no_chat(seat):
            final_view = engine.view(table.state, seat)
            table.txn.send(
                table.chat_of(seat), story.game_over_text(final_view, table.lang_of(seat))
            )
