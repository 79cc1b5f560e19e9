"""The whole main loop (App.step) under the unix MicroPython VM with stand-in hardware:
a game played through it, steady-state steps that allocate nothing, and the heap in play."""

import tempfile
from pathlib import Path

import pytest

import mpvm

pytestmark = pytest.mark.micropython

ROOT = Path(__file__).resolve().parent.parent

PROGRAM = """
import gc
import micropython
import iago
from gameboard import boardmap
from gameboard.app import App
from gameboard.saves import Saves

class Clock:
    def __init__(self):
        self.now = 0
    def ticks_ms(self):
        return self.now
    def ticks_diff(self, a, b):
        return a - b
    def sleep_ms(self, ms):
        self.now += ms

class Matrix:
    def __init__(self, bmap):
        self.closed = bytearray(8)
        self.bmap = bmap
    def set(self, cell, closed):
        x = self.bmap.crossing_of_cell[cell]
        if closed:
            self.closed[x >> 3] |= 1 << (x & 7)
        else:
            self.closed[x >> 3] &= ~(1 << (x & 7)) & 0xFF
    def scan(self, into):
        i = 0
        while i < 8:
            into[i] = self.closed[i]
            i += 1

class Pixels:
    def __init__(self):
        self.frames = 0
    def show(self, wire):
        self.frames += 1

gc.collect()
base = gc.mem_alloc()
bmap = boardmap.load(MAP)
clock = Clock()
matrix = Matrix(bmap)
pixels = Pixels()
app = App(bmap, Saves(ROOT), matrix, pixels, clock)

def run(ms):
    end = clock.now + ms
    while clock.now < end:
        app.step()

def steady(n):
    i = 0
    while i < n:
        i += 1
        app.step()

run(1200)
ctl = app.controller
game = ctl.game
pick = 7
peak = 0
while not game.is_game_over():
    moves = list(game.legal_moves)
    pick = (pick * 1103515245 + 12345) & 0x7FFFFFFF
    matrix.set(moves[pick % len(moves)], True)
    run(400)
    for c in ctl.flips_pending():
        matrix.set(c, False)
        run(200)
        matrix.set(c, True)
        run(200)
    gc.collect()
    used = gc.mem_alloc() - base
    if used > peak:
        peak = used
    if game.ply() == 20:
        steady(50)
        gc.collect()
        micropython.heap_lock()
        try:
            steady(500)
        finally:
            micropython.heap_unlock()
        print("steady ok")
run(500)
print("phase", ctl.phase, "moves", game.ply(), "frames", pixels.frames > 100)
print("peak", peak)
"""


def test_main_loop_plays_a_game_allocation_free_when_idle_and_within_heap():
    with tempfile.TemporaryDirectory() as flash:
        source = "MAP = %r\nROOT = %r\n" % (str(ROOT / "hardware" / "board.json"), flash + "/")
        out = mpvm.run_unix(source + PROGRAM, heap="256k")
        lines = out.splitlines()
        assert "steady ok" in lines
        phase = lines[-2].split()
        assert phase[1] == "2" and int(phase[3]) >= 37 and phase[5] == "True"
        peak = int(lines[-1].split()[1])
        # 64-bit build: objects are up to twice their Pico size; the Pico budget is 64 KB.
        assert peak < 96 * 1024, peak
        assert Path(flash, "games").is_dir() and any(Path(flash, "games").iterdir())
