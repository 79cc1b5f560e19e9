"""CircuitPython's `time` on the simulator's virtual clock: `sleep(seconds)`, `monotonic()`
(float seconds) and `monotonic_ns()`; no ticks_ms/ticks_us/ticks_diff/sleep_ms, which
CircuitPython lacks, so firmware code that reaches for them fails here as on a Pico."""

import time as _host_time

from host_sim.fakes import mptime as _mptime


def sleep(seconds):
    if seconds < 0:
        raise ValueError("sleep length must be non-negative")
    _mptime.clock().sleep_us(round(seconds * 1_000_000))


def monotonic():
    return _mptime.clock().us / 1_000_000


def monotonic_ns():
    return _mptime.clock().us * 1000


def time():
    return int(_host_time.time())


def localtime(secs=None):
    return _host_time.localtime(secs)


struct_time = _host_time.struct_time
