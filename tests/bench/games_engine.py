"""Figures of the other games' engine (iago.search): nodes a second and matches.

    .venv/bin/python tests/bench/games_engine.py [--games N] [--jobs J] [--match "GAME A B"]
        [--no-matches]

- nodes/s and time a move of level 5 in Othello, Io 7x7 and 9x9 and the number line, from
  positions of a few seeded games, on CPython and under MicroPython's unix build (the same
  DEVICE_PROGRAM, which prints "name value unit" lines as tests/bench/run.py collects); with
  RP2EMU set as for run.py, nodes/s and heap on the emulated Pico too (PICO_PROGRAM);
- matches as `iago --game G match A B` plays them (colours alternating, the same random
  opening placements for both games of a pair), N games each (default 20): Othello's top
  level against greedy (the target: at least 95% of 200 games), random and level 4, and the
  top level against the baselines in Io and the number line. `--match "othello 5 greedy"`
  plays only that match; `--games 200 --match "othello 5 greedy" --jobs 1` gives the figure
  of docs/engine.md.
"""

import argparse
import contextlib
import io
import os
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import mpvm  # noqa: E402
from host_sim import play  # noqa: E402
from iago import games  # noqa: E402

sys.path.insert(0, str(HERE))
from engine import figures, row  # noqa: E402  (tests/bench/engine.py: the same table format)

DEVICE_PROGRAM = """
import gc
import time
from iago import games, search

# MicroPython's clock, or CPython's in its place.
ticks_us = getattr(time, "ticks_us", None) or (lambda: int(time.perf_counter() * 1000000))
ticks_diff = getattr(time, "ticks_diff", None) or (lambda a, b: a - b)

# (figure name, game, rules, plies between the positions timed)
GAMES = (("othello", "othello", "standard", 9), ("io7", "io", "7x7", 7),
         ("io9", "io", "9x9", 11), ("numberline", "numberline", "standard", 2))

for label, game, rules_name, every in GAMES:
    module = games.module(game)
    board = module.new_board(module.Rules.parse(rules_name))
    positions = []
    while not board.is_game_over():
        if board.ply() % every == every - 1:
            positions.append(board.copy())
        board.push(search.choose_move(board, 2 + board.ply() % 2, board.ply()))
    nodes = 0
    total = 0
    worst = 0
    for b in positions:
        t0 = ticks_us()
        s = search.Search(b, 5, 0)
        while not s.step(32):      # the slices the board thinks in
            pass
        dt = ticks_diff(ticks_us(), t0)
        nodes += s.nodes()
        total += dt
        if dt > worst:
            worst = dt
    print("%s_nodes_per_s" % label, nodes * 1000000 // total, "n/s")
    print("%s_level5_ms_mean" % label, total // len(positions) / 1000, "ms")
    print("%s_level5_ms_worst" % label, worst / 1000, "ms")

gc.collect()
free0 = gc.mem_free() if hasattr(gc, "mem_free") else 0
module = games.module("othello")
s = search.Search(module.new_board(), 5, 0)
while not s.step(100):
    pass
gc.collect()
if free0:
    print("othello_search_heap_live", free0 - gc.mem_free(), "B")
"""

# The same figures on a Pico, from fixed positions (a whole game per position set would take
# minutes there): 300 nodes of level 5 in the board's 32-node slices, and the heap.
PICO_PROGRAM = """
import gc
import time
gc.collect()
free0 = gc.mem_free()
from iago import games, search
gc.collect()
print("heap_search_import", free0 - gc.mem_free(), "B")
CASES = (("othello", "othello", "standard",
          "2D5/L1D5/L1DDDD2/LDLLD3/LDDDD3/LLLDD3/2L1D3/3LLL2 D"),
         ("io7", "io", "7x7", "DL1D1DL/3L3/L1LD1D1/LD4L/LL5/2L2D1/D2L2L D single"),
         ("numberline", "numberline", "standard", "1L3D1LD1 L"))
for label, game, rules, text in CASES:
    module = games.module(game)
    board = module.Board(text, module.Rules.parse(rules))
    t0 = time.ticks_ms()
    s = search.Search(board, 5, 0, nodes=300, analyse=True)
    while not s.step(32):
        pass
    dt = time.ticks_diff(time.ticks_ms(), t0)
    print("%s_nodes_per_s" % label, s.nodes() * 1000 // max(dt, 1), "n/s")
gc.collect()
print("heap_in_use", free0 - gc.mem_free(), "B")
"""

