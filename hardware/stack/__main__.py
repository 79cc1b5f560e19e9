"""python -m hardware.stack check | calibrate | write (run from the project's folder)."""

import argparse
import sys
from pathlib import Path

from . import light, parts, plates, render, sensing
from .design import DESIGN, ROOT, Design, DesignError

GENERATED = ROOT / "hardware" / "generated"


def outputs(design):
    """{file name: bytes} of everything the stack puts under hardware/generated/."""
    files = plates.outputs(design)
    files.update(parts.outputs(design))
    files.update(render.outputs(design))
    return files


def write(design, out, check=False):
    files = outputs(design)
    if check:
        behind = [n for n in sorted(files)
                  if not (out / n).is_file() or (out / n).read_bytes() != files[n]]
        if behind:
            print("not up to date in %s (run make hardware): %s" % (out.name, ", ".join(behind)),
                  file=sys.stderr)
            return 1
        print("%d stack files up to date" % len(files))
        return 0
    out.mkdir(parents=True, exist_ok=True)
    for name in sorted(files):
        (out / name).write_bytes(files[name])
    print("wrote %d stack files to %s" % (len(files), out.name))
    return 0


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python -m hardware.stack",
        description="The board stack's sensing and light checks, and the builder's calibration.")
    parser.add_argument("--design", default=str(DESIGN), metavar="TOML",
                        help="the parameters file (default hardware/design.toml)")
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("check", help="the sensing and light checks of the design")
    cal = commands.add_parser(
        "calibrate", help="the one-switch test: does your switch and disk make a safe board?",
        description="Hold a disk flat, centred over a hex, and lower it toward the PCB (or the "
                    "hand-wired carrier plate) until the switch closes; then raise it until it "
                    "opens. Give both heights of the disk's underside above the board.")
    cal.add_argument("--closes-at", type=float, required=True, metavar="MM",
                     help="height at which the switch closes")
    cal.add_argument("--opens-at", type=float, metavar="MM",
                     help="height at which it opens again (better than the datasheet's ratio)")
    out = commands.add_parser("write", help="the cut files, printed parts and pictures")
    out.add_argument("--out", default=str(GENERATED), metavar="DIR",
                     help="where to write (default hardware/generated)")
    out.add_argument("--check", action="store_true",
                     help="write nothing; exit 1 if the files in --out are not up to date")
    args = parser.parse_args(argv)
    try:
        design = Design.load(args.design)
    except DesignError as exc:
        parser.error(str(exc))
    if args.command == "write":
        try:
            return write(design, Path(args.out), args.check)
        except ValueError as exc:
            parser.error(str(exc))
    if args.command == "check":
        found = sensing.check(design)
        lit = light.check(design)
        print(sensing.report(found))
        print(light.report(lit))
        return 0 if found.ok and lit.ok else 1
    try:
        ok, lines = sensing.calibrate(design, args.closes_at, args.opens_at)
    except ValueError as exc:
        parser.error(str(exc))
    print("\n".join(lines))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
