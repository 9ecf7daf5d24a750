"""Issue 28: one button press walked from the webhook to the Bot API (``devtools.presswalk``)
stays as flat as it was made: a prompt is rendered in one place (the presenter hands the "your
turn is next" message its prompt and buttons, and a closed prompt's text is a function of data),
and the group board is handed what it shows in one call, the presenter too (``presenter.show``),
and a list of cards is labelled where the labels are, and a prompt's hand line is made once, by
the prompt, not by each page through ``Ask``, and the room asks the presenter itself (no
``game_end.after_play`` between), and the Telegram adapter is one module (the messenger and
the gateway it calls, ``infra.telegram_messenger``); so the flow returns into modules it had left
at most 18 times (34, then 26, then 23 before) and re-enters a module still on the stack at most
twice (5 before: the ahead message called back into the presenter)."""

from __future__ import annotations

from devtools.presswalk import figures, flow, press_once


def test_a_press_returns_into_few_modules_it_left_and_calls_back_into_none_but_its_room() -> None:
    walked = figures(flow(press_once()))
    assert walked["returns_into_left_modules"] <= 18, walked
    assert walked["reentries"] <= 2, walked
    # what is left: the room run by its unit of work (which owns the retry), and the record
    # the room reads through it
    assert set(walked["reentries_by_module"]) <= {"handlers.game_room", "handlers.unit_of_work"}
    assert "handlers.presenter" not in walked["reentries_by_module"]
