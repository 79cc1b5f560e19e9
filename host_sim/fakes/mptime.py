"""MicroPython's `time` module on a virtual clock, to stand in for `time` under CPython.

`install()` puts this module in sys.modules as `time`, so firmware code that does
`import time` gets the ticks and sleeps of a `Clock` the simulator owns: sleeping advances
the clock at once and never waits. The ticks wrap as on a Pico (ticks_ms and ticks_us at
2**30; use ticks_diff/ticks_add). Everything else (time(), localtime(), perf_counter(), ...)
is CPython's own.
"""

import time as _host_time

TICKS_PERIOD = 1 << 30
TICKS_MAX = TICKS_PERIOD - 1
TICKS_HALFPERIOD = TICKS_PERIOD >> 1


class Clock:
    """Virtual time in microseconds since the simulated power-on (it never wraps; the ticks do).

    `sleep_hooks` are called with the clock after every sleep the firmware makes; the
    circuit uses one to fire its watchdog, the simulator may use one to stop a run.
    """

    def __init__(self, ms=0, us=None):
        self._us = int(us) if us is not None else int(ms) * 1000
        self.sleep_hooks = []

    @property
    def us(self):
        return self._us

    @property
    def ms(self):
        return self._us // 1000

    def advance(self, ms):
        """Let `ms` milliseconds (int or float) pass."""
        self.advance_us(round(ms * 1000))

    def advance_us(self, us):
        if us < 0:
            raise ValueError("time runs forwards only, not by %r us" % (us,))
        self._us += int(us)

    def sleep_us(self, us):
        """The firmware sleeps: time passes, then the sleep hooks run."""
        self.advance_us(us)
        for hook in list(self.sleep_hooks):
            hook(self)

    def ticks_ms(self):
        return (self._us // 1000) & TICKS_MAX

    def ticks_us(self):
        return self._us & TICKS_MAX

    def __repr__(self):
        return "Clock(us=%d)" % self._us


_clock = Clock()


def use(clock):
    """Make `clock` the one the module functions read; returns the previous one."""
    global _clock
    previous = _clock
    _clock = clock
    return previous


def clock():
    return _clock


def ticks_ms():
    return _clock.ticks_ms()


def ticks_us():
    return _clock.ticks_us()


def ticks_cpu():
    return _clock.ticks_us()


def ticks_diff(ticks1, ticks2):
    """Signed ticks1 - ticks2, correct across a wrap, in [-2**29, 2**29)."""
    return ((ticks1 - ticks2 + TICKS_HALFPERIOD) & TICKS_MAX) - TICKS_HALFPERIOD


def ticks_add(ticks, delta):
    if not -TICKS_HALFPERIOD < delta < TICKS_HALFPERIOD:
        raise OverflowError("ticks interval overflow")
    return (ticks + delta) & TICKS_MAX


def sleep_ms(ms):
    # MicroPython ignores a negative sleep.
    if ms > 0:
        _clock.sleep_us(int(ms) * 1000)


def sleep_us(us):
    if us > 0:
        _clock.sleep_us(int(us))


def sleep(seconds):
    if seconds > 0:
        _clock.sleep_us(round(seconds * 1_000_000))


def __getattr__(name):
    # time(), localtime(), mktime(), gmtime(), time_ns(), perf_counter() ...: CPython's.
    return getattr(_host_time, name)
