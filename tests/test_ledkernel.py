"""The LED pipeline's viper kernel against the plain reference, the fallback where there is no
native emitter, and the host link's `stats` diagnostics that time the main loop."""

import importlib
import sys

import pytest

import mpvm
from gameboard import _ledplain, leds
from gameboard.link import Link
from host_sim.fakes import micropython as fake_micropython
from host_sim.simboard import SimBoard
from test_app_micropython import STAND_INS

KERNEL_PROGRAM = """
import array
import micropython
from gameboard import boardmap, leds, _ledkernel, _ledplain
from gameboard.leds import LedOutput

assert leds.render_wire is _ledkernel.render_wire, "the viper kernel was not chosen at import"
assert leds.scale_wire is _ledkernel.scale_wire

state = [12345]
def pick(n):
    state[0] = (state[0] * 1103515245 + 12345) & 0x7FFFFFFF
    return (state[0] >> 8) % n

def shuffled(n):
    items = list(range(n))
    for i in range(n - 1, 0, -1):
        j = pick(i + 1)
        items[i], items[j] = items[j], items[i]
    return items

def filled(n, top):
    return bytearray(top if top < 2 else pick(top + 1) for _ in range(n))

# The two loops alone: LED chains of 1-61 LEDs with 3 or 4 bytes each (the fourth, white,
# never written), random chain and colour orders, values from none to all full.
checked = 0
for trial in range(400):
    count = 61 if trial % 4 else 1 + pick(61)
    bpp = 3 if trial % 3 else 4
    top = (0, 1, 255, 256)[trial % 4]
    frame = filled(count * 3, 255 if top == 256 else top)
    level = filled(256, 255 if top == 256 else top)
    chain = shuffled(count)
    order = shuffled(bpp)
    dest = array.array("H", [chain[c] * bpp + order[ch] for c in range(count) for ch in range(3)])
    before = filled(count * bpp, 255)
    plain = bytearray(before)
    fast = bytearray(before)
    t1 = _ledplain.render_wire(frame, level, dest, plain)
    t2 = _ledkernel.render_wire(frame, level, dest, fast)
    if t1 != t2 or plain != fast:
        print("MISMATCH render", trial, t1, t2)
    scale = (0, 1, 4095, 4096, pick(4097))[trial % 5]
    s1 = _ledplain.scale_wire(plain, scale)
    s2 = _ledkernel.scale_wire(fast, scale)
    if s1 != s2 or plain != fast:
        print("MISMATCH scale", trial, scale, s1, s2)
    checked += 1

# LedOutput.render through the kernel and through the plain code, frame by frame: the same
# wire, estimates and cap, including capped frames; and the kernel allocates nothing.
bmap = boardmap.load(MAP)
kernel = LedOutput(bmap)
reference = LedOutput(bmap)

def locked_render():
    micropython.heap_lock()
    try:
        return kernel.render()
    finally:
        micropython.heap_unlock()

for trial in range(200):
    brightness = (0, 1, 24, 128, 255)[trial % 5]
    kernel.brightness = brightness
    reference.brightness = brightness
    top = (40, 120, 255)[trial % 3]
    for i in range(len(kernel.frame)):
        v = pick(top + 1) if pick(3) else 0
        kernel.frame[i] = v
        reference.frame[i] = v
    changed = locked_render()
    leds.render_wire, leds.scale_wire = _ledplain.render_wire, _ledplain.scale_wire
    try:
        expected = reference.render()
    finally:
        leds.render_wire, leds.scale_wire = _ledkernel.render_wire, _ledkernel.scale_wire
    if (changed != expected or kernel.wire != reference.wire or kernel.ma != reference.ma
            or kernel.unscaled_ma != reference.unscaled_ma or kernel.scale != reference.scale):
        print("MISMATCH LedOutput", trial, kernel.scale, reference.scale, kernel.ma, reference.ma)
    if kernel.scale < 4096:
        checked += 1000
print("checked", checked)
"""


@pytest.mark.micropython
def test_viper_kernel_matches_the_plain_code_under_unix_micropython():
    out = mpvm.run_unix("MAP = %r\n" % str(mpvm.ROOT / "hardware" / "board.json")
                        + KERNEL_PROGRAM, heap="1m")
    assert "MISMATCH" not in out, out
    checked = int(out.split()[-1])
    assert checked % 1000 == 400          # every pair of loops compared
    assert checked // 1000 >= 10          # the current cap scaled some whole frames


@pytest.mark.micropython
def test_wasm_port_falls_back_to_the_plain_code():
    out = mpvm.run_wasm("""
from gameboard import leds, _ledplain
print(leds.render_wire is _ledplain.render_wire, leds.scale_wire is _ledplain.scale_wire)
""")
    assert out.split() == ["True", "True"]


def test_cpython_uses_the_plain_code():
    assert leds.render_wire is _ledplain.render_wire
    assert leds.scale_wire is _ledplain.scale_wire


