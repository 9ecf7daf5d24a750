"""Issue 28: action and decision kinds are enums end to end. No handler compares a kind (an
action's, a decision's, a reward's choice) with a string literal, nor asks ``Ask.of`` for one by
its string: a misspelt kind would then silently match nothing, where an enum member fails at once
(and mypy checks it)."""

from __future__ import annotations

import ast
from pathlib import Path

from engine.kinds import ActionKind, DecisionKind

ROOT = Path(__file__).resolve().parents[2]
KINDS = {k.value for k in ActionKind} | {k.value for k in DecisionKind}


def _kind_like(node: ast.expr) -> bool:
    """An expression that reads a kind: ``x.kind``, ``x["kind"]``, ``x.get("kind")``, a
    reward's ``["choice"]``, or a table of actions by kind (``kinds``)."""
    text = ast.unparse(node)
    return text.endswith((".kind", "['kind']", "get('kind')", "['choice']")) or text == "kinds"


def literal_kinds(path: Path) -> list[str]:
    """Where the module compares a kind with a string literal or asks ``.of`` for one."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            literals = [
                c
                for side in sides
                for c in ([side] if not isinstance(side, ast.Tuple) else side.elts)
                if isinstance(c, ast.Constant) and c.value in KINDS
            ]
            if literals and any(_kind_like(side) for side in sides):
                found.append(f"{path.name}:{node.lineno}: {ast.unparse(node)}")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            literal = bool(node.args) and isinstance(node.args[0], ast.Constant)
            asks = node.func.attr == "of" or (
                node.func.attr == "get" and _kind_like(node.func.value)
            )
            if literal and asks:
                found.append(f"{path.name}:{node.lineno}: {ast.unparse(node)}")
        elif (
            isinstance(node, ast.Subscript)
            and _kind_like(node.value)
            and isinstance(node.slice, ast.Constant)
            and node.slice.value in KINDS
        ):
            found.append(f"{path.name}:{node.lineno}: {ast.unparse(node)}")
    return found


def test_no_handler_compares_a_kind_with_a_string() -> None:
    modules = sorted((ROOT / "handlers").rglob("*.py"))
    assert [hit for path in modules for hit in literal_kinds(path)] == []


def test_the_check_finds_a_kind_compared_as_a_string(tmp_path: Path) -> None:
    """The check itself can fail: each form it looks for, written with a string."""
    module = tmp_path / "m.py"
    module.write_text(
        "a.of('use')\n"
        "x.kind == 'attack'\n"
        "x.kind in ('claim', 'solo')\n"
        "own.get('kind') == 'support'\n"
        "e.data['choice'] == 'look'\n"
        "'pass' in kinds\n"
        "kinds['end']\n"
        "kinds.get('keep_use')\n"
    )
    assert len(literal_kinds(module)) == 8
