"""What the Lambda package holds: the runtime packages, nothing else.

    python deploy/package.py <ARTIFACTS_DIR>            # the first-party modules and catalogs
    python deploy/package.py --trim-botocore <ARTIFACTS_DIR>   # after the locked dependencies
    python3.12 deploy/package.py --compile <ARTIFACTS_DIR>     # last: the byte code, checked

copies the runtime packages (``SHIPPED``: ``engine/``, ``handlers/``, ``infra/``) and the catalogs
they read from the checkout. Test and operator tooling lives beside them (``devtools/``,
``tests/``), so it stays out by the layout, not by a list, and a new runtime module is shipped
without editing one (tests/integration/test_lambda_package.py checks that nothing shipped imports
the tooling). ``--trim-botocore`` keeps the service models of the services the code calls
(``AWS_SERVICES``) and drops the other ~440 from the shipped botocore: 28 MB of the package, and
about 140 ms of a cold start that botocore spends listing every service directory when it loads a
model; it also keeps only those services' entries in botocore's endpoint data
(``endpoints.json``: 1.25 MB of JSON that botocore parses whole when it makes its first client,
about 50 ms of CPU), and drops the kept models' documentation (``documentation``
strings, ~80% of a model's JSON; botocore reads them only to write docstrings), which its
first clients otherwise parse (~10 ms of CPU), and, in the models of the services the code calls
(``CALLED_SERVICES``), the operations no shipped module calls (``called_operations``: DynamoDB
keeps 3 of its 62, SQS and Secrets Manager 1 each), which each client otherwise parses and makes
methods for (~10 ms of a cold start's CPU). ``--compile`` writes every module's byte code for
the runtime's Python (``RUNTIME``): Lambda's /var/task is read-only, so a module shipped without
it is compiled from source on every cold start (the first update took 1.7 s of CPU instead of
0.65 s here); unchecked hashes, so no import reads a source to check it. It fails unless every
module has it (``missing_byte_code``). ``closure`` lists what the entry points can import (lazy
imports inside functions included): their third-party packages must be in the Lambda lock.
"""

from __future__ import annotations

import ast
import compileall
import functools
import gzip
import json
import py_compile
import re
import shutil
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
ENTRY_POINTS = ("handlers.webhook", "handlers.timer")
# The runtime packages: all of them ships, and only they do.
SHIPPED = ("engine", "handlers", "infra")
DATA = ("handlers/locales/*.json",)
# Every service infra.aws.client(...) is asked for on the Lambda path, and those botocore's
# credential providers may call (a role to assume, SSO): the models the package keeps.
AWS_SERVICES = ("dynamodb", "sqs", "secretsmanager", "sts", "sso", "sso-oidc")
# Those the code calls itself (the others are the credential providers'): their models keep only
# the operations the shipped code calls (``called_operations``).
CALLED_SERVICES = ("dynamodb", "sqs", "secretsmanager")
# template.yaml's runtime (python3.12): the only Python whose byte code Lambda will load, and the
# first bytes of that byte code (importlib.util.MAGIC_NUMBER, fixed within a minor version).
RUNTIME = (3, 12)
RUNTIME_MAGIC = (3531).to_bytes(2, "little") + b"\r\n"


def module_path(module: str) -> Path | None:
    base = ROOT.joinpath(*module.split("."))
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


