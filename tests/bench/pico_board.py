"""Board firmware figures on an emulated Pico: the whole firmware in the loop.

The firmware goes onto the emulated flash as `make deploy` puts it on a Pico: everything
under firmware/lib compiled by `mpy-cross -march=armv6m`, main.py as source, and
hardware/board.json as /board.json. The board map also tells the emulator where each hex
sits in the reed matrix and the LED chain. Three runs:

1. The board: after the light check (the `startup` event) a scenario plays an opening with
   human timing: placements with captures and their flips (each flipped disk lifted and put
   back 300 ms later), an illegal placement, and a take-back (the disk just placed lifted
   while its flip is pending). 150 ms after every disk put down the host link's `stats`
   command reports the firmware's own time from that debounced switch closing to the end
   of sending the LED frame it caused, and the heap in use after a collection.
   - place_to_light_*: a legal placement's switch closing -> the end of the first LED frame
     that shows its hex in the new colour, measured by the emulator (debounce included);
   - place_to_frame_*: the same placements timed by the firmware from the debounced
     closing (flips, next legal moves, frame composed, rendered and sent);
   - closing_to_frame_max: the longest of those for any disk put down (flips too);
   - heap_in_play_max: the most heap in use at the `stats` replies;
   - scan_period_*: the main loop's period, from one scan's first row line to the next
     (its maximum is a save to flash);
   - frames_per_s, frame_interval_min, frame_send: the LED frames of the run.
2. The game after a finished one (next_game_figures): heap_after_finished_game and
   heap_next_game.
3. The parts (the script DEVICE_PARTS as main.py, same compiled files): a matrix scan; for
   each placement of the opening the controller's switch, compose, LedOutput.render and
   Pixels.show; render through the plain code against the viper kernel on the same frames,
   uncapped and capped; a garbage collection; a save of the game.

Run: RP2EMU=/folder/of/the/emulator python tests/bench/pico_board.py [--report FILE]
[--compare] [--pad BYTES] [--fram]  (`make bench` runs it too; --compare runs the board a second
time with the plain LED code, without gameboard/_ledkernel; --pad: FLASH_PAD below; --fram: a
blank FRAM fitted, FRAM below). Needs node,
and the emulator set up as ../shared/tools/rp2emu/README.md says.
"""

import json
import os
import shutil
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

BOARD_MAP = ROOT / "hardware" / "board.json"
LED_KERNEL = "_ledkernel.py"
# --pad BYTES: a file of that size on the flash besides the firmware. The emulator's figures
# repeat exactly for the same flash, but a file the firmware never reads moves where its
# saves fall on the flash and so when the loop's steps fall against the switch changes:
# compare firmware over several pads, not one run.
FLASH_PAD = 0
# --fram (pico_board, pico_games, pico_heap, pico_circuitpython): an FRAM fitted on the
# emulated board at the board map's I2C pins (../shared/tools/rp2emu's `fram`), its contents
# at power-on as base64 ("" for a blank one); None: none fitted.
FRAM = None

# An opening in which five of eight placements capture or release, then the only legal move.
OPENING = ("G7", "E6", "F6", "G6", "G5", "F5", "E5", "E4")
TAKE_BACK = "D6"          # placed, then lifted while its flip is pending; played again after
ILLEGAL = "C3"            # not a legal move after the opening
FLIP_LIFT_MS = 400        # a player turns a flipped disk 400 ms after the placement ...
FLIP_HOLD_MS = 300        # ... holding it off its hex for 300 ms
NEXT_MOVE_MS = 600        # the next placement follows the last action by this
STATS_AFTER_MS = 150      # the stats query after each disk put down
STATS = '{"cmd": "stats"}\n'

