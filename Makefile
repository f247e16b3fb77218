# Two commands on a fresh machine: `make run` (the web server) and `make test` (install test tools and services, run everything).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint typecheck jscheck unit bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test,rl,openspiel,ray]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/machiavel serve

test: $(STAMP) lint typecheck jscheck unit

lint: $(STAMP)
	$(BIN)/ruff check src tests $(wildcard benchmarks) scripts examples
	$(BIN)/ruff format --check src tests $(wildcard benchmarks) scripts examples

typecheck: $(STAMP)
	$(BIN)/mypy

# The page's JavaScript: the vendored morphdom is the pinned package unmodified, and the
# files marked // @ts-check pass tsc (JSDoc types; no build step: nothing is emitted).
jscheck:
	bash scripts/ensure-node.sh
	node scripts/vendor-morphdom.mjs --check
	node_modules/.bin/tsc --noEmit -p jsconfig.json

unit: $(STAMP)
	bash scripts/ensure-services.sh
	bash scripts/ensure-chromium.sh
	bash scripts/ensure-nginx.sh
	bash scripts/ensure-haproxy.sh
	$(BIN)/pytest -n 2

bench: $(STAMP)
	$(BIN)/machiavel bench

clean:
	rm -rf $(VENV) node_modules .mypy_cache .pytest_cache .ruff_cache .hypothesis
