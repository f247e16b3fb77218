# Two commands on a fresh machine: `make run` (the web server) and `make test` (install test tools and services, run everything).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
PURE_TESTS := tests/core tests/conformance tests/bots/test_ismcts.py

.PHONY: run test lint typecheck jscheck unit bench clean compile

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test,rl,openspiel,ray]'
	touch $(STAMP)

# The engines' hot modules compiled with mypyc (src/machiavel/speedups.py); quick when up
# to date. Without a C compiler machiavel runs pure Python (`make test` insists on both).
compile: $(STAMP)
	$(BIN)/python scripts/compile_engines.py

run: compile
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
	bash scripts/ensure-compiler.sh $(BIN)/python
	$(BIN)/python scripts/compile_engines.py --strict
	$(BIN)/pytest -n 2
	# the engines again in pure Python: the fallback must keep working
	MACHIAVEL_PURE_PYTHON=1 $(BIN)/pytest -n 2 $(PURE_TESTS)

bench: compile
	$(BIN)/machiavel bench

clean:
	-$(BIN)/python scripts/compile_engines.py --clean
	rm -rf $(VENV) build node_modules .mypy_cache .pytest_cache .ruff_cache .hypothesis
