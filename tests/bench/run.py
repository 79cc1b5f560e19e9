"""`make bench`: speed and size figures of the rules package, printed as a table.

Three instruments:
- CPython: perft(5) from the empty board in each rule set, and legal-move listing time.
- MicroPython's unix build (PyPI): tests/bench/pico_rules.py, the same script a Pico runs.
- An emulated Pico (MicroPython 1.24.1 on rp2040js at 125 MHz), when the environment variable
  RP2EMU names a folder set up as ../shared/tools/rp2emu/README.md says (board-emu.mjs,
  fw.uf2, bootrom.mjs and rp2040js installed there). The package is compiled with mpy-cross
  for armv6m and copied to the emulated flash, as `make deploy` does. The same emulator then
  runs the whole board firmware through an opening (tests/bench/pico_board.py) and through
  complete games at a brisk and a slow human pace (tests/bench/pico_games.py, BENCH_PICO_GAMES
  games a pace, default 2).
"""

import ast
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import timeit
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(HERE.parent))

import iago  # noqa: E402  (the installed package: firmware/lib/iago)
import mpvm  # noqa: E402
from host_sim.deploy import MPY_CROSS_OPTIONS   # as make deploy compiles
import pico_board  # noqa: E402  (tests/bench/pico_board.py: the whole firmware, emulated)
import pico_games  # noqa: E402  (tests/bench/pico_games.py: complete games, emulated)

DEVICE_SCRIPT = HERE / "pico_rules.py"
ENGINE_SCRIPT = HERE / "pico_engine.py"
TARGETS = {
    "perft5_standard": ("s", 15.0),
    "legal_moves_plain_worst": ("us", 4000.0),
    "legal_moves_board_api_worst": ("us", 500.0),
    "heap_package_and_game": ("B", 20 * 1024),
    # The board firmware (issue 3): a matrix scan, a disk lit within 25 ms of landing
    # (debounce included), 8 ms from the debounced placement to its frame sent, the heap.
    "scan": ("us", 1000.0),
    # The computer opponent (issue 5): at most 2 s a move at the top level on a Pico.
    "move_ms_level5": ("ms", 2000.0),
    "board_move_ms_level5": ("ms", 2000.0),
    "place_to_light_max": ("ms", 25.0),
    "game_place_to_light_max": ("ms", 25.0),
    "place_to_frame_max": ("ms", 8.0),
    # The heap in play (docs/architecture.md): at most 80 KB; tests/bench/pico_heap.py holds
    # at least 100 KB free through a game against the computer and the demo.
    "heap_in_play_max": ("B", 80 * 1024),
}


def row(instrument, name, value, unit, target=None):
    mark = ""
    if target is not None:
        mark = "  target <= %g %s: %s" % (target, unit, "met" if value <= target else "MISSED")
    print("%-14s %-30s %12.1f %-3s%s" % (instrument, name, value, unit, mark), flush=True)


def parse_figures(text):
    figures = {}
    for line in text.splitlines():
        parts = line.split()
        if len(parts) == 3:
            try:
                figures[parts[0]] = (float(parts[1]), parts[2])
            except ValueError:
                pass
    return figures


def report(instrument, figures, pico=False):
    for name, (value, unit) in figures.items():
        target = TARGETS.get(name, (None, None))[1] if pico else None
        row(instrument, name, value, unit, target)


def midgame_positions():
    """The MIDGAME positions of the device script, so every instrument times the same ones."""
    for node in ast.parse(DEVICE_SCRIPT.read_text()).body:
        if isinstance(node, ast.Assign) and node.targets[0].id == "MIDGAME":
            return ast.literal_eval(node.value)
    raise LookupError("MIDGAME not found in %s" % DEVICE_SCRIPT)


def bench_cpython():
    for rules_name in ("standard", "loose", "simple"):
        board = iago.Board(rules=iago.Rules.parse(rules_name))
        start = time.perf_counter()
        leaves = iago.perft(board, 5)
        elapsed = time.perf_counter() - start
        row("CPython", "perft5_%s (%d leaves)" % (rules_name, leaves), elapsed, "s",
            TARGETS["perft5_standard"][1])
    worst = 0.0
    for text in midgame_positions():
        board = iago.Board(text)

        def listing(board=board):
            board._legal_cache = None
            return len(board.legal_moves)
        runs = 2000
        worst = max(worst, timeit.timeit(listing, number=runs) / runs * 1e6)
    row("CPython", "legal_moves_board_api_worst", worst, "us")


def bench_unix_micropython():
    out = mpvm.run_unix(DEVICE_SCRIPT.read_text(), heap="256k")
    report("mpy-unix-64", parse_figures(out))
    out = mpvm.run_unix(ENGINE_SCRIPT.read_text(), heap="256k")
    report("mpy-unix-64", parse_figures(out))


