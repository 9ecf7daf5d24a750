"""The Lambda package (deploy/package.py): the runtime packages only, and every import
satisfied."""

from __future__ import annotations

import ast
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from deploy.package import (
    ENTRY_POINTS,
    SHIPPED,
    closure,
    copy_package,
    imported_names,
    module_path,
)
from devtools.bench import FIRST_UPDATE_SETUP, LAMBDA_ENVIRONMENT
from handlers.runtime import FIRST_UPDATE_IMPORTS

ROOT = Path(__file__).resolve().parents[2]


def _python_of_the_runtime() -> str | None:
    """A Python of the Lambda runtime's version on this machine, found as the Makefile finds it."""
    candidates = [shutil.which("python3.12")]
    candidates += [str(p) for p in sorted(Path.home().glob(".pyenv/versions/3.12*/bin/python3.12"))]
    for candidate in filter(None, candidates):
        check = "import sys; assert sys.version_info[:2] == (3, 12)"
        if subprocess.run([candidate, "-c", check], capture_output=True).returncode == 0:
            return candidate
    return None


PY312 = _python_of_the_runtime()
# Nothing is taken from the Lambda runtime: botocore is shipped, at the version the tests run on.
RUNTIME_PROVIDED: set[str] = set()


def locked(lock: str) -> dict[str, str]:
    """{distribution: version} of a lock file."""
    text = (ROOT / lock).read_text()
    pins = re.findall(r"^([A-Za-z0-9_.-]+)==(\S+)", text, re.M)
    return {name.lower().replace("-", "_"): version for name, version in pins}


def locked_distributions() -> set[str]:
    return set(locked("deploy/requirements-lambda.txt"))


def test_entry_points_reach_what_the_first_update_imports() -> None:
    modules, _ = closure()
    assert set(ENTRY_POINTS) <= modules
    assert {m for m in FIRST_UPDATE_IMPORTS if m.split(".")[0] not in RUNTIME_PROVIDED} <= modules


def tooling_imports(root: Path) -> list[str]:
    """Every import, lazy ones inside functions included, of the test or operator tooling
    (``devtools``, ``tests``) by a module under ``root``."""
    found = []
    for path in sorted(root.rglob("*.py")):
        module = ".".join(path.relative_to(root).with_suffix("").parts)
        for name in sorted(imported_names(path, module)):
            if name.split(".")[0] in ("devtools", "tests"):
                found.append(f"{path.relative_to(root)}: {name}")
    return found


def test_the_built_package_imports_no_tooling(tmp_path: Path) -> None:
    """The layout keeps dev tools out of Lambda: only engine/, handlers/ and infra/ ship, whole,
    and none of their modules imports devtools/ or tests/ (not even lazily)."""
    copy_package(tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(SHIPPED)
    assert tooling_imports(tmp_path) == []


def test_the_tooling_check_sees_a_lazy_import(tmp_path: Path) -> None:
    (tmp_path / "handlers").mkdir()
    (tmp_path / "handlers" / "x.py").write_text("def f():\n    from devtools import fakes\n")
    (tmp_path / "handlers" / "y.py").write_text("import tests.fakes\n")
    assert tooling_imports(tmp_path) == [
        "handlers/x.py: devtools",
        "handlers/x.py: devtools.fakes",
        "handlers/y.py: tests.fakes",
    ]


def test_third_party_imports_are_locked_or_provided_by_the_runtime() -> None:
    _, third_party = closure()
    assert third_party - RUNTIME_PROVIDED - locked_distributions() == set()


def test_the_first_update_loads_no_telegram_library() -> None:
    """python-telegram-bot and httpx cost a cold start about 280 ms of imports (issue 12):
    the Lambda path talks to the Bot API through infra.bot_api on http.client, runs the
    gateway without asyncio and imports the AI only when an AI plays."""
    probe = "import sys; import {}; print(sorted(sys.modules))"
    out = subprocess.run(
        [sys.executable, "-c", probe.format(", ".join(FIRST_UPDATE_IMPORTS))],
        capture_output=True,
        text=True,
        check=True,
    )
    loaded = set(ast.literal_eval(out.stdout))
    assert "http.client" in loaded  # the probe sees what the modules import
    unwanted = {"telegram", "httpx", "httpcore", "anyio", "asyncio", "engine.ai"}
    assert loaded & unwanted == set()


def test_the_first_update_talks_to_aws_through_botocore() -> None:
    """The Lambda path calls AWS through botocore's clients (infra.aws), made once per
    container; boto3 and s3transfer are never imported."""
    probe = "import sys; import {}; {}; print(sorted(sys.modules))"
    out = subprocess.run(
        [
            sys.executable,
            "-c",
            probe.format(", ".join(FIRST_UPDATE_IMPORTS), FIRST_UPDATE_SETUP),
        ],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, **LAMBDA_ENVIRONMENT},
    )
    loaded = set(ast.literal_eval(out.stdout))
    assert {"infra.aws", "infra.dynamo_store", "botocore.client", "pydantic"} <= loaded
    assert {m for m in loaded if m.split(".")[0] in ("boto3", "s3transfer")} == set()


