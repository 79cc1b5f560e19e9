"""The board firmware: hardware layer, debounce, LEDs, controller, saves, host link."""

import sys

NO_CELL = 255    # a cell number that names no hex: no disk waiting, no hex chosen, ...


def elapsed(now, then):
    """Milliseconds from `then` to `now` on MicroPython's clock, time.ticks_ms(), which wraps
    at 2**30 (the hardware layers' clocks and the host's fakes wrap alike)."""
    return (now - then) & 0x3FFFFFFF


def forget(*names):
    """On MicroPython and CircuitPython, drop the modules `names` ("gameboard.boardmap", ...)
    once used, so their code gives its heap back (their interned names stay). Nothing may still
    refer to their functions or classes with methods. On CPython nothing is dropped: there the
    heap is no concern, and tests hold on to the modules."""
    if sys.implementation.name not in ("micropython", "circuitpython"):
        return
    for name in names:
        if name in sys.modules:
            del sys.modules[name]
            package, _, leaf = name.rpartition(".")
            parent = sys.modules.get(package)
            if parent is not None and hasattr(parent, leaf):
                delattr(parent, leaf)
