# Two commands on a fresh machine: `make run` (the web server) and `make test` (install test tools and services, run everything).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint typecheck unit bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/machiavel serve

test: $(STAMP) lint typecheck unit

lint: $(STAMP)
	$(BIN)/ruff check src tests $(wildcard benchmarks) scripts
	$(BIN)/ruff format --check src tests $(wildcard benchmarks) scripts

typecheck: $(STAMP)
	$(BIN)/mypy

unit: $(STAMP)
	bash scripts/ensure-services.sh
	bash scripts/ensure-chromium.sh
	bash scripts/ensure-nginx.sh
	$(BIN)/pytest -n 2

bench: $(STAMP)
	$(BIN)/machiavel bench

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache .hypothesis