def test_the_package_ships_the_botocore_the_tests_run_on() -> None:
    """AWS advises shipping the SDK rather than taking the runtime's, which changes without
    notice: the Lambda lock pins botocore (and pydantic) at the dev lock's versions."""
    import botocore
    import pydantic

    lambda_lock, dev_lock = (
        locked("deploy/requirements-lambda.txt"),
        locked("requirements-dev.lock"),
    )
    for name in ("botocore", "pydantic", "pydantic_core", "jmespath", "urllib3"):
        assert lambda_lock[name] == dev_lock[name], name
    assert lambda_lock["botocore"] == botocore.__version__
    assert lambda_lock["pydantic"] == pydantic.VERSION


def test_the_first_update_imports_cover_a_whole_game() -> None:
    """The bench's first-update figure counts all a cold container imports: what the service
    is built from (runtime._build's own imports) and whatever a whole game's updates and timers
    import on the way (with in-memory fakes, which are left out)."""
    build = next(
        node
        for node in ast.walk(ast.parse((ROOT / "handlers" / "runtime.py").read_text()))
        if isinstance(node, ast.FunctionDef) and node.name == "_build"
    )
    built_from = set()
    for node in ast.walk(build):
        if isinstance(node, ast.ImportFrom) and node.module:
            named = (f"{node.module}.{alias.name}" for alias in node.names)
            built_from |= {node.module, *(m for m in named if module_path(m))}
    assert "infra.timed" in built_from  # ``from infra import timed`` counts
    assert built_from - {"infra"} <= set(FIRST_UPDATE_IMPORTS)
    probe = (
        "import sys; import {}; before = set(sys.modules); "
        "from devtools import bench; bench.play(4, 1); "
        "print(sorted(set(sys.modules) - before))"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe.format(", ".join(FIRST_UPDATE_IMPORTS))],
        capture_output=True,
        text=True,
        check=True,
    )
    runtime = {m for m in ast.literal_eval(out.stdout) if m.split(".")[0] in SHIPPED}
    assert runtime == set()


def test_closure_follows_lazy_imports_inside_functions() -> None:
    modules, _ = closure(("handlers.runtime",))
    # runtime imports these only inside _build, when the first update arrives
    assert {"handlers.app", "infra.dynamo_store", "infra.timers"} <= modules


