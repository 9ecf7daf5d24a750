"""Issue 9: every player gets a private game-over summary in their language — the result for
them, everyone's association, and what their notes had right — and the group sees none of it."""

from __future__ import annotations

import html

import engine
from handlers.i18n import t
from handlers.story.summary import knowledge
from tests.e2e.harness import GROUP, Harness, Player

LANGS = ("en", "de", "zh-Hans")


def test_each_player_gets_a_private_summary_of_the_game_in_their_language() -> None:
    players = [Player(uid=3100 + i, name=f"Rider {i}", lang=LANGS[i % 3]) for i in range(5)]
    h = Harness(players, seed=5)
    h.open_lobby_and_join()
    h.start()
    final = h.play_by_buttons()
    result = final.result
    assert result is not None
    winners = result.get("winners") or []
    for seat, p in enumerate(players):
        summary = h.api.messages_in(p.uid)[-1].text
        title = t(p.lang, "game.summary.title", round=result.get("round", final.round))
        assert summary.startswith(title.replace("<b>", "").replace("</b>", ""))
        outcome = "won" if seat in winners else "lost" if winners else "nobody"
        assert t(p.lang, f"game.summary.{outcome}") in summary
        notes = engine.view(final, seat)["notes"]
        known = 0
        for other, q in enumerate(players):
            if other == seat:
                continue
            assert html.unescape(q.name) in summary
            kind, _ = knowledge(notes, other)
            known += kind == "knew"
        assert t(p.lang, "game.summary.count", known=known, others=len(players) - 1) in summary
    group = "\n".join(m.text for m in h.api.messages_in(GROUP))
    for p in players:
        assert t(p.lang, "game.summary.who") not in group
    assert not h.api.violations and not h.errors


def test_notes_knowledge_reads_the_notebook() -> None:
    notes = [
        {"k": "saw_items", "about": 1, "round": 1, "cards": []},
        {"k": "saw_association", "about": 2, "round": 2, "assoc": "order", "position": 0},
        {"k": "saw_association", "about": 3, "round": 3, "assoc": "order"},
        {"k": "saw_association", "about": 2, "round": 4, "assoc": "order"},
        {"k": "revealed", "about": 4, "round": 5, "assoc": ["order"], "items": []},
    ]
    assert knowledge(notes, 1) == ("unknown", None)
    assert knowledge(notes, 2) == ("knew", 4)
    assert knowledge(notes, 3) == ("knew", 3)
    assert knowledge(notes, 4) == ("unknown", None)  # revealed by the claim that ended it
    assert knowledge(notes[:2], 2) == ("one_card", 2)
