# CPython's `time` as far as host_sim uses it (perf_counter, monotonic, strftime), on the
# WebAssembly port's own; the worker puts it in sys.modules as `time` before host_sim loads.
# The firmware gets host_sim/fakes/mptime.py as its `time` once the board is built.
import js
from time import (gmtime, localtime, mktime, sleep, sleep_ms, sleep_us, ticks_add, ticks_cpu,
                  ticks_diff, ticks_ms, ticks_us, time, time_ns)


def perf_counter():
    return js.performance.now() / 1000


monotonic = perf_counter


def strftime(fmt, t=None):
    year, month, day, hour, minute, second = (t or localtime())[:6]
    for code, value in (("%Y", "%04d" % year), ("%m", "%02d" % month), ("%d", "%02d" % day),
                        ("%H", "%02d" % hour), ("%M", "%02d" % minute),
                        ("%S", "%02d" % second)):
        fmt = fmt.replace(code, value)
    return fmt
