"""`make deploy`, unmodified, against an emulated Pico plugged into this computer.

MicroPython (RP2EMU): the emulated Pico's USB serial port is a pseudo-terminal on this
machine (tests/bench/usb_board.py, usb_pico.mjs), and the bench runs `make deploy
PORT=<that terminal>` as a user would: mpremote asks the board its version, removes the old
packages, copies, resets. The board starts MicroPython 1.24.1 with an older firmware's
module left in lib/gameboard (it must go). Then:

1. first deploy: the board resets into the firmware (light check, `startup`) and plays two
   placements put on its hexes (their `move` events);
2. second deploy, of a changed firmware (a copy of the project whose FIRMWARE_VERSION says
   so), over that game in progress: the board resets into the new firmware, which reports
   its version and resumes the game (`startup` with the two moves, the disks where they
   were), and plays the next placement. The old module is gone.

CircuitPython (CPEMU): see deploy_circuitpython below.

Printed for each deploy: its wall time, the files and bytes it copied, and the bytes that
went over the USB serial port. Run: RP2EMU=... CPEMU=... python tests/bench/pico_deploy.py
[--micropython-only | --circuitpython-only]  (`make bench` runs it when they are set).
"""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(HERE))

import pico_board  # noqa: E402  (the emulator's board config from the board map)
from usb_board import UsbPico  # noqa: E402

CHANGED_VERSION = "0.5.1+bench"
FIRST_MOVES = ("E4", "E6")          # legal from the empty board: dark, then light
NEXT_MOVE = "D4"                    # dark's next, after the second deploy
STALE = "lib/gameboard/stale.py"    # a module an older firmware left on the board


def board_config(work):
    folder = Path(work) / "map"
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copy(pico_board.BOARD_MAP, folder / "board.json")
    return pico_board.emulator_config(folder)


def changed_project(dest):
    """A copy of the project whose firmware reports CHANGED_VERSION; its .venv is this one's
    (the copies keep their times, so make installs nothing)."""
    files = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True,
                           check=True).stdout.decode().split("\0")
    for name in filter(None, files):
        if (ROOT / name).is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, dest / name)
    (dest / ".venv").symlink_to(ROOT / ".venv")
    app = dest / "firmware" / "lib" / "gameboard" / "app.py"
    text = app.read_text()
    assert 'FIRMWARE_VERSION = "' in text
    app.write_text(re.sub(r'FIRMWARE_VERSION = "[^"]*"', 'FIRMWARE_VERSION = "%s"'
                          % CHANGED_VERSION, text))
    return dest


def make_deploy(project, *args):
    """Run `make deploy ARGS` in `project`; (seconds, output, when each of its steps began: a
    list of (seconds after the start, its first words)). RuntimeError if it fails."""
    start = time.monotonic()
    proc = subprocess.Popen(["make", "--no-print-directory", "deploy"] + list(args),
                            cwd=project, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, env=dict(os.environ, PYTHONUNBUFFERED="1"))
    lines, steps = [], []
    for line in proc.stdout:
        lines.append(line)
        if line.startswith(("$ ", "staged", "deployed")):
            steps.append((time.monotonic() - start, " ".join(line.split()[:4])))
    proc.wait(600)
    seconds = time.monotonic() - start
    output = "".join(lines)
    if proc.returncode != 0:
        raise RuntimeError("make deploy %s failed after %.1f s:\n%s" % (
            " ".join(args), seconds, output[-3000:]))
    return seconds, output, steps


def print_steps(steps):
    print("pico-deploy:   its steps began at " + "; ".join(
        "%.1f s %s" % (at, what[:40]) for at, what in steps), flush=True)


def staged_bytes(folder):
    files = [p for p in Path(folder).rglob("*") if p.is_file()]
    return len(files), sum(p.stat().st_size for p in files)


def mpremote(port, *args):
    proc = subprocess.run([str(ROOT / ".venv" / "bin" / "mpremote"), "connect", port] +
                          list(args), capture_output=True, text=True, timeout=300)
    if proc.returncode != 0:
        raise RuntimeError("mpremote %s: %s" % (" ".join(args), proc.stderr[-1000:]))
    return proc.stdout


def check_resumed(pico, startup):
    """The changed firmware runs (its `version` reply) and resumed the game (`startup`)."""
    mark = pico.mark()
    with open(pico.port, "wb", buffering=0) as port:
        port.write(b'{"cmd": "version"}\n')
    version = pico.line(lambda m: m.get("reply") == "version", 120, mark)
    if version.get("firmware") != CHANGED_VERSION:
        raise RuntimeError("the board runs firmware %r, not the changed one" % version)
    if startup["moves"] != len(FIRST_MOVES) or startup["missing"] or startup["unexpected"]:
        raise RuntimeError("the game was not resumed: %s" % json.dumps(startup))
    return version


def place(pico, cell, timeout=120):
    """Put a disk on `cell`; the `move` event the board sends for it."""
    mark = pico.mark()
    pico.place(cell)
    return pico.line(lambda m: m.get("event") == "move", timeout, mark)


