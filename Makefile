VENV ?= .venv
PY := $(VENV)/bin/python
PYTHON ?= python3
# Locked sets (hashes; `make lock` refreshes them): the runtime set for `make run`, the dev set
# (runtime + test tools) for everything else. Installs never resolve ranges: pip takes exactly
# the pinned files (--require-hashes, --no-deps). The code runs from the checkout (python -m);
# byte code is written on first import (compiling all of botocore up front took ~25 s).
RUN_LOCK := requirements.lock
DEV_LOCK := requirements-dev.lock
PIP_INSTALL := $(PY) -m pip install --require-hashes --no-deps --only-binary=:all: --no-compile

.PHONY: install run test test-slow lint typecheck cfn browser bench bench-package pace simulate clean lock build-WebhookFunction build-TimerFunction

$(PY):
	$(PYTHON) -m venv $(VENV)

# The runtime set only: what `make run` needs (a minute at most on a fresh machine).
$(VENV)/.runtime: $(RUN_LOCK) | $(PY)
	@echo "Installing the runtime packages ($(RUN_LOCK)) into $(VENV)..."
	$(PIP_INSTALL) --progress-bar on -r $(RUN_LOCK)
	touch $@

# The dev set: the runtime set and the test and lint tools.
$(VENV)/.installed: $(DEV_LOCK) | $(PY)
	@echo "Installing the runtime and dev packages ($(DEV_LOCK)) into $(VENV)..."
	$(PIP_INSTALL) --progress-bar on -r $(DEV_LOCK)
	@echo "Installed into $(VENV)."
	touch $(VENV)/.runtime $@

install: $(VENV)/.installed

run: $(VENV)/.runtime
	$(PY) -m devtools.local

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
# takes 10-25 minutes); `make test-slow` runs them. worksteal: an idle worker takes tests queued
# for the other, so the longest (run first, tests/conftest.py) never leave one worker waiting.
test: $(VENV)/.installed lint typecheck cfn browser
	$(VENV)/bin/pytest -n 2 --dist worksteal -m "not slow"

test-slow: $(VENV)/.installed browser
	$(VENV)/bin/pytest -n 0 -m slow -s

simulate: $(VENV)/.installed
	$(PY) -m devtools.simulate --games 5000 --players 3-10 --seed 1 --json

bench: $(VENV)/.installed
	$(PY) -m devtools.bench

# The first update's imports as Lambda runs them: the package built as `sam build` builds it
# (trimmed botocore, 3.12 byte code), for this machine's CPU, imported by a Python 3.12 that
# writes no byte code into it (Lambda's /var/task is read-only).
BENCH_PACKAGE := .bench-package
bench-package: $(VENV)/.installed
	test -n "$(PY312)"
	rm -rf $(BENCH_PACKAGE)
	$(MAKE) --no-print-directory build-WebhookFunction ARTIFACTS_DIR=$(abspath $(BENCH_PACKAGE)) \
		LAMBDA_PLATFORM=$(shell uname -m)-manylinux2014
	PYTHONPATH=$(BENCH_PACKAGE) $(PY312) -m devtools.bench --imports-only --package $(BENCH_PACKAGE)

pace: $(VENV)/.installed
	nice $(PY) -m devtools.pace

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache

# `sam build` calls these (BuildMethod: makefile; see template.yaml) with ARTIFACTS_DIR set. The
# package holds the runtime packages engine/, handlers/ and infra/ (deploy/package.py; test and
# operator tooling live in devtools/ and tests/, so they stay out by the layout) and the locked
# dependencies for arm64 CPython 3.12, compiled to byte code by a Python 3.12, which the build
# needs (Lambda ignores byte code of any other version, and its /var/task is read-only, so
# without it every cold start compiles every module: 2.6 times the first update's CPU). The
# tools are the project's own, from the dev lock (.venv's Python and uv), never the system's
# `python3 -m pip` (missing on a fresh Debian or Ubuntu, of any version elsewhere).
LAMBDA_LOCK := deploy/requirements-lambda.txt
LAMBDA_PLATFORM ?= aarch64-manylinux2014
PY312 ?= $(shell for p in python3.12 $$HOME/.pyenv/versions/3.12*/bin/python3.12; do \
	"$$p" -c 'import sys; assert sys.version_info[:2] == (3, 12)' 2>/dev/null && { echo "$$p"; break; }; done)

build-WebhookFunction build-TimerFunction: $(VENV)/.installed
	test -n "$(ARTIFACTS_DIR)"
	$(PY) deploy/package.py "$(ARTIFACTS_DIR)"
	$(UV) pip install --quiet --python $(PY) --no-deps --require-hashes --only-binary :all: \
		--target "$(ARTIFACTS_DIR)" --python-platform $(LAMBDA_PLATFORM) --python-version 3.12 \
		-r $(LAMBDA_LOCK)
	rm -rf "$(ARTIFACTS_DIR)"/bin "$(ARTIFACTS_DIR)"/.lock "$(ARTIFACTS_DIR)"/*.dist-info/RECORD
	$(PY) deploy/package.py --trim-botocore "$(ARTIFACTS_DIR)"
	@test -n "$(PY312)" || { echo "no Python 3.12 found: the package needs its byte code" \
		"(without it every cold start compiles every module); set PY312=/path/to/python3.12" >&2; exit 1; }
	"$(PY312)" deploy/package.py --compile "$(ARTIFACTS_DIR)"

# Refresh the three locks from pyproject.toml's ranges and deploy/requirements-lambda.in: the
# runtime and dev sets for CPython 3.11 and later on any platform (CI runs 3.11), the Lambda set
# for the template's runtime (CPython 3.12, arm64) at the runtime lock's versions. Then commit
# them; `make test` and `make run` reinstall from the new locks. Every package moves to the newest
# release its range allows (--upgrade): review the diff.
UV := $(VENV)/bin/uv
LOCK_FLAGS := --quiet --upgrade --generate-hashes --no-header --only-binary :all:
lock: $(VENV)/.installed
	$(UV) pip compile pyproject.toml $(LOCK_FLAGS) --universal --python-version 3.11 \
		-o $(RUN_LOCK)
	$(UV) pip compile pyproject.toml $(LOCK_FLAGS) --universal --python-version 3.11 \
		--extra dev -c $(RUN_LOCK) -o $(DEV_LOCK)
	$(UV) pip compile deploy/requirements-lambda.in $(LOCK_FLAGS) --python-version 3.12 \
		--python-platform aarch64-manylinux2014 -c $(RUN_LOCK) -o $(LAMBDA_LOCK)
