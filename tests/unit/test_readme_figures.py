"""The README's test figures stay true: a count of tests or a suite's time is said with the
day it was measured ("22.5 min for 1509 tests", undated, was stale by 180 tests), and the
dated count is not above what pytest collects now (tests are added, seldom removed)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
COUNT = re.compile(r"(\d[\d,]*) tests\b")
DATED = re.compile(r"\b20\d\d-\d\d-\d\d\b")


def sentences(text: str) -> list[str]:
    return [s for s in re.split(r"(?<=[.;])\s+|\n\n", text.replace("\n", " \n")) if s.strip()]


def test_every_test_count_in_the_readme_names_the_day_it_was_measured() -> None:
    text = (ROOT / "README.md").read_text()
    counted = [s for s in sentences(text) if COUNT.search(s)]
    assert counted, "the README says how many tests there are"
    assert [s.strip() for s in counted if not DATED.search(s)] == []


def test_the_readmes_test_count_is_not_above_what_pytest_collects() -> None:
    text = (ROOT / "README.md").read_text()
    said = max(int(m.group(1).replace(",", "")) for m in COUNT.finditer(text))
    args = ["-o", "addopts=", "--collect-only", "-q", "-p", "no:cacheprovider"]
    collected = subprocess.run(
        [sys.executable, "-m", "pytest", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    ).stdout
    total = sum("::" in line for line in collected.splitlines())
    assert 0 < said <= total, (said, total)


def test_the_check_sees_an_undated_count() -> None:
    stale = "in a fresh clone, 22.5 min for 1509 tests).\n\nNothing else."
    assert [s for s in sentences(stale) if COUNT.search(s) and not DATED.search(s)]
