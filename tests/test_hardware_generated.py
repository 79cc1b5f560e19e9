"""hardware/make.py: the committed diagrams, wiring tables and template match the board maps,
the output is deterministic, and bad input is refused with a reason."""

import importlib.util
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

import iago
from gameboard import boardmap

ROOT = Path(__file__).resolve().parent.parent
HARDWARE = ROOT / "hardware"
GENERATED = HARDWARE / "generated"
NAMES = [iago.cell_name(c) for c in range(iago.CELLS)]


def _load_make():
    spec = importlib.util.spec_from_file_location("hardware_make", HARDWARE / "make.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


make = _load_make()


@pytest.fixture(scope="module")
def regenerated(tmp_path_factory):
    out = tmp_path_factory.mktemp("generated")
    assert make.main(["--out", str(out)]) == 0
    return out


STACK_FILES = sorted(["stack-%s.%s" % (plate, ext)
                      for plate in ("base", "carrier", "light-box-grid", "pocket-plate",
                                    "spacers", "top-plate") for ext in ("dxf", "svg")]
                     + ["stack-disk-half.stl", "stack-hex.svg", "stack-jig.stl",
                        "stack-section.svg", "stack-sensing.svg"])


@pytest.fixture(scope="module")
def regenerated_stack(tmp_path_factory):
    out = tmp_path_factory.mktemp("stack")
    assert subprocess.run([sys.executable, "-m", "hardware.stack", "write", "--out", str(out)],
                          cwd=ROOT, capture_output=True).returncode == 0
    return out


def test_the_committed_outputs_match_the_maps(regenerated, regenerated_stack):
    fresh = sorted(p.name for p in regenerated.iterdir())
    assert fresh == ["board-diagram.svg", "board-wiring.md", "rev1-diagram.svg", "rev1-wiring.md",
                     "serpentine-diagram.svg", "serpentine-wiring.md", "square7-diagram.svg",
                     "square7-wiring.md",
                     "square8-diagram.svg", "square8-wiring.md", "square9-diagram.svg",
                     "square9-wiring.md", "template-42mm.pdf", "template-42mm.svg"]
    stack = sorted(p.name for p in regenerated_stack.iterdir())
    assert stack == STACK_FILES
    behind = [name for name in stack if not (GENERATED / name).is_file() or
              (GENERATED / name).read_bytes() != (regenerated_stack / name).read_bytes()]
    assert not behind, "run `make hardware` and commit: %s out of date" % ", ".join(behind)
    behind = [name for name in fresh if not (GENERATED / name).is_file() or
              (GENERATED / name).read_bytes() != (regenerated / name).read_bytes()]
    assert not behind, "run `make hardware` and commit: %s out of date" % ", ".join(behind)
    fresh += stack
    # Nothing stale from a map that is gone (templates of other sizes may be kept).
    extra = [p.name for p in GENERATED.iterdir()
             if p.name not in fresh and not re.fullmatch(r"template-[\d.]+mm\.(svg|pdf)", p.name)]
    assert not extra, "stale files in hardware/generated: %s" % extra


def test_make_check_says_up_to_date_and_finds_a_change(tmp_path, capsys):
    assert make.main(["--out", str(tmp_path)]) == 0
    assert make.main(["--check", "--out", str(tmp_path)]) == 0
    (tmp_path / "board-wiring.md").write_text("edited by hand\n")
    (tmp_path / "template-42mm.pdf").unlink()
    assert make.main(["--check", "--out", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert "board-wiring.md" in err and "template-42mm.pdf" in err and "make hardware" in err


def test_output_is_deterministic_and_names_no_path_of_this_machine():
    first = make.outputs(make.default_maps(), 40.0, 30.0)
    second = make.outputs(make.default_maps(), 40.0, 30.0)
    assert first == second
    for name, data in first.items():
        assert str(ROOT).encode() not in data, name
        assert b"/tmp/" not in data and b"/home/" not in data, name


def test_the_command_line_runs_from_anywhere(tmp_path):
    out = tmp_path / "out"
    proc = subprocess.run([sys.executable, str(HARDWARE / "make.py"), "--out", str(out),
                           "--hex-mm", "44", "--map", str(HARDWARE / "board.json")],
                          capture_output=True, text=True, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert sorted(p.name for p in out.iterdir()) == [
        "board-diagram.svg", "board-wiring.md", "template-44mm.pdf", "template-44mm.svg"]


@pytest.mark.parametrize("stem", ["board", "serpentine"])
def test_the_diagram_shows_every_hex_with_led_and_crossing(stem):
    path = HARDWARE / "board.json" if stem == "board" else HARDWARE / "boards" / "serpentine.json"
    bmap = boardmap.load(str(path))
    svg = (GENERATED / (stem + "-diagram.svg")).read_text()
    texts = re.findall(r"<text [^>]*>([^<]*)</text>", svg)
    for cell, name in enumerate(NAMES):
        i = texts.index(name)
        crossing = bmap.crossing_of_cell[cell]
        row, col = crossing >> 3, crossing & 7
        assert texts[i + 1:i + 4] == ["LED %d" % bmap.led_of_cell[cell],
                                      "R%d GP%d" % (row, bmap.row_pins[row]),
                                      "C%d GP%d" % (col, bmap.col_pins[col])], name
    # The chain: one polyline through the 61 hex centres in LED order.
    chains = re.findall(r'<polyline points="([^"]*)"', svg)
    assert len(chains) == 1
    points = [tuple(map(float, p.split(","))) for p in chains[0].split()]
    assert len(points) == iago.CELLS
    hexes = re.findall(r'<polygon points="([^"]*)" fill="#[0-9a-f]{6}" stroke="#333333"', svg)
    centres = []
    for h in hexes[:iago.CELLS]:
        corners = [tuple(map(float, p.split(","))) for p in h.split()]
        centres.append((sum(x for x, _ in corners) / 6, sum(y for _, y in corners) / 6))
    for led, (x, y) in enumerate(points):
        cx, cy = centres[bmap.cell_of_led[led]]
        assert abs(cx - x) < 0.02 and abs(cy - y) < 0.02, led


def test_the_wiring_tables_list_every_pin_line_and_hex():
    bmap = boardmap.load(str(HARDWARE / "board.json"))
    text = (GENERATED / "board-wiring.md").read_text()
    assert "| 29 | GP22 | LED data (WS2812B, GRB) |" in text
    assert "| 26 | GP20 | button `select` |" in text
    assert "| R8 | GP16 (21) | I9 (C0), I8 (C1), I7 (C2), I6 (C3), I5 (C4) |" in text
    assert "| R6 | GP14 (19) | G9 (C0), G8 (C1), G7 (C2), G6 (C3), G5 (C4), G4 (C5), G3 (C6), " \
           "E1 (C7) |" in text
    assert "| C0 | GP0 (1) | A5 (R0), B6 (R1), C7 (R2), D8 (R3), E9 (R4), F9 (R5), G9 (R6), " \
           "H9 (R7), I9 (R8) |" in text
    matrix = [line.split("|")[2:-1] for line in text.splitlines() if line.startswith("| **R")]
    assert len(matrix) == 9 and all(len(cols) == 8 for cols in matrix)
    found = [c.strip() for cols in matrix for c in cols]
    assert sorted(c for c in found if c != "-") == sorted(NAMES) and found.count("-") == 11
    chain = text.split("## The LED chain")[1].split("##")[0]
    order = re.findall(r"\b[A-I][1-9]\b", chain)
    assert order == [iago.cell_name(bmap.cell_of_led[i]) for i in range(iago.CELLS)]
    serpentine = (GENERATED / "serpentine-wiring.md").read_text()
    assert "| 34 | GP28 | LED data (WS2812, RGB) |" in serpentine
    assert "| 31 | GP26 | button `select` |" in serpentine


def test_the_template_marks_ring_centre_and_names():
    svg = (GENERATED / "template-42mm.svg").read_text()
    assert 'width="402mm"' in svg                       # 9 hexes of 42 mm + 2 x 12 mm margin
    hexes = re.findall(r'<polygon points="[^"]*" (fill="[^"]*")', svg)
    assert len(hexes) == iago.CELLS
    assert hexes.count('fill="#e2e2e2"') == len(iago.hexgrid.OUTER_RING) == 24
    assert hexes.count('fill="#b4b4b4"') == 1
    names = re.findall(r'font-size="3.57" fill="#222222">([A-I][1-9])<', svg)
    assert names == NAMES
    # Neighbouring hexes are 42 mm apart, centre to centre: the print is 1:1.
    centres = {}
    for i, pts in enumerate(re.findall(r'<polygon points="([^"]*)"', svg)[:iago.CELLS]):
        corners = [tuple(map(float, p.split(","))) for p in pts.split()]
        centres[i] = (sum(x for x, _ in corners) / 6, sum(y for _, y in corners) / 6)
    for cell in range(iago.CELLS):
        for direction in range(6):
            other = iago.hexgrid.neighbour(cell, direction)
            if other is not None:
                (x1, y1), (x2, y2) = centres[cell], centres[other]
                assert abs(((x1 - x2) ** 2 + (y1 - y2) ** 2) ** 0.5 - 42) < 0.02
    # The cross marks where the reed switch starts (the LED is beside it); the settings hexes
    # carry their setting.
    assert "Cross: the hex centre, where the switch starts" in svg
    labels = {text: float(x) for x, text in re.findall(
        r'<text x="([\d.]+)" y="[\d.]+" font-size="2.68" text-anchor="middle" '
        r'fill="#444444">([^<]+)<', svg)}
    assert sorted(labels) == sorted(["rules", "penalty", "hints", "brightness", "palette",
                                     "computer's side", "computer's level"])
    for name, setting in make.template.SETTINGS.items():
        assert abs(labels[setting] - centres[NAMES.index(name)][0]) < 0.01, name


def test_every_legend_entry_is_inside_its_diagram():
    for path in sorted(GENERATED.glob("*-diagram.svg")):
        svg = path.read_text()
        width = float(re.search(r'<svg [^>]*width="([\d.]+)"', svg).group(1))
        for x, text in re.findall(r'<text x="([\d.]+)" [^>]*>(R\d+ = GP\d+)<', svg):
            assert float(x) + 7 * len(text) < width, (path.name, text)


def test_the_pdf_has_the_whole_board_then_a4_sheets():
    pdf = (GENERATED / "template-42mm.pdf").read_bytes()
    assert pdf.startswith(b"%PDF-")
    boxes = re.findall(rb"/MediaBox \[ 0 0 ([\d.]+) ([\d.]+) \]", pdf)
    sizes = [(round(float(w) * 25.4 / 72), round(float(h) * 25.4 / 72)) for w, h in boxes]
    assert sizes[0] == (402, 397) and sizes[1:] == [(297, 210)] * 4
    assert b"/CreationDate (D:20000101000000" in pdf     # fixed, not the time of the run
    for name in NAMES:
        assert b"(" + name.encode() + b") Tj" in pdf


@pytest.mark.parametrize("args, words", [
    (["--hex-mm", "0"], ["--hex-mm 0", "20-100"]),
    (["--hex-mm", "500"], ["--hex-mm 500"]),
    (["--hex-mm", "30"], ["disks of 29 mm", "30 mm"]),
    (["--disk-mm", "-3"], ["--disk-mm", "positive"]),
    (["--hex-mm", "wide"], ["--hex-mm", "wide"]),
])
def test_bad_sizes_are_refused_with_a_reason(args, words, tmp_path, capsys):
    with pytest.raises(SystemExit) as info:
        make.main(args + ["--out", str(tmp_path)])
    assert info.value.code == 2
    err = capsys.readouterr().err
    for word in words:
        assert word in err, err
    assert not list(tmp_path.iterdir())


def test_a_broken_map_is_refused_naming_the_entry(tmp_path, capsys):
    data = json.loads((HARDWARE / "board.json").read_text())
    data["cells"]["B2"]["led"] = data["cells"]["A1"]["led"]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    with pytest.raises(SystemExit):
        make.main(["--map", str(bad), "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err
    assert "bad.json" in err and "A1 and B2 both use LED 0" in err
    with pytest.raises(SystemExit):
        make.main(["--map", str(tmp_path / "absent.json"), "--out", str(tmp_path / "out")])
    assert "cannot read the board map absent.json" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        make.main(["--map", str(HARDWARE / "board.json"),
                   "--map", str(tmp_path / "x" / "board.json"), "--out", str(tmp_path / "out")])
    assert "two board maps named board" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("stem,size", [("square8", 8), ("square7", 7), ("square9", 9)])
def test_square_maps_get_a_diagram_of_squares_and_wiring_tables(stem, size):
    from iago import squaregrid
    bmap = boardmap.load(str(HARDWARE / "boards" / (stem + ".json")))
    svg = (GENERATED / (stem + "-diagram.svg")).read_text()
    texts = re.findall(r"<text [^>]*>([^<]*)</text>", svg)
    grid = squaregrid.grid(size)
    for cell in range(size * size):
        i = texts.index(grid.cell_name(cell))
        assert texts[i + 1] == "LED %d" % bmap.led_of_cell[cell]
    wiring = (GENERATED / (stem + "-wiring.md")).read_text()
    assert "| R0 | GP0 (1) | a1 (C0), b1 (C1)" in wiring
    assert "Full white on all %d LEDs" % (size * size) in wiring
    assert "| row line | GPIO (Pico pin) | squares, by column line |" in wiring
    if size == 9:     # 81 switches: the i file on two more row lines
        assert "| R9 | GP9 (12) | i1 (C0), i2 (C1)" in wiring
        assert "| R10 | GP10 (14) | i9 (C0) |" in wiring


# --- the PCB (hardware/pcb/make.py) ----------------------------------------------------------

PCB = HARDWARE / "pcb"


def _load_pcb_make():
    spec = importlib.util.spec_from_file_location("hardware_pcb_make", PCB / "make.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_committed_pcb_is_what_its_generator_makes():
    """make hardware's PCB: generated again (placed, routed, poured, checked by KiCad's DRC
    and plotted), it gives the committed KiCad project, fab files, schematic and pictures
    byte for byte. Needs KiCad 6 (`make test` installs it): without it this fails."""
    proc = subprocess.run([sys.executable, str(PCB / "make.py"), "--check", "--quiet"],
                          capture_output=True, text=True, cwd=ROOT)
    if proc.returncode == 3:
        pytest.fail(proc.stderr)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "up to date" in proc.stdout
    assert "KiCad's DRC: 0 violations, 0 unconnected pads" in proc.stdout


def test_pcb_check_finds_a_changed_a_missing_and_a_stale_file(tmp_path):
    pcb_make = _load_pcb_make()
    files = {"iago-board.kicad_pcb": b"board", "fab/iago-board-F_Cu.gtl": b"copper",
             "drc.txt": b"report"}
    (tmp_path / "fab").mkdir()
    (tmp_path / "iago-board.kicad_pcb").write_bytes(b"board edited by hand")
    (tmp_path / "fab" / "iago-board-F_Cu.gtl").write_bytes(b"copper")
    (tmp_path / "fab" / "old-board-F_Cu.gtl").write_bytes(b"left from an older name")
    behind, extra = pcb_make.stale(files, tmp_path)
    assert behind == ["drc.txt", "iago-board.kicad_pcb"]
    assert extra == ["fab/old-board-F_Cu.gtl"]


def test_the_pcb_files_name_no_path_of_this_machine_and_no_date():
    for path in sorted(PCB.rglob("*")):
        if path.suffix in (".py", ".toml") or not path.is_file() or "__pycache__" in path.parts:
            continue
        data = path.read_bytes()
        assert str(ROOT).encode() not in data, path
        assert b"/tmp/" not in data and b"/home/" not in data, path
        if path.suffix != ".zip":
            assert not re.search(rb"20\d\d-\d\d-\d\d", data), path
