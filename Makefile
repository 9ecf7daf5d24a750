VENV ?= .venv
PY := $(VENV)/bin/python
PYTHON ?= python3

.PHONY: install run test test-slow lint typecheck cfn browser bench pace simulate clean lock build-WebhookFunction build-TimerFunction

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

# The browser tests (tests/browser) drive Debian's Chromium; as root (CI) it is installed when
# missing, with fonts for emoji and Chinese. Otherwise those tests skip and say why.
BROWSER_PACKAGES := chromium fonts-noto-color-emoji fonts-wqy-microhei
browser:
	@if [ -x /usr/bin/chromium ]; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
		echo "Installing Debian's Chromium for the browser tests: $(BROWSER_PACKAGES)"; \
		apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q $(BROWSER_PACKAGES); \
	else \
		echo "No /usr/bin/chromium and not root: the browser tests will be skipped (sudo apt-get install $(BROWSER_PACKAGES))."; \
	fi

# Tests marked slow are left out (a human's whole game in Chromium at the default deadlines
# takes 10-25 minutes); `make test-slow` runs them.
test: $(VENV)/.installed lint typecheck cfn browser
	$(VENV)/bin/pytest -n 2 -m "not slow"

test-slow: $(VENV)/.installed browser
	$(VENV)/bin/pytest -n 0 -m slow -s

simulate: $(VENV)/.installed
	$(PY) -m engine.simulate --games 5000 --players 3-10 --seed 1 --json

bench: $(VENV)/.installed
	$(PY) -m handlers.bench

pace: $(VENV)/.installed
	nice $(PY) -m handlers.pace

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache

# `sam build` calls these (BuildMethod: makefile; see template.yaml) with ARTIFACTS_DIR set. The
# package holds the modules the two entry points can import (deploy/package.py: test and
# operator tooling stays out) and the locked dependencies for arm64 CPython 3.12, compiled to
# byte code by a Python 3.12 when one is found (Lambda ignores byte code of any other version,
# and its /var/task is read-only, so without it every cold start compiles).
LAMBDA_LOCK := deploy/requirements-lambda.txt
PY312 ?= $(shell for p in python3.12 $$HOME/.pyenv/versions/3.12*/bin/python3.12; do \
	"$$p" -c 'import sys; assert sys.version_info[:2] == (3, 12)' 2>/dev/null && { echo "$$p"; break; }; done)

build-WebhookFunction build-TimerFunction:
	test -n "$(ARTIFACTS_DIR)"
	$(PYTHON) deploy/package.py "$(ARTIFACTS_DIR)"
	$(PYTHON) -m pip install --quiet --no-compile --no-deps --require-hashes \
		--target "$(ARTIFACTS_DIR)" --platform manylinux2014_aarch64 --implementation cp \
		--python-version 3.12 --only-binary=:all: -r $(LAMBDA_LOCK)
	rm -rf "$(ARTIFACTS_DIR)"/bin "$(ARTIFACTS_DIR)"/*.dist-info/RECORD
	if [ -n "$(PY312)" ]; then "$(PY312)" -m compileall -q -j 0 \
		--invalidation-mode unchecked-hash "$(ARTIFACTS_DIR)"; \
	else echo "no Python 3.12 found: shipping no byte code" >&2; fi

# Re-lock the Lambda dependencies (requirements.txt ranges) for arm64 CPython 3.12.
lock: $(VENV)/.installed
	$(PY) -m pip install --quiet --dry-run --ignore-installed --report .lock.json \
		--target .lock-target --platform manylinux2014_aarch64 --implementation cp \
		--python-version 3.12 --only-binary=:all: -r requirements.txt
	$(PY) deploy/lock.py .lock.json $(LAMBDA_LOCK)
	rm -rf .lock.json .lock-target
