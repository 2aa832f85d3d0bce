# The everyday tasks, each over packaging/setup.sh (which sets up what it needs first, and skips
# what is done). `make test ARGS="tests/core -x"` passes arguments on; docs/development.md says more.
.PHONY: setup run test test-quick lint fix bench eval

PYTHON := .venv/bin/python
ARGS ?=

setup:  ## set up .venv, the PGlite runtime and the model (idempotent)
	bash packaging/setup.sh

run:  ## set up, then launch the desktop app on the embedded engine
	bash packaging/setup.sh run $(ARGS)

test:  ## set up with the test tools, then run the whole suite (in parallel, as CI does)
	bash packaging/setup.sh test $(ARGS)

test-quick:  ## the suite without the slow and end-to-end tiers (no kills, no Xvfb, no bundle)
	bash packaging/setup.sh test -m "not slow and not e2e" $(ARGS)

lint:  ## the gates CI runs first: ruff check, ruff format --check, mypy
	bash packaging/setup.sh lint

fix:  ## what the tools can fix: ruff format, ruff check --fix
	bash packaging/setup.sh fix

bench: setup  ## the recall benchmark at 10k neurons (printed, never asserted); ARGS="--neurons 100000"
	$(PYTHON) -m tests.bench.bench_recall $(ARGS)

eval: setup  ## recall on the frozen held-out sets of tests/eval/
	for set in tests/eval/*.json; do $(PYTHON) -m core.cli eval "$$set" --modes default || exit 1; done
