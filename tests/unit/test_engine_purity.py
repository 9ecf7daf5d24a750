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
# The command-line simulator measures its own speed (issue #2: actions per second): it is a harness
# around the engine, never imported by it (checked below), so only it may read the clock.
HARNESS = {"simulate.py": {"time"}}
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
    allowed = HARNESS.get(module.name, set())
    bad = (imported(tree) & FORBIDDEN) - allowed
    assert not bad, f"{module.name} imports {sorted(bad)}"


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.name)
def test_no_clock_or_global_random_calls(module: Path) -> None:
    tree = ast.parse(module.read_text(), filename=str(module))
    allowed = HARNESS.get(module.name, set())
    calls = [
        f"{node.func.value.id}.{node.func.attr} (line {node.lineno})"
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id in {"time", "random"} - allowed
    ]
    assert not calls, f"{module.name} calls {calls}"


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.name)
def test_the_harness_is_not_imported_by_the_engine(module: Path) -> None:
    if module.name in HARNESS:
        return
    tree = ast.parse(module.read_text(), filename=str(module))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "engine":
            assert not {a.name for a in node.names} & {"simulate"}, module.name
        if isinstance(node, ast.ImportFrom | ast.Import):
            mods = (
                [node.module] if isinstance(node, ast.ImportFrom) else [a.name for a in node.names]
            )
            assert "devtools.simulate" not in mods, module.name
            if "testing" not in module.parts:
                assert not any(m and m.startswith("devtools.simulation") for m in mods), module.name


def test_the_checker_sees_forbidden_imports() -> None:
    tree = ast.parse("import os.path\nfrom time import monotonic\nfrom .x import y\n")
    assert imported(tree) == {"os", "time"}
