"""python -m hardware.generate.stack check | bounds | measure | write --out DIR (run from the
project's folder; `python -m hardware.generate` writes the stack's files with the rest)."""

import argparse
import sys
from pathlib import Path

from . import bounds, jig, light, parts, plates, render, sensing
from .design import DESIGN, Design, DesignError


def outputs(design):
    """{file name: bytes} of everything the stack puts under hardware/generated/."""
    result = sensing.check(design)
    files = plates.outputs(design)
    files.update(parts.outputs(design, result))
    files.update(render.outputs(design, result))
    return files


def write(design, out):
    files = outputs(design)
    out.mkdir(parents=True, exist_ok=True)
    for name in sorted(files):
        (out / name).write_bytes(files[name])
    print("wrote %d stack files to %s" % (len(files), out))
    return 0


def _parser():
    parser = argparse.ArgumentParser(
        prog="python -m hardware.generate.stack",
        description="The board stack's sensing and light checks, the reed switches' jig, and "
                    "the cut, print and picture files.")
    parser.add_argument("--design", default=str(DESIGN), metavar="TOML",
                        help="the parameters file (default hardware/design.toml)")
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("check", help="the sensing check over the envelope, the light check "
                                      "and the jig's heights")
    commands.add_parser("bounds", help="what bounds the sensing margins: the best balanced "
                                       "margin with each part of the envelope left out")
    measure = commands.add_parser(
        "measure", help="what one switch's closing and opening heights tell",
        description="Hold a disk flat, centred over a hex, and lower it toward the PCB (or the "
                    "hand-wired carrier) until the switch closes; then raise it until it opens. "
                    "Give both heights of the disk's underside above the board.")
    measure.add_argument("--closes-at", type=float, required=True, metavar="MM",
                         help="height at which the switch closes")
    measure.add_argument("--opens-at", type=float, required=True, metavar="MM",
                         help="height at which it opens again")
    out = commands.add_parser("write", help="the cut files, printed parts and pictures")
    out.add_argument("--out", required=True, metavar="DIR",
                     help="where to write (python -m hardware.generate writes "
                          "hardware/generated/)")
    return parser


def main(argv=None):
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        design = Design.load(args.design)
    except DesignError as exc:
        parser.error(str(exc))
    try:
        if args.command == "write":
            return write(design, Path(args.out))
        if args.command == "bounds":
            print(bounds.report(bounds.bounds(design)))
            return 0
        found = sensing.check(design)
        if args.command == "measure":
            print("\n".join(sensing.measure(design, args.closes_at, args.opens_at, found)))
            return 0
        lit = light.check(design)
        print(sensing.report(found))
        print(light.report(lit))
        try:
            print(jig.Jig(design, found).report())
            screened = True
        except jig.JigError as exc:
            print("No go/no-go jig: %s" % exc)
            screened = False
    except ValueError as exc:
        parser.error(str(exc))
    return 0 if lit.ok and found.ok and screened else 1


if __name__ == "__main__":
    sys.exit(main())