# (game, rules, player A, player B, target win rate of A or None)
MATCHES = (
    ("othello", "standard", 5, "greedy", 0.95),
    ("othello", "standard", 5, "random", None),
    ("othello", "standard", 5, 4, None),
    ("io", "7x7", 5, "greedy", None),
    ("io", "9x9", 5, "greedy", None),
    ("numberline", "standard", 5, "greedy", None),
    ("numberline", "standard", 5, "random", None),
)


def bench_speed():
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        exec(compile(DEVICE_PROGRAM, "<games engine bench>", "exec"), {})
    for name, value, unit in figures(buffer.getvalue()):
        row("CPython", name, value, unit)
    try:
        out = mpvm.run_unix(DEVICE_PROGRAM, heap="512k")
    except mpvm.ToolMissingError as exc:
        print("mpy-unix-64: skipped (%s)" % exc)
        return
    for name, value, unit in figures(out):
        row("mpy-unix-64", name, value, unit)


def bench_emulated_pico(emu_dir):
    """PICO_PROGRAM on the emulated Pico that tests/bench/run.py sets up (RP2EMU)."""
    import tempfile
    import run
    with tempfile.TemporaryDirectory() as work:
        script = Path(work) / "games_engine_pico.py"
        script.write_text(PICO_PROGRAM)
        run.bench_emulated_pico(emu_dir, script, "pico-emulated")


def run_matches(matches, n_games, jobs, seed=0):
    print()
    print("%-22s %-20s %7s %9s %7s %13s %8s  %s" % (
        "game", "match", "games", "won-lost", "rate", "95% interval", "seconds", "target"))
    for game, rules_name, a, b, target in matches:
        rules = games.module(game).Rules.parse(rules_name)
        result = play.run_match(a, b, n_games, rules, seed, jobs, game=game)
        low, high = play.wilson(result.wins, result.played)
        mark = ""
        if target is not None:
            mark = "at least %d%%: %s" % (round(100 * target),
                                         "met" if result.rate() >= target else "MISSED")
        print("%-22s %-20s %7d %4d-%-4d %6.1f%% %5.1f-%5.1f%% %8.0f  %s" % (
            "%s %s" % (game, rules_name), "%s vs %s" % (play.player_name(a),
                                                          play.player_name(b)),
            result.played, result.wins, result.losses, 100 * result.rate(), 100 * low,
            100 * high, result.seconds, mark), flush=True)


def parse_match(text):
    """'othello 5 greedy' or 'io:7x7 5 random' -> a MATCHES row."""
    words = text.split()
    if len(words) != 3:
        raise argparse.ArgumentTypeError("a match is 'GAME[:RULES] A B', not %r" % text)
    game, _, rules_name = words[0].partition(":")
    try:
        module = games.module(game)
        rules = module.Rules.parse(rules_name) if rules_name else module.Board.default_rules()
        a, b = play.parse_player(words[1]), play.parse_player(words[2])
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc))
    target = None
    for known in MATCHES:
        if known[:4] == (module.GAME, rules.name(), a, b):
            target = known[4]
    return module.GAME, rules.name(), a, b, target


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games a match (default 20)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--match", type=parse_match, action="append", default=None,
                        metavar="'GAME[:RULES] A B'", help="play only this match (repeatable)")
    parser.add_argument("--no-matches", action="store_true", help="speed figures only")
    parser.add_argument("--no-speed", action="store_true", help="matches only")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    print("%-14s %-30s %12s %s" % ("instrument", "figure", "value", "unit"))
    if not args.no_speed:
        bench_speed()
        if os.environ.get("RP2EMU"):
            bench_emulated_pico(os.environ["RP2EMU"])
    if not args.no_matches:
        run_matches(args.match or MATCHES, args.games, args.jobs, args.seed)
    print("\n%.0f s" % (time.perf_counter() - start))


if __name__ == "__main__":
    main()
