"""The PCB (hardware/generated/pcb): KiCad's own DRC finds nothing wrong with the committed
board, its nets are the board the map describes (read back from the .kicad_pcb), the fab
files agree with it, and each check fails when it should: a swapped wire, a clearance
violation, a part in the way. KiCad 6 must be installed (`make test` installs it); without it
these tests fail naming what to install, they never skip. That the committed files are what
the generator makes is tests/test_hardware_generated.py's (`make hardware-check`)."""

import copy
import csv
import io
import json
import math
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

import iago
import pcb_netlist
from gameboard import boardmap
from hardware.generate.pcb import router
from hardware.generate.pcb.kicad_file import Board

ROOT = Path(__file__).resolve().parent.parent
PCB = ROOT / "hardware" / "generated" / "pcb"
BOARD = PCB / "iago-board.kicad_pcb"
BMAP = boardmap.load(str(ROOT / "hardware" / "board.json"))
KICAD_MISSING = "apt-get install kicad kicad-footprints"


def design():
    import tomllib
    with open(ROOT / "hardware" / "design.toml", "rb") as f:
        return tomllib.load(f)


PITCH = design()["board"]["pitch"]
WINDOW = (PITCH - design()["stack"]["light_wall"]) / 2.0
ORIGIN = (200.0, 200.0)          # where the generator puts E5 in KiCad's frame


def hex_centre(cell):
    row, number = iago.hexgrid.ROW_OF[cell], iago.hexgrid.NUMBER_OF[cell]
    x = (number - row / 2.0 - 3.0) * PITCH
    y = (row - 4) * PITCH * math.sqrt(3) / 2.0
    return ORIGIN[0] + x, ORIGIN[1] - y


def run_kicad(module, *args):
    """Run one of the PCB generator's commands (they run themselves under KiCad's Python)."""
    proc = subprocess.run([sys.executable, "-m", module] + [str(a) for a in args],
                          capture_output=True, text=True, cwd=ROOT)
    if proc.returncode == 3 and KICAD_MISSING in proc.stderr:
        pytest.fail("KiCad 6 is not installed: run `sudo %s` (make test does)" % KICAD_MISSING)
    return proc


def drc(path):
    proc = run_kicad("hardware.generate.pcb.drc", path)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


@pytest.fixture(scope="module")
def board_text():
    return BOARD.read_text()


@pytest.fixture(scope="module")
def board(board_text):
    return Board(board_text)


def wiring_problems(board):
    return pcb_netlist.problems(board, BMAP, iago.cell_name, hex_centre, WINDOW + 0.01)


def test_kicads_drc_finds_no_violations_and_no_unconnected_pads():
    result = drc(BOARD)
    assert (result["violations"], result["unconnected"]) == (0, 0), result["report"]
    assert result["report"] == (PCB / "drc.txt").read_text()


def test_every_hex_is_wired_as_the_map_says(board):
    assert wiring_problems(board) == []
    kinds = {}
    for fps in board.by_hex().values():
        for fp in fps:
            kinds[pcb_netlist._kind(fp)] = kinds.get(pcb_netlist._kind(fp), 0) + 1
    assert kinds == {"led": 61, "capacitor": 61, "switch": 61, "diode": 61}
    # Each hex's footprints carry its name and sit in it; the row and column lines reach
    # the Pico pads of the map's GPIOs (checked by `problems` through these nets).
    assert board.footprints["U1"].net("11") == board.footprints["D1"].net("1")  # A1: GP8


def _swap_pad_nets(text, ref_a, ref_b, number):
    """The board file with pad `number` of two footprints on each other's net."""
    blocks = {}
    for ref in (ref_a, ref_b):
        start = text.index('(fp_text reference "%s"' % ref)
        start = text.rindex("(footprint ", 0, start)
        pad = text.index('(pad "%s"' % number, start)
        net = re.compile(r'\(net (\d+) "([^"]*)"\)').search(text, pad)
        blocks[ref] = net
    a, b = blocks[ref_a], blocks[ref_b]
    first, second = sorted((a, b), key=lambda m: m.start())
    return (text[:first.start()] + second.group(0) + text[first.end():second.start()] +
            first.group(0) + text[second.end():])


