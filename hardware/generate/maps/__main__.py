"""The build documents of the board maps: `python -m hardware.generate` writes them with the
rest; this command makes them for another map or another hex size.

    .venv/bin/python -m hardware.generate.maps --hex-mm 44 --out /tmp/t   # 44 mm hexes
    .venv/bin/python -m hardware.generate.maps --map my-board.json --out build/

For each board map (by default hardware/board.json and every hardware/boards/*.json), named by
its file's stem:
- `<stem>-diagram.svg`: every hex with its name, LED position, matrix row and column line and
  their GPIOs, and the LED chain's path;
- `<stem>-wiring.md`: the Pico's pins and what each does, which hexes every row and column line
  visits, the matrix and the chain order.
And once, as it depends on the hex size only:
- `template-<N>mm.svg` and `.pdf`: the board at 1:1 for hexes N mm across flats (by default
  design.toml's pitch), the outer ring and the centre marked, each hex's name small in a corner,
  the disk's footprint, the hex centre where the LED goes, and the settings hexes' names. The
  PDF has the whole board on one page of its own size (for a print shop) and then the same cut
  into A4 sheets.

The output is deterministic (no dates, fixed PDF metadata), so the check compares it byte for
byte with the committed files. The PDF is written with ReportLab (a dev dependency).
"""

import argparse
import sys
from pathlib import Path

from gameboard import boardmap

from hardware.generate import HARDWARE, shown_path
from hardware.generate.maps import diagram, template, wiring
from hardware.generate.maps.drawing import fmt

MIN_HEX_MM = 20.0
MAX_HEX_MM = 100.0
MIN_CLEARANCE_MM = 2.0       # a disk must fit its hex with at least this much to spare

DEFAULT_HEX_MM = template.DEFAULT_HEX_MM
DEFAULT_DISK_MM = template.DEFAULT_DISK_MM


class UsageError(Exception):
    """Bad input to the generator; the message says what to change."""


def print_wire(maps, flats):
    for path in maps:
        bmap = boardmap.load(str(path))
        rows, cols, (longest, line) = wiring.wire_lengths(bmap, flats)
        print("%s: matrix wire cell to cell at %s mm: %.2f m in all (rows %.2f m, columns "
              "%.2f m), the longest line %s %.2f m" % (shown_path(path), fmt(flats),
                                                        (rows + cols) / 1000, rows / 1000,
                                                        cols / 1000, line, longest / 1000))


def default_maps():
    return [HARDWARE / "board.json"] + sorted((HARDWARE / "boards").glob("*.json"))


def outputs(maps, flats, disk):
    """{file name: bytes} of everything to write."""
    if not MIN_HEX_MM <= flats <= MAX_HEX_MM:
        raise UsageError("--hex-mm %s is outside %s-%s mm (the size across a hex's flats)"
                         % (fmt(flats), fmt(MIN_HEX_MM), fmt(MAX_HEX_MM)))
    if disk <= 0:
        raise UsageError("--disk-mm must be a positive size, not %s" % fmt(disk))
    if disk > flats - MIN_CLEARANCE_MM:
        raise UsageError("disks of %s mm do not fit hexes %s mm across flats: leave at least "
                         "%s mm (choose a larger --hex-mm or a smaller --disk-mm)"
                         % (fmt(disk), fmt(flats), fmt(MIN_CLEARANCE_MM)))
    files = {}
    stems = {}
    for path in maps:
        source = shown_path(path)
        stem = Path(path).stem
        if stem in stems:
            raise UsageError("two board maps named %s: %s and %s (their outputs would collide)"
                             % (stem, stems[stem], source))
        stems[stem] = source
        try:
            bmap = boardmap.load(str(path))
        except OSError as exc:
            raise UsageError("cannot read the board map %s: %s" % (source, exc.strerror or exc))
        except boardmap.BoardMapError as exc:
            raise UsageError("%s: %s" % (source, exc))
        files[stem + "-diagram.svg"] = diagram.diagram(bmap, source).encode()
        files[stem + "-wiring.md"] = wiring.wiring(bmap, source).encode()
    name = "template-%smm" % fmt(flats)
    files[name + ".svg"] = template.template_svg(flats, disk).encode()
    files[name + ".pdf"] = template.template_pdf(flats, disk)
    return files


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python -m hardware.generate.maps",
        description="Generate the board diagram, wiring tables and 1:1 template from board maps.")
    parser.add_argument("--map", action="append", metavar="PATH",
                        help="a board map (repeat for several; default: hardware/board.json "
                             "and hardware/boards/*.json)")
    parser.add_argument("--out", metavar="DIR", required=True,
                        help="where to write (python -m hardware.generate writes "
                             "hardware/generated/)")
    parser.add_argument("--hex-mm", type=float, default=DEFAULT_HEX_MM, metavar="MM",
                        help="template hex size across flats (default %s)" % fmt(DEFAULT_HEX_MM))
    parser.add_argument("--disk-mm", type=float, default=DEFAULT_DISK_MM, metavar="MM",
                        help="disk diameter drawn in the template (default %s)"
                             % fmt(DEFAULT_DISK_MM))
    args = parser.parse_args(argv)
    maps = [Path(p) for p in args.map] if args.map else default_maps()
    out = Path(args.out)
    try:
        files = outputs(maps, args.hex_mm, args.disk_mm)
    except UsageError as exc:
        parser.error(str(exc))
    if out.exists() and not out.is_dir():
        parser.error("--out %s is a file, not a folder" % shown_path(out))
    out.mkdir(parents=True, exist_ok=True)
    for name in sorted(files):
        (out / name).write_bytes(files[name])
    print("wrote %d files to %s: %s" % (len(files), shown_path(out), ", ".join(sorted(files))))
    print_wire(maps, args.hex_mm)
    return 0


if __name__ == "__main__":
    sys.exit(main())
