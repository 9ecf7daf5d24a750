"""Browser tests: the local table (`make run` without a token) driven through headless Chromium.

Debian's ``chromium`` (``/usr/bin/chromium``, installed by ``make test`` when running as root)
is driven by Playwright's Python package; Playwright's own browser builds are never used.
Screenshots go to ``tests/browser/screenshots/`` (not committed) for a reviewer to look at.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.browser.player import SHOTS
from tests.browser.process import TableProcess, free_port

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture
def table(tmp_path: Path) -> Iterator[TableProcess]:
    process = TableProcess(tmp_path / "table.sqlite3", free_port())
    process.start()
    yield process
    process.stop()


@pytest.fixture(scope="module")
def chromium() -> Iterator[object]:
    if not CHROMIUM.is_file():
        pytest.skip(
            "the browser tests need Debian's chromium at /usr/bin/chromium: "
            "`make test` installs it when run as root, or: sudo apt-get install chromium"
        )
    from playwright.sync_api import sync_playwright

    SHOTS.mkdir(exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield browser
        browser.close()