DEVICE_PARTS = """
import gc
import time

import iago
from gameboard import _ledplain, boardmap, hw, leds
from gameboard.controller import Controller
from gameboard.leds import LedOutput
from gameboard.saves import Saves

T = time.ticks_us
D = time.ticks_diff
OPENING = %r


def out(name, value, unit):
    print(name, value, unit)


def scan(matrix, raw, reps):
    t0 = T()
    for _ in range(reps):
        matrix.scan(raw)
    return D(T(), t0) / reps


def opening(ctl, lights, pixels):
    worst = [0, 0, 0, 0, 0]
    now = 1000
    ctl.tick(now)
    for name in OPENING:
        cell = iago.parse_cell(name)
        captured, released = ctl.game.flips(cell)
        now += 500
        t0 = T()
        ctl.switch(cell, 1, now)
        t1 = T()
        ctl.compose(now)
        t2 = T()
        lights.render()
        t3 = T()
        pixels.show(lights.wire)
        t4 = T()
        for i, dt in enumerate((D(t1, t0), D(t2, t1), D(t3, t2), D(t4, t3), D(t4, t0))):
            worst[i] = max(worst[i], dt)
        ctl.outbox.clear()
        for flipped in captured + released:
            now += 300
            ctl.switch(flipped, 0, now)
            now += 300
            ctl.switch(flipped, 1, now)
        now += 400
        ctl.tick(now)
        ctl.outbox.clear()
    return worst


def time_render(lights, reps):
    t0 = T()
    for _ in range(reps):
        lights.render()
    return D(T(), t0) / reps


def plain_and_kernel(lights, reps):
    kernel = (leds.render_wire, leds.scale_wire)
    leds.render_wire = _ledplain.render_wire
    leds.scale_wire = _ledplain.scale_wire
    plain = time_render(lights, reps)
    wire, ma = bytes(lights.wire), lights.ma
    leds.render_wire, leds.scale_wire = kernel
    fast = time_render(lights, reps)
    same = lights.wire == wire and lights.ma == ma
    return plain, fast, same


def main():
    bmap = boardmap.load("/board.json")
    kernel = leds.render_wire is not _ledplain.render_wire
    out("led_viper_kernel", 1 if kernel else 0, "bool")
    out("scan", scan(hw.ReedMatrix(bmap.row_pins, bmap.col_pins), bytearray(bmap.lines), 20), "us")
    ctl = Controller(None, 0)
    lights = LedOutput(bmap, ctl.frame)
    lights.brightness = ctl.settings.brightness_level()
    pixels = hw.Pixels(bmap.led_pin, len(bmap.led_of_cell), bmap.bpp)
    worst = opening(ctl, lights, pixels)
    for name, us in zip(("switch", "compose", "render", "show", "parts_sum"), worst):
        out("placement_%%s_max" %% name, us, "us")
    if kernel:
        plain, fast, same = plain_and_kernel(lights, 10)
        out("render_plain", plain, "us")
        out("render_viper", fast, "us")
        out("render_speedup", plain / fast, "x")
        for i in range(len(lights.frame)):      # every LED white: the current cap scales
            lights.frame[i] = 255
        plain_capped, fast_capped, same_capped = plain_and_kernel(lights, 10)
        out("render_capped_plain", plain_capped, "us")
        out("render_capped_viper", fast_capped, "us")
        out("render_capped_speedup", plain_capped / fast_capped, "x")
        out("render_viper_matches_plain", 1 if same and same_capped else 0, "bool")
    gc.collect()
    out("heap_parts_in_play", gc.mem_alloc(), "B")
    t0 = T()
    gc.collect()
    out("gc_collect", D(T(), t0), "us")
    saves = Saves("/")
    longest = 0
    for _ in range(3):
        t0 = T()
        saves.save(ctl.settings, ctl.game, ctl.flips_pending())
        longest = max(longest, D(T(), t0))
    out("save_game", longest / 1000, "ms")
    out("parts_done", 1, "bool")


main()
""" % (OPENING,)


def build_files(dest, kernel=True, board_map=BOARD_MAP):
    """The flash contents `make deploy` installs, in folder `dest` (without the LED kernel:
    the plain LED code, as on a VM without a native emitter), with `board_map` as
    /board.json."""
    dest = Path(dest)
    lib = ROOT / "firmware" / "lib"
    for source in sorted(lib.rglob("*.py")):
        if not kernel and source.name == LED_KERNEL:
            continue
        out = dest / "lib" / source.parent.relative_to(lib)
        out.mkdir(parents=True, exist_ok=True)
        mpvm.mpy_cross(source, out, options=MPY_CROSS_OPTIONS)
    shutil.copy(ROOT / "firmware" / "main.py", dest / "main.py")
    shutil.copy(board_map, dest / "board.json")
    if FLASH_PAD:
        (dest / "pad.bin").write_bytes(bytes(FLASH_PAD))
    return dest


