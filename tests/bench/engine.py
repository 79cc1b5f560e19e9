"""Engine figures: nodes a second, time a move at each level, and the match table.

    .venv/bin/python tests/bench/engine.py [--games N] [--jobs J] [--no-table]

- nodes/s of a level-5 search from the MIDGAME positions (and the empty board), on CPython and
  under MicroPython's unix build (the same DEVICE_PROGRAM a Pico runs);
- time a move at each level, averaged over the positions of a few engine games, on both;
- the match table: every pair of players (random, greedy, levels 1-5), N games each (default
  20, colours alternating, iago match's openings), as the row player's win rate.

DEVICE_PROGRAM prints "name value unit" lines, the format tests/bench/run.py collects, so it
can also be run on an emulated Pico as run.py does with pico_rules.py.
"""

import argparse
import os
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import iago  # noqa: E402
import mpvm  # noqa: E402
from host_sim import play  # noqa: E402
from iago import engine  # noqa: E402

DEVICE_PROGRAM = """
import gc
import time
import iago
from iago import engine

try:
    ticks_us = time.ticks_us
    ticks_diff = time.ticks_diff
except AttributeError:   # CPython
    def ticks_us():
        return int(time.perf_counter() * 1000000)

    def ticks_diff(a, b):
        return a - b

MIDGAME = (
    "2LdL/4D1/LddLLL1/3LdlDD/3dDlDl1/2L1d1D1/3Ldl1/2LddL/5 D",
    "3L1/DlDdd1/1l1Lld1/DlDlDDL1/1l1l1l1D1/LdLdLlD1/5D1/3D2/5 D",
    "1D1l1/2lDL1/1DdLLd1/dLL1DdL1/LLDl1dLd1/DLdd1DDD/2LDLl1/1D1Dd1/5 L",
    "5/6/7/8/9/8/7/6/5 D",
)
NODES = __NODES__

nodes = 0
us = 0
for text in MIDGAME:
    board = iago.Board(text)
    t0 = ticks_us()
    result = engine.Search(board, 5, 0, nodes=NODES, analyse=True).run()
    us += ticks_diff(ticks_us(), t0)
    nodes += result.nodes
print("engine_nodes_per_s", nodes * 1000000 // us, "n/s")

# Positions from a game between levels 3 and 4 (every EVERY-th placement), for time a move.
board = iago.Board()
positions = []
while not board.is_game_over():
    if board.ply() % __EVERY__ == 2:
        positions.append(board.text())
    board.push(engine.choose_move(board, 3 + board.ply() % 2, board.ply()))
for level in __LEVELS__:
    worst = 0
    total = 0
    for text in positions:
        b = iago.Board(text)
        t0 = ticks_us()
        engine.choose_move(b, level, 1)
        dt = ticks_diff(ticks_us(), t0)
        total += dt
        if dt > worst:
            worst = dt
    print("level%d_ms_per_move_mean" % level, total / len(positions) / 1000, "ms")
    print("level%d_ms_per_move_worst" % level, worst / 1000, "ms")
gc.collect()
free0 = gc.mem_free() if hasattr(gc, "mem_free") else 0
search = engine.Search(iago.Board(), 5, 0)
while not search.step(100):
    pass
gc.collect()
if free0:
    print("search_heap_live", free0 - gc.mem_free(), "B")
"""


def device_program(nodes=2000, levels=(1, 2, 3, 4, 5), every=4):
    """The device program with its search budget, levels and position spacing filled in."""
    return DEVICE_PROGRAM.replace("__NODES__", str(nodes)).replace(
        "__LEVELS__", repr(tuple(levels))).replace("__EVERY__", str(every))


def row(instrument, name, value, unit):
    print("%-14s %-30s %12.1f %s" % (instrument, name, value, unit), flush=True)


def figures(text):
    out = []
    for line in text.splitlines():
        parts = line.split()
        if len(parts) == 3:
            try:
                out.append((parts[0], float(parts[1]), parts[2]))
            except ValueError:
                pass
    return out


def bench_speed():
    source = device_program()
    import contextlib
    import io
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        exec(compile(source, "<engine bench>", "exec"), {})
    for name, value, unit in figures(buffer.getvalue()):
        row("CPython", name, value, unit)
    try:
        out = mpvm.run_unix(source, heap="256k")
    except mpvm.ToolMissingError as exc:
        print("mpy-unix-64: skipped (%s)" % exc)
        return
    for name, value, unit in figures(out):
        row("mpy-unix-64", name, value, unit)


def match_table(games, jobs, seed=0):
    players = list(engine.PLAYERS)
    rates = {}
    start = time.perf_counter()
    for i, a in enumerate(players):
        for b in players[i + 1:]:
            result = play.run_match(a, b, games, iago.STANDARD, seed, jobs)
            rates[a, b] = result.wins
            rates[b, a] = result.losses
            sys.stderr.write("%s vs %s: %d-%d\n" % (play.player_name(a), play.player_name(b),
                                                   result.wins, result.losses))
    names = [str(p) for p in players]
    print()
    print("match table, standard rules, %d games a pair (row player's wins, colours "
          "alternating), %.0f s" % (games, time.perf_counter() - start))
    print("%-8s" % "" + "".join("%8s" % n for n in names))
    for a in players:
        cells = []
        for b in players:
            cells.append("%8s" % ("-" if a == b else "%d" % rates[a, b]))
        print("%-8s" % a + "".join(cells))
    return rates


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games a pair (default 20)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--no-table", action="store_true", help="speed figures only")
    args = parser.parse_args(argv)
    print("%-14s %-30s %12s %s" % ("instrument", "figure", "value", "unit"))
    bench_speed()
    if not args.no_table:
        match_table(args.games, args.jobs)


if __name__ == "__main__":
    main()
