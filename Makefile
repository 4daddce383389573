# PowerPortal: `make run` starts the demo, `make test` checks everything. Both install what they need.
SHELL := /bin/bash
# uv installed with `pip --user` lands here; the browser tests spawn `uv` by name too.
export PATH := $(HOME)/.local/bin:$(PATH)
UV := $(shell command -v uv 2>/dev/null || echo $(HOME)/.local/bin/uv)
HOST ?= 127.0.0.1
PORT ?= 8000
HAS_WEB := $(wildcard web/package.json)

.PHONY: run test install web lint typecheck pytest web-test bench clean

$(UV):
	python3 -m pip install --quiet --user uv==0.13.8 || python3 -m pip install --quiet uv==0.13.8

# The PDF exports' Chinese font (Noto Sans SC) from npm, locked by vendor/fonts/package-lock.json;
# npm ci runs again only when the lock is newer than the installed copy.
FONTS := vendor/fonts/node_modules/.package-lock.json

$(FONTS): vendor/fonts/package-lock.json vendor/fonts/package.json
	npm ci --prefix vendor/fonts --no-audit --no-fund --loglevel=error
	@touch $@

install: $(UV) $(FONTS)
	$(UV) sync --frozen --quiet

web: install
ifneq ($(HAS_WEB),)
	cd web && npm ci --no-audit --no-fund --loglevel=error
	$(UV) run powerportal openapi web/openapi.json
	cd web && npm run --silent gen:api && npm run --silent build
endif

run: web
	POWERPORTAL_SEED_DEMO=1 $(UV) run powerportal serve --host $(HOST) --port $(PORT)

lint: install
	$(UV) run ruff check src tests bench scripts
	$(UV) run ruff format --check src tests bench scripts

typecheck: install
	$(UV) run mypy

pytest: install
	$(UV) run pytest -q

web-test: web
ifneq ($(HAS_WEB),)
	cd web && npm run --silent lint && npm test && npm run e2e
endif

test: lint typecheck pytest web-test

bench: web
	$(UV) run python bench/api_bench.py

clean:
	rm -rf data .venv web/node_modules web/dist vendor/fonts/node_modules