def emulator_config(files, fram=None):
    """board-emu's config for the board map on the flash `files`: matrix lines, LED chain,
    buttons held up; an FRAM on the map's I2C pins if `fram` (its contents in base64, "" for
    a blank one; default FRAM) is not None, its pins held up (busio.I2C checks for pull-ups)."""
    bmap = json.loads((Path(files) / "board.json").read_text())
    cells = {name: {"row": c["row"], "col": c["col"], "led": c["led"]}
             for name, c in bmap["cells"].items()}
    config = {"rows": bmap["rows"], "cols": bmap["cols"], "led_pin": bmap["led_pin"],
              "led_count": len(cells), "cells": cells, "cell_index": "index",
              "high_pins": sorted(bmap.get("buttons", {}).values()),
              "files": str(files), "main": "main.py"}
    fram = FRAM if fram is None else fram
    if fram is not None:
        pins = bmap["fram"]
        config["fram"] = {"i2c": (pins["sda"] >> 1) & 1, "address": 0x50, "size": 32768}
        if fram:
            config["fram"]["data_b64"] = fram
        config["high_pins"] = sorted(config["high_pins"] + [pins["sda"], pins["scl"]])
    return config


def scenario():
    """(events for board-emu, kind of each event): kinds are "move" (a legal placement),
    "flip_lift", "flip_back", "illegal", "illegal_lift", "take_back", "stats"."""
    events = []
    kinds = []

    def add(t, kind, action, cell=None):
        event = {"t_ms": t, "action": action}
        if cell is not None:
            event["cell"] = cell
        else:
            event["data"] = STATS
        events.append(event)
        kinds.append(kind)
        if action == "place":
            add(t + STATS_AFTER_MS, "stats", "send")

    def play(board, t, name):
        """Place `name` at `t` and turn its flips; the time of the next placement."""
        cell = iago.parse_cell(name)
        captured, released = board.flips(cell)
        board.push(cell)
        add(t, "move", "place", name)
        if not (captured or released):
            return t + NEXT_MOVE_MS
        t += FLIP_LIFT_MS
        for flipped in captured + released:
            add(t, "flip_lift", "lift", iago.cell_name(flipped))
            add(t + FLIP_HOLD_MS, "flip_back", "place", iago.cell_name(flipped))
            t += FLIP_HOLD_MS + FLIP_LIFT_MS
        return t

    board = iago.Board()
    add(0, "stats", "send")          # the first stats command starts the firmware's timing
    t = 300
    for name in OPENING:
        t = play(board, t, name)
    if iago.parse_cell(ILLEGAL) in board.legal_moves:
        raise AssertionError("%s must not be a legal move here" % ILLEGAL)
    add(t, "illegal", "place", ILLEGAL)
    add(t + 500, "illegal_lift", "lift", ILLEGAL)
    t += 1100
    add(t, "move", "place", TAKE_BACK)
    add(t + 500, "take_back", "lift", TAKE_BACK)   # settled, its flip still pending
    t += 1100
    play(board, t, TAKE_BACK)
    return events, kinds


def board_emu(emu_dir, work, files, events, tail_ms, t0=None, timeout=900):
    """Run board-emu.mjs on `files` with `events`; the report (dict). `timeout`: wall
    seconds."""
    work = Path(work)
    work.mkdir(parents=True, exist_ok=True)
    (work / "board.json").write_text(json.dumps(emulator_config(files)))
    (work / "scenario.json").write_text(json.dumps({"events": events, "tail_ms": tail_ms}))
    out = work / "report.json"
    argv = ["node", str(Path(emu_dir) / "board-emu.mjs"), "--config", str(work / "board.json"),
            "--scenario", str(work / "scenario.json"), "--out", str(out)]
    if t0:
        argv += ["--t0", t0]
    proc = subprocess.run(argv, cwd=emu_dir, capture_output=True, text=True, timeout=timeout)
    if proc.returncode != 0 or not out.exists():
        raise RuntimeError("board-emu.mjs failed:\n" + (proc.stderr + proc.stdout)[-3000:])
    return json.loads(out.read_text())


