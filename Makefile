# make demo | test | bench | api-docs | clean. Installs for real (not editable) into .venv, so the compiled
# core is what runs; the tree has no referee/ folder, so `import referee` is the installed one.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# a fresh build directory every time: nothing stale from an earlier build gets installed
INSTALL := rm -rf build && $(BIN)/python -m pip install

API_RELEASE := protos/released/referee-api-v1.json

# mutation testing (tests/mutation/mutate.py): GAME=<id> (or platform, or service; several separated by spaces)
# for one game, the CI sample: MUTATE_SAMPLE mutants drawn with MUTATE_SEED, on MUTATE_JOBS workers
MUTATE := $(BIN)/python tests/mutation/mutate.py
MUTATE_JOBS ?= 2
MUTATE_SAMPLE ?= 24
MUTATE_SEED ?= 13

.PHONY: demo test bench protos api-release api-docs api-docs-tool mutate mutate-sample browser-deps web clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

demo: $(BIN)/python
	$(INSTALL) '.[dev]'
	$(BIN)/referee demo --keep-serving

# pytest exit 5 (no test collected) is a failure too. The suite runs on every core (pytest-xdist,
# a test at a time to whichever worker is free); each test starts its own servers on free ports.
test: $(BIN)/python
	$(INSTALL) '.[dev,load,k8s]'
	$(BIN)/python .ci/check_build.py
	$(MAKE) protos
	$(MAKE) api-docs-tool
	$(MAKE) browser-deps
	$(BIN)/python -m pytest -q -n auto --dist worksteal || { rc=$$?; [ $$rc -ne 5 ] || echo "pytest collected no tests" >&2; exit $$rc; }
	$(MUTATE) run --sample $(MUTATE_SAMPLE) --seed $(MUTATE_SEED) --jobs $(MUTATE_JOBS)

# Debian's chromium and chromium-driver for the browser test (tests/api/test_browser.py) where
# apt-get can install them; elsewhere that test says why it skips
browser-deps:
	@command -v chromium >/dev/null && command -v chromedriver >/dev/null || \
	  apt-get install -y -q chromium chromium-driver >/dev/null 2>&1 || \
	  { apt-get update -q >/dev/null 2>&1 && apt-get install -y -q chromium chromium-driver >/dev/null 2>&1; } || \
	  echo "chromium and chromium-driver could not be installed: the browser test will skip" >&2

# rebuild the page at / of the HTTP port (service/web/static/app.js, committed): code generated from
# protos/ by protoc-gen-es, bundled with connect-web by esbuild, from the lock file
web: $(BIN)/python
	cd service/web && npm ci --no-audit --no-fund && PATH=$(CURDIR)/$(BIN):$$PATH npm run build

# every mutant of the rules core (or of GAME's modules), the score per module; hours on 2 cores
mutate: $(BIN)/python
	$(INSTALL) '.[dev]'
	$(MUTATE) run $(foreach g,$(GAME),--game $(g)) --jobs $(MUTATE_JOBS)

# the sample `make test` runs: fails when a sampled mutant survives and is not listed equivalent
mutate-sample: $(BIN)/python
	$(INSTALL) '.[dev]'
	$(MUTATE) run --sample $(MUTATE_SAMPLE) --seed $(MUTATE_SEED) --jobs $(MUTATE_JOBS)

# buf lint (STANDARD, no exemptions) and no breaking change against the last released API
protos: $(BIN)/python
	$(BIN)/buf lint protos
	$(BIN)/buf breaking protos --against $(API_RELEASE)

# the API reference, docs/api/ (committed; tests/test_api_docs.py fails when it is stale): sabledocs
# over the protos' descriptor set, in its own venv (it pins protobuf < 7), every package pinned
SABLEDOCS_VENV := $(VENV)/sabledocs
api-docs-tool: $(BIN)/python
	@test -x $(SABLEDOCS_VENV)/bin/sabledocs && cmp -s docs/sabledocs-requirements.txt $(SABLEDOCS_VENV)/requirements.txt || \
	  { rm -rf $(SABLEDOCS_VENV) && $(PYTHON) -m venv $(SABLEDOCS_VENV) && \
	    $(SABLEDOCS_VENV)/bin/python -m pip install -q -r docs/sabledocs-requirements.txt && \
	    cp docs/sabledocs-requirements.txt $(SABLEDOCS_VENV)/requirements.txt; }

api-docs: api-docs-tool
	$(BIN)/python docs/api_docs.py --sabledocs $(SABLEDOCS_VENV)/bin/sabledocs

# record the current API as the released one (then tag the commit: git tag api-vX.Y)
api-release: $(BIN)/python
	$(BIN)/buf build protos --exclude-source-info -o $(API_RELEASE)

bench: $(BIN)/python
	$(INSTALL) '.[dev]'
	$(BIN)/referee bench

clean:
	rm -rf build dist *.egg-info .pytest_cache .hypothesis .benchmarks .mutation
	find . -path ./$(VENV) -prune -o -name __pycache__ -type d -exec rm -rf {} +
