# Two commands: `make run` and `make test`. Both set everything up first and are idempotent.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000
# CRIBBAGEBBER over TCP (docs/protocols/cribbage.md); 0 turns it off.
CRIBBAGE_PORT ?= 7321
UMP_PORT ?= 7322
MMJ_PORT ?= 7323
MJAI_PORT ?= 11600

.PHONY: run test setup setup-test chromium axe migrate lint

run: setup migrate
	$(BIN)/python manage.py collectstatic --noinput -v 0
	$(BIN)/python manage.py serve --host $(HOST) --port $(PORT) --cribbage-port $(CRIBBAGE_PORT) --ump-port $(UMP_PORT) --mmj-port $(MMJ_PORT) --mjai-port $(MJAI_PORT)

# The suite runs in TEST_WORKERS processes (pytest-xdist; `auto`: one per core); tests/conftest.py
# says which tests share a worker.
TEST_WORKERS ?= auto
test: setup-test chromium axe haproxy mjai-bots
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadgroup

setup: $(VENV)/.installed-run

setup-test: $(VENV)/.installed-test

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed-run: requirements.txt $(VENV)/bin/python
	$(BIN)/python -m pip install --quiet -r requirements.txt
	touch $@

$(VENV)/.installed-test: requirements.txt requirements-test.txt $(VENV)/bin/python
	$(BIN)/python -m pip install --quiet -r requirements-test.txt
	touch $(VENV)/.installed-run $@

# PyPI mjai's bots, real peers of the mjai tests (tests/riichi/clients/test_mjaibot.py): AGPL, so in
# a venv of their own, never the project's (docs/dependencies.md).
MJAI_VENV := .venv-mjai
mjai-bots: $(MJAI_VENV)/.installed

$(MJAI_VENV)/.installed: tests/mjai-requirements.txt
	$(PYTHON) -m venv $(MJAI_VENV)
	$(MJAI_VENV)/bin/python -m pip install --quiet -r tests/mjai-requirements.txt
	touch $@

.PHONY: mjai-bots

# Browser tests drive Debian's own Chromium; Playwright never downloads a browser here.
chromium:
	@command -v chromium >/dev/null 2>&1 || { \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq chromium; }

# tests/scaleout/test_balancer.py and `make cluster` put Debian's HAProxy in front of the servers.
# Debian installs it in /usr/sbin, which a user's PATH may lack.
haproxy:
	@command -v haproxy >/dev/null 2>&1 || [ -x /usr/sbin/haproxy ] || { \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq haproxy; }

# HAProxy in front of WORKERS server processes on one PostgreSQL and one Redis, in the foreground
# until Ctrl-C (deploy/cluster.py, docs/deployment.md). HAProxy listens on HOST, PORT and the
# three TCP ports, as `make run` does; DATABASE_URL and REDIS_URL from the environment, else these.
# (Shell defaults, not make variables: a make variable set here, even for one target, would stop
# make passing the environment's DATABASE_URL and REDIS_URL to every other recipe, `make test`'s too.)
WORKERS ?= 2
cluster: setup haproxy
	$(BIN)/python manage.py collectstatic --noinput -v 0
	DATABASE_URL="$${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/test}" \
	REDIS_URL="$${REDIS_URL:-redis://127.0.0.1:6379/0}" $(BIN)/python deploy/cluster.py --workers $(WORKERS) \
		--host $(HOST) --port $(PORT) --cribbage-port $(CRIBBAGE_PORT) --ump-port $(UMP_PORT) --mmj-port $(MMJ_PORT)

.PHONY: haproxy cluster

# axe-core, pinned in tests/js/package-lock.json, is injected into pages by the accessibility test;
# `npm ci` runs only when the lock file is newer than the installed copy.
AXE := tests/js/node_modules/axe-core/axe.min.js
axe: $(AXE)

$(AXE): tests/js/package.json tests/js/package-lock.json
	@command -v npm >/dev/null 2>&1 || { \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq npm; }
	cd tests/js && npm ci --no-audit --no-fund --silent
	touch $@

migrate: setup
	$(BIN)/python manage.py migrate --noinput -v 0

lint: setup-test
	$(BIN)/ruff check .

# Rebuilds the Japanese font subset in static/fonts/ from Debian's fonts-noto-cjk (installed if
# missing) after the pages gained Japanese characters (docs/dependencies.md, "The Japanese font").
font: setup-test
	@[ -f /usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc ] || { \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq fonts-noto-cjk; }
	$(BIN)/python tools/build_cjk_font.py

.PHONY: font