def report(name, seconds, files, size, link=None):
    print("pico-deploy: %-50s %5.1f s wall, %d files / %d bytes copied%s" % (
        name, seconds, files, size, "" if link is None else
        ", %d bytes to the board over USB" % link), flush=True)


def deploy_micropython(emu_dir, work):
    work = Path(work)
    with UsbPico("micropython", emu_dir, board_config(work), work / "emu") as pico:
        pico.wait(lambda e: "usb" in e)
        time.sleep(2)        # MicroPython's REPL comes up
        old = work / "stale.py"
        old.write_text("# left by an older firmware\n")
        mpremote(pico.port, "fs", "mkdir", ":lib", "+", "fs", "mkdir", ":lib/gameboard", "+",
                 "fs", "cp", str(old), ":" + STALE)

        # 1. The first deploy, onto the board with the old module.
        mark, sent = pico.mark(), pico.to_board
        seconds, output, steps = make_deploy(ROOT, "PORT=" + pico.port)
        report("MicroPython 1.24.1, first deploy", seconds, *staged_bytes(ROOT / "build" /
                                                                          "deploy"),
               pico.to_board - sent)
        print_steps(steps)
        if "for MicroPython 1.24" not in output:
            raise RuntimeError("deploy did not ask the board its version:\n" + output)
        pico.wait(lambda e: "reset" in e, 60, mark)
        startup = pico.line(lambda m: m.get("event") == "startup", 300, mark)
        moves = [place(pico, cell)["cell"] for cell in FIRST_MOVES]
        print("pico-deploy:   the board started (%s) and played %s" % (
            json.dumps(startup), " ".join(moves)), flush=True)
        time.sleep(3)        # the game is saved once the placements have settled

        # 2. A changed firmware over the game in progress.
        with tempfile.TemporaryDirectory() as copy:
            project = changed_project(Path(copy))
            mark, sent = pico.mark(), pico.to_board
            seconds, output, steps = make_deploy(project, "PORT=" + pico.port)
            report("MicroPython 1.24.1, changed firmware over a game", seconds,
                   *staged_bytes(project / "build" / "deploy"), pico.to_board - sent)
            print_steps(steps)
        pico.wait(lambda e: "reset" in e, 60, mark)
        startup = pico.line(lambda m: m.get("event") == "startup", 300, mark)
        version = check_resumed(pico, startup)
        move = place(pico, NEXT_MOVE)
        print("pico-deploy:   firmware %s resumed the game (%s) and played %s" % (
            version["firmware"], json.dumps(startup), move["cell"]), flush=True)
        listing = mpremote(pico.port, "fs", "ls", ":lib/gameboard")
        if "stale" in listing:
            raise RuntimeError("the old module is still on the board:\n" + listing)
        resets = [e["reset"] for e in pico.events if "reset" in e]
        print("pico-deploy:   the old module is gone; chip resets seen: %s" % (
            ", ".join(resets)), flush=True)


# --- CircuitPython ----------------------------------------------------------------------------
#
# rp2040js has no USB mass storage: the emulated Pico cannot show its CIRCUITPY drive to this
# machine while it runs. The bench does what the computer would between plugging in and
# unplugging: the drive's FAT image is read out of the emulated flash (at 1 MB, where the rp2040
# port keeps it) into a folder, `make deploy RUNTIME=circuitpython DRIVE=<that folder>` runs
# unmodified, and what the deploy changed in the folder (files removed, written, replaced) is
# written back into the same FAT image by ChaN's FatFs (fatfs-ng), the filesystem code
# CircuitPython itself runs; the rest of the flash (CircuitPython, the game in
# microcontroller.nvm) stays as the board left it. The next power-on boots from that flash.

CIRCUITPY_START = 0x100000          # CIRCUITPY_CIRCUITPY_DRIVE_START_ADDR on the rp2040 port
CIRCUITPY_BYTES = 0x100000


def _drive(flash):
    from fatfs import RamDisk, create_extended_partition
    storage = bytearray(flash[CIRCUITPY_START:CIRCUITPY_START + CIRCUITPY_BYTES])
    drive = create_extended_partition(RamDisk(storage, sector_size=512))
    drive.mount()
    return storage, drive


def _tree(drive):
    files, dirs = {}, set()
    for top, subdirs, names in drive.walk("/"):
        for name in subdirs:
            dirs.add((top.rstrip("/") + "/" + name).lstrip("/"))
        for name in names:
            path = (top.rstrip("/") + "/" + name).lstrip("/")
            files[path] = drive.read_file("/" + path)
    return files, dirs


def read_drive(flash_path, folder):
    """The CIRCUITPY drive of the flash image at `flash_path`, as files in `folder`."""
    storage, drive = _drive(Path(flash_path).read_bytes())
    files, dirs = _tree(drive)
    drive.unmount()
    for name in sorted(dirs):
        (folder / name).mkdir(parents=True, exist_ok=True)
    for name, data in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(data)
    return files


