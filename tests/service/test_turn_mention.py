"""Issue 9: shortly before the turn's deadline the player is mentioned once in the group (whose
turn it is is public); never for a seat an AI plays or a seat marked away, never for a window."""

from __future__ import annotations

import pytest

import engine
from handlers.i18n import LANGUAGES, t
from tests.service.service_game import ServiceGame


def _mentions(table: ServiceGame) -> list[str]:
    return [text for text in table.group_texts() if "tg://user?id=" in text]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_turn_reminder_mentions_the_player_once_in_the_group(lang: str) -> None:
    table = ServiceGame(n=4, lang=lang)
    table.start()
    seat = table.state().turn
    table.wait_until_due()  # the reminder's moment
    assert table.state().turn == seat
    name = table.state().players[seat].name
    mention = f'<a href="tg://user?id={table.uids[seat]}">{name}</a>'
    assert _mentions(table) == [t(lang, "bot.turn_reminder", mention=mention, seconds=15)]
    table.wait_until_due()  # the deadline: a pass by default
    assert table.state().turn != seat
    assert _mentions(table) == [], "once per turn, and it does not stay (issue 24)"
    over = t(lang, "bot.turn_reminder_over", name=name)
    assert table.group_texts().count(over) == 1  # the mention now says the turn is over


def test_no_mention_for_windows_support_or_a_seat_marked_away_R_D2() -> None:
    table = ServiceGame(n=4)
    table.start()
    first = table.state().turn
    table.attack()
    while (aw := engine.awaiting(table.state())) is not None and aw.kind != "turn":
        table.wait_until_due()
    assert _mentions(table) == [], "support and windows are never mentioned in the group"

    def away(st: engine.State) -> None:
        st.players[st.turn].away = True

    table.arrange(away)
    seat = table.state().turn
    assert seat != first
    while table.state().turn == seat:
        table.wait_until_due()
    assert _mentions(table) == []
