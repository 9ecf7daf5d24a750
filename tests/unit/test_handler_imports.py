"""Issue 13: the conversation's modules import one way. No two ``handlers`` modules import
each other, however indirectly. Lazy imports inside functions and ``TYPE_CHECKING`` ones count
(a cycle for the type checker is still two modules that need each other), so a newcomer can read
them bottom up; each room takes protocols, not the bot."""

from __future__ import annotations

import ast
from pathlib import Path

from deploy.package import module_path

ROOT = Path(__file__).resolve().parents[2]


def handler_modules() -> list[str]:
    return sorted(
        ".".join(p.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        for p in (ROOT / "handlers").rglob("*.py")
    )


def imported_names(path: Path, module: str) -> set[str]:
    """Every module an import anywhere in the file names (``from x import y``: ``x``, ``x.y``)."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            source = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1])
                source = f"{base}.{node.module}" if node.module else base
            names.add(source)
            names.update(f"{source}.{alias.name}" for alias in node.names)
    return names


def import_graph(modules: list[str]) -> dict[str, set[str]]:
    """Module -> the handlers modules it names in an import. A module's own packages count
    when named: ``from handlers.prompts import claim`` in ``handlers.prompts.turn`` reads the
    package ``handlers.prompts``, whose ``__init__`` imports ``turn`` (issue 28: that pair
    imported each other); importing ``handlers.prompts.claim`` names the sibling alone."""
    known = set(modules)
    graph: dict[str, set[str]] = {}
    for module in modules:
        path = module_path(module)
        assert path is not None
        graph[module] = {n for n in imported_names(path, module) if n in known - {module}}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One cycle through each module that is on one (depth-first search)."""
    found: list[list[str]] = []
    done: set[str] = set()

    def visit(module: str, path: list[str]) -> None:
        if module in path:
            found.append([*path[path.index(module) :], module])
            return
        if module in done:
            return
        for target in sorted(graph[module]):
            visit(target, [*path, module])
        done.add(module)

    for module in sorted(graph):
        visit(module, [])
    return found


def test_no_import_cycle_among_handlers_modules() -> None:
    graph = import_graph(handler_modules())
    assert "handlers.app" in graph and "handlers.lobby" in graph["handlers.app"]
    assert cycles(graph) == []


def test_no_import_cycle_in_any_first_party_package() -> None:
    """The engine, the adapters and the tools too (``from engine import premove`` in
    engine.api named the package whose ``__init__`` imports engine.api, issue 28)."""
    modules = sorted(
        ".".join(p.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        for package in ("engine", "handlers", "infra", "devtools")
        for p in (ROOT / package).rglob("*.py")
    )
    assert cycles(import_graph(modules)) == []


def test_the_cycle_finder_finds_a_cycle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(graph) == [["a", "b", "c", "a"]]


def test_no_room_imports_the_bot() -> None:
    """Lobby, settings, language, info and the running game take what they need as protocols."""
    graph = import_graph(handler_modules())
    rooms = [
        "handlers.lobby",
        "handlers.settings_menu",
        "handlers.language_menu",
        "handlers.info",
        "handlers.game_room",
        "handlers.commands",
    ]
    assert [room for room in rooms if "handlers.app" in graph[room]] == []


# The modules that may read the store themselves: the transaction's loads, delivery (its
# acknowledgements), the unit of work (every record a command reads), and the long-polling runner.
# (The tools that run beside the bot are in devtools/.)
STORE_READERS = {
    "handlers.txn_store",
    "handlers.delivery",
    "handlers.acks",  # merges the acknowledgements other processes wrote
    "handlers.unit_of_work",
    "handlers.polling",  # rearms the timers on start
}
STORE_READS = {"get", "get_many", "keys"}


def test_commands_read_the_store_only_through_the_unit_of_work() -> None:
    """Issue 13: a command's reads go through ``handlers.unit_of_work`` (loaded once per attempt
    with their versions), never straight from the store."""
    found = []
    for module in handler_modules():
        if module in STORE_READERS:
            continue
        path = module_path(module)
        assert path is not None
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if (
                isinstance(node, ast.Attribute)
                and node.attr in STORE_READS
                and isinstance(node.value, ast.Attribute | ast.Name)
                and (node.value.attr if isinstance(node.value, ast.Attribute) else node.value.id)
                == "store"
            ):
                found.append(f"{module}:{node.lineno}")
    assert found == []


PORTS = {"Messenger", "Sent", "FloodWait", "OutOfTime", "DocumentStore", "Timers", "Clock"}


def test_the_ports_have_one_home() -> None:
    """Issue 28: the adapters' ports are defined, and offered, in ``infra.ports`` alone: no other
    module defines one or re-exports it in ``__all__`` (handlers.messenger did). (The prompts'
    ``Rows`` of buttons is another type; a re-exported ``Rows`` is the port's.)"""
    found = []
    for package in ("engine", "handlers", "infra", "devtools"):
        for path in sorted((ROOT / package).rglob("*.py")):
            if path == ROOT / "infra" / "ports.py":
                continue
            for node in ast.parse(path.read_text(), str(path)).body:
                names: set[str] = set()
                if isinstance(node, ast.ClassDef):
                    names = {node.name}
                elif isinstance(node, ast.Assign | ast.AnnAssign):
                    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                    names = {t.id for t in targets if isinstance(t, ast.Name)}
                    if "__all__" in names and node.value is not None:
                        names = set(ast.literal_eval(node.value)) & (PORTS | {"Rows"})
                for name in names & PORTS:
                    found.append(f"{path.relative_to(ROOT)}: {name}")
    assert found == []


def test_the_game_room_reaches_the_engine_through_game_runner_only() -> None:
    """Issue 28: GameRunner is the only door to the engine for the running game's commands;
    the room names nothing of the engine but the refusal it catches (it called engine.view,
    legal_actions, awaiting, asked and premove.seat itself)."""
    path = ROOT / "handlers" / "game_room.py"
    named = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            named |= {a.name for a in node.names if a.name.split(".")[0] == "engine"}
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "engine":
            named |= {f"{node.module}.{a.name}" for a in node.names}
    assert named == {"engine.Rejected"}


# What changes a running game's state (engine.api), and the engine's inner modules.
ENGINE_MUTATORS = {"apply", "mark_away", "come_back", "new_game"}
ENGINE_INNER = {"engine.api", "engine.core", "engine.mechanics", "engine.state", "engine.ai"}


def engine_uses(path: Path) -> set[str]:
    """What of the engine a module names: ``engine.apply(…)``, ``from engine import apply``,
    ``from engine.api import apply`` and ``import engine.api`` (as ``engine.api``)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            if node.value.id == "engine":
                found.add(f"engine.{node.attr}")
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "engine":
            found.add(node.module or "")
            found |= {f"engine.{a.name}" for a in node.names if node.module == "engine"}
            found |= {f"engine.api.{a.name}" for a in node.names if node.module == "engine.api"}
        elif isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.split(".")[0] == "engine"}
    return found


def test_game_runner_is_the_only_door_that_changes_the_running_game() -> None:
    """Issue 28: only handlers/game_runner.py applies actions, marks a seat away or back, and
    asks the AI (whose Priest-window view patch lives in engine.ai.asked), and deals a new game
    (the lobby did, engine.new_game); no other handler reaches the engine's inner modules. The
    rest read views (engine.view, engine.public_view)."""
    doors: dict[str, set[str]] = {}
    for path in sorted((ROOT / "handlers").rglob("*.py")):
        used = engine_uses(path)
        mutating = {u for u in used if u.rpartition(".")[2] in ENGINE_MUTATORS}
        inner = {u for u in used if any(u == m or u.startswith(m + ".") for m in ENGINE_INNER)}
        if mutating or inner:
            doors[path.relative_to(ROOT).as_posix()] = mutating | inner
    assert set(doors) == {"handlers/game_runner.py"}, doors
    assert {"engine.apply", "engine.mark_away", "engine.come_back", "engine.new_game"} <= doors[
        "handlers/game_runner.py"
    ]


def test_the_door_check_would_see_a_second_door(tmp_path: Path) -> None:
    sample = tmp_path / "door.py"
    sample.write_text(
        "import engine\nfrom engine.api import mark_away\nfrom engine.ai import asked\n"
        "def f(st):\n    return engine.apply(st, None)\n"
    )
    assert {"engine.apply", "engine.api.mark_away", "engine.ai"} <= engine_uses(sample)