def write_drive(flash_path, folder):
    """Write what differs between `folder` and the flash's drive into the drive's FAT."""
    flash = bytearray(Path(flash_path).read_bytes())
    storage, drive = _drive(flash)
    files, dirs = _tree(drive)
    wanted = {p.relative_to(folder).as_posix(): p for p in folder.rglob("*")}
    for name in sorted(set(files) - set(wanted)):
        drive.remove("/" + name)
    for name in sorted(dirs - set(wanted), key=len, reverse=True):
        drive.rmdir("/" + name)
    for name in sorted(wanted):
        path = wanted[name]
        if path.is_dir():
            drive.makedirs("/" + name, exist_ok=True)
        elif files.get(name) != path.read_bytes():
            drive.write_file("/" + name, path.read_bytes())
    drive.unmount()
    flash[CIRCUITPY_START:CIRCUITPY_START + CIRCUITPY_BYTES] = storage
    Path(flash_path).write_bytes(flash)


def checked_copy(files):
    return [name for name in files if name.startswith("board-checked")]


def deploy_circuitpython(emu_dir, work):
    work = Path(work)
    config = board_config(work)
    select = json.loads(pico_board.BOARD_MAP.read_text())["buttons"]["select"]

    def power_on(name, flash=None, hold=None, disks=()):
        return UsbPico("circuitpython", emu_dir, config, work / name, flash_in=flash,
                       hold=hold, disks=disks)

    def deploy(project, flash, name):
        """Mount the drive, run make deploy onto it, unmount; the figures printed."""
        drive = work / ("drive-" + name.split(",")[0].replace(" ", "-"))
        before = read_drive(flash, drive)
        seconds, output, _ = make_deploy(project, "RUNTIME=circuitpython", "DRIVE=%s" % drive)
        write_drive(flash, drive)
        report(name, seconds, *staged_bytes(project / "build" / "deploy-circuitpython"))
        return before, output

    # A Pico with stock CircuitPython 9.2.9, powered once: its drive holds boot_out.txt.
    with power_on("stock") as pico:
        pico.wait(lambda e: "usb" in e)
        pico.wait(lambda e: "REPL" in e.get("line", ""), 120)
        flash = work / "flash.bin"
        shutil.copy(pico.off(), flash)

    # 1. The first deploy; the board plays.
    deploy(ROOT, flash, "CircuitPython 9.2.9, first deploy")
    with power_on("first", flash) as pico:
        startup = pico.line(lambda m: m.get("event") == "startup", 300)
        moves = [place(pico, cell)["cell"] for cell in FIRST_MOVES]
        time.sleep(3)        # the game is saved (in nvm) once the placements have settled
        shutil.copy(pico.off(), flash)
    on_drive = read_drive(flash, work / "after-first")
    print("pico-deploy:   the board started (%s) and played %s; it wrote %s on its drive" % (
        json.dumps(startup), " ".join(moves), ", ".join(checked_copy(on_drive)) or "nothing"),
        flush=True)
    if not checked_copy(on_drive):
        raise RuntimeError("the firmware could not write its drive: %s" % sorted(on_drive))

    # 2. Plugged in with `select` held: the drive is the computer's; a changed firmware goes
    #    onto it over the game in progress.
    with power_on("select", flash, hold=select, disks=FIRST_MOVES) as pico:
        pico.wait(lambda e: "usb" in e)
        # select held at power-on also starts the self-test (docs/board.md)
        pico.line(lambda m: m.get("event") == "selftest_start", 300)
        time.sleep(2)
        shutil.copy(pico.off(), flash)
    after = read_drive(flash, work / "after-select")
    if after != on_drive:
        raise RuntimeError("with select held the firmware changed its drive: %s" % sorted(
            name for name in set(after) | set(on_drive) if after.get(name) != on_drive.get(name)))
    with tempfile.TemporaryDirectory() as copy:
        project = changed_project(Path(copy))
        deploy(project, flash, "CircuitPython 9.2.9, changed firmware over a game")

    # 3. Plugged in without select: the new firmware resumes the game from nvm.
    with power_on("second", flash, disks=FIRST_MOVES) as pico:
        startup = pico.line(lambda m: m.get("event") == "startup", 300)
        version = check_resumed(pico, startup)
        move = place(pico, NEXT_MOVE)
    print("pico-deploy:   with select held at power-on the drive stayed the computer's (the "
          "firmware wrote nothing); firmware %s resumed the game (%s) and played %s" % (
              version["firmware"], json.dumps(startup), move["cell"]), flush=True)


def main(argv):
    failed = False
    for name, variable, run, only in (
            ("MicroPython", "RP2EMU", deploy_micropython, "--circuitpython-only"),
            ("CircuitPython", "CPEMU", deploy_circuitpython, "--micropython-only")):
        emu_dir = os.environ.get(variable)
        if not emu_dir:
            print("pico-deploy: %s skipped: set %s (../shared/tools/%s/README.md)" % (
                name, variable, variable.lower()))
        elif only not in argv:
            with tempfile.TemporaryDirectory() as work:
                try:
                    run(emu_dir, work)
                except RuntimeError as exc:
                    print("pico-deploy: %s: FAILED: %s" % (name, exc), flush=True)
                    failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
