# Two commands for a new user: `make run` and `make test`. Both set up .venv themselves.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
# Two installs, two stamps: `make run` (and `make bench`) installs what playing needs and no more;
# `make test` (and the lint and typecheck targets) everything the tests and tools need.
RUN_STAMP  := $(VENV)/.installed-run
TEST_STAMP := $(VENV)/.installed
# `make run PORT=8080 HOST=0.0.0.0`: where the web game listens
PORT ?= 8000
HOST ?= 127.0.0.1
# The compiled kernels (numba), built into numba's on-disk cache once after installing, so that
# no computer player compiles on its first move: the bots' for `make run`, every one for the
# tests. Redone when a kernel's source changes (numba's cache is keyed by its file).
KERNELS    := src/atout/jit.py src/atout/bots/rules/kernel.py src/atout/bots/expert/dealer.py \
              src/atout/bots/expert/likelihood.py src/atout/solver/fast.py \
              src/atout/batched/bits.py src/atout/batched/french.py src/atout/batched/austrian.py \
              src/atout/batched/two_player.py
WARM_RUN   := $(VENV)/.warmed-run
WARM_TEST  := $(VENV)/.warmed

.PHONY: run test lint typecheck bench clean i18n

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# solver-fast (numba): the compiled solver, playouts and dealings the computer players' speed counts on;
# --no-compile: Python compiles only the modules it runs, on first use, not every module installed
$(RUN_STAMP): pyproject.toml Makefile | $(BIN)/python
	$(BIN)/python -m pip install --quiet --no-compile -e '.[solver-fast]'
	$(BIN)/python -m pip check
	touch $(RUN_STAMP)

# dev: the test and lint tools; ray: tests/cli/test_arena_ray.py runs `atout arena --ray` on a
# local Ray cluster; magmacrunch: the independent bot's tests (its licence is noncommercial: README);
# rl: the research environments' tests (PettingZoo, Gymnasium, OpenSpiel)
$(TEST_STAMP): pyproject.toml Makefile | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev,solver-fast,ray,magmacrunch,rl]'
	$(BIN)/python -m pip check
	touch $(TEST_STAMP)

$(WARM_RUN): $(RUN_STAMP) $(KERNELS)
	$(BIN)/atout warm-up --no-solver
	touch $(WARM_RUN)

$(WARM_TEST): $(TEST_STAMP) $(KERNELS)
	$(BIN)/atout warm-up
	touch $(WARM_TEST)

run: $(RUN_STAMP) $(WARM_RUN)
	$(BIN)/atout serve --host $(HOST) --port $(PORT)

test: $(TEST_STAMP) $(WARM_TEST) lint typecheck
	$(BIN)/python -m pytest -n 2 tests src/atout

lint: $(TEST_STAMP)
	$(BIN)/ruff check src tests bench examples
	$(BIN)/ruff format --check src tests bench examples

typecheck: $(TEST_STAMP)
	$(BIN)/mypy

bench: $(RUN_STAMP)
	$(BIN)/python bench/engine.py

# the translations: extract the words from the sources into the templates, then merge them into
# every language's catalogue (src/atout/locale/<lang>/LC_MESSAGES/<domain>.po), new ones marked fuzzy
LOCALE := src/atout/locale
LANGS  := fr cs ja zh
i18n: $(TEST_STAMP)
	$(BIN)/pybabel -q extract -F babel.cfg --no-location --omit-header -o $(LOCALE)/atout.pot src/atout
	$(BIN)/pybabel -q extract -F babel.cfg --no-location --omit-header -o $(LOCALE)/page.pot src/atout/web/static
	for d in atout page; do for l in $(LANGS); do \
	  if [ -f $(LOCALE)/$$l/LC_MESSAGES/$$d.po ]; then \
	    $(BIN)/pybabel -q update --no-wrap -i $(LOCALE)/$$d.pot -d $(LOCALE) -D $$d -l $$l; \
	  else $(BIN)/pybabel -q init --no-wrap -i $(LOCALE)/$$d.pot -d $(LOCALE) -D $$d -l $$l; fi; \
	done; done

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
