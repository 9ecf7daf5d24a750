"""A player at the local table: one browser page, clicking what a person would click."""

from __future__ import annotations

import contextlib
import functools
import random
import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from handlers.i18n import t

SHOTS = Path(__file__).resolve().parent / "screenshots"
LABEL = re.compile(r"<[^>]+>")


def shown(key: str, lang: str = "en", **params: object) -> str:
    """A catalog text as the page shows it (tags gone)."""
    return LABEL.sub("", t(lang, key, **params))


@dataclass(frozen=True)
class Labels:
    """The button labels and marks a player looks for, in one language."""

    game_over: str
    attacks: str
    attack: str
    claims: tuple[str, ...]
    finish: tuple[str, ...]
    never: tuple[str, ...]
    quick: tuple[str, ...]


@functools.cache
def labels(lang: str) -> Labels:
    def one(key: str) -> str:
        return shown(key, lang)

    return Labels(
        game_over=shown("game.final.title", lang, round=0).split(" · ")[0],  # "🏁 Game over"
        attacks=shown("game.fight.header", lang, attacker="\0", defender="\0").split("\0")[1],
        # "⚔️": attacking a player is one tap on the turn's first page (issue 27)
        attack=shown("game.btn.attack_player", lang, name="", items="")[:2],
        claims=(one("game.btn.claim"), one("game.btn.solo"), one("game.btn.fortune")),
        # Once a fight was seen, a claim ends the game sooner: declare as soon as rules allow.
        finish=tuple(
            one(f"game.btn.{k}") for k in ("confirm_solo", "confirm_claim", "solo", "claim")
        ),
        # going back and card help only slow a random player
        never=(one("game.btn.back"), "ℹ️"),
        # Answers that let the game go on at once; a player picks among them three times in
        # four, so games end in a bounded time while every other kind of button gets pressed.
        quick=tuple(
            one(f"game.btn.{k}")
            for k in (
                "pass",
                "done",
                "not_now",
                "support_neutral",
                "end",
                "continue",
                "keep_occupation",
            )
        ),
    )


EN = labels("en")
GAME_OVER, ATTACKS, ATTACK = EN.game_over, EN.attacks, EN.attack
CLAIMS, FINISH, NEVER, QUICK = EN.claims, EN.finish, EN.never, EN.quick


class Player:
    def __init__(self, page: Any, name: str, seed: int, lang: str = "en") -> None:
        self.page, self.name, self.labels = page, name, labels(lang)
        self.rng = random.Random(seed)
        self.clicks = 0

    def take_seat(self, url: str) -> None:
        self.page.goto(url)
        self.page.fill("#seat-name", self.name)
        self.page.click("#seat button[type=submit]")
        self.page.wait_for_selector("body[data-ready='1']")

    def screenshot(self, name: str) -> None:
        """Both chats at their newest message (clicking scrolls them, as a person's hand does)."""
        self.dismiss_alert()
        for down in self.page.locator(".down:visible").all():
            try:  # a chat that just scrolled down by itself (a new message) hides its arrow
                down.click(timeout=2_000)
            except Exception:  # Playwright's TimeoutError: nothing left to scroll
                continue
        self.page.screenshot(path=SHOTS / name)

    def say(self, chat: str, text: str) -> None:
        box = self.page.locator(f"#{chat} .composer input")
        box.fill(text)
        box.press("Enter")

    def text(self, chat: str) -> str:
        """What ``chat`` shows (its text content: cheaper than innerText on a long chat)."""
        return str(self.page.text_content(f"#{chat} .messages"))

    def wait_for_text(self, chat: str, text: str, timeout: float = 10.0) -> None:
        deadline = time.monotonic() + timeout
        while text not in self.text(chat):
            assert time.monotonic() < deadline, f"{text!r} never appeared in {chat}"
            time.sleep(0.1)

    def key(self, chat: str, label: str | re.Pattern[str]) -> Any:
        """The newest button in ``chat`` whose label starts with ``label``."""
        keys = self.page.locator(f"#{chat} .key").filter(has_text=label)
        keys.last.wait_for(timeout=10_000)
        return keys.last

    def click_key(self, chat: str, label: str | re.Pattern[str]) -> None:
        self.key(chat, label).click()
        self.settle()

    def settle(self) -> None:
        """Wait for the button's answer (its loading mark goes), as a person waits."""
        # (an answer lost to a restart never comes: the button unlocks itself after 15 s)
        with contextlib.suppress(Exception):
            self.page.wait_for_function(
                "window.unansweredPresses() === 0", timeout=3_000, polling=50
            )

    def dismiss_alert(self) -> None:
        """An alert covers the page (a person cannot scroll or press behind it): read, tap OK."""
        alert = self.page.locator("#alert")
        if alert.is_visible():
            alert.locator("button").click()

    def play_one(self, fight_seen: bool) -> bool:
        """Click one button of the newest private message with a keyboard; False if none."""
        keys = self.page.locator("#private .msg:has(.keyboard)").last.locator(
            ".key:not(.url):not(.loading)"
        )
        labels = [label.strip() for label in keys.all_inner_texts()]
        if not labels:
            return False
        mine = self.labels
        allowed = [
            i
            for i, label in enumerate(labels)
            if not label.startswith(mine.never)
            and (fight_seen or not label.startswith(mine.claims))
        ]
        if not allowed:
            return False
        preferred = (mine.attack,) if not fight_seen else mine.finish
        quick = [i for i in allowed if labels[i].startswith(mine.quick)]
        index = self.rng.choice(quick if quick and self.rng.random() < 0.75 else allowed)
        for wanted in preferred:
            found = [i for i in allowed if labels[i].startswith(wanted)]
            if found:
                index = found[0]
                break
        try:
            keys.nth(index).click(timeout=2_000)
        except Exception:  # the prompt was edited away under the pointer: look again
            return False
        self.clicks += 1
        self.settle()
        self.dismiss_alert()  # an alert it opened ("no longer open"...) hides the page
        return True
