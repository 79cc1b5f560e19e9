# Build and test tooling.  `make test` on a fresh clone installs everything it needs.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin

.PHONY: all test typecheck bench soak venv node_modules clean sim deploy repl hardware site
all: test

# Python virtualenv with the project (editable) and its dev tools; they include everything
# `make sim` needs, so its stamp is set too.
venv: $(VENV)/.installed
$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet -e '.[dev,sim]'
	touch $@ $(VENV)/.installed-sim

# The same virtualenv with only what the simulator needs (`make sim`): no test toolchain.
$(VENV)/.installed-sim: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet -e '.[sim]'
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
	@if [ -n "$$RP2EMU" ]; then $(BIN)/python tests/bench/pico_torn_saves.py; fi

# The physical-play fuzzer (tests/test_agreement.py) at length: SOAK_EXAMPLES new random runs
# of 80 hands (no shrinking: a failure prints its hands and the blob that replays it).
SOAK_EXAMPLES ?= 2000
soak: venv
	AGREEMENT_EXAMPLES=$(SOAK_EXAMPLES) AGREEMENT_STEPS=80 AGREEMENT_RANDOM=1 \
		AGREEMENT_SHRINK=0 $(BIN)/pytest -q -x -p no:cacheprovider tests/test_agreement.py -k physical_play

# The board diagrams, wiring tables and 1:1 template under hardware/generated/ (hardware/README.md).
hardware: venv
	$(BIN)/python hardware/make.py

# The firmware on the simulated board, in a web page (docs/web.md). The web server listens on
# 8000, or on the PORT given on the command line: make sim PORT=8080 (deploy's PORT is a device).
SIM_PORT = $(if $(filter command line,$(origin PORT)),$(PORT),8000)
sim: $(VENV)/.installed-sim
	$(BIN)/iago serve --sim --http-port $(SIM_PORT)

# The board page as a static folder, the firmware running in the page (docs/web.md):
# python -m http.server -d build/site serves it.
site: node_modules
	$(PYTHON) -m host_sim.web.site build/site

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
