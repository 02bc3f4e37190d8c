# Two commands on a fresh machine with Python 3.11+, git and make:
#   make demo   -- simulate, ingest and report (the main job)
#   make test   -- ruff, mypy and the whole pytest suite (the documentation site built --strict among it)
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-$(shell cat requirements.lock pyproject.toml ingest/_columnar*.c ingest/_columnar*.h engine/_splitmix.c schemas/_framecheck.c schemas/_framelayer.h schemas/xxhash.h | cksum | cut -d' ' -f1)

.PHONY: demo test lint docs bench soak lock golden clean fast pure

$(STAMP): requirements.lock pyproject.toml $(wildcard ingest/_columnar*.c ingest/_columnar*.h engine/_splitmix.c schemas/_framecheck.c schemas/_framelayer.h schemas/xxhash.h)
	rm -rf $(VENV)
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -r requirements.lock
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --no-deps --no-build-isolation -e .
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/annals demo

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

# Both cores: each test module's fixtures are built once, in the worker that runs the module (loadscope).
test: lint
	$(BIN)/pytest -n 2 --dist loadscope

# The documentation site (mkdocs.yml, docs/) into site/, warnings as errors; `make test` builds it too
# (tests/test_docs.py). Open site/index.html, or serve it with `.venv/bin/mkdocs serve`.
docs: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict

soak: $(STAMP)
	$(BIN)/pytest --soak -m soak

# Every benchmark at its make-bench sizes (bench/__main__.py: ~20 min at a load of 10-16 on 2 cores), each one's
# wall time and the load printed; `.venv/bin/python -m bench --full` runs each at its own defaults (hours).
bench: $(STAMP)
	$(BIN)/python -m bench

# The compiled engine (optional; engine/compiled.py): mypyc compiles the hot engine modules beside their sources
# (a few minutes; needs a C compiler). `annals --version` says which engine runs; `make pure` removes the build,
# ANNALS_PURE_PYTHON=1 ignores it, and an edited source makes the build stale (ignored) until `make fast` again.
fast: $(STAMP)
	$(BIN)/python -m annals.engine.native build

pure: $(STAMP)
	$(BIN)/python -m annals.engine.native clean

golden: $(STAMP)
	$(BIN)/python -m tests.golden.regenerate

# Re-resolve the pinned versions (needs the network); commit the result.
lock:
	rm -rf .lockenv && $(PYTHON) -m venv .lockenv
	.lockenv/bin/pip install --quiet --disable-pip-version-check --upgrade setuptools wheel && .lockenv/bin/pip install --quiet --disable-pip-version-check -e '.[dev,spark]'
	.lockenv/bin/pip freeze --exclude-editable --all | grep -v '^pip==' > requirements.lock
	rm -rf .lockenv

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache site build/mypyc
	rm -f engine/_native.json engine/_native__mypyc.*.so engine/core.*.so engine/runner.*.so engine/rng.*.so \
		engine/miras9/*.so engine/morana/*.so
