"""The heap budget on an emulated Pico, on both runtimes: a whole game against the computer at
level 5, and a whole game of demo mode.

1. computer: the board's settings set over the host link (the computer plays light at level
   5); a hand plays dark, seeded random legal placements, and puts each of the computer's
   disks on the hex it lights; every disk a placement turns is lifted and put back. The
   computer's moves are worked out beforehand on the host with the board's own node budget
   (gameboard/layout.py, shrunk on CircuitPython by cphw.SEARCH_SHARE as gameboard/start.py
   does): the engine is deterministic for a seed and a budget, so the board must light the
   very same hexes, which the bench checks against its `computer_move` events.
2. demo: the host link's `demo` command right after the start; the computer plays both sides
   on the LEDs until the demo's first game is over (`demo_game_over`).

The host link's `stats` every STATS_EVERY_MS (it collects the garbage, then reports the heap
in use and free): `<run>_heap_max` (the most in use), `<run>_heap_free_min` (the least free)
and `<run>_heap_thinking_max` (the most while the computer searched).

Run: RP2EMU=<folder> CPEMU=<folder> python tests/bench/pico_heap.py [--runtime micropython|
circuitpython] [--only computer|demo] [--seed S] [--fram]. `make bench` runs it for each
emulator set.
A run takes 10-25 minutes of wall time on a shared 2-core machine.
"""

import argparse
import ast
import os
import random
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

import iago  # noqa: E402
import pico_board  # noqa: E402
import pico_circuitpython  # noqa: E402
from iago import games  # noqa: E402

from gameboard.layout import hex_layout  # noqa: E402

STATS = pico_board.STATS
FREE_MIN = 100 * 1024     # the budget: at least this much heap free at every step
STATS_EVERY_MS = 250
SETTINGS = '{"cmd": "settings", "settings": {"computer": "light", "level": 5}}\n'
FIRST_MS = 600            # the first placement, after the start-up event
FLIP_LIFT_MS = 400        # a flipped disk lifted this long after its placement ...
FLIP_HOLD_MS = 200        # ... put back this long after ...
FLIP_NEXT_MS = 250        # ... and the next one lifted this long after that
NEXT_MS = 450             # the next hand placement after the last flip goes back
# The computer's disk goes down this long after the last flip of the hand's placement: its
# search starts once the placement has rested and every flip is done, and takes at most 2 s.
COMPUTER_MS = 4000
DEMO_MS = {"micropython": 200000, "circuitpython": 260000}
WALL_S = 4 * 3600          # an emulated minute takes 4-8 minutes of a busy machine


