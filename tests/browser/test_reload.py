"""A page reload at the local table shows no 429 (the phone test reloads mid-game; a newcomer
presses F5 again and again): each reload's long poll takes the place of the one its page left
behind, which the table counted for 25 s (a few reloads in a row were ``429 Too Many
Requests`` in the console)."""

from __future__ import annotations

from typing import Any

from devtools.localtable.page_api import POLLS_PER_SEAT
from tests.browser.player import Player, shown
from tests.browser.process import TableProcess
from tests.browser.test_newcomer import PHONE


def test_reloading_again_and_again_meets_no_429(table: TableProcess, chromium: Any) -> None:
    context = chromium.new_context(viewport=PHONE, locale="en-US", is_mobile=True)
    page = context.new_page()
    statuses: list[tuple[int, str]] = []
    console: list[str] = []
    page.on("response", lambda r: statuses.append((r.status, r.url)))
    page.on("console", lambda m: console.append(m.text) if m.type == "error" else None)
    ann = Player(page, "Ann", seed=1)
    ann.take_seat(table.url)
    for _ in range(POLLS_PER_SEAT + 2):
        page.reload()
        page.wait_for_selector("body[data-ready='1']")
        page.wait_for_timeout(300)  # the page's long poll is open
    ann.say("group", "/help")  # the last page's poll still brings the bot's answer
    ann.wait_for_text("group", shown("help.group").split("\n")[0])
    context.close()
    assert [s for s in statuses if s[0] >= 400] == []
    assert console == []
