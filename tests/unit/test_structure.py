"""Issue 28: the structure holds. No import cycle among the modules of engine/, handlers/ and
infra/; no module over ``MAX_LINES`` lines but the engine's rule modules listed below (and the
tests); the renderers reach neither the adapters, nor Telegram's or AWS's libraries, nor the
store; the engine imports only itself and no I/O; nothing that ships imports the dev tools, and
the Lambda package leaves them out by its layout.

Imports are read from the source (``ast``), lazy ones inside functions and ``TYPE_CHECKING``
ones included, and followed through the first-party modules they reach."""

from __future__ import annotations

import ast
import functools
import sys
from pathlib import Path

import pytest

from deploy.package import SHIPPED, copy_package, module_path
from tests.unit.test_handler_imports import cycles, import_graph, imported_names

ROOT = Path(__file__).resolve().parents[2]
FIRST_PARTY = ("engine", "handlers", "infra", "devtools", "deploy")
MAX_LINES = 400
# Engine modules that hold one section of the rules whole and may be longer, each with why.
RULE_MODULES = {
    # R-A1…R-A10: an attack and all its windows (Priest, support, Hypnotist, boost, Doctor)
    # are one sequence of decisions over one fight frame; split, each part would reach into
    # the others' frame fields.
    "engine/fight.py": "R-A1…R-A10, the fight and its windows",
}
# Issue 28: being split by job in parallel (the pipeline into deduplication, the transaction
# and delivery; the presenter with it). The lead removes them from here after merging.
BEING_SPLIT: dict[str, str] = {}
# Third-party libraries a renderer must not reach, and I/O the engine must not do.
ADAPTER_LIBRARIES = {"telegram", "boto3", "botocore", "httpx", "s3transfer"}
IO_MODULES = {
    "os",
    "io",
    "socket",
    "http",
    "urllib",
    "sqlite3",
    "subprocess",
    "threading",
    "asyncio",
    "time",
    "datetime",
    "random",
    "secrets",
    "logging",
    "pathlib",
    "shutil",
    "tempfile",
    "selectors",
    "requests",
    *ADAPTER_LIBRARIES,
}


