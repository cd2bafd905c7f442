# Two commands, from a fresh machine that has Python 3.11 and the package index:
#   make serve   set up, then serve the conformance site on http://127.0.0.1:8000
#   make test    set up, then run the whole check (.ci/run calls this)
PYTHON ?= python3.11
TOOLS  := .tools
UV     := $(TOOLS)/bin/uv
VENV   := .venv
export UV_PYTHON_DOWNLOADS := never
# uv does not compile bytecode by default: the first import of the MkDocs stack would compile
# it (about 2x the import time, every time on a clean clone, as CI runs). Compiled at set-up.
export UV_COMPILE_BYTECODE := 1
export NO_MKDOCS_2_WARNING := 1

.PHONY: setup serve build test quick record check bench mutation browser clean

# When make began: the suite times its set-up from here (benchmarks/suite.py --since).
STARTED := $(shell date +%s.%N)

$(UV):
	$(PYTHON) -m venv $(TOOLS)
	$(TOOLS)/bin/python -m pip install --quiet --disable-pip-version-check uv==0.13.9

# The environment is rebuilt from the lock whenever the project or the lock changes.
$(VENV)/.synced: pyproject.toml uv.lock | $(UV)
	$(UV) sync --locked --all-extras --python $(PYTHON)
	touch $@

# Each other SDK release the model speaks is recorded from its own locked environment:
# releases/<package>-<version>/ holds its pyproject.toml and uv.lock, and gets its own .venv/.
RELEASE_ENVS := $(patsubst %/pyproject.toml,%/.venv/.synced,$(wildcard releases/*/pyproject.toml))

releases/%/.venv/.synced: releases/%/pyproject.toml releases/%/uv.lock | $(UV)
	cd releases/$* && $(CURDIR)/$(UV) sync --locked --python $(PYTHON)
	touch $@


# The in-browser runtime (Pyodide, from npm, as package-lock.json pins it). Without npm the
# site is built without it: its check page and playground say so, and their tests are skipped.
node_modules/.package-lock.json: package.json package-lock.json
	@if command -v npm >/dev/null 2>&1; then npm ci --no-audit --no-fund; \
	else echo "npm not found: the site is built without the in-browser engine (install Node >= 18 for it)"; fi

# The checkout's own code is compiled too: uv compiles what it installs, not the sources of the
# project itself, and a machine with PYTHONDONTWRITEBYTECODE set (as this image has) would
# otherwise compile the whole package again in every process (a build's hook: 0.24 s against
# 0.09 s). compileall skips what is up to date; a file edited later is compiled as it is imported.
setup: $(VENV)/.synced $(RELEASE_ENVS) node_modules/.package-lock.json
	$(VENV)/bin/python -m compileall -q -j 0 agent_loop_sim hooks conformance scripts

serve: setup
	$(VENV)/bin/mkdocs serve --dirty -a 127.0.0.1:8000

build: setup
	$(VENV)/bin/mkdocs build --strict

browser:
	bash scripts/ensure_chromium.sh

# The whole check (benchmarks/suite.py's table of stages, run side by side and timed, the times
# written to benchmarks/results/suite/): engine = committed, live SDK = committed, the swap test
# (simulated peers and the engine's client where the SDK's stood) = committed, clients nobody
# here wrote (the MCP TypeScript SDK's, the A2A JavaScript SDK's) see the simulated peers as the
# SDK's, the official MCP conformance suite gives the SDK's server and serve mcp --http the same
# verdicts, the strict site build, and the test suite. The set-up's parts are independent too.
test:
	$(MAKE) --no-print-directory -j4 setup browser
	$(VENV)/bin/python benchmarks/suite.py --since $(STARTED)

# The inner loop, for a change to the model: the engine against every committed recording, the
# site's pages as Markdown, and the tests that need no live SDK, browser or site build.
quick: setup
	$(VENV)/bin/python benchmarks/suite.py --quick

record: setup
	$(VENV)/bin/python -m agent_loop_sim record
	$(VENV)/bin/python scripts/validate_wire.py

check: setup
	$(VENV)/bin/python -m agent_loop_sim check

bench: setup browser
	$(VENV)/bin/python benchmarks/run.py

# The engine's mutation score (mutmut, pyproject's [tool.mutmut]): a seeded sample of 500 mutants,
# about 10 to 20 minutes on one shared core; benchmarks/results/mutation.json. Not part of `make test`.
mutation: setup
	$(VENV)/bin/python benchmarks/mutation.py --run --sample 500

clean:
	rm -rf site $(VENV) $(TOOLS) releases/*/.venv node_modules
