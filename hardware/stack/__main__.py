"""python -m hardware.stack check | calibrate (run from the project's folder)."""

import argparse
import sys

from . import light, sensing
from .design import DESIGN, Design, DesignError


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
    args = parser.parse_args(argv)
    try:
        design = Design.load(args.design)
    except DesignError as exc:
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