def search_share(runtime):
    """The share of the node budget the runtime's hardware layer searches (gameboard/start.py
    applies it): cphw.SEARCH_SHARE on CircuitPython, read from its source (its imports are
    CircuitPython's own), all of it on MicroPython."""
    if runtime != "circuitpython":
        return 100
    tree = ast.parse((ROOT / "firmware" / "lib" / "gameboard" / "cphw.py").read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "SEARCH_SHARE":
            value = node.value
            if isinstance(value, ast.Call):       # const(40)
                value = value.args[0]
            return ast.literal_eval(value)
    raise LookupError("SEARCH_SHARE not found in gameboard/cphw.py")


def level5_nodes(runtime):
    nodes = hex_layout().board_nodes
    return min(nodes[-1], nodes[-1] * search_share(runtime) // 100)


def computer_game(runtime, seed):
    """(events, the computer's cells in order, the final board): the hand plays dark."""
    rng = random.Random(seed)
    board = iago.Board()
    nodes = level5_nodes(runtime)
    events = [{"t_ms": 0, "action": "send", "data": STATS},
              {"t_ms": 100, "action": "send", "data": SETTINGS}]
    computer = []
    t = FIRST_MS
    while not board.is_game_over():
        if board.turn == iago.DARK:
            cell = rng.choice(sorted(board.legal_moves))
        else:
            search = games.search(board, 5, seed=board.ply(), nodes=nodes)
            while not search.step(1000):
                pass
            cell = search.best()
            computer.append(iago.cell_name(cell))
        captured, released = board.flips(cell)
        board.push(cell)
        events.append({"t_ms": t, "action": "place", "cell": iago.cell_name(cell)})
        t += FLIP_LIFT_MS
        for flipped in list(captured) + list(released):
            events.append({"t_ms": t, "action": "lift", "cell": iago.cell_name(flipped)})
            events.append({"t_ms": t + FLIP_HOLD_MS, "action": "place",
                           "cell": iago.cell_name(flipped)})
            t += FLIP_HOLD_MS + FLIP_NEXT_MS
        t += COMPUTER_MS if board.turn == iago.LIGHT else NEXT_MS
    t += 3000
    return _with_stats(events, t), computer, board


def demo_run(runtime):
    events = [{"t_ms": 0, "action": "send", "data": STATS},
              {"t_ms": 100, "action": "send", "data": '{"cmd": "demo"}\n'}]
    return _with_stats(events, DEMO_MS[runtime])


def _with_stats(events, end_ms):
    events = events + [{"t_ms": t, "action": "send", "data": STATS}
                       for t in range(STATS_EVERY_MS, end_ms, STATS_EVERY_MS)]
    return sorted(events, key=lambda e: e["t_ms"])


def emulate(runtime, emu_dir, work, events):
    """The board's serial lines (dicts with t_ms, line, json) on `runtime`'s emulator."""
    work = Path(work)
    if runtime == "circuitpython":
        files = pico_circuitpython.build_files(work / "fs")
        report = pico_circuitpython.cp_board_emu(emu_dir, work / "emu", files, events, 500,
                                                 timeout=WALL_S)
        problem = pico_circuitpython.failures(report)
    else:
        files = pico_board.build_files(work / "fs")
        report = pico_board.board_emu(emu_dir, work / "emu", files, events, 500,
                                      'serial:"startup"', timeout=WALL_S)
        problem = "\n".join(s["line"] for s in report["serial"]
                            if "Traceback" in s["line"] or '"event": "error"' in s["line"])
    if problem or report.get("main_exited"):
        raise RuntimeError("the firmware failed:\n%s" % (problem or report["serial"][-10:]))
    return report["serial"]


def heap_figures(name, serial):
    """{figure: (value, unit)} from the `stats` replies among `serial`."""
    replies = [(s["t_ms"], s["json"]) for s in serial
               if s.get("json", {}).get("reply") == "stats" and s["json"].get("ok")]
    if not replies:
        raise RuntimeError("no stats replies; the board's last lines: %r" % serial[-8:])
    out = {name + "_heap_max": (max(r["mem_alloc"] for _, r in replies), "B"),
           name + "_heap_free_min": (min(r["mem_free"] for _, r in replies), "B"),
           name + "_stats_replies": (len(replies), "")}
    # While the computer searched: from the board's move it answers to its computer_move.
    thinking = []
    start = None
    for s in serial:
        event = s.get("json", {}).get("event")
        if event == "move" and s["json"].get("side") == "dark":
            start = s["t_ms"]
        elif event == "computer_move":
            thinking.append((start, s["t_ms"]))
            start = None
    during = [r["mem_alloc"] for t, r in replies
              if any(a is not None and a <= t <= b for a, b in thinking)]
    if during:
        out[name + "_heap_thinking_max"] = (max(during), "B")
    return out


def run_computer(runtime, emu_dir, seed):
    events, computer, board = computer_game(runtime, seed)
    with tempfile.TemporaryDirectory() as work:
        serial = emulate(runtime, emu_dir, work, events)
    seen = [s["json"]["cell"] for s in serial if s.get("json", {}).get("event") == "computer_move"]
    if seen != computer:
        raise RuntimeError("the board's computer chose %s, the host's %s" % (seen, computer))
    over = [s["json"] for s in serial if s.get("json", {}).get("event") == "game_over"]
    if not over:
        raise RuntimeError("no game_over; the board's last lines: %r" % serial[-8:])
    out = heap_figures("computer", serial)
    out["computer_moves"] = (len(seen), "")
    out["computer_plies"] = (board.ply(), "")
    return out


def run_demo(runtime, emu_dir):
    with tempfile.TemporaryDirectory() as work:
        serial = emulate(runtime, emu_dir, work, demo_run(runtime))
    ends = [s for s in serial if s.get("json", {}).get("event") == "demo_game_over"]
    if not ends:
        raise RuntimeError("the demo's game did not end within %d ms" % DEMO_MS[runtime])
    out = heap_figures("demo", [s for s in serial if s["t_ms"] <= ends[0]["t_ms"]])
    out["demo_game_ms"] = (ends[0]["t_ms"], "ms")
    return out


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runtime", choices=("micropython", "circuitpython"))
    parser.add_argument("--only", choices=("computer", "demo"))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--fram", action="store_true", help="an FRAM fitted on the board")
    args = parser.parse_args(argv)
    if args.fram:
        pico_board.FRAM = ""
    emulators = {"micropython": os.environ.get("RP2EMU"),
                 "circuitpython": os.environ.get("CPEMU")}
    runtimes = [args.runtime] if args.runtime else [r for r in emulators if emulators[r]]
    if not runtimes or any(not emulators[r] for r in runtimes):
        print("pico_heap: set RP2EMU (MicroPython) and/or CPEMU (CircuitPython), "
              "docs/benchmarks.md")
        return 2
    short = []
    for runtime in runtimes:
        runs = []
        if args.only != "demo":
            runs.append(lambda r=runtime: run_computer(r, emulators[r], args.seed))
        if args.only != "computer":
            runs.append(lambda r=runtime: run_demo(r, emulators[r]))
        for run in runs:
            for name, (value, unit) in run().items():
                print("%s_%s" % (runtime, name), value, unit or "n", flush=True)
                # The budget is MicroPython's; CircuitPython's figures stand beside it (it
                # has about 65 KB less heap after boot than MicroPython 1.24).
                if (runtime == "micropython" and name.endswith("_heap_free_min") and
                        value < FREE_MIN):
                    short.append("%s_%s %d B" % (runtime, name, value))
    if short:
        print("pico_heap: under %d B free: %s" % (FREE_MIN, ", ".join(short)))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