def module_name(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")


def sources(*packages: str) -> list[Path]:
    return sorted(
        path
        for package in packages
        for path in (ROOT / package).rglob("*.py")
        if "__pycache__" not in path.parts
    )


@functools.cache
def names_imported(module: str) -> frozenset[str]:
    path = module_path(module)
    assert path is not None, module
    return frozenset(imported_names(path, module))


def reach(start: list[str]) -> tuple[set[str], set[str]]:
    """(the first-party modules ``start`` imports, however indirectly, ``start`` included;
    the top-level names of everything else they import)."""
    seen: set[str] = set()
    outside: set[str] = set()
    todo = list(start)
    while todo:
        module = todo.pop()
        if module in seen or module_path(module) is None:
            continue  # ``from pkg import name`` where name is not a module
        seen.add(module)
        parts = module.split(".")
        todo.extend(".".join(parts[:i]) for i in range(1, len(parts)))  # its packages run too
        for name in names_imported(module):
            top = name.split(".")[0]
            if top in (*FIRST_PARTY, "tests"):
                todo.append(name)
            elif top and top != "__future__":
                outside.add(top)
    return seen, outside


# -- cycles ------------------------------------------------------------------------------------
def test_no_import_cycle_among_engine_handlers_and_infra() -> None:
    modules = [module_name(p) for p in sources("engine", "handlers", "infra")]
    assert {"engine.api", "handlers.app", "infra.ports"} <= set(modules)
    assert cycles(import_graph(modules)) == []


def test_no_import_cycle_among_any_first_party_modules() -> None:
    """The dev tools and the deploy script too (they import the runtime; nothing there may
    import them back, nor each other in a circle)."""
    modules = [module_name(p) for p in sources(*FIRST_PARTY)]
    assert {"devtools.presswalk", "devtools.botapi.emulator", "deploy.package"} <= set(modules)
    assert cycles(import_graph(modules)) == []


def package_of(module: str) -> str:
    path = module_path(module)
    assert path is not None
    return module if path.name == "__init__.py" else module.rpartition(".")[0]


def package_graph(modules: list[str]) -> dict[str, set[str]]:
    """Package -> the packages its modules import, but its own ancestors and descendants (a
    subpackage is part of its package: ``handlers.prompts`` reading ``handlers.fmt`` is the
    package reading itself)."""
    known = set(modules)
    graph: dict[str, set[str]] = {}
    for module in modules:
        a = package_of(module)
        graph.setdefault(a, set())
        for name in names_imported(module):
            if name not in known:
                continue
            b = package_of(name)
            if a != b and not b.startswith(a + ".") and not a.startswith(b + "."):
                graph[a].add(b)
    return graph


def test_no_import_cycle_among_the_subpackages() -> None:
    """Issue 28's package-cycle check at every level: ``handlers.story`` and
    ``handlers.prompts``, ``engine.ai`` and ``handlers``, the dev tools' own packages."""
    graph = package_graph([module_name(p) for p in sources(*FIRST_PARTY)])
    assert {"handlers.prompts", "handlers.story", "engine.ai", "devtools.botapi"} <= set(graph)
    assert cycles(graph) == []


def test_the_package_cycle_check_sees_a_cycle() -> None:
    assert cycles({"a.x": {"a.y"}, "a.y": {"a.x"}}) == [["a.x", "a.y", "a.x"]]


def test_no_import_cycle_among_the_packages() -> None:
    """The layers: ``engine`` imports neither other package, ``infra`` (the adapters) does not
    import ``handlers``; ``handlers`` imports both. Lazy and type-checking imports count."""
    reaches: dict[str, set[str]] = {}
    for package in ("engine", "handlers", "infra"):
        names = {n for p in sources(package) for n in names_imported(module_name(p))}
        reaches[package] = {n.split(".")[0] for n in names} & {"engine", "handlers", "infra"}
        reaches[package].discard(package)
    assert reaches == {"engine": set(), "infra": set(), "handlers": {"engine", "infra"}}


# -- sizes -------------------------------------------------------------------------------------
def oversized(paths: list[Path]) -> dict[str, int]:
    counts = {p.relative_to(ROOT).as_posix(): len(p.read_text().splitlines()) for p in paths}
    return {name: n for name, n in counts.items() if n > MAX_LINES}


def test_no_module_over_the_limit_but_the_listed_rule_modules() -> None:
    """Every first-party module outside tests/: dev tools and the deploy script included."""
    found = oversized(sources(*FIRST_PARTY))
    assert set(found) - set(RULE_MODULES) - set(BEING_SPLIT) == set(), found


def test_the_listed_exceptions_are_rule_modules_still_over_the_limit() -> None:
    """A stale entry is noticed: each names an existing module over the limit, the rule modules
    are the engine's (not its AI, not the table's)."""
    for name in RULE_MODULES:
        assert name.startswith("engine/") and not name.startswith("engine/ai/"), name
    listed = [ROOT / name for name in (*RULE_MODULES, *BEING_SPLIT)]
    assert all(p.is_file() for p in listed)
    assert set(oversized(listed)) == {*RULE_MODULES, *BEING_SPLIT}


def test_no_script_or_style_of_the_local_tables_page_over_the_limit() -> None:
    """The page's scripts and style are code too: app.js had grown to 416 lines (split by job:
    api.js, draw.js, act.js, app.js), each loaded by the page."""
    static = ROOT / "devtools" / "localtable" / "static"
    files = sorted(p for p in static.iterdir() if p.suffix in (".js", ".css", ".html"))
    assert {p.name for p in files} >= {"app.js", "index.html", "style.css"}
    assert oversized(files) == {}
    page = (static / "index.html").read_text()
    assert all(f'src="/static/{p.name}"' in page for p in files if p.suffix == ".js")


def test_the_size_check_sees_a_long_module(tmp_path: Path) -> None:
    (tmp_path / "x.py").write_text("x = 1\n" * (MAX_LINES + 1))
    (tmp_path / "y.py").write_text("y = 1\n" * MAX_LINES)
    counts = {p.name: len(p.read_text().splitlines()) for p in tmp_path.iterdir()}
    assert {n for n, k in counts.items() if k > MAX_LINES} == {"x.py"}


# -- the renderers -----------------------------------------------------------------------------
def renderers() -> list[str]:
    """The code that makes texts: the prompts, the story (the status line included:
    ``handlers.story.table.status_text``), the shared formatting, and a status renderer of its
    own if one is split out."""
    paths = [
        *sources("handlers/prompts", "handlers/story"),
        ROOT / "handlers" / "fmt.py",
        *sorted((ROOT / "handlers").glob("status*.py")),
    ]
    return [module_name(p) for p in paths]


def touches_the_store(module: str) -> bool:
    """The module names the store: its port, or a ``store`` it reads or writes."""
    path = module_path(module)
    assert path is not None
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ClassDef) and node.name == "DocumentStore":
            return True
        if isinstance(node, ast.Name) and node.id == "DocumentStore":
            return True
        if isinstance(node, ast.Attribute) and node.attr in ("store", "DocumentStore"):
            return True
        if isinstance(node, ast.arg) and node.arg == "store":
            return True
    return False


