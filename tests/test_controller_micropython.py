"""The controller under the unix MicroPython VM: a whole game, and a steady-state tick and LED
frame that allocate nothing (micropython.heap_lock makes any allocation a MemoryError)."""

import pytest

import mpvm

pytestmark = pytest.mark.micropython

SETUP = """
import gc
try:
    import micropython
except ImportError:  # the same program also runs under CPython for comparison
    micropython = None
import iago
from gameboard.controller import Controller
from gameboard.referee import STARTUP_MS, OVER
from gameboard.settings import Settings

def steady(ctl, now, n):
    i = 0
    while i < n:
        i += 1
        now += 7
        ctl.tick(now)
        ctl.compose(now)
    return now

def locked(ctl, now):
    now = steady(ctl, now, 150)   # past one-off timers (settling, a settings step)
    gc.collect()
    micropython.heap_lock()
    try:
        steady(ctl, now, 400)
    finally:
        micropython.heap_unlock()

def place(ctl, name, now):
    ctl.switch(iago.parse_cell(name), True, now)
    ctl.tick(now + 400)
    return now + 400

ctl = Controller(Settings(rules="loose", hints=True), 0)
now = STARTUP_MS + 1
ctl.tick(now)
"""

PHASES = {
    "play with captives": "for n in ('D4', 'D5', 'D6'): now = place(ctl, n, now)\n"
                          "for c in ctl.flips_pending():\n"
                          "    ctl.switch(c, False, now); ctl.switch(c, True, now + 1)\n",
    "flips pending": "for n in ('D4', 'D5', 'D6'): now = place(ctl, n, now)\n",
    "a disk lifted": "for n in ('D4', 'D5'): now = place(ctl, n, now)\n"
                     "ctl.switch(iago.parse_cell('D4'), False, now)\n",
    "illegal disk": "ctl.switch(iago.parse_cell('E5'), True, now)\n",
    "pre-game settings": "ctl.switch(iago.parse_cell('A1'), True, now)\n",
    "game over": "b = ctl.game\n"
                 "while not b.is_game_over():\n"
                 "    c = list(b.legal_moves)[0]\n"
                 "    ctl.switch(c, True, now)\n"
                 "    now += 400\n"
                 "    ctl.tick(now)\n"
                 "    for f in ctl.flips_pending():\n"
                 "        ctl.switch(f, False, now); ctl.switch(f, True, now + 1)\n"
                 "    ctl.tick(now + 2)\n"
                 "assert ctl.referee.phase == OVER, ctl.referee.phase\n",
}


PLACE_AND_TURN = """
def place_and_turn(ctl, cell, now):
    ctl.switch(cell, True, now)
    now += 400
    ctl.tick(now)
    for f in ctl.flips_pending():     # every outflanked disk turned by hand
        ctl.switch(f, False, now)
        ctl.switch(f, True, now + 100)
    now += 200
    ctl.tick(now)
    return now
"""


def run_both(program):
    """`program`'s output under the unix MicroPython VM, checked against CPython's."""
    import contextlib
    import io
    expected = io.StringIO()
    with contextlib.redirect_stdout(expected):
        exec(compile(program, "<game>", "exec"), {})
    got = mpvm.run_unix(program, heap="512k")
    assert got == expected.getvalue()
    return got


@pytest.mark.parametrize("phase", sorted(PHASES))
def test_steady_tick_and_frame_allocate_nothing(phase):
    steady = "ctl.outbox.clear()\nlocked(ctl, now)\nprint('ok')\n"
    out = mpvm.run_unix(SETUP + PHASES[phase] + steady, heap="512k")
    assert out.split() == ["ok"]


def test_a_whole_game_with_flips_under_micropython_matches_cpython():
    program = SETUP + PLACE_AND_TURN + """
b = ctl.game
pick = 1
while not b.is_game_over():
    moves = list(b.legal_moves)
    pick = (pick * 1103515245 + 12345) & 0x7FFFFFFF
    now = place_and_turn(ctl, moves[pick % len(moves)], now)
print(ctl.referee.phase, b.text(), b.outcome().winner)
"""
    assert run_both(program).split()[0] == "2"   # OVER


SQUARE_GAME = """
import gc
try:
    import micropython
except ImportError:
    micropython = None
from gameboard.controller import Controller
from gameboard.referee import STARTUP_MS
from gameboard.layout import Layout
from gameboard.settings import Settings

def steady(ctl, now, n):
    for i in range(n):
        now += 7
        ctl.tick(now)
        ctl.compose(now)
    return now

layout = Layout("square", %d)
ctl = Controller(Settings(hints=True), 0, layout, coin=lambda: 1)
now = STARTUP_MS + 1
ctl.tick(now)
b = ctl.game
for c in range(ctl.n):
    if b.cell(c):
        ctl.switch(c, True, now)       # Othello's start, set out
pick = 1
while not b.is_game_over():
    moves = sorted(b.legal_moves)
    if not b.ply():                    # a disk on rank 1's settings steps a setting
        moves = [c for c in moves if layout.setting_at(c) is None and c != layout.demo_cell]
    pick = (pick * 1103515245 + 12345) & 0x7FFFFFFF
    now = place_and_turn(ctl, moves[pick %% len(moves)], now)
    if b.ply() == 12 and micropython is not None:
        now = steady(ctl, now, 150)
        gc.collect()
        micropython.heap_lock()        # hints shown, corners lit: nothing allocated
        try:
            now = steady(ctl, now, 200)
        finally:
            micropython.heap_unlock()
print(ctl.referee.phase, b.GAME, b.ply(), b.text(), b.outcome().winner)
"""


@pytest.mark.parametrize("size", [7, 8, 9])
def test_a_whole_square_board_game_under_micropython_matches_cpython(size):
    """Othello on 8x8 and Io on 7x7 and 9x9 refereed by the controller under the unix
    MicroPython VM, as under CPython; mid-game a steady tick and frame allocate nothing."""
    got = run_both(PLACE_AND_TURN + SQUARE_GAME % size)
    phase, game, plies = got.split()[:3]
    assert phase == "2" and game == ("othello" if size == 8 else "io")
    assert int(plies) >= (size * size - 4 if size == 8 else size * size) - 4
