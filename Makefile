VENV ?= .venv
PY := $(VENV)/bin/python
PYTHON ?= python3

.PHONY: install run test lint typecheck cfn bench pace simulate clean build-WebhookFunction build-TimerFunction

$(VENV)/.installed: pyproject.toml
	@echo "Installing the project and its dev tools into $(VENV) (the first time takes a few minutes)..."
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --progress-bar on -e '.[dev]'
	@echo "Installed into $(VENV)."
	touch $@

install: $(VENV)/.installed

run: $(VENV)/.installed
	$(PY) -m handlers.local

lint: $(VENV)/.installed
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

typecheck: $(VENV)/.installed
	$(VENV)/bin/mypy

cfn: $(VENV)/.installed
	$(VENV)/bin/cfn-lint template.yaml

test: $(VENV)/.installed lint typecheck cfn
	$(VENV)/bin/pytest -n 2

simulate: $(VENV)/.installed
	$(PY) -m engine.simulate --games 5000 --players 3-10 --seed 1 --json

bench: $(VENV)/.installed
	$(PY) -m handlers.bench

pace: $(VENV)/.installed
	nice $(PY) -m handlers.pace

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache

# `sam build` calls these (BuildMethod: makefile) with ARTIFACTS_DIR set: package only the
# runtime code and its dependencies, for the Lambda's arm64 Python.
build-WebhookFunction build-TimerFunction:
	cp -r engine handlers infra "$(ARTIFACTS_DIR)/"
	$(PYTHON) -m pip install --quiet --target "$(ARTIFACTS_DIR)" --platform manylinux2014_aarch64 \
		--implementation cp --python-version 3.12 --only-binary=:all: -r requirements.txt