def test_renderer_modules_found() -> None:
    found = set(renderers())
    assert {"handlers.prompts.turn", "handlers.story.table", "handlers.fmt"} <= found


@pytest.mark.parametrize("renderer", renderers())
def test_renderers_reach_no_adapter_library_nor_the_store(renderer: str) -> None:
    modules, outside = reach([renderer])
    adapters = sorted(m for m in modules if m.split(".")[0] in ("infra", "devtools", "tests"))
    assert adapters == [], f"{renderer} reaches {adapters}"
    assert outside & ADAPTER_LIBRARIES == set(), renderer
    assert sorted(m for m in modules if touches_the_store(m)) == []


def test_the_store_check_sees_the_store() -> None:
    assert touches_the_store("handlers.unit_of_work")
    assert touches_the_store("infra.ports")
    assert not touches_the_store("handlers.fmt")


# -- the engine --------------------------------------------------------------------------------
def test_the_engine_reaches_only_itself_and_no_io() -> None:
    engine = [module_name(p) for p in sources("engine")]
    modules, outside = reach(engine)
    assert sorted(m for m in modules if m.split(".")[0] != "engine") == []
    assert outside & IO_MODULES == set()
    assert outside <= set(sys.stdlib_module_names)  # nothing third-party either


# -- the dev tools stay out --------------------------------------------------------------------
def test_nothing_that_ships_imports_the_dev_tools() -> None:
    """Not even lazily, inside a function, nor for the type checker only."""
    found = [
        f"{module}: {name}"
        for module in (module_name(p) for p in sources(*SHIPPED))
        for name in sorted(names_imported(module))
        if name.split(".")[0] in ("devtools", "tests")
    ]
    assert found == []


def test_the_dev_tools_live_in_devtools_only() -> None:
    """What issue 28 found in the runtime packages (pace, load, bench, engine/testing, the
    fakes, the playouts, the Telegram emulator) lives in devtools/ now."""
    tools = {"pace", "load", "bench", "capacity", "testing", "fakes", "simulate", "simulation"}
    tools |= {"emulator", "botapi", "localtable", "memory_store", "memory_messenger"}
    found = [
        p.relative_to(ROOT).as_posix()
        for p in sources(*SHIPPED)
        if tools & {p.stem, *p.relative_to(ROOT).parent.parts}
    ]
    assert found == []
    assert (ROOT / "devtools" / "pace.py").is_file() and (ROOT / "devtools" / "botapi").is_dir()


def test_the_lambda_package_is_the_runtime_packages_by_layout(tmp_path: Path) -> None:
    """deploy/package.py ships engine/, handlers/ and infra/ whole and nothing else: no list of
    names keeps a tool out (it has no string naming one)."""
    assert SHIPPED == ("engine", "handlers", "infra")
    shipped = set(copy_package(tmp_path))
    assert shipped == {module_name(p) for p in sources(*SHIPPED)}
    assert {p.name for p in tmp_path.iterdir()} == set(SHIPPED)
    tree = ast.parse((ROOT / "deploy" / "package.py").read_text())
    strings = {
        n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)
    }
    named = {s for s in strings if s.split(".")[0].split("/")[0] in ("devtools", "tests")}
    named |= {s for s in strings if s.rsplit("/", 1)[-1].removesuffix(".py") in ("pace", "load")}
    assert named == set()


# -- the type checker's strictness -------------------------------------------------------------
def test_mypy_names_every_type_argument_in_the_views_the_renderers_and_the_record() -> None:
    """Issue 28: ``disallow_any_generics`` (or stricter) on ``engine.views``, every renderer
    and ``handlers.game_record``; the story and the prompts name no ``Any`` at all."""
    import fnmatch
    import tomllib

    overrides = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]["overrides"]

    def matches(module: str, pattern: str) -> bool:
        """mypy's: ``a.*`` is ``a`` and every module under it."""
        return fnmatch.fnmatch(module, pattern) or module == pattern.removesuffix(".*")

    def flags(module: str) -> set[str]:
        return {
            flag
            for o in overrides
            if any(matches(module, pattern) for pattern in o["module"])
            for flag, on in o.items()
            if flag != "module" and on is True
        }

    for module in ["engine.views", "engine.events", "handlers.game_record", *renderers()]:
        assert "disallow_any_generics" in flags(module), module
    for module in renderers():
        assert "disallow_any_explicit" in flags(module), module
