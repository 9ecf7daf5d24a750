"""The phone keyboard's width model (``handlers.prompts.base``) against Chromium's own drawing.

``tests/unit/test_prompt_rows.py`` lays every prompt row against the model; this checks the model
draws no row whole that the local table would cut: the keyboard at the phone test's 390 px is
``KEYBOARD_PX`` wide, and every sampled real label the model says fits a row of n shows whole in
a row of n buttons drawn with the table's own style sheet (the phone test's criterion: a label
is cut when its button's ``scrollWidth`` exceeds its ``clientWidth``).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import engine
from handlers.prompts.base import GAP_PX, KEYBOARD_PX, MAX_PER_ROW, PAD_PX, fits, label_px
from tests.browser.player import Player
from tests.browser.process import TableProcess
from tests.browser.test_newcomer import LOCALE, PHONE
from tests.unit import playouts
from tests.unit.test_prompt_rows import LANGS, LONG, pages

STYLE = Path("devtools/localtable/static/style.css").resolve()
# A keyboard of the table's style, ``KEYBOARD_PX`` wide: each label in rows of 1..8 buttons.
DRAW = """([labels, width, most]) => {
  const board = document.createElement("div");
  board.className = "keyboard";
  board.style.width = `${width}px`;
  document.body.append(board);
  const out = [];
  for (const label of labels) {
    const shown = [];
    for (let n = 1; n <= most; n++) {
      const row = document.createElement("div");
      row.className = "keyrow";
      for (let i = 0; i < n; i++) {
        const key = document.createElement("button");
        key.className = "key";
        key.textContent = label;
        row.append(key);
      }
      board.append(row);
      const key = row.firstChild;
      shown.push(key.scrollWidth <= key.clientWidth + 1);
      row.remove();
    }
    const probe = document.createElement("span");
    probe.className = "key";
    probe.style.cssText = "position:absolute;padding:0;overflow:visible;flex:none";
    probe.textContent = label;
    document.body.append(probe);
    out.push([shown, probe.getBoundingClientRect().width]);
    probe.remove();
  }
  return out;
}"""


def sample_labels() -> list[str]:
    """The distinct button labels of every page of a few seeded games, in every language, with
    short and long names."""
    found: set[str] = set()
    for seed, names in ((0, playouts.NAMES), (1, playouts.NAMES), (2, LONG), (3, LONG)):
        for i, step in enumerate(playouts.game(seed, n=5 + seed, names=names)):
            aw = engine.awaiting(step.before)
            if aw is None or (aw.kind == "turn" and i % 4):
                continue
            for seat in aw.seats:
                for lang in LANGS:
                    for _, pr in pages(step.before, seat, lang):
                        found.update(label for row in pr.rows for label, _ in row)
    return sorted(found)


def draw(chromium: Any, labels: list[str]) -> list[tuple[list[bool], float]]:
    context = chromium.new_context(viewport=PHONE, locale=LOCALE["de"], is_mobile=True)
    page = context.new_page()
    page.set_content(
        '<!doctype html><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<style>{STYLE.read_text()}</style>"
    )
    drawn = page.evaluate(DRAW, [labels, KEYBOARD_PX, MAX_PER_ROW])
    context.close()
    return [(list(shown), float(width)) for shown, width in drawn]


def test_the_model_draws_no_row_whole_that_chromium_cuts(chromium: Any) -> None:
    labels = sample_labels()
    assert len(labels) > 300
    drawn = draw(chromium, labels)
    cut, loose = [], []
    for label, (shown, width) in zip(labels, drawn, strict=True):
        for n in range(1, MAX_PER_ROW + 1):
            if fits([label], n) and not shown[n - 1]:
                model = label_px(label)
                cut.append(f"{label!r} {n} a row: {width:.1f} px drawn, {model:.1f} model")
        # the model stays close: a row is not split for a label that would show whole
        if label_px(label) > 1.3 * width + 4:
            loose.append(f"{label!r}: {width:.1f} px drawn, {label_px(label):.1f} model")
    assert cut == []
    assert loose == []


def test_the_phone_keyboard_is_as_wide_as_the_model_says(
    table: TableProcess, chromium: Any
) -> None:
    """At 390 px the table draws a bubble's keyboard ``KEYBOARD_PX`` wide, its buttons
    ``GAP_PX`` apart with ``PAD_PX`` of padding (/settings' keyboard is the widest bubble)."""
    context = chromium.new_context(viewport=PHONE, locale=LOCALE["en"], is_mobile=True)
    ann = Player(context.new_page(), "Ann", seed=1)
    ann.take_seat(table.url)
    ann.say("group", "/settings")
    ann.key("group", re.compile(r"^\s*4\s*$"))
    measured = ann.page.evaluate(
        """() => {
          const board = [...document.querySelectorAll("#group .keyboard")].pop();
          const row = [...board.querySelectorAll(".keyrow")].find((r) => r.children.length > 1);
          const [a, b] = row.children;
          const style = getComputedStyle(a);
          return [board.getBoundingClientRect().width,
                  b.getBoundingClientRect().left - a.getBoundingClientRect().right,
                  parseFloat(style.paddingLeft) + parseFloat(style.paddingRight)];
        }"""
    )
    context.close()
    width, gap, pad = measured
    assert (round(width), round(gap), round(pad)) == (KEYBOARD_PX, GAP_PX, PAD_PX), measured