@pytest.mark.parametrize("ref_a, ref_b, number, words", [
    ("SW1", "SW2", "1", ["A1: the switch joins", "A2: the switch joins"]),     # two columns
    ("D1", "D7", "1", ["A1: the diode's cathode", "B2: the diode's cathode"]),  # two rows
    ("LED2", "LED3", "4", ["LED 1 (A2) gets its data", "LED 2 (A3) gets its data"]),
])
def test_a_swapped_wire_is_found(board_text, ref_a, ref_b, number, words):
    swapped = Board(_swap_pad_nets(board_text, ref_a, ref_b, number))
    found = "\n".join(wiring_problems(swapped))
    for word in words:
        assert word in found, found


def test_a_diode_the_wrong_way_round_is_found(board):
    turned = copy.deepcopy(board)
    diode = turned.footprints["D31"]           # E5's: hex 30, parts numbered from 1
    one, two = diode.pad("1")[0], diode.pad("2")[0]
    one.net, two.net = two.net, one.net
    assert any("E5: the diode's cathode" in p for p in wiring_problems(turned))


def test_an_led_without_its_capacitor_is_found(board):
    moved = copy.deepcopy(board)
    cap = moved.footprints["C40"]
    cap.x += 20.0
    assert any("its capacitor is" in p for p in wiring_problems(moved))


def test_a_clearance_violation_fails_kicads_drc(board_text, tmp_path):
    """A 5 V track 0.1 mm beside row line 4's copper: KiCad's DRC must say so."""
    row_net = int(re.search(r'\(net (\d+) "ROW4"\)', board_text).group(1))
    power = int(re.search(r'\(net (\d+) "\+5V"\)', board_text).group(1))
    lines = [m for m in re.finditer(
        r'\(segment \(start ([\d.]+) ([\d.]+)\) \(end ([\d.]+) ([\d.]+)\) \(width ([\d.]+)\) '
        r'\(layer "F\.Cu"\) \(net %d\)' % row_net, board_text)]
    longest = max(lines, key=lambda m: abs(float(m.group(3)) - float(m.group(1))))
    x1, y1, x2 = float(longest.group(1)), float(longest.group(2)), float(longest.group(3))
    assert float(longest.group(4)) == y1 and abs(x2 - x1) > 100    # the straight row line
    offset = float(longest.group(5)) / 2 + 0.125 + 0.1
    intruder = ('  (segment (start %.3f %.3f) (end %.3f %.3f) (width 0.25) (layer "F.Cu") '
                '(net %d) (tstamp 00000000-0000-4000-8000-ffffffffffff))\n'
                % (x1 + 40, y1 + offset, x1 + 45, y1 + offset, power))
    cut = board_text.index("\n  (zone")
    bad = tmp_path / "iago-board.kicad_pcb"
    bad.write_text(board_text[:cut + 1] + intruder + board_text[cut + 1:])
    result = drc(bad)
    assert result["violations"] >= 1, result["report"]
    assert "clearance" in result["report"] or "shorting" in result["report"]


def _csv(name):
    return list(csv.DictReader(io.StringIO((PCB / "fab" / name).read_text())))


