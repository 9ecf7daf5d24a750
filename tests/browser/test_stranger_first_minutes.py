"""A stranger's first minutes at the local table, as `make run` starts it (no token, no
GAME_TIME_SCALE: every deadline the default one), from a clean state: open the page, take a
seat, /newgame, make a few deadlines longer in /settings one press at a time as a newcomer
does, the 🤖 number, Join, Start; then the first decision the private chat asks is answered by
a click on the button the page shows, and the group tells it.

Found by playing it (newcomer round 11): after about nine presses Telegram held the group's
edits, the menu showed older settings, the 🤖 4 and Start were answered "That button is no
longer active." and the game started without its AI passengers, or not at all. Every other
browser test plays at GAME_TIME_SCALE 0.015, and the one at the default deadlines is slow (left
out of `make test`); this one stops after the first answer (about half a minute).
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.player import SHOTS, Player, shown
from tests.browser.process import TableProcess, free_port
from tests.browser.test_local_table import ai_button, new_page, refusals
from tests.browser.test_newcomer import NOTES

SEATS = 3
# What a newcomer presses in /settings before the 🤖 number: longer deadlines, slowly read.
LONGER = ("turn", "turn", "turn", "support", "boost", "boost", "window", "window")
# AI passengers may play their turns before the human's first turn or support: the deal comes
# from `secrets`, so some runs have three AI fights against Ann first (no support asked of her),
# each waiting the longer windows and boost out in full (R-D1), about 60-90 s a fight. 120 s
# failed such a deal once in a fresh clone under `make test`'s load.
FIRST_PROMPT_SECONDS = 360
# The first decisions a human may be asked, the button a newcomer presses and what the group
# says of it then.
ANSWERS = {
    shown("game.turn.title", round="\0").split("\0")[0]: (
        shown("game.btn.pass"),
        "game.story.passed",
    ),
    shown("game.support.title"): (
        shown("game.btn.support_neutral"),
        "game.story.support.neutral",
    ),
}


@pytest.fixture
def default_table(tmp_path: Path) -> Iterator[TableProcess]:
    process = TableProcess(tmp_path / "table.sqlite3", free_port(), time_scale="1")
    process.start()
    yield process
    process.stop()


def deadline_key(kind: str) -> re.Pattern[str]:
    # the time is "90s" or "10 min" (settings_view.duration): any text after the name
    label = re.escape(shown(f"settings.button.{kind}", time="TIME")).replace("TIME", r"\S.*?")
    return re.compile(rf"^\s*{label}\s*$")


def first_decision(ann: Player) -> tuple[Any, str]:
    """The first private message asking one of ``ANSWERS``' decisions, and its title."""
    deadline = time.monotonic() + FIRST_PROMPT_SECONDS
    while time.monotonic() < deadline:
        for msg in ann.page.locator("#private .msg:has(.key)").all():
            text = msg.locator(".content").inner_text()
            title = next((t for t in ANSWERS if text.strip().startswith(t)), None)
            if title is not None:
                return msg, title
        time.sleep(0.3)
    ann.screenshot("stranger-no-prompt.png")
    raise AssertionError("no decision reached the private chat")


def test_a_stranger_sets_up_starts_with_ai_and_answers_the_first_prompt_by_a_click(
    default_table: TableProcess, chromium: Any
) -> None:
    table, errors = default_table, []
    page = new_page(chromium, errors)
    page.context.add_init_script(NOTES)  # every toast and alert, as it appears
    ann = Player(page, "Ann", seed=11)
    ann.take_seat(table.url)
    ann.say("group", "/newgame")
    ann.wait_for_text("group", shown("lobby.title"))
    ann.say("group", "/settings")
    ann.key("group", ai_button(SEATS))
    for kind in LONGER:
        ann.click_key("group", deadline_key(kind))
        time.sleep(0.8)  # a person reads the new label before the next press
    ann.click_key("group", ai_button(SEATS))
    assert ann.page.evaluate("window.notes")[-1] == shown("settings.saved")  # its toast
    ann.click_key("group", shown("lobby.join"))
    ann.wait_for_text("private", shown("lobby.joined"))
    ann.click_key("group", shown("lobby.start"))
    ann.wait_for_text("group", shown("game.seats.title"), timeout=20)
    msg, title = first_decision(ann)
    press, story = ANSWERS[title]
    ann.screenshot("stranger-first-prompt.png")
    msg.locator(".key").filter(has_text=press).first.click()
    ann.settle()
    ann.wait_for_text("group", shown(story, name="Ann"), timeout=30)
    ann.screenshot("stranger-answered.png")
    assert shown("bot.stale") not in ann.page.evaluate("window.notes")
    assert shown("prompt.timed_out") not in ann.text("private")
    assert not refusals(table), "the table refused a message:\n" + "".join(table.log)
    assert not errors
    assert (SHOTS / "stranger-answered.png").is_file()


IN_VIEW = "() => privateInView()"


def test_on_a_phone_a_private_message_out_of_sight_is_pointed_at(
    table: TableProcess, chromium: Any
) -> None:
    """On a phone the group stands above the private chat: the stranger pressed Start in the
    group, their dossier and first decision arrived below, out of sight, and nothing said so
    (Telegram tells of a new private message wherever one looks). A button now does, in the
    page's language, and takes them there."""
    context = chromium.new_context(
        viewport={"width": 390, "height": 844}, locale="de-DE", is_mobile=True, has_touch=True
    )
    try:
        ann = Player(context.new_page(), "Anna", seed=3, lang="de")
        ann.take_seat(table.url)
        ann.say("group", "/newgame")
        ann.wait_for_text("group", shown("lobby.title", "de"))
        ann.say("group", "/settings")
        ann.click_key("group", re.compile(r"^\s*3\s*$"))
        ann.click_key("group", shown("lobby.join", "de"))  # opens the private chat, below
        ann.wait_for_text("private", shown("lobby.joined", "de"))
        pointer = ann.page.locator("#to-private")
        ann.page.wait_for_function(IN_VIEW, timeout=5_000)  # its smooth scroll ends
        pointer.wait_for(state="hidden", timeout=5_000)  # the private chat is in sight
        ann.page.evaluate("window.scrollTo(0, 0)")  # back to the group, to press Start
        ann.click_key("group", shown("lobby.start", "de"))
        pointer.wait_for(state="visible", timeout=10_000)
        assert pointer.inner_text() == shown("table.new_private", "de")
        assert not ann.page.evaluate(IN_VIEW)
        ann.page.screenshot(path=SHOTS / "stranger-phone-pointer.png")
        pointer.click()
        ann.page.wait_for_function(IN_VIEW, timeout=5_000)
        assert not pointer.is_visible()
    finally:
        context.close()
