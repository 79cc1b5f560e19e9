"""pico_torn_saves.py --fram: a power cut after every byte of a save on the emulated FRAM, on
both runtimes (MicroPython on RP2EMU, CircuitPython on CPEMU).

The firmware's own store (gameboard/framsaves.py through gameboard/hw.py's or cphw.py's Fram
on the emulators' I2C FRAM, ../shared/tools/rp2emu's `fram`) runs on the emulated Pico, and
the FRAM's contents are carried from one run to the next (`data_b64`):

1. a blank FRAM: the first game saved (A);
2. A at power-on: read back (the first game), then the second game saved (B, written into
   the other slot), the save timed, and the same save timed on the flash's store;
3. B at power-on: the third game saved (C, into the first slot again).

Each of those two saves wrote one record into one slot; the host checks that the emulated
Pico wrote exactly the bytes its own store writes. An FRAM takes a write byte by byte in the
order sent, so a power cut after byte k leaves the record's first k bytes over the slot's
old ones. For every k from 0 to the record's length:
- on the emulated Pico, one run writes each such image of the slot through the I2C bus and
  reads it back with a fresh store each time (TORN k);
- and for a sample of k (none written, the last byte missing, all), the emulated Pico
  powers on with that image as its FRAM and the firmware's store reads it (a start-up).
The verdict of each: the old game read back, the new one, or anything else (a failure); the
new one only once every byte is written.
"""

import base64
import json
import subprocess
import tempfile
import time
from pathlib import Path

import pico_board
import pico_circuitpython

import iago
from gameboard.framsaves import FramSaves
from gameboard.settings import Settings

# Runs as main.py / code.py: reads /plan.json, prints READ, SAVED, TORN and DONE lines.
PROGRAM = r"""
import json, sys, time
import iago
from gameboard.saves import Saves
from gameboard.framsaves import FramSaves
from gameboard.settings import Settings
if sys.implementation.name == "circuitpython":
    from gameboard import cphw as hw
    def us():
        return time.monotonic_ns() // 1000
else:
    from gameboard import hw
    us = time.ticks_us
plan = json.load(open("/plan.json"))
dev = hw.fram({"sda": 18, "scl": 19})
flash = getattr(hw, "saves", Saves)
def read():
    try:
        got = FramSaves(flash("/"), dev).load()
        return None if got is None else list(got[1].move_stack)
    except Exception as exc:
        return "error: %s" % exc
print("READ " + json.dumps(read()))
if plan.get("save") is not None:
    game = iago.Board()
    for cell in plan["save"]:
        game.push(cell)
    saves = FramSaves(flash("/"), dev)
    saves.load()
    t = us()
    saves.save(Settings(), game, ())
    fram_us = us() - t
    other = flash("/")
    t = us()
    other.save(Settings(), game, ())
    print("SAVED %d %d" % (fram_us, us() - t))
    other.discard()
tear = plan.get("tear")
if tear:
    old = bytes.fromhex(tear["old"])
    new = bytes.fromhex(tear["new"])
    for k in range(len(new) + 1):
        dev.write(tear["at"], new[:k] + old[k:])
        print("TORN %d %s" % (k, json.dumps(read())))
print("DONE")
"""


def build(runtime, dest):
    dest = Path(dest)
    if runtime == "circuitpython":
        files = pico_circuitpython.build_files(dest)
        (files / "code.py").write_text(PROGRAM)
    else:
        files = pico_board.build_files(dest)
        (files / "main.py").write_text(PROGRAM)
    return files


def boot(runtime, emu_dir, work, files, plan, fram_b64):
    """One power-on with `fram_b64` on the FRAM: (lines printed, the FRAM's contents after)."""
    (Path(files) / "plan.json").write_text(json.dumps(plan))
    config = pico_board.emulator_config(files, fram=fram_b64)
    script = "board-emu.mjs"
    if runtime == "circuitpython":
        config["main"] = "code.py"
        script = "cp-board-emu.mjs"
    work = Path(work)
    work.mkdir(parents=True, exist_ok=True)
    (work / "board.json").write_text(json.dumps(config))
    (work / "scenario.json").write_text(json.dumps({"events": [], "tail_ms": 60000}))
    out = work / "report.json"
    proc = subprocess.run(["node", str(Path(emu_dir) / script), "--config",
                           str(work / "board.json"), "--scenario", str(work / "scenario.json"),
                           "--out", str(out)], cwd=emu_dir, capture_output=True, text=True,
                          timeout=3600)
    if proc.returncode != 0 or not out.exists():
        raise RuntimeError("%s failed:\n%s" % (script, (proc.stderr + proc.stdout)[-3000:]))
    report = json.loads(out.read_text())
    lines = [s["line"] for s in report["serial"]]
    if not any(line.startswith("DONE") for line in lines):
        raise RuntimeError("the program did not finish on %s:\n%s" % (runtime,
                                                                     "\n".join(lines[-15:])))
    return lines, report["fram"]["data_b64"]