def test_package_holds_every_runtime_module_and_the_catalogs(tmp_path: Path) -> None:
    shipped = copy_package(tmp_path)
    files = {p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*") if p.is_file()}
    assert "handlers/webhook.py" in files and "handlers/locales/en.json" in files
    assert closure()[0] <= set(shipped)
    in_checkout = {
        p.relative_to(ROOT).as_posix()
        for package in SHIPPED
        for p in (ROOT / package).rglob("*.py")
        if "__pycache__" not in p.parts
    }
    assert {f for f in files if f.endswith(".py")} == in_checkout
    assert len(shipped) == len(in_checkout)


def test_the_trimmed_botocore_keeps_every_service_the_package_calls(tmp_path: Path) -> None:
    from deploy.package import AWS_SERVICES, trim_botocore

    modules, _ = closure()
    called = set()
    for module in modules:
        path = module_path(module)
        assert path is not None
        called |= set(re.findall(r"aws\.client\(\"([\w-]+)\"", path.read_text()))
    assert called == {"dynamodb", "sqs", "secretsmanager"}
    assert called <= set(AWS_SERVICES)

    data = tmp_path / "botocore" / "data"
    for service in ("dynamodb", "sqs", "s3", "ec2"):
        (data / service / "2020-01-01").mkdir(parents=True)
        (data / service / "2020-01-01" / "service-2.json").write_text("{}")
    (data / "endpoints.json").write_text("{}")
    assert trim_botocore(tmp_path) == 4
    assert sorted(p.name for p in data.iterdir()) == ["dynamodb", "endpoints.json", "sqs"]


IMPORT_NAMES = {
    "python-telegram-bot": "telegram",
    "typing-extensions": "typing_extensions",
}  # distribution -> the name imported


def test_declared_runtime_dependencies_are_what_the_code_imports() -> None:
    """pyproject.toml's runtime set names exactly the third-party packages engine/, handlers/
    and infra/ import (typing-only imports aside), and `make run` (devtools.local, with the
    local table) needs no other, so it installs what it needs."""
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    declared = {
        IMPORT_NAMES.get(name, name)
        for name in (re.split(r"[<>=\[ ;]", spec)[0] for spec in project["dependencies"])
    }
    imported = set()
    for package in SHIPPED:
        for path in (ROOT / package).rglob("*.py"):
            module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            for name in imported_names(path, module):
                top = name.split(".")[0]
                if top and top not in sys.stdlib_module_names and top not in SHIPPED:
                    imported.add(top)
    assert imported - {"__future__"} == declared
    _, run_needs = closure(("devtools.local",), (*SHIPPED, "devtools"))
    assert run_needs - {"__future__"} <= declared


def test_the_trimmed_endpoint_data_resolves_every_kept_service_as_the_whole_does(
    tmp_path: Path,
) -> None:
    """botocore parses all of endpoints.json (1.25 MB) for its first client: the package keeps
    the entries of the services it ships, and clients resolve the same endpoints from it in
    every partition."""
    import shutil

    import botocore
    import botocore.session

    from deploy.package import AWS_SERVICES, trim_botocore

    shipped = Path(botocore.__file__).parent / "data"
    data = tmp_path / "botocore" / "data"
    data.mkdir(parents=True)
    shutil.copy(shipped / "endpoints.json", data)
    for service in AWS_SERVICES:
        shutil.copytree(shipped / service, data / service)
    whole = (data / "endpoints.json").stat().st_size
    assert trim_botocore(tmp_path) > 0.9 * whole
    assert (data / "endpoints.json").stat().st_size < 0.05 * whole

    def endpoints(data_path: str | None) -> list[tuple[str, str, str]]:
        session = botocore.session.get_session()
        if data_path:
            session.set_config_variable("data_path", data_path)  # searched before botocore's
        found = []
        for service in AWS_SERVICES:
            for region in ("eu-central-1", "us-east-1", "cn-north-1", "us-gov-west-1"):
                made = session.create_client(
                    service, region, aws_access_key_id="a", aws_secret_access_key="b"
                )
                found.append((service, region, made.meta.endpoint_url))
        return found

    trimmed = endpoints(str(data))
    assert trimmed == endpoints(None)
    assert ("sqs", "cn-north-1", "https://sqs.cn-north-1.amazonaws.com.cn") in trimmed


def test_the_bench_measures_with_the_functions_settings_that_change_imports() -> None:
    """pydantic looks through every installed distribution for plugins when it builds its first
    model unless told there are none: the functions tell it, and the bench measures the same."""
    from tests.integration.test_template import load_template

    variables = load_template()["Globals"]["Function"]["Environment"]["Variables"]
    assert variables["PYDANTIC_DISABLE_PLUGINS"] == "__all__"
    assert LAMBDA_ENVIRONMENT["PYDANTIC_DISABLE_PLUGINS"] == "__all__"


# Third-party packages a cold container's first update may import, and what must never be on
# its path (each costs tens of milliseconds of a cold start, or belongs to other entry points).
FIRST_UPDATE_THIRD_PARTY = {
    "botocore",  # and what it needs:
    "urllib3",
    "dateutil",
    "jmespath",
    "six",
    "certifi",  # when installed; botocore's own CA bundle otherwise
    "pydantic",  # and what it needs:
    "pydantic_core",
    "annotated_types",
    "typing_extensions",
    "typing_inspection",
}
NEVER_ON_THE_FIRST_UPDATE = {
    "boto3",
    "s3transfer",
    "pydantic_settings",
    "telegram",
    "httpx",
    "moto",
    "asyncio",
    "sqlite3",
    "multiprocessing",
    "argparse",
    "unittest",
    "ctypes",
    "engine.ai",
    "handlers.polling",
    "infra.sqlite_store",
    "devtools",
    "tests",
}


def test_no_heavy_import_sneaks_onto_the_first_update() -> None:
    """An import budget that a loaded machine cannot make flaky: which modules the first
    update (its imports and AWS clients, in a fresh interpreter) loads, not how long it takes.
    A new third-party package or a known-heavy module on that path fails here; if it must be
    there, measure it with ``make bench-package`` and say so in the README."""
    probe = (
        "import sys; before = set(sys.modules); import {}; {}; "
        "print(sorted(set(sys.modules) - before))"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe.format(", ".join(FIRST_UPDATE_IMPORTS), FIRST_UPDATE_SETUP)],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, **LAMBDA_ENVIRONMENT},
    )
    loaded = set(ast.literal_eval(out.stdout))
    tops = {m.split(".")[0] for m in loaded}
    stdlib = {t for t in tops if t in sys.stdlib_module_names or t.startswith("_sysconfigdata")}
    third_party = tops - stdlib - set(SHIPPED)
    assert third_party <= FIRST_UPDATE_THIRD_PARTY
    assert {"botocore", "pydantic"} <= third_party  # the probe sees the imports
    heavy = {m for m in loaded if m in NEVER_ON_THE_FIRST_UPDATE}
    heavy |= {t for t in tops if t in NEVER_ON_THE_FIRST_UPDATE}
    assert heavy == set()