def test_the_assembly_files_list_every_part_the_fab_places_where_it_is(board, board_text):
    bom = _csv("iago-board-bom.csv")
    cpl = _csv("iago-board-cpl-kicad.csv")      # KiCad's own; the fab's: test_pcb_fab.py
    in_bom = [ref for row in bom for ref in row["Designator"].split(",")]
    assert sorted(in_bom) == sorted(row["Designator"] for row in cpl)
    assert sorted(in_bom) == sorted(row["Designator"] for row in _csv("iago-board-cpl.csv"))
    assert len(in_bom) == len(set(in_bom))
    counts = {row["Comment"]: int(row["Quantity"]) for row in bom}
    assert counts["WS2812B-5050"] == 61 and counts["1N4148W"] == 61
    assert counts["100nF 16V X7R"] == 63          # 61 LEDs, the level shifter, the FRAM
    assert not {"U1", "J2", "J3"} & set(in_bom)
    assert not any(ref.startswith(("TP", "H", "FID")) for ref in in_bom)
    assert {"U3", "R2", "R3", "C102", "F1", "Q1", "D103", "R4", "SW103"} <= set(in_bom)
    aux = re.search(r"\(aux_axis_origin ([\d.]+) ([\d.]+)\)", board_text)
    ax, ay = float(aux.group(1)), float(aux.group(2))
    for row in cpl:
        fp = board.footprints[row["Designator"]]
        assert abs(float(row["Mid X"]) - (fp.x - ax)) < 0.001, row
        assert abs(float(row["Mid Y"]) - (ay - fp.y)) < 0.001, row
        assert float(row["Rotation"]) == fp.rotation % 360
        assert row["Layer"] == "Top"


def test_silkscreen_past_the_boards_edge_is_a_violation(board_text, tmp_path):
    """KiCad 6's DRC does not look for it: the Pico's reference once sat 1.5 mm past the
    edge. Put it back there and drc.py must count it."""
    start = board_text.index('(fp_text reference "U1"')
    at = re.compile(r"\(at (\S+) (\S+)(?: \S+)?\)").search(board_text, start)
    pico = re.search(r'\(footprint "iago:RaspberryPi_Pico".*?\n    \(at (\S+) (\S+)', board_text,
                     re.S)
    # 1.5 mm past the USB end, as the old footprint had it (the Pico is turned half round).
    moved = board_text[:at.start()] + "(at 0 -27 180)" + board_text[at.end():]
    bad = tmp_path / "iago-board.kicad_pcb"
    bad.write_text(moved)
    result = drc(bad)
    assert result["violations"] == 1, result["report"]
    assert "U1: U1" in result["report"] and "past the edge" in result["report"]
    assert float(pico.group(2)) + 27 > 340 + 30           # KiCad's y: beyond the edge


def test_the_gerbers_and_drills_are_in_the_zip_and_outline_the_board():
    fab = PCB / "fab"
    with zipfile.ZipFile(fab / "iago-board-gerbers.zip") as archive:
        names = sorted(archive.namelist())
        for name in names:
            assert archive.read(name) == (fab / name).read_bytes()
    assert names == sorted(p.name for p in fab.iterdir()
                           if p.suffix in (".gtl", ".gbl", ".gts", ".gbs", ".gtp", ".gto",
                                           ".gbo", ".gm1", ".drl"))
    assert len(names) == 10
    edge = (fab / "iago-board-Edge_Cuts.gm1").read_text()
    xs = [int(v) / 1e6 for v in re.findall(r"X(-?\d+)", edge)]
    ys = [int(v) / 1e6 for v in re.findall(r"Y(-?\d+)", edge)]
    size = design()["pcb"]["width"], design()["pcb"]["height"]
    assert (min(xs), min(ys), max(xs), max(ys)) == (0, 0) + size
    for name in names:
        text = (fab / name).read_text()
        assert "CreationDate" not in text and not re.search(r"\bdate\b \d", text), name


def test_missing_kicad_is_named_not_skipped(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "hardware.generate.pcb", "--out", tmp_path],
                          capture_output=True, text=True, cwd=ROOT,
                          env={"KICAD_PYTHON": sys.executable, "PATH": "/usr/bin:/bin"})
    assert proc.returncode == 3
    assert KICAD_MISSING in proc.stderr and "pcbnew" in proc.stderr


def _design_with(tmp_path, section, **values):
    """design.toml with some values of one section changed."""
    text = (ROOT / "hardware" / "design.toml").read_text()
    head, rest = text.split("[%s]\n" % section, 1)
    body, tail = rest.split("\n[", 1)
    lines = body.split("\n")
    for key, value in values.items():
        lines = [("%s = %s" % (key, value)) if line.split("=")[0].strip() == key else line
                 for line in lines]
    path = tmp_path / "design.toml"
    path.write_text(head + "[%s]\n" % section + "\n".join(lines) + "\n[" + tail)
    return path


