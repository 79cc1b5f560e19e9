"""The board map, debouncer and LED pipeline under real MicroPython VMs: they give the same
results as under CPython, and their steady-state paths allocate nothing (heap_lock)."""

import contextlib
import io
import textwrap
from pathlib import Path

import pytest

pytestmark = pytest.mark.micropython

BOARD_JSON = (Path(__file__).resolve().parent.parent / "hardware" / "board.json").read_text()

# Runs unchanged under CPython and MicroPython; prints one line per result.
CROSS_CHECK = """
import json
from gameboard import boardmap
from gameboard.debounce import CLOSED, CROSSING, Debouncer
from gameboard.leds import LedOutput

data = json.loads(BOARD_JSON)
bmap = boardmap.check(data)
print(bmap.name, bmap.row_pins, bmap.col_pins, bmap.led_pin, bmap.colour_order, bmap.bpp)
print(list(bmap.cell_of_crossing))
print(list(bmap.led_of_cell))

def broken(key, value):
    d = json.loads(BOARD_JSON)
    if key.startswith("cells."):
        cell, field = key[6:].split(".")
        d["cells"][cell][field] = value
    elif value is None:
        del d[key]
    else:
        d[key] = value
    try:
        boardmap.check(d)
        print("accepted", key)
    except boardmap.BoardMapError as exc:
        print(exc)

broken("cells.B2.led", 0)
broken("cells.C3.row", 0)
broken("cols", [2, 11, 12, 13, 14, 15, 16, 17])
broken("led_pin", 23)
broken("colour_order", "GRX")
broken("debounce_ms", 0)
broken("rows", None)

deb = Debouncer(bmap.debounce_ms)
raw = bytearray(8)
log = []
for now in range(400):
    crossing = bmap.crossing_of_cell[30]
    on = 100 <= now < 103 or 150 <= now < 300      # a bounce, then a press
    if on:
        raw[crossing >> 3] |= 1 << (crossing & 7)
    else:
        raw[crossing >> 3] &= ~(1 << (crossing & 7)) & 0xFF
    deb.update(raw, (now + (1 << 30) - 200) & 0x3FFFFFFF)   # across the wrap
    while True:
        e = deb.events.get()
        if e < 0:
            break
        log.append((now, bmap.cell_of_crossing[e & CROSSING], e >> 7))
print(log)

leds = LedOutput(bmap)
for b in (255, 128, 24):
    leds.brightness = b
    print([leds.level(v) for v in range(0, 256, 15)])
for i in range(183):
    leds.frame[i] = (i * 37) & 0xFF
for b in (255, 40):
    leds.brightness = b
    leds.render()
    print(b, leds.ma, leds.unscaled_ma, leds.scale, list(leds.wire[:24]), sum(leds.wire))
"""

# The steady state of the scan loop and of a frame update, under heap_lock.
NO_ALLOCATION = """
import json, micropython, time
from gameboard import boardmap
from gameboard.debounce import Debouncer
from gameboard.leds import LedOutput

bmap = boardmap.check(json.loads(BOARD_JSON))

def measure():
    deb = Debouncer(bmap.debounce_ms)
    raw = bytearray(8)
    events = deb.events
    leds = LedOutput(bmap, bytearray(183), 128)
    frame = leds.frame
    deb.update(raw, 0)
    leds.render()
    got = 0
    micropython.heap_lock()
    t0 = time.ticks_us()
    for now in range(1, 2001):             # nothing happening: the usual scan
        deb.update(raw, now)
    t1 = time.ticks_us()
    for now in range(2001, 4001):          # switches chattering, events drained
        raw[now & 7] = (now >> 4) & 0xFF
        deb.update(raw, now)
        while True:
            e = events.get()
            if e < 0:
                break
            got += 1
    t2 = time.ticks_us()
    for k in range(100):                   # frames within the budget
        frame[k] = k & 31
        leds.brightness = 128
        leds.render()
    t3 = time.ticks_us()
    for k in range(183):                   # frames over the budget: scaled
        frame[k] = 255
    for k in range(100):
        frame[k] = k
        leds.render()
    t4 = time.ticks_us()
    leds.brightness = 255                  # a brightness step rebuilds the level table
    leds.render()
    micropython.heap_unlock()
    assert got > 100 and leds.ma <= bmap.current_budget_ma < leds.unscaled_ma, (got, leds.ma)
    print("idle update us", time.ticks_diff(t1, t0) / 2000)
    print("busy update us", time.ticks_diff(t2, t1) / 2000)
    print("render us", time.ticks_diff(t3, t2) / 100)
    print("capped render us", time.ticks_diff(t4, t3) / 100)
    print("ok", got)

measure()
"""


def program(body):
    return "BOARD_JSON = %r\n%s" % (BOARD_JSON, textwrap.dedent(body))


def run_cpython(source):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(source, "<cross-check>", "exec"), {"__name__": "__main__"})
    return out.getvalue()


def test_same_results_as_cpython(micropython):
    source = program(CROSS_CHECK)
    expected = run_cpython(source)
    assert "accepted" not in expected and "[(160, 30, 1), (310, 30, 0)]" in expected
    assert micropython(source) == expected


def test_steady_state_allocates_nothing(micropython):
    out = micropython(program(NO_ALLOCATION))
    assert out.splitlines()[-1].startswith("ok ")
