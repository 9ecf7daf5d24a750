"""Names at the table (handlers.seat_names): whatever a player calls themselves on Telegram, the
others can read it and tell the players apart, on the group's lines and on the buttons that
choose a player."""

from __future__ import annotations

from typing import Any

from handlers.seat_names import BIDI_CONTROLS, cleaned, seat_name
from tests.service.service_game import GROUP, ServiceGame


def seated(names: list[str]) -> ServiceGame:
    """A game of ``len(names)`` players whose Telegram first names are ``names``."""
    g = ServiceGame(n=len(names))

    def say(uid: int, chat: int, text: str) -> None:
        update: dict[str, Any] = {
            "update_id": next(g.ids),
            "message": {
                "message_id": 1,
                "date": 0,
                "chat": {"id": chat, "type": "private" if chat > 0 else "supergroup"},
                "from": {"id": uid, "is_bot": False, "first_name": names[uid - 101]},
                "text": text,
            },
        }
        g.service.handle_update(update)

    say(g.uids[0], GROUP, "/newgame")
    chat = g.store.get(f"CHAT#{GROUP}")
    assert chat is not None
    g.gid = chat.doc["game"]
    for uid in g.uids:
        say(uid, uid, f"/start {g.gid}")
    say(g.uids[0], GROUP, "/startgame")
    return g


def test_two_players_with_the_same_name_are_told_apart_on_the_attack_buttons() -> None:
    g = seated(["Ann", "Ann", "ann ", "Bob"])
    names = [p.name for p in g.state().players]
    assert sorted(names) == ["Ann", "Ann (2)", "Bob", "ann (3)"]
    seat = g.state().turn  # the targets are on the turn's first page (issue 27)
    message_id, _ = g.prompt(seat)
    shown = g.messenger.messages[(g.uids[seat], message_id)]
    labels = [b[0] for row in shown.rows or [] for b in row if ":at." in b[2]]
    assert len(labels) == 3 and len(set(labels)) == 3, labels


def test_a_name_cannot_reverse_or_break_the_lines_it_is_shown_in() -> None:
    """U+202E (right-to-left override) in a name reversed the rest of every status and story
    line naming its player ("…'s turn · pile: 17" read backwards); a line break would start a
    line of the name's own making."""
    g = seated(["\u202eEve", "Ann\n⏳ Waiting for nobody", "\u2067Bob\u2069", "Cy"])
    texts = g.group_texts()
    assert texts
    for text in texts:
        assert not BIDI_CONTROLS & set(text), repr(text)
        assert "\n⏳ Waiting for nobody" not in text
    assert {p.name for p in g.state().players} == {"Eve", "Ann ⏳ Waiting for nobody", "Bob", "Cy"}


def test_a_person_is_not_shown_as_an_ai_passenger_nor_as_nobody() -> None:
    g = seated(["🤖 Ada", "\u3164", "  ", "Cy"])
    names = [p.name for p in g.state().players]
    assert names[0] == "Ada"
    assert names[1:3] == ["👤1", "👤2"]
    assert not any(p.get("ai") for p in g.doc()["players"])


def test_seat_names_keep_what_a_name_may_be() -> None:
    assert cleaned("Zoë 🧛‍♂️ 李") == "Zoë 🧛‍♂️ 李"  # accents, emoji sequences, any script
    assert cleaned("עמית") == "עמית"  # a right-to-left name stays as written
    assert seat_name("Ann", ["ＡＮＮ"]) == "Ann (2)"
    assert seat_name("A\u200bnn\u2060", ["Ann"]) == "A\u200bnn\u2060 (2)"  # invisible inside
    assert seat_name("Ann", ["Ann", "Ann (2)"]) == "Ann (3)"
    assert seat_name("👤1", ["\u3164"]) == "👤1"


def test_names_spelt_alike_in_other_scripts_are_told_apart() -> None:
    """Attack run 6: a Cyrillic or Greek letter that looks Latin ("Аnn" with a Cyrillic А,
    "Bοb" with a Greek ο) made a second "Ann" or "Bob" on the buttons that choose a player."""
    g = seated(["Ann", "\u0410nn", "Bob", "B\u03bfb"])
    names = [p.name for p in g.state().players]
    assert names == ["Ann", "\u0410nn (2)", "Bob", "B\u03bfb (2)"]
    assert seat_name("\u0391\u039d\u039d", ["Ann"]) == "\u0391\u039d\u039d (2)"  # Greek capitals
    assert seat_name("\u0440\u0430\u0441\u0435", ["Pace"]) == "\u0440\u0430\u0441\u0435 (2)"
    assert seat_name("Олег", ["Oleg"]) == "Олег"  # a name in its own script is not numbered
    assert seat_name("Иван", ["Ivan"]) == "Иван"
