"""A power cut inside a save, on the emulated Pico's flash.

Does the board's save (gameboard/saves.py, Saves.save: the line of the game written over
game.sav in place, one write, then closed) survive a power cut at any instant? On the
emulated Pico (MicroPython 1.24.1's own littlefs on the emulated flash; the boot ROM's
erase and program routines emulated by board-emu.mjs), tests/bench/torn_saves.mjs saves a
game, then a longer one, then keeps saving a growing game (a take-back now and then) for
--saves saves in all, enough for littlefs to compact its directory (an erase) twice. It logs
every flash erase and program of each save, and for each of them builds the flash a power
cut would leave: cut just before the operation (those before it done), and cut during it
(a program torn after a random prefix of its bytes, the next byte partly programmed, and
one torn with random bits programmed anywhere in it; an erase with only its first half
erased, and one with random bits erased). A fresh emulator boots from each of those
flashes, mounts the file system as a Pico does at start-up, reads game.sav and runs
Saves('/').load(). Measured:

- cuts: the cut points tried, and how many distinct flash images they gave (each booted once);
- old / new: the file read back exactly as the save before or the save being made, and the
  loader returned that game;
- other: anything else (a failure; each one is printed with what was read);
- resave_failed: after the cut the board saved another game, and one more start-up did not
  read exactly that back (the file system no longer takes saves);
- the flash operations the saves made, and the wall time.

--control checks the method: each save after the first writes the same line in two commits
(a flush between its halves) instead of calling Saves.save; its cuts must find "other"
(half a line read back, the loader refusing it).

Run: RP2EMU=<emulator folder> python tests/bench/pico_torn_saves.py [--saves N]
[--prefixes N] [--scatter N] [--seed S] [--sweep N] [--no-resave] [--control]
[--json FILE] [--fram] (tests/bench/torn_fram.py: the FRAM's saves cut after every byte, on
MicroPython with RP2EMU and CircuitPython with CPEMU). `make bench` runs it
when RP2EMU is set. Needs node, and the emulator set up as ../shared/tools/rp2emu/README.md
says. The defaults (30 saves, 2 torn prefixes and 1 scattered tearing a program) take
a few minutes on a 2-core machine.
"""

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(HERE.parent))

import iago  # noqa: E402  (the installed package: firmware/lib/iago)
import mpvm  # noqa: E402
from host_sim.deploy import MPY_CROSS_OPTIONS   # as make deploy compiles
from gameboard.saves import Saves  # noqa: E402  (installed too: firmware/lib/gameboard)
from gameboard.settings import Settings  # noqa: E402

SCRIPT = HERE / "torn_saves.mjs"
PACKAGES = ("gameboard", "iago")
FIRST_MOVES = 8          # the game saved first (the old save of the first cut)
SECOND_MOVES = 20        # the longer game saved over it
TAKE_BACK_EVERY = 7      # in the saves after: one move more each, but a take-back this often
RESAVE_MOVES = 3         # the game saved after a cut


def build_lib(dest):
    """The packages as `make deploy` puts them on the flash (mpy-cross, armv6m), under lib/."""
    lib = ROOT / "firmware" / "lib"
    for package in PACKAGES:
        for source in sorted((lib / package).rglob("*.py")):
            out = Path(dest) / "lib" / source.parent.relative_to(lib)
            out.mkdir(parents=True, exist_ok=True)
            mpvm.mpy_cross(source, out, options=MPY_CROSS_OPTIONS)
    return Path(dest)


def random_game(rng, length):
    """Move names of a game of random legal placements, `length` long (or to its end)."""
    board = iago.Board()
    moves = []
    while len(moves) < length and not board.is_game_over():
        move = rng.choice(sorted(board.legal_moves))
        board.push(move)
        moves.append(iago.cell_name(move))
    return moves


def sequence(saves, seed):
    """The games saved in turn (move lists): the first, the longer one, then one move more a
    save with a take-back every TAKE_BACK_EVERY saves; a new game when one ends."""
    rng = random.Random(seed)
    line = random_game(rng, 200)
    games = [line[:FIRST_MOVES], line[:SECOND_MOVES]]
    count = SECOND_MOVES
    while len(games) < saves + 1:
        count += -1 if len(games) % TAKE_BACK_EVERY == 0 else 1
        if count > len(line):
            line = random_game(rng, 200)
            count = FIRST_MOVES
        games.append(line[:count])
    return games


def save_bytes(moves, work):
    """The bytes Saves.save writes for the game `moves` (default settings, no flips)."""
    board = iago.Board()
    for name in moves:
        board.play(name)
    Saves(str(work) + "/").save(Settings(), board, [])
    return (Path(work) / "game.sav").read_bytes()