def test_kernel_import_fails_cleanly_under_the_simulators_micropython(monkeypatch):
    """The simulator's `micropython` has no native emitter: the import raises SyntaxError,
    which leds.py catches to take the plain code."""
    monkeypatch.setitem(sys.modules, "micropython", fake_micropython)
    monkeypatch.delitem(sys.modules, "gameboard._ledkernel", raising=False)
    with pytest.raises(SyntaxError):
        importlib.import_module("gameboard._ledkernel")


# --- the host link's stats command -------------------------------------------------------


def test_stats_starts_timing_closings_to_frames():
    with SimBoard() as board:
        board.advance(1200)                     # light check done
        board.place("E4")
        assert board.app.link.timing is None    # nothing timed before the first stats
        first = board.command({"cmd": "stats"})
        assert first["ok"] and first["closings_timed"] == 0
        assert "mem_alloc" not in first         # CPython has no MicroPython heap figures
        board.place("E6")                        # a legal move for light: a new frame
        board.advance(100)
        second = board.command({"cmd": "stats"})
        assert second["closings_timed"] == 1
        assert 0 <= second["closing_to_frame_us"] <= second["closing_to_frame_max_us"]
        assert board.app.link.timing.closed_at_us == -1   # nothing left waiting for a frame


def test_timed_keeps_last_and_longest_and_skips_unchanged_frames():
    link = Link(None, None, lambda text: None)
    link.timed(500)                              # not timing: ignored
    assert link.timing is None
    link.stats({}, 0)
    timing = link.timing
    for us in (900, 400, -1):
        timing.closed_at_us = 7
        link.timed(us)
        assert timing.closed_at_us == -1
    assert (timing.last_us, timing.max_us, timing.count, timing.step_max_ms) == (400, 900, 2, -1)


def test_stats_reports_the_loops_longest_step_since_the_last_stats():
    with SimBoard() as board:
        board.advance(1200)
        board.command({"cmd": "stats"})
        ctl = board.app.controller
        tick = ctl.tick
        slow = [45]

        def slow_tick(now):                     # one step as long as a slice of search
            tick(now)
            board.clock.advance_us(slow.pop() * 1000 if slow else 0)

        ctl.tick = slow_tick
        board.advance(200)
        first = board.command({"cmd": "stats"})
        board.advance(200)
        second = board.command({"cmd": "stats"})
        assert first["step_max_ms"] == 45       # then reset: the quiet steps after it
        assert 0 <= second["step_max_ms"] < 10


STATS_PROGRAM = STAND_INS + """
import json

class Serial:
    def __init__(self):
        self.lines = []
        self.inbound = None
    def read(self):
        data = self.inbound
        self.inbound = None
        return data
    def write(self, text):
        self.lines.append(text)

bmap = boardmap.load(MAP)
clock = Clock()
matrix = Matrix(bmap)
serial = Serial()
app = App(bmap, Saves(ROOT), matrix, Pixels(), clock, serial)

def run(ms):
    end = clock.now + ms
    while clock.now < end:
        app.step()

def stats():
    serial.lines = []
    serial.inbound = b'{"cmd": "stats"}\\n'
    app.step()
    return [json.loads(l) for l in serial.lines if '"stats"' in l][0]

run(1200)
first = stats()
matrix.set(list(app.controller.game.legal_moves)[0], True)
run(400)
second = stats()
run(100)
gc.collect()
def steady(n):
    micropython.heap_lock()      # timing on: an idle step still allocates nothing
    try:
        i = 0
        while i < n:
            app.step()
            i += 1
    finally:
        micropython.heap_unlock()

steady(300)
print(first["closings_timed"], second["closings_timed"], second["closing_to_frame_us"] >= 0,
      second["mem_alloc"] > 20000, second["mem_free"] > 0)
"""


@pytest.mark.micropython
def test_stats_under_unix_micropython_reports_the_heap_and_keeps_idle_steps_allocation_free(
        tmp_path):
    source = "MAP = %r\nROOT = %r\n" % (str(mpvm.ROOT / "hardware" / "board.json"),
                                        str(tmp_path) + "/")
    out = mpvm.run_unix(source + STATS_PROGRAM, heap="256k")
    assert out.split() == ["0", "1", "True", "True", "True"]


@pytest.mark.micropython
def test_paint_kernel_matches_the_plain_painter_under_unix_micropython():
    out = mpvm.run_unix("""
from gameboard import painter, palette, _ledkernel, _ledplain
assert painter.paint is _ledkernel.paint
seed = 5
for trial in range(200):
    colours = bytearray(61)
    for i in range(61):
        seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
        colours[i] = (seed >> 8) % 11
    for pal in palette.PALETTES:
        a = bytearray(183)
        b = bytearray(183)
        _ledplain.paint(colours, pal, a)
        _ledkernel.paint(colours, pal, b)
        if a != b:
            print("MISMATCH", list(colours))
print("done")
""")
    assert out.split() == ["done"]
