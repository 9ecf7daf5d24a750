"""Names written right to left at the table (handlers.seat_names): a Hebrew or Arabic name in a
line of English (or Chinese, or German) text is isolated with the bot's own balanced pair
U+2068 … U+2069, so the line keeps its direction and its words their places."""

from __future__ import annotations

import unicodedata

from handlers.seat_names import FSI, PDI, isolated, seat_name
from tests.service.test_seat_names import seated

ARABIC = "نور"
HEBREW = "דנה"


def test_a_right_to_left_name_is_isolated_in_every_group_line_it_is_shown_in() -> None:
    """Before: the lines showed the bare name, and "'s turn · pile: 17" after it was laid out
    on the name's side by the bidirectional algorithm."""
    g = seated([ARABIC, "Ann", HEBREW, "Bob"])
    names = {p.name for p in g.state().players}
    assert f"{FSI}{ARABIC}{PDI}" in names and f"{FSI}{HEBREW}{PDI}" in names
    shown = [x for x in g.group_texts() if ARABIC in x or HEBREW in x]
    assert shown
    for text in shown:
        for name in (ARABIC, HEBREW):
            at = text.find(name)
            while at >= 0:
                assert text[at - 1] == FSI and text[at + len(name)] == PDI, repr(text)
                at = text.find(name, at + 1)


def test_isolates_stay_balanced_and_latin_names_are_left_alone() -> None:
    assert isolated("Ann") == "Ann"
    assert isolated("١٢٣") == f"{FSI}١٢٣{PDI}"  # Arabic-Indic digits
    # a name smuggling its own isolate or override: dropped, then isolated once by the bot
    named = seat_name(f"\u2069\u202e{HEBREW}\u2066", [])
    assert named == f"{FSI}{HEBREW}{PDI}"
    assert named.count(FSI) == named.count(PDI) == 1


def test_two_players_with_one_right_to_left_name_are_still_told_apart() -> None:
    first = seat_name(ARABIC, [])
    second = seat_name(ARABIC, [first])
    assert first != second and second == f"{FSI}{ARABIC} (2){PDI}"
    assert all(unicodedata.category(c) != "Cc" for c in second)
