VENV ?= .venv
PY := $(VENV)/bin/python
PYTHON ?= python3

.PHONY: install run test lint typecheck cfn browser bench simulate clean build-WebhookFunction build-TimerFunction

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

test: $(VENV)/.installed lint typecheck cfn browser
	$(VENV)/bin/pytest -n 2

simulate: $(VENV)/.installed
	$(PY) -m engine.simulate --games 5000 --players 3-10 --seed 1 --json

bench: $(VENV)/.installed
	$(PY) -m handlers.bench

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache

# `sam build` calls these (BuildMethod: makefile) with ARTIFACTS_DIR set: package only the
# runtime code and its dependencies, for the Lambda's arm64 Python.
build-WebhookFunction build-TimerFunction:
	cp -r engine handlers infra "$(ARTIFACTS_DIR)/"
	$(PYTHON) -m pip install --quiet --target "$(ARTIFACTS_DIR)" --platform manylinux2014_aarch64 \
		--implementation cp --python-version 3.12 --only-binary=:all: -r requirements.txt
