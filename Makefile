# Build and test tooling.  `make test` on a fresh clone installs everything it needs.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin

.PHONY: all test typecheck bench venv node_modules clean deploy repl
all: test

# Python virtualenv with the project (editable) and its dev tools.
venv: $(VENV)/.installed
$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $@

# Node packages: the MicroPython WebAssembly port.
node_modules: node_modules/.installed
node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $@

# MicroPython rp2 stubs laid out as mypy's typeshed, in the versions pinned in the venv.
typings/.installed: $(VENV)/.installed
	rm -rf typings
	$(BIN)/python -m pip install --quiet --no-deps --target typings \
		$$($(BIN)/python -m pip freeze | grep -E '^micropython-(rp2|stdlib)-stubs==')
	touch $@

typecheck: typings/.installed
	$(BIN)/mypy

test: venv node_modules typecheck
	$(BIN)/pytest -q

bench: venv
	$(BIN)/python tests/bench/run.py

# A Pico running MicroPython 1.22+ on USB (README: "Put the firmware on a Pico").
PORT ?= auto
MAP ?= hardware/board.json
deploy: venv
	$(BIN)/python -m host_sim.deploy --port $(PORT) --map $(MAP)

repl: venv
	$(BIN)/mpremote connect $(PORT) repl

clean:
	rm -rf $(VENV) node_modules typings build *.egg-info .pytest_cache .mypy_cache .hypothesis
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
