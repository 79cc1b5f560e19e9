"""Board firmware figures on an emulated Pico running CircuitPython: the whole firmware in the
loop, as tests/bench/pico_board.py measures it under MicroPython.

The firmware goes onto the emulated CIRCUITPY drive as `make deploy RUNTIME=circuitpython`
stages it (source files, lib/neopixel.py from PyPI, code.py, board.json), with one change:
its boot.py gives the firmware the drive but enables no data port, and the host link falls
back to the console (gameboard/cphw.py). cpemu's emulated host opens one USB serial port, the
last in the device's descriptor: with the board's boot.py that is usb_cdc.data, so the
runner never hears the console's start marker and stops after 30 emulated s (an emulator
limit, not boot.py's: docs/circuitpython.md, "On an emulated Pico").
The runs:

1. The board: pico_board.py's opening (placements with flips turned by hand, an illegal
   placement, a take-back) with `stats` after every disk put down: place_to_light_*,
   place_to_frame_*, closing_to_frame_max, heap_in_play_max, scan_period_*, frames.
2. A complete game: every placement and flip played by hand (brisk_game), the game ends
   and its record is kept on the drive; game_place_to_light_*, game_heap_max, the longest
   loop step (game_step_max, a save's), the longest gap between keypad's background scans
   (game_keypad_scan_gap_max) and how many of the flips put back the firmware saw
   (game_flips_seen of game_flips).
3. (--computer) The computer at level 5 (the hex board's budget on a Pico,
   gameboard/layout.py) in tests/bench/pico_computer.py's three positions, put on the drive
   as game.sav: board_move_ms_level5, from the start-up event to its `computer_move`, and the
   loop's longest step meanwhile.

Run: CPEMU=/folder/of/cpemu python tests/bench/pico_circuitpython.py [--report FILE]
[--opening | --computer] [--fram]  (--computer also measures what the loop's parts allocate;
--fram: an FRAM fitted, the game in progress saved there)
(`make bench` runs it when CPEMU is set). Needs node and cpemu set up as
../shared/tools/cpemu/README.md says.
"""

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(ROOT))

import iago  # noqa: E402
import pico_board  # noqa: E402  (the MicroPython bench: its scenario and figures)

from host_sim import deploy  # noqa: E402

# No usb_cdc.data (cpemu's host would open it instead of the console); the drive is the firmware's.
BOOT_PY = 'import storage\nstorage.remount("/", readonly=False)\n'
T0 = 'serial:"startup"'
# Without viper kernels the search is slower than on MicroPython: wait this long for a move.
THINK_WATCH_MS = 30000
# A flip put back is seen (its flip_done event) within this long, or it went unseen.
FLIP_SEEN_MS = 1000


def build_files(dest):
    dest = Path(dest)
    deploy.stage_circuitpython(dest, pico_board.BOARD_MAP)
    (dest / "boot.py").write_text(BOOT_PY)
    return dest


def cp_board_emu(emu_dir, work, files, events, tail_ms, t0=T0, timeout=3600):
    work = Path(work)
    work.mkdir(parents=True, exist_ok=True)
    config = pico_board.emulator_config(files)
    config["main"] = "code.py"
    (work / "board.json").write_text(json.dumps(config))
    (work / "scenario.json").write_text(json.dumps({"events": events, "tail_ms": tail_ms}))
    out = work / "report.json"
    argv = ["node", str(Path(emu_dir) / "cp-board-emu.mjs"), "--config", str(work / "board.json"),
            "--scenario", str(work / "scenario.json"), "--out", str(out), "--t0", t0]
    proc = subprocess.run(argv, cwd=emu_dir, capture_output=True, text=True, timeout=timeout)
    if proc.returncode != 0 or not out.exists():
        raise RuntimeError("cp-board-emu.mjs failed:\n" + (proc.stderr + proc.stdout)[-3000:])
    report = json.loads(out.read_text())
    # The firmware's first run ends by design: it checks the board map, keeps its checked
    # copy and reloads (supervisor.reload) to play without the checker in the heap. Only an
    # end after the start-up event is a failure.
    report["main_exited"] = any(s["t_ms"] >= 0 and "Code done running" in s["line"]
                                for s in report["serial"])
    return report


def failures(report):
    lines = [s["line"] for s in report["serial"]]
    bad = [i for i, line in enumerate(lines)
           if "Traceback" in line or '"event": "error"' in line or "Error" in line]
    return "\n".join(lines[max(0, bad[0] - 2):bad[0] + 12]) if bad else None


