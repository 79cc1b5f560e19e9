"""Put the fakes in place of the hardware modules of MicroPython (`install`) or CircuitPython
(`install_circuitpython`), for the simulator and the tests."""

import sys

from host_sim.fakes import machine, micropython, mptime, neopixel


def _bind(circuit, clock, modules, hooks, gone=(), undo=None):
    """Bind the fakes to `circuit` and `clock`, put `modules` in sys.modules (and take the
    names `gone` out), run `hooks` after every sleep. Returns the callable that undoes it
    all (and then calls `undo`)."""
    saved = {name: sys.modules.get(name) for name in tuple(modules) + tuple(gone)}
    previous_circuit = machine.use(circuit)
    previous_clock = mptime.use(clock)
    gave_clock = circuit.clock is None
    if gave_clock:
        circuit.clock = clock
    clock.sleep_hooks.extend(hooks)
    for name in gone:
        sys.modules.pop(name, None)
    sys.modules.update(modules)

    def uninstall():
        for name, module in saved.items():
            if module is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = module
        for hook in hooks:
            if hook in clock.sleep_hooks:
                clock.sleep_hooks.remove(hook)
        if gave_clock:
            circuit.clock = None
        if undo is not None:
            undo()
        machine.use(previous_circuit)
        mptime.use(previous_clock)

    return uninstall


def install(circuit, clock, micropython_module=False):
    """Make `import machine`, `import neopixel` and `import time` give the fakes, bound to
    `circuit` and `clock` (and `import micropython` the fake too, if asked: see its doc).

    The circuit gets the clock (for its watchdog and bitstream timing) if it has none, and
    checks its watchdog after every sleep. Returns a callable that undoes all of it.
    """
    modules = {"machine": machine, "neopixel": neopixel, "time": mptime}
    if micropython_module:
        modules["micropython"] = micropython
    return _bind(circuit, clock, modules, [circuit.check_watchdog])


_adafruit = {}


def adafruit_libraries():
    """Put the real adafruit-circuitpython-pixelbuf and adafruit-circuitpython-neopixel
    modules in sys.modules (pure Python, from PyPI, installed without dependencies into
    build/circuitpython-lib by `make cplib`; installed now if missing). Loaded once, with the
    fakes in sys.modules: neopixel binds the fake modules board, digitalio and
    neopixel_write, which stay the same objects whatever circuit is in use."""
    import importlib.util

    from host_sim.deploy import circuitpython_libraries
    for name in ("adafruit_pixelbuf", "neopixel"):
        if name not in _adafruit:
            path = circuitpython_libraries() / (name + ".py")
            spec = importlib.util.spec_from_file_location(name, path)
            assert spec is not None and spec.loader is not None
            module = importlib.util.module_from_spec(spec)
            sys.modules[name] = module         # neopixel imports adafruit_pixelbuf by name
            spec.loader.exec_module(module)
            _adafruit[name] = module
        sys.modules[name] = _adafruit[name]


def install_circuitpython(circuit, clock, nvm=None):
    """Make the firmware's imports give CircuitPython's modules: the fakes of board, busio,
    digitalio, keypad, microcontroller, supervisor, usb_cdc, watchdog, neopixel_write and
    time, with the real Adafruit `neopixel` and `adafruit_pixelbuf` (adafruit_libraries) on
    top; no `machine`. `nvm`: the board's microcontroller.nvm (a fresh erased one by
    default).

    The keypad's background scans run after every sleep; the circuit's watchdog as in
    install(). Returns a callable that undoes all of it."""
    from host_sim.fakes import (board, busio, cptime, digitalio, keypad, microcontroller,
                                neopixel_write, supervisor, usb_cdc, watchdog)
    previous_nvm = microcontroller.use_nvm(nvm if nvm is not None else
                                           microcontroller.Nvm(clock=clock))

    def undo():
        keypad.boot()
        microcontroller.boot(True)
        microcontroller.use_nvm(previous_nvm)

    modules = {"board": board, "busio": busio, "digitalio": digitalio, "keypad": keypad,
               "microcontroller": microcontroller, "supervisor": supervisor,
               "usb_cdc": usb_cdc, "watchdog": watchdog, "neopixel_write": neopixel_write,
               "time": cptime}
    uninstall = _bind(circuit, clock, modules, [keypad.background, circuit.check_watchdog],
                      gone=("machine", "micropython", "neopixel", "adafruit_pixelbuf"),
                      undo=undo)
    adafruit_libraries()
    usb_cdc.enable(console=True, data=True)     # as the firmware's boot.py does
    return uninstall
