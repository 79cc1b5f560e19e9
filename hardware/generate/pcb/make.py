"""Generate the PCB from the board map (`make hardware`), and check it with KiCad's DRC.

    .venv/bin/python -m hardware.generate          # writes hardware/generated/pcb/ with the rest
    .venv/bin/python -m hardware.generate.pcb --out DIR
    .venv/bin/python -m hardware.generate.pcb --map hardware/boards/rev1.json --out DIR

From hardware/board.json (the matrix lines, the LED chain, the pins), hardware/design.toml
(the pitch, where each hex's LED and reed switch sit, the outline, the Pico and the parts
around the edge) and hardware/pcb/pcb.toml (the parts to order, the diode's and capacitor's
places, widths and clearances) it writes:

- iago-board.kicad_pcb, .kicad_pro, fp-lib-table and iago.pretty/: the KiCad 6 project, every
  footprint placed and every net routed (board.py, router.py), GND poured on both layers;
- drc.txt: KiCad's DRC report (violations and unconnected pads; 0 and 0 or this fails);
- fab/: the Gerbers and drill files, their zip, the BOM, and the placement files for assembly:
  JLCPCB's (rotations and centres corrected per footprint family, jlc.py) and KiCad's own;
- schematic.svg, board-front.svg, board-back.svg: the schematic and pictures of both sides;
- fab-preview.svg: each package the fab places as its placement preview should show it;
- ground.txt: the GND pours' islands and where each is tied to the other layer.

It needs KiCad 6's `pcbnew` module, which Debian's kicad package installs for the system's
Python 3 only: run from any other Python, this module runs itself again under
/usr/bin/python3 (or $KICAD_PYTHON). The output is the same bytes every time: the ids KiCad
gives every item are renumbered, the dates KiCad writes are left out.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from hardware.generate import ROOT

from . import params as P

KICAD_PYTHON = os.environ.get("KICAD_PYTHON", "/usr/bin/python3")
MISSING = ("KiCad 6's pcbnew Python module is missing: install KiCad and its footprints "
           "(sudo apt-get install kicad kicad-footprints; `make test` does it)")
NAME = "iago-board"


def have_pcbnew():
    try:
        import pcbnew  # noqa: F401
    except ImportError:
        return False
    return True


def rerun(module, argv):
    """Run `python -m module` under the Python that has pcbnew (KICAD_PYTHON), the project on
    its path; its exit status."""
    same = Path(sys.executable).resolve() == Path(KICAD_PYTHON).resolve()
    if same or not Path(KICAD_PYTHON).exists():
        print("%s: %s" % (module, MISSING), file=sys.stderr)
        return 3
    probe = subprocess.run([KICAD_PYTHON, "-c", "import pcbnew"], capture_output=True)
    if probe.returncode != 0:
        print("%s: %s" % (module, MISSING), file=sys.stderr)
        return 3
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH")) if p)
    return subprocess.call([KICAD_PYTHON, "-m", module] + argv, env=env)


def generate(params, work, log):
    """Build, fill, check and plot the board in `work`; returns ({relative path: bytes},
    the DRC's (violations, unconnected))."""
    import pcbnew

    files = _footprint_library(work)
    # pcbnew saves items in the order of their ids, random unless seeded.
    pcbnew.KIID.SeedGenerator(2023)
    started = time.time()

    def stamped(line):
        log("  %5.1f s  %s" % (time.time() - started, line))

    builder, path = _build(params, work, stamped)
    files.update(_project_files(path, work))
    board = pcbnew.LoadBoard(str(path))
    report, counts = drc(board, work)
    files["drc.txt"] = report.encode()
    stamped("KiCad's DRC: %d violations, %d unconnected pads" % counts)
    from . import ground
    text, (found, loose) = ground.report(board)
    files["ground.txt"] = text.encode()
    stamped("GND pours: %d islands, %d tied at fewer than two places" % (found, loose))
    files.update(_plots(params, board, builder, work))
    stamped("plotted")
    return files, counts


def _footprint_library(work):
    """The project's own footprints, written where pcbnew loads them from."""
    from . import circuit
    from . import footprints

    library = work / "iago.pretty"
    library.mkdir()
    files = {}
    for name, make in sorted(footprints.FOOTPRINTS.items()):
        text = make()
        files["iago.pretty/%s.kicad_mod" % name] = text.encode()
        (library / (name + ".kicad_mod")).write_text(text)
    circuit.PROJECT_LIBRARY = library
    return files


def _build(params, work, log):
    """Place, route and pour the board; saved in `work`, returns (the builder, its path)."""
    import pcbnew

    from . import board as B
    from . import fab

    builder = B.Builder(params, log=log)
    board = builder.build()
    fab.set_origin(board, params)
    log("placed %d parts, routed %d tracks and %d vias"
        % (len(builder.components), len(builder.grid.tracks), len(builder.grid.vias)))
    path = work / (NAME + ".kicad_pcb")
    pcbnew.SaveBoard(str(path), board)
    # Filling the pours needs a board read from a file (on one built in memory it crashes).
    board = pcbnew.LoadBoard(str(path))
    pcbnew.ZONE_FILLER(board).Fill(board.Zones())
    from . import ground
    tied = ground.tie_loose_islands(board, builder)
    if tied:
        pcbnew.ZONE_FILLER(board).Fill(board.Zones())
    pcbnew.SaveBoard(str(path), board)
    log("poured GND; %d vias more to tie islands held at one place" % tied)
    return builder, path


def _project_files(path, work):
    """The KiCad project: the board renumbered (rewritten at `path`), its project file and
    the footprint library table."""
    text = renumbered(path.read_text())
    files = {NAME + ".kicad_pcb": text.encode(),
             NAME + ".kicad_pro": project_file(work / (NAME + ".kicad_pro")),
             "fp-lib-table": ('(fp_lib_table\n  (lib (name "iago")(type "KiCad")'
                              '(uri "${KIPRJMOD}/iago.pretty")(options "")'
                              '(descr "The Iago board\'s own footprints"))\n)\n').encode()}
    path.write_text(text)
    return files


def _plots(params, board, builder, work):
    """The fab files (Gerbers, drill, BOM, placement), the pictures and the schematic."""
    from . import fab
    from . import render
    from . import schematic
    from .frame import kpos

    files = {}
    names = fab.plot(board, work / "fab")
    for name in names:
        files["fab/" + name] = (work / "fab" / name).read_bytes()
    files["fab/%s-gerbers.zip" % NAME] = fab.zipped(work / "fab", names)
    bom, cpl, cpl_kicad = fab.assembly(board, builder.components)
    files["fab/%s-bom.csv" % NAME] = bom.encode()
    files["fab/%s-cpl.csv" % NAME] = cpl.encode()             # JLCPCB's, corrected
    files["fab/%s-cpl-kicad.csv" % NAME] = cpl_kicad.encode()  # KiCad's, for other fabs
    origin = kpos(0.0, 0.0)
    for side in ("front", "back"):
        files["board-%s.svg" % side] = render.picture(
            board, side, params.width, params.height, params.corner_radius, origin).encode()
    files["schematic.svg"] = schematic.draw(params, builder.components).encode()
    from . import preview
    files["fab-preview.svg"] = preview.draw(board, builder.components, P.Drawing).encode()
    return files


def renumbered(text):
    """The board file with KiCad's random item ids replaced by ids numbered in file order."""
    count = [0]

    def next_id(match):
        count[0] += 1
        return "(%s 00000000-0000-4000-8000-%012x)" % (match.group(1), count[0])

    return re.sub(r"\((tstamp|uuid) [0-9a-fA-F-]{36}\)", next_id, text)


def project_file(path):
    """The project file pcbnew saved (the design rules), without this machine's paths."""
    text = path.read_text()
    text = re.sub(r'"filename": "[^"]*"', '"filename": "%s.kicad_pro"' % NAME, text)
    return text.encode()


DRC_FOUND = re.compile(r"\*\* Found (\d+) (DRC violations|unconnected pads) \*\*")


def drc(board, work):
    """KiCad's DRC on `board`: (its report without the date and paths, (violations,
    unconnected pads))."""
    import pcbnew
    report = work / "drc.rpt"
    if not pcbnew.WriteDRCReport(board, str(report), pcbnew.EDA_UNITS_MILLIMETRES, True):
        raise RuntimeError("KiCad's DRC did not run")
    text = report.read_text()
    counts = {kind: int(n) for n, kind in DRC_FOUND.findall(text)}
    lines = [line for line in text.splitlines()
             if not line.startswith("** Drc report for") and not line.startswith("** Created on")]
    body = "\n".join(lines).strip() + "\n"
    head = ("KiCad's DRC of %s.kicad_pcb (pcbnew.WriteDRCReport, run by make hardware)\n\n"
            % NAME)
    outside = silk_outside(board)
    body += "\n** Found %d silkscreen items outside the board (our check: KiCad 6 has none) **\n" \
        % len(outside) + "".join("    %s\n" % item for item in outside)
    return head + body, (counts["DRC violations"] + len(outside), counts["unconnected pads"])


def silk_outside(board):
    """Every silkscreen line, shape or visible text whose extent leaves the board's outline
    (its Edge.Cuts bounding box, less the rounded corners' reach): a fab clips or refuses it."""
    import pcbnew
    edge = board.GetBoardEdgesBoundingBox()
    left, top = pcbnew.ToMM(edge.GetX()), pcbnew.ToMM(edge.GetY())
    right, bottom = pcbnew.ToMM(edge.GetRight()), pcbnew.ToMM(edge.GetBottom())
    items = []
    for fp in board.GetFootprints():
        for item in [fp.Reference(), fp.Value()] + list(fp.GraphicalItems()):
            items.append((fp.GetReference(), item))
    items += [("board", item) for item in board.GetDrawings()]
    out = []
    for owner, item in items:
        if item.GetLayer() not in (pcbnew.F_SilkS, pcbnew.B_SilkS):
            continue
        if isinstance(item, pcbnew.EDA_TEXT) and not item.IsVisible():
            continue
        box = item.GetBoundingBox()
        x0, y0 = pcbnew.ToMM(box.GetX()), pcbnew.ToMM(box.GetY())
        x1, y1 = pcbnew.ToMM(box.GetRight()), pcbnew.ToMM(box.GetBottom())
        if x0 < left or y0 < top or x1 > right or y1 > bottom:
            what = item.GetShownText() if isinstance(item, pcbnew.EDA_TEXT) else \
                item.GetClass()
            out.append("%s: %s, %.2f-%.2f x %.2f-%.2f mm, past the edge" % (
                owner, what, x0 - left, x1 - left, y0 - top, y1 - top))
    return sorted(out)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    parser = argparse.ArgumentParser(
        prog="python -m hardware.generate.pcb",
        description="Generate the PCB (KiCad project, fab files, schematic, pictures) from the "
                    "board map, design.toml and pcb.toml, and run KiCad's DRC on it "
                    "(python -m hardware.generate writes hardware/generated/pcb/).")
    parser.add_argument("--out", metavar="DIR", required=True, help="where to write")
    parser.add_argument("--map", default=str(P.BOARD_MAP), metavar="PATH",
                        help="the board map (default: hardware/board.json)")
    parser.add_argument("--design", default=str(P.DESIGN), metavar="PATH",
                        help="the shared parameters (default: hardware/design.toml)")
    parser.add_argument("--pcb", default=str(P.PCB), metavar="PATH",
                        help="the PCB's parameters (default: hardware/pcb/pcb.toml)")
    parser.add_argument("--quiet", action="store_true", help="print the summary only")
    args = parser.parse_args(argv)
    if not have_pcbnew():
        return rerun("hardware.generate.pcb", argv)
    out = Path(args.out)
    try:
        params = P.Params(design=args.design, pcb=args.pcb, board_map=args.map)
    except P.ParamError as exc:
        parser.error(str(exc))
    from . import router
    log = (lambda line: None) if args.quiet else print
    work = Path(tempfile.mkdtemp(prefix="iago-pcb-"))
    try:
        try:
            files, counts = generate(params, work, log)
        except (P.ParamError, router.RouteError) as exc:
            print("python -m hardware.generate.pcb: %s" % exc, file=sys.stderr)
            return 2
    finally:
        shutil.rmtree(work, ignore_errors=True)
    for name, data in sorted(files.items()):
        target = out / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    print("wrote %d PCB files; PCB %s: %.0f x %.0f mm, 2 layers; KiCad's DRC: %d violations, "
          "%d unconnected pads" % (len(files), params.map.name, params.width, params.height,
                                   counts[0], counts[1]))
    if counts != (0, 0):
        print("python -m hardware.generate.pcb: KiCad's DRC found problems: see %s"
              % P.shown(out / "drc.txt"), file=sys.stderr)
        return 1
    return 0