def brisk_game(seed=1):
    """Events of a complete game played by hand: each placement, then its flips (the first
    lifted 400 ms later, once the placement has settled, each put back 200 ms after it is
    lifted, the next lifted 250 ms after that), the next placement 450 ms after the last flip
    is put back, `stats` 150 ms after each placement. Returns (events, kinds, the game)."""
    import random
    rng = random.Random(seed)
    board = iago.Board()
    events, kinds = [], []

    def add(t, kind, action, cell=None):
        event = {"t_ms": t, "action": action}
        if cell is None:
            event["data"] = pico_board.STATS
        else:
            event["cell"] = cell
        events.append(event)
        kinds.append(kind)

    add(0, "stats", "send")
    t = 300
    while not board.is_game_over():
        legal = sorted(board.legal_moves)
        if not legal:
            break
        cell = rng.choice(legal)
        captured, released = board.flips(cell)
        board.push(cell)
        add(t, "move", "place", iago.cell_name(cell))
        add(t + 150, "stats", "send")
        t += 400
        for flipped in captured + released:
            add(t, "flip_lift", "lift", iago.cell_name(flipped))
            add(t + 200, "flip_back", "place", iago.cell_name(flipped))
            t += 450
        t += 200
    return events, kinds, board


def game_figures(report, events, kinds, board):
    problem = failures(report)
    if problem:
        raise RuntimeError("the firmware failed:\n" + problem)
    lines = [s.get("json", {}) for s in report["serial"]]
    moves = [e for e in report["events"] if kinds[e["i"]] == "move"]
    light = [e["led_latency_ms"] for e in moves if e.get("led_latency_ms") is not None]
    out = {"game_placements": (len(moves), "")}
    if light:
        pico_board.spread(out, "game_place_to_light", light, "ms")
    out["game_unlit_placements"] = (len(moves) - len(light), "")
    replies = [m for m in lines if m.get("reply") == "stats" and m.get("ok")]
    if replies:
        out["game_heap_max"] = (max(r["mem_alloc"] for r in replies), "B")
        out["game_heap_free_min"] = (min(r["mem_free"] for r in replies), "B")
        out["game_step_max"] = (max(r["step_max_ms"] for r in replies), "ms")
    period = report["matrix"]["scan_period_ms"]
    if period:
        # keypad scans in the supervisor's tick interrupt, every 2 ms: only a flash erase (all
        # interrupts off, 45 ms a sector) should stop it. Longer gaps on cpemu are its WFI
        # artefact (docs/benchmarks.md, "CircuitPython"), and a flip can go unseen in one.
        out["game_keypad_scan_gap_max"] = (period["max"], "ms")
    flips = [e for e in report["events"] if kinds[e["i"]] == "flip_back"]
    done = [(s["t_ms"], s["json"].get("cell")) for s in report["serial"]
            if s.get("json", {}).get("event") == "flip_done"]
    out["game_flips"] = (len(flips), "")
    out["game_flips_seen"] = (sum(1 for e in flips if any(
        cell == e["cell"] and 0 <= t - e["applied_ms"] < FLIP_SEEN_MS for t, cell in done)), "")
    ops = report.get("flash_ops") or {}
    out["game_flash_erases"] = (ops.get("erase", 0), "")     # nvm's and the drive's, all
    out["game_flash_busy"] = (ops.get("busy_ns", 0) / 1e6, "ms")
    over = [m for m in lines if m.get("event") == "game_over"]
    kept = [m for m in lines if m.get("event") == "saved_game"]
    out["game_over_reported"] = (len(over), "")
    out["game_record_kept"] = (len(kept), "")
    state = [m for m in lines if m.get("event") == "move"]
    out["game_moves_refereed"] = (len(state), "")
    out["game_moves_played"] = (len(board.move_stack), "")
    return out