def _value(lines, tag):
    return [line[len(tag) + 1:] for line in lines if line.startswith(tag + " ")]


def expected_write(before, moves):
    """(address, record) the firmware's store writes saving `moves` over the FRAM `before`."""
    device = _Image(before)
    saves = FramSaves(_NoFlash(), device)
    saves.newest()
    game = iago.Board()
    for cell in moves:
        game.push(cell)
    saves.write_line(saves.line(Settings(), game, ()))
    return device.written


class _Image:
    def __init__(self, data):
        self.data = bytearray(data)
        self.written = None

    def read_into(self, at, buf):
        buf[:] = self.data[at:at + len(buf)]

    def write(self, at, data):
        self.data[at:at + len(data)] = data
        self.written = (at, bytes(data))


class _NoFlash:
    root = "/"
    games_dir = "/games"

    def line(self, settings, game, flips=(), but_last=False):
        from gameboard.saves import Saves
        return Saves.line(self, settings, game, flips, but_last)


def verdict(read, old, new):
    got = json.loads(read)
    return "new" if got == new else "old" if got == old else "other"


def run_runtime(runtime, emu_dir, games):
    """The report of one runtime (dict)."""
    began = time.time()
    out = {"runtime": runtime, "bytes_cut": 0, "old": 0, "new": 0, "other": 0, "boots": 0,
           "failures": [], "save_us": [], "flash_save_us": []}
    with tempfile.TemporaryDirectory() as work:
        files = build(runtime, Path(work) / "fs")
        lines, image = boot(runtime, emu_dir, Path(work) / "a", files, {"save": games[0]}, "")
        out["boots"] += 1
        for k in (1, 2):
            old, new = games[k - 1], games[k]
            before = base64.b64decode(image)
            lines, after_b64 = boot(runtime, emu_dir, Path(work) / ("s%d" % k), files,
                                    {"save": new}, image)
            out["boots"] += 1
            if json.loads(_value(lines, "READ")[0]) != old:
                out["failures"].append("the saved game was not read back across a power-on")
            fram_us, flash_us = (int(x) for x in _value(lines, "SAVED")[0].split())
            out["save_us"].append(fram_us)
            out["flash_save_us"].append(flash_us)
            after = base64.b64decode(after_b64)
            at, record = expected_write(before, new)
            if after != before[:at] + record + before[at + len(record):]:
                out["failures"].append("save %d: the FRAM holds other bytes than the store's "
                                       "record" % k)
            tear = {"at": at, "old": before[at:at + len(record)].hex(), "new": record.hex()}
            lines, _ = boot(runtime, emu_dir, Path(work) / ("t%d" % k), files, {"tear": tear},
                            image)
            out["boots"] += 1
            for row in _value(lines, "TORN"):
                cut, read = row.split(" ", 1)
                _count(out, int(cut), len(record), verdict(read, old, new), read)
            n = len(record)
            for cut in sorted({0, n - 1, n}):
                torn = before[:at] + record[:cut] + before[at + cut:]
                lines, _ = boot(runtime, emu_dir, Path(work) / ("p%d-%d" % (k, cut)), files,
                                {}, base64.b64encode(torn).decode())
                out["boots"] += 1
                _count(out, cut, n, verdict(_value(lines, "READ")[0], old, new),
                       _value(lines, "READ")[0], boot=True)
            image = after_b64
    out["wall_s"] = time.time() - began
    return out


def _count(out, cut, length, found, read, boot=False):
    want = "new" if cut == length else "old"
    if not boot:
        out["bytes_cut"] += 1
    out[found] += 1
    if found != want:
        out["other"] += found != "other"       # the wrong one of the two is a failure too
        out["failures"].append("%s cut after %d of %d bytes: read %s" % (
            "power-on" if boot else "torn", cut, length, read))


def print_summary(reports, out):
    for r in reports:
        print("pico-torn-saves --fram %s: %d cuts (every byte of 2 saves) read on the Pico, "
              "%d emulated power-ons: old %d, new %d, anything else %d; save on the FRAM %s us "
              "(the flash's store %s us); %.0f s" % (
                  r["runtime"], r["bytes_cut"], r["boots"], r["old"], r["new"], r["other"],
                  "/".join(str(x) for x in r["save_us"]),
                  "/".join(str(x) for x in r["flash_save_us"]), r["wall_s"]), file=out)
        for failure in r["failures"]:
            print("pico-torn-saves --fram %s: FAILED %s" % (r["runtime"], failure), file=out)
    out.flush()
