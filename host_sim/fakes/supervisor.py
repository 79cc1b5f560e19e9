"""CircuitPython's `supervisor` on the simulator's virtual clock (host_sim/fakes/mptime.Clock).

`ticks_ms()` is CircuitPython's documented clock: milliseconds that wrap at 2**29, starting
65 s before their first wrap after each start, so that code meets the wrap early. `reload()`
restarts code.py with a fresh VM (SoftReset here, as machine.soft_reset() in the MicroPython
fake). `runtime` has the attributes the firmware may read.
"""

from host_sim.fakes import machine as _machine
from host_sim.fakes import mptime as _mptime

TICKS_PERIOD = 1 << 29
TICKS_MAX = TICKS_PERIOD - 1
_START = TICKS_PERIOD - 65536     # ticks_ms() at the simulated power-on


def ticks_ms():
    return (_mptime.clock().ms + _START) & TICKS_MAX


def reload():
    raise _machine.SoftReset()


class _Runtime:
    usb_connected = True
    serial_connected = True
    autoreload = True

    @property
    def serial_bytes_available(self):
        return 0


runtime = _Runtime()
