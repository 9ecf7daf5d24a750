"""The engine is pure: no Telegram, AWS, network, clock, threads, OS or global random in it."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ENGINE = Path(__file__).resolve().parents[2] / "engine"
FORBIDDEN = {
    "telegram",
    "boto3",
    "botocore",
    "socket",
    "urllib",
    "http",
    "requests",
    "httpx",
    "asyncio",
    "time",
    "datetime",
    "random",
    "os",
    "threading",
    "secrets",  # the seed comes in with new_game: the bot draws it, the engine never does
}
MODULES = sorted(ENGINE.rglob("*.py"))  # the AI passengers in engine/ai too


def imported(tree: ast.AST) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def test_engine_modules_found() -> None:
    names = {m.name for m in MODULES}
    assert {"api.py", "core.py", "setup.py", "turn.py", "trade.py", "fight.py"} <= names


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.name)
def test_no_forbidden_imports(module: Path) -> None:
    tree = ast.parse(module.read_text(), filename=str(module))
    bad = imported(tree) & FORBIDDEN
    assert not bad, f"{module.name} imports {sorted(bad)}"


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.name)
def test_no_clock_or_global_random_calls(module: Path) -> None:
    tree = ast.parse(module.read_text(), filename=str(module))
    calls = [
        f"{node.func.value.id}.{node.func.attr} (line {node.lineno})"
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id in {"time", "random"}
    ]
    assert not calls, f"{module.name} calls {calls}"


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.name)
def test_the_engine_imports_only_itself(module: Path) -> None:
    """The playouts, their invariants and policies live in devtools/ and wrap the engine; the
    engine never imports them, nor the table, the adapters or the tests."""
    tree = ast.parse(module.read_text(), filename=str(module))
    assert not imported(tree) & {"devtools", "tests", "handlers", "infra", "deploy"}, module.name


def test_the_checker_sees_forbidden_imports() -> None:
    tree = ast.parse("import os.path\nfrom time import monotonic\nfrom .x import y\n")
    assert imported(tree) == {"os", "time"}
