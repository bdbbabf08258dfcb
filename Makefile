# Two commands for a new user: `make run` and `make test`. Both set up .venv themselves.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: run test lint typecheck bench clean

$(STAMP): pyproject.toml Makefile
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	# solver-fast (numba): the compiled solver and playouts the expert's time aims count on
	$(BIN)/python -m pip install --quiet -e '.[dev,ray,solver-fast]'
	# the independent bot the arena measures against (atout.bots.magmacrunch); its own
	# dependency, an arcade engine, serves only its terminal screens
	$(BIN)/python -m pip install --quiet --no-deps 'magmacrunch-tarot==0.1.1'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/atout play

test: $(STAMP) lint typecheck
	$(BIN)/python -m pytest -n 2 tests src/atout

lint: $(STAMP)
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench

typecheck: $(STAMP)
	$(BIN)/mypy

bench: $(STAMP)
	$(BIN)/python bench/engine.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