@pytest.mark.parametrize("section, values, words", [
    ("parts.reed", {"x": "-4.0"}, ["in hex A1", "overlap", "SW1", "LED1"]),
    ("parts.reed", {"y": "14.0"}, ["SW1", "window", "design.toml"]),
    ("parts.led", {"part": '"SK6812"'}, ["SK6812", "pcb.toml", "agree"]),
    ("board", {"pitch": "44.0"}, ["hex A1", "outside the 392 x 340 mm board", "44 mm"]),
])
def test_parameters_that_cannot_make_a_board_are_refused_with_a_reason(tmp_path, section,
                                                                         values, words):
    proc = run_kicad("hardware.generate.pcb", "--design", _design_with(tmp_path, section, **values),
                     "--out", tmp_path / "out")
    assert proc.returncode == 2, proc.stdout + proc.stderr
    for word in words:
        assert word in proc.stderr, proc.stderr
    assert not (tmp_path / "out").exists()


# --- the router on its own (no KiCad needed) ---------------------------------------------------


def _gap(a, b, samples=200):
    """The least distance between the copper of two tracks (a, b: (p, q, half width))."""
    best = math.inf
    for k in range(samples + 1):
        t = k / samples
        p = (a[0][0] + (a[1][0] - a[0][0]) * t, a[0][1] + (a[1][1] - a[0][1]) * t)
        best = min(best, router.Segment(b[0], b[1], b[2]).distance(*p) - a[2])
    return best


def _grid():
    return router.Grid(0.0, 0.0, 120, 120, 0.254, 0.2, {"signal": 0.25}, 0.6, 0.3, 0.5)


def test_the_router_goes_round_copper_of_other_nets_with_the_clearance_kept():
    grid = _grid()
    start, end = router.Circle((2.0, 15.0), 0.6), router.Circle((28.0, 15.0), 0.6)
    grid.add_copper(1, (0,), start, tree=False)
    grid.add_copper(1, (0,), end, tree=False)
    wall = ((15.0, 3.0), (15.0, 27.0), 0.5)                # net 2, top layer only
    grid.add_copper(2, (0,), router.Segment(*wall))
    path = grid.route(1, grid.pad_nodes((0,), start, "signal", 1), "signal", prefer=0,
                      target=grid.pad_nodes((0,), end, "signal", 1), name="A to B")
    assert start.distance(*path[0][1]) <= 0 and end.distance(*path[-1][1]) <= 0
    top = [t for t in grid.tracks if t[1] == 0]
    assert top and all(_gap((a, b, w / 2), wall) >= 0.2 - 1e-6 for _, _, a, b, w in top)
    # Across the wall on the bottom layer, or round its ends on the top: either way joined.
    crossed = any(t[1] == 1 for t in grid.tracks)
    assert crossed == (len(grid.vias) == 2)
    assert crossed or min(min(a[1], b[1]) for _, _, a, b, _ in top) < 3.0 or \
        max(max(a[1], b[1]) for _, _, a, b, _ in top) > 27.0


def test_the_router_names_a_connection_it_cannot_make():
    grid = _grid()
    end = router.Circle((20.0, 15.0), 0.6)
    grid.add_copper(1, (0,), end, tree=False)
    corners = [(17.0, 12.0), (23.0, 12.0), (23.0, 18.0), (17.0, 18.0)]
    for a, b in zip(corners, corners[1:] + corners[:1]):  # another net's copper all round
        grid.add_copper(2, (0, 1), router.Segment(a, b, 0.3))
    start = router.Circle((3.0, 15.0), 0.6)
    grid.add_copper(1, (0,), start, tree=False)
    with pytest.raises(router.RouteError, match="U9 pad 4"):
        grid.route(1, grid.pad_nodes((0,), start, "signal", 1), "signal",
                   target=grid.pad_nodes((0,), end, "signal", 1), name="U9 pad 4",
                   max_window=30.0)
