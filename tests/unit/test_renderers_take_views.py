"""Issue 8: renderers take views, never the State. Hidden information leaves the engine only
through ``engine.view`` / ``engine.public_view`` and events filtered for their audience (R-V1,
R-V2), so the code that makes texts must not reach the state: it imports no engine module but
the card and action definitions, names no ``State``, and reads none of its fields."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

HANDLERS = Path(__file__).resolve().parents[2] / "handlers"
RENDERERS = sorted(
    [
        *(HANDLERS / "prompts").rglob("*.py"),
        *(HANDLERS / "story").rglob("*.py"),
        HANDLERS / "fmt.py",
    ]
)
# Constants and plain value types (the views' shapes, the kinds' enums); everything else in the
# engine takes a State.
# (engine.event_shapes: the event data's TypedDicts; engine.events: ``data_of``/``data_as``,
# typed access to it; no state)
ALLOWED_ENGINE_MODULES = {
    "engine.actions",
    "engine.cards",
    "engine.event_shapes",
    "engine.events",
    "engine.kinds",
    "engine.view_types",
}
# Fields of engine.state.State, Player and Pending that no view dict is read through.
STATE_FIELDS = {
    "players",
    "pending",
    "frames",
    "pile",
    "occ_deck",
    "boxed_assoc",
    "removed",
    "history",
    "result",
    "rng",
    "seed",
    "options",
    "turn_no",
    "next_id",
    "first",
    "over",
    "round",
    "actors",
    "done",
    "assoc",
    "association",
    "occupation",
    "occ_up",
    "occ_spent",
    "items",
    "notes",
    "timeouts",
    "away",
}
STATE_NAMES = {"State", "Player", "Pending", "clone", "from_dict"}


def engine_imports(tree: ast.AST) -> set[str]:
    """Every engine module imported, with ``from engine import x`` counted as ``engine.x``."""
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names if a.name.split(".")[0] == "engine"}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module == "engine":
                out |= {f"engine.{a.name}" for a in node.names}
            elif node.module.split(".")[0] == "engine":
                out.add(node.module)
    return out


def state_reads(tree: ast.AST) -> list[str]:
    # ``d.items()`` is a dict's method, not a Player's items
    methods = {
        id(n.func)
        for n in ast.walk(tree)
        if isinstance(n, ast.Call) and not n.args and not n.keywords
    }
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and id(node) in methods and node.attr == "items":
            continue
        if isinstance(node, ast.Attribute) and node.attr in STATE_FIELDS | STATE_NAMES:
            found.append(f"line {node.lineno}: .{node.attr}")
        elif isinstance(node, ast.Name) and node.id in STATE_NAMES:
            found.append(f"line {node.lineno}: {node.id}")
        elif isinstance(node, ast.arg) and node.arg in ("st", "state", "st_before", "st_after"):
            found.append(f"line {node.lineno}: parameter {node.arg}")
    return found


def test_renderer_modules_found() -> None:
    names = {m.relative_to(HANDLERS).as_posix() for m in RENDERERS}
    assert {"prompts/turn.py", "prompts/fight.py", "story/public.py", "story/table.py"} <= names


@pytest.mark.parametrize("module", RENDERERS, ids=lambda m: m.relative_to(HANDLERS).as_posix())
def test_renderers_import_no_state(module: Path) -> None:
    tree = ast.parse(module.read_text(), filename=str(module))
    bad = engine_imports(tree) - ALLOWED_ENGINE_MODULES
    assert not bad, f"{module.name} imports {sorted(bad)}"


@pytest.mark.parametrize("module", RENDERERS, ids=lambda m: m.relative_to(HANDLERS).as_posix())
def test_renderers_read_no_state_fields(module: Path) -> None:
    tree = ast.parse(module.read_text(), filename=str(module))
    found = state_reads(tree)
    assert not found, f"{module.name} reads the state: {found}"


@pytest.mark.parametrize("name", ["view_types", "kinds"])
def test_the_allowed_type_modules_reach_no_state(name: str) -> None:
    """Issue 28: the views' shapes and the kinds are definitions only: they import nothing of the
    engine that takes a State, so a renderer importing them still cannot reach one."""
    path = HANDLERS.parent / "engine" / f"{name}.py"
    tree = ast.parse(path.read_text(), filename=str(path))
    assert engine_imports(tree) <= ALLOWED_ENGINE_MODULES
    assert not state_reads(tree)


def test_the_checks_would_see_a_state_read() -> None:
    sample = ast.parse(
        "from engine import view\nfrom engine.state import State\n"
        "def f(st: State, seat: int) -> str:\n    return st.players[seat].name\n"
        "def g(me) -> int:\n    return len(me.items) + len({}.items())\n"
    )
    assert engine_imports(sample) == {"engine.view", "engine.state"}
    assert {"line 3: State", "line 4: .players", "line 3: parameter st"} <= set(state_reads(sample))
