"""The Lambda package's build (deploy/package.py): byte code only of the runtime's Python, the
build failing without it, and botocore's service models trimmed to what the code calls (moved
from test_lambda_package.py, which had grown past 400 lines)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from deploy.package import (
    RUNTIME,
    RUNTIME_MAGIC,
    compile_byte_code,
    copy_package,
    missing_byte_code,
    without_documentation,
)
from tests.integration.test_lambda_package import PY312, ROOT


def _pyc(path: Path, magic: bytes, flags: int) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(magic + flags.to_bytes(4, "little") + bytes(8) + b"code")


def test_a_module_without_the_runtimes_byte_code_fails_the_build(tmp_path: Path) -> None:
    """Lambda's /var/task is read-only: a module shipped without byte code for the runtime's
    Python is compiled from source on every cold start (2.6 times the first update's CPU).
    The build's last step (``deploy/package.py --compile``) fails unless every module has
    unchecked-hash byte code of the runtime's version."""
    shipped = copy_package(tmp_path)
    sources = sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*.py"))
    assert len(sources) == len(shipped)
    assert missing_byte_code(tmp_path) == sources  # nothing compiled yet
    tag = f"cpython-{RUNTIME[0]}{RUNTIME[1]}"
    for source in tmp_path.rglob("*.py"):
        _pyc(source.parent / "__pycache__" / f"{source.stem}.{tag}.pyc", RUNTIME_MAGIC, 0b01)
    assert missing_byte_code(tmp_path) == []
    cache = tmp_path / "handlers" / "__pycache__"
    _pyc(cache / f"webhook.{tag}.pyc", RUNTIME_MAGIC, 0b11)  # checked hash: reads the source
    _pyc(cache / f"timer.{tag}.pyc", RUNTIME_MAGIC, 0)  # timestamp: stats and may recompile
    _pyc(cache / f"app.{tag}.pyc", b"\xf3\r\r\n", 0b01)  # another Python's
    (cache / f"runtime.{tag}.pyc").unlink()
    assert missing_byte_code(tmp_path) == [
        "handlers/app.py",
        "handlers/runtime.py",
        "handlers/timer.py",
        "handlers/webhook.py",
    ]


def test_byte_code_is_only_written_by_the_runtimes_python(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("deploy.package.RUNTIME", (2, 7))
    with pytest.raises(SystemExit, match="needs Python"):
        compile_byte_code(tmp_path)


def test_the_build_compiles_last_and_needs_a_python_of_the_runtime() -> None:
    """``sam build`` runs the Makefile's build targets: byte code is written (and checked) by
    the runtime's Python after everything else is in place, and without one the build fails."""
    from tests.integration.test_template import load_template

    runtime = load_template()["Globals"]["Function"]["Runtime"]
    assert runtime == f"python{RUNTIME[0]}.{RUNTIME[1]}"
    recipe = (ROOT / "Makefile").read_text().split("build-WebhookFunction build-TimerFunction:")[1]
    recipe = recipe.split("\n\n")[0]
    assert recipe.rstrip().endswith('"$(PY312)" deploy/package.py --compile "$(ARTIFACTS_DIR)"')
    assert 'test -n "$(PY312)" ||' in recipe and "exit 1" in recipe


@pytest.mark.skipif(not PY312, reason="no Python 3.12 on this machine")
def test_the_runtimes_python_compiles_every_shipped_module(tmp_path: Path) -> None:
    assert PY312 is not None
    copy_package(tmp_path)
    subprocess.run(
        [PY312, str(ROOT / "deploy" / "package.py"), "--compile", str(tmp_path)],
        check=True,
        capture_output=True,
    )
    assert missing_byte_code(tmp_path) == []


def test_the_shipped_models_keep_what_the_code_calls_but_their_documentation(
    tmp_path: Path,
) -> None:
    """The kept service models lose their documentation strings (~80% of their JSON, parsed by
    the first clients) and, for the services the code calls, the operations it does not call;
    nothing else: a shape member named ``documentation`` stays, what is kept is botocore's model
    unchanged, and botocore makes clients from them whose every kept operation resolves."""
    import gzip
    import json

    import botocore
    import botocore.session

    from deploy.package import (
        AWS_SERVICES,
        CALLED_SERVICES,
        called_operations,
        only_operations,
        trim_botocore,
    )

    shipped = Path(botocore.__file__).parent / "data"
    data = tmp_path / "botocore" / "data"
    data.mkdir(parents=True)
    shutil.copy(shipped / "endpoints.json", data)
    for service in AWS_SERVICES:
        shutil.copytree(shipped / service, data / service)

    def model(root: Path, service: str) -> Any:
        path = sorted(root.glob(f"{service}/*/service-2.json*"))[-1]
        opener: Any = gzip.open if path.suffix == ".gz" else open
        with opener(path, "rt", encoding="utf-8") as fp:
            return json.load(fp)

    before = {service: model(data, service) for service in AWS_SERVICES}
    trim_botocore(tmp_path)
    for service in AWS_SERVICES:
        after = model(data, service)
        whole = without_documentation(before[service])
        if service in CALLED_SERVICES:
            assert after == only_operations(whole, called_operations())
            assert all(whole["shapes"][k] == shape for k, shape in after["shapes"].items())
            assert after["metadata"] == whole["metadata"]
        else:
            assert after == whole
        assert "documentation" not in json.dumps(after)
        assert len(json.dumps(after)) < 0.5 * len(json.dumps(before[service]))
    member = {"members": {"documentation": {"shape": "String"}}, "documentation": "<p>x</p>"}
    assert without_documentation(member) == {"members": {"documentation": {"shape": "String"}}}

    def operations(data_path: str | None) -> dict[str, list[str]]:
        session = botocore.session.get_session()
        if data_path:
            session.set_config_variable("data_path", data_path)
        found = {}
        for service in CALLED_SERVICES:
            made = session.create_client(
                service, "eu-central-1", aws_access_key_id="a", aws_secret_access_key="b"
            )
            model = made.meta.service_model
            for name in model.operation_names:  # every shape the operation reaches resolves
                operation = model.operation_model(name)
                walk([operation.input_shape, operation.output_shape, *operation.error_shapes])
            found[service] = sorted(model.operation_names)
        return found

    trimmed = operations(str(data))
    assert trimmed == {
        "dynamodb": ["BatchGetItem", "GetItem", "TransactWriteItems"],
        "sqs": ["SendMessage"],
        "secretsmanager": ["GetSecretValue"],
    }
    whole_operations = operations(None)
    assert all(set(trimmed[s]) < set(whole_operations[s]) for s in CALLED_SERVICES)


def walk(shapes: list[Any], seen: set[str] | None = None) -> None:
    """Resolve every shape reachable from ``shapes`` (botocore resolves them lazily, and a
    missing one raises)."""
    seen = set() if seen is None else seen
    for shape in shapes:
        if shape is None or shape.name in seen:
            continue
        seen.add(shape.name)
        nested = list(getattr(shape, "members", {}).values())
        nested += [getattr(shape, k) for k in ("member", "key", "value") if hasattr(shape, k)]
        walk(nested, seen)


def test_the_called_operations_are_found_in_the_shipped_sources() -> None:
    """What keeps an operation in the package: its name called as a method in a shipped
    module. A call the package makes must be among them, or its client would lack it."""
    from deploy.package import called_operations

    called = called_operations()
    for operation in ("TransactWriteItems", "GetItem", "BatchGetItem", "SendMessage"):
        assert operation.lower() in called
    assert "getsecretvalue" in called and "putitem" not in called


def test_the_build_uses_the_projects_locked_tools_not_the_systems(tmp_path: Path) -> None:
    """``sam build`` on a fresh machine: the system's ``python3 -m pip`` may be missing (Debian
    and Ubuntu ship Python without pip) or of any version. The build installs the Lambda set with
    the dev lock's uv and runs the packaging with .venv's Python, so a build with no system
    Python at all (``PYTHON=/nonexistent``) names only the project's tools."""
    made = subprocess.run(
        [
            "make",
            "--no-print-directory",
            "-n",
            "build-WebhookFunction",
            f"ARTIFACTS_DIR={tmp_path}",
            "PYTHON=/nonexistent/python3",
            "PY312=/nonexistent/python3.12",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        env={"PATH": "/usr/bin:/bin"},
    )
    commands = made.stdout
    assert "/nonexistent/python3 " not in commands and "-m pip" not in commands, commands
    assert ".venv/bin/uv pip install" in commands and "--require-hashes" in commands
    assert ".venv/bin/python deploy/package.py" in commands
    locked = (ROOT / "requirements-dev.lock").read_text()
    assert locked.split("\nuv==")[1].split("\n")[1].strip().startswith("--hash=sha256:")
