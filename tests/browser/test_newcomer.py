"""What a newcomer meets at the local table, on a phone and in their own language.

A person who finds the repository runs `make run`, opens the page on whatever they hold and plays;
these tests do the same in Chromium at a phone's viewport (390×844) and check what such a person
would notice: a button label cut off, a message in a language the page is not in, a page wider
than the screen, a time written two ways in one bubble, a text key where a text belongs.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from typing import Any

import pytest

from handlers.i18n import LANGUAGES, t
from handlers.settings_view import duration
from tests.browser.player import SHOTS, Player, labels, shown
from tests.browser.process import TableProcess
from tests.browser.test_local_table import GAME_SECONDS, refusals

PHONE = {"width": 390, "height": 844}
LOCALE = {"en": "en-US", "de": "de-DE", "zh-Hans": "zh-CN"}
# Every toast and alert the page shows, as it appears (a toast is gone after 2.5 s).
NOTES = """
window.notes = [];
new MutationObserver((records) => {
  for (const record of records) {
    const node = record.target.nodeType === 1 ? record.target : record.target.parentElement;
    const box = node && node.closest && node.closest(".toast, #alert");
    if (box && box.textContent.trim()) window.notes.push(box.textContent.trim());
  }
}).observe(document, { subtree: true, childList: true, characterData: true });
"""
# What a person sees cut off or sticking out: a label wider than its button, the page wider than
# the screen, a page text still showing its catalog key.
FLAWS = """() => {
  const flaws = [];
  const root = document.documentElement;
  if (root.scrollWidth > root.clientWidth) flaws.push(`page ${root.scrollWidth}px wide`);
  const shown = ".key, header .name, header .sub, .me, .menu-button";
  for (const el of document.querySelectorAll(shown)) {
    if (el.offsetParent === null) continue;
    if (el.scrollWidth > el.clientWidth + 1) flaws.push(`cut off: ${el.textContent.trim()}`);
  }
  for (const el of document.querySelectorAll("[data-text]")) {
    if (el.textContent === el.dataset.text) flaws.push(`no text for ${el.dataset.text}`);
  }
  return flaws;
}"""
# What only a developer should read: the table's refusals in Telegram's English words.
RAW = re.compile(r"Bad Request|Forbidden|Unauthorized|Too Many Requests|Not Found|^[a-z_]+$")


@pytest.fixture
def phone(chromium: Any) -> Iterator[Any]:
    """A factory of phone pages, each a browser of its own in ``lang``; all closed after."""
    contexts: list[Any] = []

    def open_page(lang: str) -> Any:
        context = chromium.new_context(
            viewport=PHONE, locale=LOCALE[lang], is_mobile=True, has_touch=True
        )
        contexts.append(context)
        context.add_init_script(NOTES)
        page = context.new_page()
        page.errors = []
        page.on("pageerror", lambda error: page.errors.append(str(error)))
        return page

    yield open_page
    for context in contexts:
        context.close()


def flaws(page: Any) -> list[str]:
    return list(page.evaluate(FLAWS))


def raw_notes(page: Any) -> list[str]:
    return [note for note in page.evaluate("window.notes") if RAW.search(note)]


def test_settings_buttons_fit_a_phone_in_every_language(table: TableProcess, phone: Any) -> None:
    """Each of /settings' buttons shows its whole label on a phone, in every language (a row
    of seven cut "🤖 no AI" to "✅…", a row of three "Unterstützung 30s")."""
    ann = Player(phone("de"), "Ann", seed=1, lang="de")
    ann.take_seat(table.url)
    ann.say("group", "/settings")
    cut: dict[str, list[str]] = {}
    for lang in LANGUAGES:
        name = t(lang, "language.name")
        ann.click_key("group", re.compile(rf"^\s*(🌐|✅) {re.escape(name)}\s*$"))
        ann.key("group", f"✅ {name}")  # the menu now speaks ``lang``
        ann.page.locator("#group .key").last.scroll_into_view_if_needed()
        cut[lang] = flaws(ann.page)
    ann.screenshot("newcomer-settings.png")
    assert cut == {lang: [] for lang in LANGUAGES}


def test_a_button_changed_under_the_pointer_is_explained_in_the_page_language(
    table: TableProcess, phone: Any
) -> None:
    """A press on a button whose message changed before the page drew the change (a second tab
    of the same seat here; the bot's quick edits in a game) is refused by the table; the page
    says so in its own language, not in the table's English ("Bad Request: no such button")."""
    first = phone("de")
    ann = Player(first, "Ann", seed=1, lang="de")
    ann.take_seat(table.url)
    ann.say("group", "/settings")
    # a deadline's button: its data names the deadline it shows (a 🤖 number's never changes)
    turn = shown("settings.button.turn", "de", time=duration("de", 60))
    ann.key("group", turn)
    # a second tab of the same seat, which hears of no change (its long polls fail)
    behind = Player(first.context.new_page(), "Ann", seed=2, lang="de")
    behind.page.route("**/api/events*", lambda route: route.abort())
    behind.page.goto(table.url)
    behind.page.wait_for_selector("body[data-ready='1']")
    stale = behind.key("group", turn)
    ann.click_key("group", turn)  # the menu is edited: a new button for the turn
    ann.key("group", shown("settings.button.turn", "de", time=duration("de", 90)))
    stale.click()
    toast = behind.page.locator("#group .toast")
    toast.wait_for(state="visible")
    assert toast.inner_text() == t("de", "table.button_gone")


def test_message_times_read_as_the_deadlines_in_them(table: TableProcess, phone: Any) -> None:
    """A bubble's time is written as its deadline (``<tg-time>``) is: in the viewer's locale,
    not "22:01" beside "until 10:01:20 PM"."""
    ann = Player(phone("en"), "Ann", seed=1)
    ann.take_seat(table.url)
    ann.say("group", "/help")
    ann.wait_for_text("group", shown("help.group").split("\n")[0])
    meta = ann.page.locator("#group .msg .meta").last.inner_text()
    assert re.search(r"\d (AM|PM)$", meta), meta  # en-US writes 10:01 PM, never 22:01


def test_a_newcomer_plays_a_whole_game_on_a_phone(table: TableProcess, phone: Any) -> None:
    """A whole game in German on a phone beside AI passengers, reloading the page once mid-game
    as a newcomer does: every button readable, nothing in the table's English, no page error,
    the seat and its open decisions back after the reload."""
    page = phone("de")
    ann = Player(page, "Anna", seed=7, lang="de")
    mine = labels("de")
    ann.take_seat(table.url)
    ann.say("group", "/newgame")
    ann.wait_for_text("group", shown("lobby.title", "de"))
    ann.say("group", "/settings")
    ann.click_key("group", re.compile(r"^\s*5\s*$"))
    ann.click_key("group", shown("lobby.join", "de"))
    ann.wait_for_text("private", shown("lobby.joined", "de"))
    ann.click_key("group", shown("lobby.start", "de"))
    seen: set[str] = set()
    raw: list[str] = []
    reloaded = False
    deadline = time.monotonic() + GAME_SECONDS
    while mine.game_over not in ann.text("group"):
        assert time.monotonic() < deadline, "the game did not end in time"
        assert not refusals(table), "the table refused a message:\n" + "".join(table.log)
        seen.update(flaws(page))
        if not reloaded and mine.attacks in ann.text("group"):
            ann.screenshot("newcomer-phone-fight.png")
            raw.extend(raw_notes(page))  # the page forgets them on reload
            page.reload()
            page.wait_for_selector("body[data-ready='1']")
            assert not page.locator("#seat").is_visible(), "the seat was kept"
            assert shown("lobby.joined", "de") in ann.text("private")
            reloaded = True
        if not ann.play_one(mine.attacks in ann.text("group")):
            time.sleep(0.1)
    ann.screenshot("newcomer-phone-end.png")
    seen.update(flaws(page))
    assert reloaded and ann.clicks >= 3
    assert not seen, sorted(seen)
    assert not raw + raw_notes(page)
    assert not page.errors
    assert (SHOTS / "newcomer-phone-end.png").is_file()
