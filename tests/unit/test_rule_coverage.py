"""Every rule id in docs/rules.md is cited by a test, and every card has a test named after it."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from engine.cards import ITEM_KINDS, OCCUPATIONS

RULES = Path(__file__).resolve().parents[2] / "docs" / "rules.md"
TESTS = Path(__file__).resolve().parents[1]
RULE_ID = re.compile(r"R-[A-Z]+\d+")
# in test names the dash is an underscore: test_R_T2_black_pearl_cannot_be_refused
CITED = re.compile(r"(?<![A-Za-z0-9])R[-_]([A-Z]+\d+)(?!\d)")


def rule_ids() -> list[str]:
    return sorted(set(RULE_ID.findall(RULES.read_text())))


def cited_ids() -> set[str]:
    cited: set[str] = set()
    for path in TESTS.rglob("*.py"):
        if path.name == Path(__file__).name:
            continue
        cited |= {f"R-{m}" for m in CITED.findall(path.read_text())}
    return cited


def test_rule_book_has_rule_ids() -> None:
    ids = rule_ids()
    assert len(ids) >= 40 and "R-S1" in ids and "R-A10" in ids and "R-D2" in ids


def test_every_rule_id_is_cited_by_a_test() -> None:
    uncited = [r for r in rule_ids() if r not in cited_ids()]
    print("uncited rule ids:", uncited)
    assert not uncited, f"no test cites {uncited}"


def test_the_citation_pattern() -> None:
    found = CITED.findall("def test_R_A10_x(): ...  # R-T3, XR_T9, R_W12")
    assert found == ["A10", "T3", "W12"]


def test_every_card_has_a_test_named_after_it() -> None:
    names: set[str] = set()
    for path in TESTS.glob("unit/test_rules_*.py"):
        tree = ast.parse(path.read_text())
        names |= {
            node.name
            for node in ast.walk(tree)
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_")
        }
    cards = [*ITEM_KINDS, *OCCUPATIONS, "drink_of_power"]
    missing = [c for c in cards if not any(c in name for name in names)]
    print("cards without a test:", missing)
    assert not missing, f"no test named after {missing}"
