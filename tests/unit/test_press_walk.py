"""Issue 28: one button press walked from the webhook to the Bot API (``devtools.presswalk``)
stays as flat as it was made: a prompt is rendered in one place (the presenter hands the "your
turn is next" message its prompt and buttons, and a closed prompt's text is a function of data),
and the group board is handed what it shows in one call, the presenter too (``presenter.show``),
and a list of cards is labelled where the labels are, and a prompt's hand line is made once, by
the prompt, not by each page through ``Ask``, and the room asks the presenter itself (no
``game_end.after_play`` between), and the Telegram adapter is one module (the messenger and
the gateway it calls, ``infra.telegram_messenger``), and a committed change's answer goes out
with its messages, first, from the delivery (not through the direct replies: there is no direct
reply there), and the presenter renders every prompt a command shows (the answered ones and the
asked ones) in one call (``prompts.render_all``) before it queues its messages; so the flow
returns into modules it had left at most 15 times (34, then 26, then 23, then 18, then 16
before) and re-enters a module still on the stack at most twice (5 before: the ahead message
called back into the presenter)."""

from __future__ import annotations

from typing import Any

from devtools.presswalk import Hop, figures, flow, press_once


def test_a_press_returns_into_few_modules_it_left_and_calls_back_into_none_but_its_room() -> None:
    walked = figures(flow(press_once()))
    assert walked["returns_into_left_modules"] <= 15, walked
    assert walked["reentries"] <= 2, walked
    # what is left: the room run by its unit of work (which owns the retry), and the record
    # the room reads through it
    assert set(walked["reentries_by_module"]) <= {"handlers.game_room", "handlers.unit_of_work"}
    assert "handlers.presenter" not in walked["reentries_by_module"]


def _tree(root: Hop, calls: list[tuple[str, list[Any]]]) -> None:
    """Hops under ``root`` from (module, callees) pairs; a callee list of [] is a leaf."""
    for module, callees in calls:
        hop = Hop(module, "f", root)
        root.hops.append(hop)
        _tree(hop, callees)


def test_a_way_taken_again_after_another_way_counts_again() -> None:
    """The walk's own counting: a presenter going to the prompts, then to the group board,
    then to the prompts again comes back into itself three times, not two (the walk folded any
    repeat of a way before, wherever it came, and so hid the back and forth); the same way
    taken again right after (a loop over the outbox), look-ups between, stays one path."""
    root = Hop("(telegram)", "update")
    deep: list[Any] = [("handlers.c", [("handlers.d", [])])]  # goes on, beyond a look-up
    _tree(
        root,
        [
            (
                "handlers.presenter",
                [
                    ("handlers.prompts", deep),
                    ("handlers.board", deep),
                    ("handlers.prompts", deep),
                    ("handlers.lookup", [("handlers.x", [])]),
                    ("handlers.prompts", deep),
                ],
            )
        ],
    )
    walked = figures(flow(root))
    # the presenter: prompts, board, prompts (×2 with the look-up between); each of those
    # returns once into the presenter, the way into handlers.c once into each of them
    assert walked["returns_by_module"]["handlers.presenter"] == 3, walked
    folded = flow(root).hops[0].hops
    assert [(h.module, h.times) for h in folded] == [
        ("handlers.prompts", 1),
        ("handlers.board", 1),
        ("handlers.prompts", 2),
        ("handlers.lookup", 1),
    ]