def computer_figures(emu_dir, work, level=5):
    """The computer at `level` on the hex board, in pico_computer.py's three positions: the
    game is put on the drive as game.sav (read into nvm at start-up), the computer to move.
    From the start-up event to its `computer_move`, and the loop's longest step meanwhile."""
    import pico_computer
    from gameboard.saves import Saves
    from gameboard.settings import Settings
    worst = longest = 0
    for i, text in enumerate(pico_computer.CASES[0][4]):
        files = build_files(Path(work) / ("fs_think%d" % i))
        Saves(str(files) + "/").save(Settings(computer="light", level=level), iago.Board(text),
                                     [])
        events = [{"t_ms": t, "action": "send", "data": pico_board.STATS}
                  for t in (0, THINK_WATCH_MS)]
        report = cp_board_emu(emu_dir, Path(work) / ("think%d" % i), files, events, 300)
        problem = failures(report)
        if problem:
            raise RuntimeError("the firmware failed:\n" + problem)
        times = {}
        replies = []
        for entry in report["serial"]:
            for kind in ("startup", "computer_move"):
                if '"event": "%s"' % kind in entry["line"] and kind not in times:
                    times[kind] = entry["t_ms"]
            reply = entry.get("json", {})
            if reply.get("reply") == "stats" and reply.get("ok"):
                replies.append((entry["t_ms"], reply["step_max_ms"]))
        if len(times) < 2 or len(replies) != 2 or replies[1][0] < times["computer_move"]:
            raise RuntimeError("no computer move seen in %d ms: %r" % (
                THINK_WATCH_MS, report["serial"][-5:]))
        worst = max(worst, times["computer_move"] - times["startup"])
        longest = max(longest, replies[1][1])
    return {"board_move_ms_level%d" % level: (worst, "ms"),
            "step_max_thinking": (longest, "ms")}


ALLOC_SCRIPT = """
import gc
from gameboard import app
a = app.build("/", "/board.json", None)
for _ in range(1500):           # past the light check
    a.step()
wire = a.leds.wire
other = bytearray(wire)


def changed():
    other[0] ^= 1
    a.pixels.show(other)


def framed():
    a.game.dirty = True
    a.step()


def measure(name, fn, n):
    gc.collect()
    gc.disable()
    before = gc.mem_alloc()
    for _ in range(n):
        fn()
    after = gc.mem_alloc()
    gc.enable()
    print("alloc_" + name, after - before, "B")


measure("show_same_x50", lambda: a.pixels.show(wire), 50)
measure("show_changed_x50", changed, 50)
measure("scan_x200", lambda: a.matrix.scan(a.raw), 200)
measure("clock_x200", a.clock.ticks_ms, 200)
measure("step_with_frame_x50", framed, 50)
measure("idle_step_x500", a.step, 500)
"""


def alloc_figures(emu_dir, work):
    """Bytes allocated by the loop's parts on CircuitPython (no heap_lock there: gc.mem_alloc
    with the collector off), through cpemu's REPL: the firmware on the drive, no switches."""
    files = build_files(Path(work) / "fs_alloc")
    (files / "code.py").unlink()         # the REPL runs the script instead
    script = Path(work) / "alloc.py"
    script.write_text(ALLOC_SCRIPT)
    proc = subprocess.run(["node", str(Path(emu_dir) / "cp-emu.mjs"), "--files", str(files),
                           str(script)], cwd=emu_dir, capture_output=True, text=True,
                          timeout=1800)
    figures = {}
    for line in proc.stdout.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[0].startswith("alloc_"):
            figures[parts[0]] = (float(parts[1]), parts[2])
    if len(figures) != 6:
        raise RuntimeError("the allocation script failed:\n" + (proc.stdout + proc.stderr)[-2000:])
    return figures


def main(argv):
    emu_dir = os.environ.get("CPEMU")
    if not emu_dir:
        print("set CPEMU to a folder set up as ../shared/tools/cpemu/README.md says")
        return 2
    report_copy = argv[argv.index("--report") + 1] if "--report" in argv else None
    if "--fram" in argv:
        pico_board.FRAM = ""        # an FRAM fitted: the game in progress saved there
    figures = {}
    with tempfile.TemporaryDirectory() as work:
        work = Path(work)
        files = build_files(work / "fs")
        events, kinds = pico_board.scenario()
        report = cp_board_emu(emu_dir, work / "board", files, events, 600)
        if report_copy:
            Path(report_copy).write_text(json.dumps(report, indent=1))
        problem = failures(report)
        if problem:
            raise RuntimeError("the firmware failed:\n" + problem)
        figures.update(pico_board.board_figures(report, events, kinds))
        if "--computer" in argv:
            figures.update(computer_figures(emu_dir, work))
            figures.update(alloc_figures(emu_dir, work))
        elif "--opening" not in argv:
            events, kinds, board = brisk_game()
            files = build_files(work / "fs_game")
            report = cp_board_emu(emu_dir, work / "game", files, events, 3000)
            if report_copy:
                Path(report_copy + ".game").write_text(json.dumps(report, indent=1))
            figures.update(game_figures(report, events, kinds, board))
    for name, (value, unit) in figures.items():
        print(name, round(value, 3), unit)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