def imported_names(path: Path, module: str) -> set[str]:
    """Every module an ``import`` anywhere in the file names (with ``from x import y``, both
    ``x`` and ``x.y``, since ``y`` may be a submodule)."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    names: set[str] = set()
    tree = ast.parse(path.read_text(), str(path))
    typing_only = {
        id(inner)
        for node in ast.walk(tree)
        if isinstance(node, ast.If)
        and ast.unparse(node.test) in ("TYPE_CHECKING", "typing.TYPE_CHECKING")
        for inner in ast.walk(node)
    }
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1])
                source = f"{base}.{node.module}" if node.module else base
            else:
                source = node.module or ""
            names.add(source)
            names.update(f"{source}.{alias.name}" for alias in node.names)
    return names


@functools.cache
def closure(
    entry_points: tuple[str, ...] = ENTRY_POINTS, first_party: tuple[str, ...] = SHIPPED
) -> tuple[set[str], set[str]]:
    """(modules of the ``first_party`` packages reachable from the entry points, third-party
    top-level names). Cached: callers must not change the sets."""
    seen: set[str] = set()
    third_party: set[str] = set()
    todo = list(entry_points)
    while todo:
        module = todo.pop()
        if module in seen:
            continue
        path = module_path(module)
        if path is None:
            continue  # ``from pkg import name`` where name is not a module
        seen.add(module)
        parts = module.split(".")
        todo.extend(".".join(parts[:i]) for i in range(1, len(parts)))  # parent packages
        for name in imported_names(path, module):
            if name.split(".")[0] in first_party:
                todo.append(name)
            elif name and name.split(".")[0] not in sys.stdlib_module_names:
                third_party.add(name.split(".")[0])
    return seen, third_party


def shipped_sources() -> list[Path]:
    """Every module of the runtime packages, in the checkout."""
    return sorted(
        path
        for package in SHIPPED
        for path in (ROOT / package).rglob("*.py")
        if "__pycache__" not in path.parts
    )


def copy_package(target: Path) -> list[str]:
    shipped = []
    for source in shipped_sources():
        relative = source.relative_to(ROOT)
        destination = target / relative
        destination.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source, destination)
        shipped.append(".".join(relative.with_suffix("").parts).removesuffix(".__init__"))
    for pattern in DATA:
        for source in ROOT.glob(pattern):
            destination = target / source.relative_to(ROOT)
            destination.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, destination)
    return shipped


def trim_botocore(
    target: Path, keep: tuple[str, ...] = AWS_SERVICES, called: tuple[str, ...] = CALLED_SERVICES
) -> int:
    """Remove the shipped botocore's service models but ``keep``'s, the other services'
    endpoint data, the kept models' documentation and, in ``called``'s service models, the
    operations the code does not call; the bytes removed."""
    data = target / "botocore" / "data"
    removed = 0
    for service in data.iterdir():
        if service.is_dir() and service.name not in keep:
            removed += sum(f.stat().st_size for f in service.rglob("*") if f.is_file())
            shutil.rmtree(service)
    removed += trim_endpoints(data, endpoint_prefixes(data, keep))
    operations = called_operations()
    return removed + sum(
        strip_documentation(
            model,
            operations
            if model.parts[-3] in called and model.name.startswith("service-2.")
            else None,
        )
        for model in sorted(data.glob("*/*/*.json*"))
    )


def called_operations() -> frozenset[str]:
    """The names of every method the shipped sources call (``client.get_item(``), lower-cased
    and without underscores: a model's operation ``GetItem`` is called if ``getitem`` is one.
    A name that is no operation, or another object's method, only keeps more."""
    names = set()
    for path in shipped_sources():
        names |= {
            n.replace("_", "") for n in re.findall(r"\.([a-z][a-z0-9_]*)\(", path.read_text())
        }
    return frozenset(names)


def only_operations(model: dict[str, Any], operations: frozenset[str]) -> dict[str, Any]:
    """``model`` with the operations named in ``operations`` (as ``called_operations`` names
    them) and the shapes they reach (their input, output and errors, and those shapes'
    members, at any depth); the rest of the model as it was."""
    kept = {k: v for k, v in model.get("operations", {}).items() if k.lower() in operations}
    shapes = model.get("shapes", {})
    todo = [
        ref["shape"]
        for operation in kept.values()
        for ref in [operation.get("input"), operation.get("output"), *operation.get("errors", [])]
        if ref
    ]
    reached: set[str] = set()
    while todo:
        name = todo.pop()
        if name in reached:
            continue
        reached.add(name)
        shape = shapes[name]
        todo += [member["shape"] for member in shape.get("members", {}).values()]
        todo += [shape[k]["shape"] for k in ("member", "key", "value") if k in shape]
    return {
        **model,
        "operations": kept,
        "shapes": {k: v for k, v in shapes.items() if k in reached},
    }


def without_documentation(value: Any) -> Any:
    """``value`` without any mapping's ``documentation`` string, at any depth (a shape's member
    that happens to be called so is a mapping, and stays)."""
    if isinstance(value, dict):
        return {
            k: without_documentation(v)
            for k, v in value.items()
            if not (k == "documentation" and isinstance(v, str))
        }
    if isinstance(value, list):
        return [without_documentation(v) for v in value]
    return value


def strip_documentation(path: Path, operations: frozenset[str] | None = None) -> int:
    """Rewrite a model file (``.json`` or ``.json.gz``) without its documentation strings and
    without indentation, compressed as it was, and, given ``operations``, with only those
    (``only_operations``); the bytes removed."""
    opener: Any = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as fp:
        model = without_documentation(json.load(fp))
    if operations is not None and "operations" in model:
        model = only_operations(model, operations)
    before = path.stat().st_size
    with opener(path, "wt", encoding="utf-8") as fp:
        json.dump(model, fp, separators=(",", ":"))
    return before - path.stat().st_size


def endpoint_prefixes(data: Path, services: tuple[str, ...]) -> set[str]:
    """The names ``endpoints.json`` knows ``services`` by: each model's ``endpointPrefix``
    (``sso`` is ``portal.sso``, ``sso-oidc`` is ``oidc``)."""
    prefixes = set()
    for service in services:
        for model in sorted((data / service).glob("*/service-2.json*")):
            opener: Any = gzip.open if model.suffix == ".gz" else open
            with opener(model, "rt", encoding="utf-8") as fp:
                prefixes.add(json.load(fp).get("metadata", {}).get("endpointPrefix", service))
    return prefixes


def trim_endpoints(data: Path, keep: set[str]) -> int:
    """Keep only ``keep``'s entries in each partition's ``services`` of botocore's
    ``endpoints.json`` (the partitions, their regions and defaults stay whole), written
    without indentation; the bytes removed."""
    path = data / "endpoints.json"
    if not path.is_file():
        return 0
    before = path.stat().st_size
    endpoints = json.loads(path.read_text(encoding="utf-8"))
    for partition in endpoints.get("partitions", []):
        services = partition.get("services", {})
        partition["services"] = {name: services[name] for name in services if name in keep}
    path.write_text(json.dumps(endpoints, separators=(",", ":")), encoding="utf-8")
    return before - path.stat().st_size


def compile_byte_code(target: Path) -> None:
    """Write the byte code of every module under ``target`` (unchecked hashes); run by the
    runtime's Python, since byte code is only loaded by the version that wrote it."""
    if sys.version_info[:2] != RUNTIME:
        raise SystemExit(
            f"byte code for the Lambda runtime needs Python {RUNTIME}, not {sys.version}"
        )
    mode = py_compile.PycInvalidationMode.UNCHECKED_HASH
    if not compileall.compile_dir(target, quiet=1, workers=0, invalidation_mode=mode):
        raise SystemExit(f"{target}: some modules did not compile")


def missing_byte_code(
    target: Path, tag: str = f"cpython-{RUNTIME[0]}{RUNTIME[1]}", magic: bytes = RUNTIME_MAGIC
) -> list[str]:
    """The modules under ``target`` that the runtime would compile from source on every cold
    start: no byte code for it beside them, or byte code that asks to check the source."""
    missing = []
    for source in sorted(target.rglob("*.py")):
        cached = source.parent / "__pycache__" / f"{source.stem}.{tag}.pyc"
        header = cached.read_bytes()[:8] if cached.is_file() else b""
        flags = int.from_bytes(header[4:8], "little") if len(header) == 8 else None
        # flags (PEP 552): bit 0 hash-based, bit 1 check the source; unchecked-hash is 0b01
        if header[:4] != magic or flags != 0b01:
            missing.append(source.relative_to(target).as_posix())
    return missing


if __name__ == "__main__":
    if sys.argv[1] == "--compile":
        compile_byte_code(Path(sys.argv[2]))
        if missing := missing_byte_code(Path(sys.argv[2])):
            raise SystemExit(f"{len(missing)} modules without byte code, e.g. {missing[:5]}")
        print("byte code written for every module", file=sys.stderr)
    elif sys.argv[1] == "--trim-botocore":
        removed = trim_botocore(Path(sys.argv[2]))
        print(
            f"botocore: {removed / 1e6:.1f} MB of unused models and endpoints left out",
            file=sys.stderr,
        )
    else:
        shipped = copy_package(Path(sys.argv[1]))
        print(f"{len(shipped)} modules packaged", file=sys.stderr)
