"""Put the fakes in place of MicroPython's hardware modules, for the simulator and the tests."""

import sys

from host_sim.fakes import machine, micropython, mptime, neopixel

_NAMES = ("machine", "neopixel", "time", "micropython")


def install(circuit, clock, micropython_module=False):
    """Make `import machine`, `import neopixel` and `import time` give the fakes, bound to
    `circuit` and `clock` (and `import micropython` the fake too, if asked: see its doc).

    The circuit gets the clock (for its watchdog and bitstream timing) if it has none, and
    checks its watchdog after every sleep. Returns a callable that undoes all of it.
    """
    saved = {name: sys.modules.get(name) for name in _NAMES}
    previous_circuit = machine.use(circuit)
    previous_clock = mptime.use(clock)
    gave_clock = circuit.clock is None
    if gave_clock:
        circuit.clock = clock
    clock.sleep_hooks.append(circuit.check_watchdog)
    sys.modules["machine"] = machine
    sys.modules["neopixel"] = neopixel
    sys.modules["time"] = mptime
    if micropython_module:
        sys.modules["micropython"] = micropython

    def uninstall():
        for name, module in saved.items():
            if module is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = module
        if circuit.check_watchdog in clock.sleep_hooks:
            clock.sleep_hooks.remove(circuit.check_watchdog)
        if gave_clock:
            circuit.clock = None
        machine.use(previous_circuit)
        mptime.use(previous_clock)

    return uninstall