def bench_emulated_pico(emu_dir, script=DEVICE_SCRIPT, instrument="pico-emulated"):
    emu = Path(emu_dir)
    needed = [emu / "board-emu.mjs", emu / "fw.uf2", emu / "bootrom.mjs"]
    missing = [str(p) for p in needed if not p.exists()]
    if missing:
        print("emulated Pico: RP2EMU=%s lacks %s" % (emu_dir, ", ".join(missing)))
        return
    with tempfile.TemporaryDirectory() as work:
        files = Path(work) / "fs"
        lib = files / "lib" / "iago"
        lib.mkdir(parents=True)
        for source in sorted((ROOT / "firmware" / "lib" / "iago").glob("*.py")):
            mpvm.mpy_cross(source, lib, options=MPY_CROSS_OPTIONS)
        shutil.copy(script, files / "main.py")
        config = {"rows": [2], "cols": [10], "led_pin": 22, "led_count": 1, "cells": {},
                  "files": str(files), "main": "main.py"}
        (Path(work) / "board.json").write_text(json.dumps(config))
        (Path(work) / "scenario.json").write_text(json.dumps({"events": [], "tail_ms": 40000}))
        out = Path(work) / "report.json"
        proc = subprocess.run(["node", str(emu / "board-emu.mjs"), "--config",
                               str(Path(work) / "board.json"), "--scenario",
                               str(Path(work) / "scenario.json"), "--out", str(out)],
                              cwd=emu, capture_output=True, text=True, timeout=600)
        if proc.returncode != 0 or not out.exists():
            print("emulated Pico: board-emu.mjs failed:\n" + proc.stderr[-2000:])
            return
        lines = [entry["line"] for entry in json.loads(out.read_text()).get("serial", [])]
        figures = parse_figures("\n".join(lines))
        if not figures:
            print("emulated Pico: no figures; serial output was:\n" + "\n".join(lines[-20:]))
            return
        report(instrument, figures, pico=True)


def bench_emulated_board(emu_dir):
    """The whole firmware on the emulated board: tests/bench/pico_board.py."""
    if not (Path(emu_dir) / "board-emu.mjs").exists():
        return
    try:
        figures = pico_board.run(emu_dir)
    except (RuntimeError, subprocess.SubprocessError) as exc:
        print("emulated board: %s" % exc)
        return
    report("pico-board", figures, pico=True)


def bench_emulated_games(emu_dir):
    """Complete games at two human paces on the emulated board: tests/bench/pico_games.py."""
    if not (Path(emu_dir) / "board-emu.mjs").exists():
        return
    games = int(os.environ.get("BENCH_PICO_GAMES", "2"))
    print("pico-games: %d complete games a pace (BENCH_PICO_GAMES), brisk and slow; "
          "progress on stderr" % games, flush=True)
    try:
        results = pico_games.run(emu_dir, games)
    except (RuntimeError, subprocess.SubprocessError) as exc:
        print("pico-games: %s" % exc)
        return
    pico_games.print_table(results)


def bench_circuitpython(cp_dir):
    """The firmware on an emulated Pico under CircuitPython 9.2.9 (../shared/tools/cpemu):
    tests/bench/pico_circuitpython.py, an opening, a complete game and the computer's
    level-5 moves, against the MicroPython targets."""
    script = str(HERE / "pico_circuitpython.py")
    env = dict(os.environ, CPEMU=cp_dir)
    for args in ((), ("--computer",)):
        proc = subprocess.run([sys.executable, script] + list(args), capture_output=True,
                              text=True, timeout=7200, env=env)
        if proc.returncode != 0:
            print("cp-board: %s" % (proc.stderr.strip().splitlines() or ["failed"])[-1])
            continue
        report("cp-board", parse_figures(proc.stdout), pico=True)


def bench_engine():
    """tests/bench/engine.py: nodes a second on both interpreters and the match table between
    every pair of players (BENCH_MATCH_GAMES games a pair, default 10; the 200-game figures
    of docs/engine.md come from `iago match`)."""
    games = os.environ.get("BENCH_MATCH_GAMES", "10")
    subprocess.run([sys.executable, str(HERE / "engine.py"), "--games", games], check=False,
                   timeout=3600)
    # The other games' engine (iago.search): speed and matches, Othello's target among them.
    subprocess.run([sys.executable, str(HERE / "games_engine.py"), "--games", games],
                   check=False, timeout=3600)


def main():
    print("%-14s %-30s %12s %s" % ("instrument", "figure", "value", "unit"))
    bench_cpython()
    bench_unix_micropython()
    bench_engine()
    # The static site in Chromium: start-up and placement-to-light (issue 16).
    subprocess.run([sys.executable, str(HERE / "site_page.py")], check=False, timeout=900)
    # Remote play: ever more games at once through one local Mosquitto (issue 34).
    subprocess.run([sys.executable, str(HERE / "remote_load.py")], check=False, timeout=1800)
    emu_dir = os.environ.get("RP2EMU")
    if emu_dir:
        bench_emulated_pico(emu_dir)
        bench_emulated_pico(emu_dir, ENGINE_SCRIPT, "pico-engine")
        proc = subprocess.run([sys.executable, str(HERE / "pico_computer.py")],
                              capture_output=True, text=True, timeout=900)
        report("pico-board", parse_figures(proc.stdout), pico=True)
        bench_emulated_board(emu_dir)
        bench_emulated_games(emu_dir)
    else:
        print("emulated Pico: skipped (the Pico's rules, engine and board figures, and the "
              "complete games at a player's pace); set RP2EMU to a folder set up as "
              "../shared/tools/rp2emu/README.md says (see docs/benchmarks.md)")
    cp_dir = os.environ.get("CPEMU")
    if cp_dir:
        bench_circuitpython(cp_dir)
    else:
        print("emulated CircuitPython Pico: skipped; set CPEMU to a folder set up as "
              "../shared/tools/cpemu/README.md says (docs/circuitpython.md)")


if __name__ == "__main__":
    main()