def run(emu_dir, saves=30, prefixes=2, scatter=1, seed=1, resave=True, sweep=0,
        keep_json=None, control=False):
    """The report of torn_saves.mjs (dict)."""
    with tempfile.TemporaryDirectory() as work:
        work = Path(work)
        files = build_lib(work / "fs")
        games = sequence(saves, seed)
        (work / "host").mkdir()
        resave_game = random_game(random.Random(seed + 1), RESAVE_MOVES)
        plan = {"files": str(files), "games": games,
                "bytes": [save_bytes(g, work / "host").hex() for g in games],
                "resave": resave_game, "resave_bytes": save_bytes(resave_game, work / "host").hex(),
                "prefixes": prefixes, "scatter": scatter, "erase_scatter": scatter,
                "sweep": sweep, "seed": seed, "resave_check": resave, "control": control}
        (work / "plan.json").write_text(json.dumps(plan))
        out = work / "report.json"
        env = dict(os.environ, RP2EMU=str(Path(emu_dir).resolve()))
        proc = subprocess.run(["node", str(SCRIPT), "--plan", str(work / "plan.json"),
                               "--out", str(out)], cwd=emu_dir, env=env, stdout=subprocess.PIPE,
                              text=True, timeout=3600)
        if proc.returncode != 0 or not out.exists():
            raise RuntimeError("torn_saves.mjs failed:\n" + proc.stdout[-3000:])
        report = json.loads(out.read_text())
    if keep_json:
        Path(keep_json).write_text(json.dumps(report, indent=1))
    return report


def print_summary(report, out=sys.stdout):
    print("pico-torn-saves: %d saves (%d flash operations: %d erases), %d cut points "
          "(%d distinct flash images booted)" % (
              report["saves"], report["flash_ops"], report["erases"], report["cuts"],
              report["images_booted"]), file=out)
    print("pico-torn-saves: read back the old save %d, the new save %d, anything else %d%s; "
          "%.0f s" % (report["old"], report["new"], report["other"],
                      "; saving again after the cut failed %d" % report["resave_failed"]
                      if report["resave_check"] else "", report["wall_s"]), file=out)
    for row in report["rows"]:
        if row["verdict"] == "other" or row.get("resave_ok") is False:
            print("pico-torn-saves: FAILED " + json.dumps(row), file=out)
    out.flush()


def main_fram(args):
    sys.path.insert(0, str(HERE))
    import torn_fram
    emulators = {"micropython": os.environ.get("RP2EMU"),
                 "circuitpython": os.environ.get("CPEMU")}
    runtimes = [r for r in emulators if emulators[r] and args.runtime in (None, r)]
    if not runtimes:
        print("pico-torn-saves --fram: set RP2EMU and/or CPEMU (docs/benchmarks.md)")
        return 2
    games = [[iago.parse_cell(m) for m in g] for g in sequence(2, args.seed)]
    reports = []
    for runtime in runtimes:
        reports.append(torn_fram.run_runtime(runtime, emulators[runtime], games))
        torn_fram.print_summary(reports[-1:], sys.stdout)
    if args.json:
        Path(args.json).write_text(json.dumps(reports, indent=1))
    return 1 if any(r["failures"] for r in reports) else 0


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--saves", type=int, default=30, help="saves after the first (30)")
    parser.add_argument("--prefixes", type=int, default=2,
                        help="torn programs a flash program, cut after a random prefix (2)")
    parser.add_argument("--scatter", type=int, default=1,
                        help="torn operations with random bits done, a program or erase (1)")
    parser.add_argument("--seed", type=int, default=1, help="the games' and the tears' seed")
    parser.add_argument("--sweep", type=int, default=0,
                        help="in the first N saves, every torn prefix instead (0)")
    parser.add_argument("--no-resave", action="store_true",
                        help="do not save again after each cut (half the boots)")
    parser.add_argument("--control", action="store_true",
                        help="the control: each save written in two commits (a flush between "
                        "two halves) instead of Saves.save; the cuts must find torn saves")
    parser.add_argument("--json", help="write the report (every cut point) to this file")
    parser.add_argument("--fram", action="store_true",
                        help="the FRAM's saves instead, cut after every byte, on each runtime "
                        "whose emulator is set (RP2EMU, CPEMU): tests/bench/torn_fram.py")
    parser.add_argument("--runtime", choices=("micropython", "circuitpython"),
                        help="--fram: this runtime only")
    args = parser.parse_args(argv)
    if args.fram:
        return main_fram(args)
    emu_dir = os.environ.get("RP2EMU")
    if not emu_dir:
        print("pico-torn-saves: set RP2EMU to a folder set up as ../shared/tools/rp2emu/"
              "README.md says (docs/benchmarks.md)")
        return 2
    report = run(emu_dir, args.saves, args.prefixes, args.scatter, args.seed,
                 not args.no_resave, args.sweep, args.json, args.control)
    print_summary(report)
    if args.control:     # the method works if it sees the torn saves
        return 0 if report["other"] else 1
    return 1 if report["other"] or report.get("resave_failed") else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