def median(values):
    ordered = sorted(values)
    n = len(ordered)
    return ordered[n // 2] if n % 2 else (ordered[n // 2 - 1] + ordered[n // 2]) / 2


def spread(out, name, values, unit):
    out[name + "_min"] = (min(values), unit)
    out[name + "_median"] = (median(values), unit)
    out[name + "_max"] = (max(values), unit)


def board_figures(report, events, kinds):
    """The figures of the board run: {name: (value, unit)}."""
    out = {}
    problems = [s["line"] for s in report["serial"]
                if "Traceback" in s["line"] or s.get("json", {}).get("event") == "error"]
    if report.get("main_exited") or problems:
        raise RuntimeError("the firmware failed:\n" + "\n".join(problems[-10:]))
    moves = [e for e in report["events"] if kinds[e["i"]] == "move"]
    light = [e["led_latency_ms"] for e in moves if e.get("led_latency_ms") is not None]
    if len(light) != len(moves):
        missing = [e["cell"] for e in moves if e.get("led_latency_ms") is None]
        raise RuntimeError("no LED change after placing %s" % ", ".join(missing))
    spread(out, "place_to_light", light, "ms")
    for e in report["events"]:
        if kinds[e["i"]] == "take_back" and e.get("led_latency_ms") is not None:
            out["take_back_to_light"] = (e["led_latency_ms"], "ms")

    # Each stats reply follows one disk put down: its time, if the count of timed closings
    # went up (a closing whose frame did not change is not timed).
    replies = [(s["t_ms"], s["json"]) for s in report["serial"]
               if s.get("json", {}).get("reply") == "stats" and s["json"].get("ok")]
    queries = [i for i, kind in enumerate(kinds) if kind == "stats"]
    if len(replies) != len(queries):
        raise RuntimeError("%d stats replies to %d queries" % (len(replies), len(queries)))
    timed = {}   # kind of the closing -> firmware times in ms
    count = 0
    for i, (_, reply) in zip(queries, replies):
        if reply["closings_timed"] > count and i > 0:
            timed.setdefault(kinds[i - 1], []).append(reply["closing_to_frame_us"] / 1000)
        count = reply["closings_timed"]
    if len(timed.get("move", ())) != len(moves):
        raise RuntimeError("the firmware timed %d of %d placements"
                           % (len(timed.get("move", ())), len(moves)))
    spread(out, "place_to_frame", timed["move"], "ms")
    out["closing_to_frame_max"] = (replies[-1][1]["closing_to_frame_max_us"] / 1000, "ms")
    out["heap_in_play_max"] = (max(r["mem_alloc"] for _, r in replies), "B")
    out["heap_free_min"] = (min(r["mem_free"] for _, r in replies), "B")

    period = report["matrix"]["scan_period_ms"]
    if period:
        out["scan_period_min"] = (period["min"], "ms")
        out["scan_period_mean"] = (period["mean"], "ms")
        out["scan_period_max"] = (period["max"], "ms")
    frames = report["frames"]["list"]
    if len(frames) > 1:
        span = (frames[-1]["end_ms"] - frames[0]["end_ms"]) / 1000
        out["frames_per_s"] = ((len(frames) - 1) / span, "1/s")
        out["frame_interval_min"] = (report["frames"]["interval_ms"]["min"], "ms")
        out["frame_send"] = (report["frames"]["duration_us"]["max"] / 1000, "ms")
    return out


def parts_figures(report):
    lines = [s["line"] for s in report["serial"]]
    out = {}
    for line in lines:
        parts = line.split()
        if len(parts) == 3:
            try:
                out[parts[0]] = (float(parts[1]), parts[2])
            except ValueError:
                pass
    if "parts_done" not in out:
        raise RuntimeError("the parts script did not finish; serial output:\n"
                           + "\n".join(lines[-20:]))
    del out["parts_done"]
    return out


def run(emu_dir, report_copy=None, compare=False):
    """All figures: {name: (value, unit)}; `report_copy`: where to keep the board's report."""
    figures = {}
    events, kinds = scenario()
    with tempfile.TemporaryDirectory() as work:
        work = Path(work)
        files = build_files(work / "fs")
        report = board_emu(emu_dir, work / "board", files, events, 600, 'serial:"startup"')
        if report_copy:
            Path(report_copy).write_text(json.dumps(report, indent=1))
        figures.update(board_figures(report, events, kinds))
        if compare:
            plain_files = build_files(work / "fs_plain", kernel=False)
            plain = board_figures(board_emu(emu_dir, work / "plain", plain_files, events, 600,
                                            'serial:"startup"'), events, kinds)
            for name in ("place_to_light_median", "place_to_light_max",
                         "place_to_frame_median", "place_to_frame_max", "closing_to_frame_max"):
                figures[name + "_plain_leds"] = plain[name]
        figures.update(next_game_figures(emu_dir, work))
        (files / "main.py").write_text(DEVICE_PARTS)
        figures.update(parts_figures(board_emu(emu_dir, work / "parts", files, [], 8000)))
    return figures


def next_game_figures(emu_dir, work):
    """The heap in play in the game after a finished one: the board starts from a saved game
    one placement from its end with its disks set out, the last placement ends it (the board
    writes its record), the disks are cleared and two placements of a new game are made.
    `stats` after the end and in the new game: heap_after_finished_game, heap_next_game."""
    from gameboard.saves import Saves
    from gameboard.settings import Settings
    game = iago.Board()
    while True:
        last = sorted(game.legal_moves)[0]
        ahead = game.copy()
        ahead.push(last)
        if ahead.is_game_over():
            break
        game.push(last)
    files = build_files(work / "fs_next")
    Saves(str(files) + "/").save(Settings(), game, [])
    disks = [iago.cell_name(c) for c in range(iago.CELLS) if game.cell(c)]
    # A scenario's times count from the start-up event; the disks go down 20 ms apart first.
    events = [{"t_ms": 20 * i, "action": "place", "cell": name} for i, name in enumerate(disks)]
    t = 20 * len(disks) + 600
    events.append({"t_ms": t, "action": "place", "cell": iago.cell_name(last)})
    events.append({"t_ms": t + 3000, "action": "send", "data": STATS})
    t += 3500
    for i, name in enumerate(disks + [iago.cell_name(last)]):
        events.append({"t_ms": t + 20 * i, "action": "lift", "cell": name})
    t += 20 * len(disks) + 1500
    opening = iago.Board()
    for _ in range(2):
        move = sorted(opening.legal_moves)[0]
        opening.push(move)
        events.append({"t_ms": t, "action": "place", "cell": iago.cell_name(move)})
        t += 600
    events.append({"t_ms": t + 300, "action": "send", "data": STATS})
    report = board_emu(emu_dir, work / "next", files, events, 600, 'serial:"startup"')
    lines = [s.get("json", {}) for s in report["serial"]]
    if not any(m.get("event") == "saved_game" for m in lines):
        raise RuntimeError("the finished game was not saved: %r" % lines[-8:])
    replies = [m for m in lines if m.get("reply") == "stats" and m.get("ok")]
    if len(replies) != 2:
        raise RuntimeError("%d stats replies, not 2: %r" % (len(replies), lines[-8:]))
    return {"heap_after_finished_game": (replies[0]["mem_alloc"], "B"),
            "heap_next_game": (replies[1]["mem_alloc"], "B")}


def main(argv):
    emu_dir = os.environ.get("RP2EMU")
    if not emu_dir:
        print("set RP2EMU to a folder set up as ../shared/tools/rp2emu/README.md says")
        return 2
    report_copy = argv[argv.index("--report") + 1] if "--report" in argv else None
    global FLASH_PAD, FRAM
    FLASH_PAD = int(argv[argv.index("--pad") + 1]) if "--pad" in argv else 0
    FRAM = "" if "--fram" in argv else None
    for name, (value, unit) in run(emu_dir, report_copy, "--compare" in argv).items():
        print(name, round(value, 3), unit)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
