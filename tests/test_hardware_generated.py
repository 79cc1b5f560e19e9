"""hardware/generate: every committed file under hardware/generated/ is what the inputs give
(`python -m hardware.generate --check`, part by part), the check names each file that differs,
is missing or is left over, every generated file says it is generated where its format has
room, and the board maps' documents are right and refuse bad input with a reason."""

import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

import iago
from gameboard import boardmap
from hardware.generate import NOTE
from hardware.generate import __main__ as generate
from hardware.generate.maps import __main__ as make

ROOT = Path(__file__).resolve().parent.parent
HARDWARE = ROOT / "hardware"
GENERATED = HARDWARE / "generated"
NAMES = [iago.cell_name(c) for c in range(iago.CELLS)]
KICAD_MISSING = "apt-get install kicad kicad-footprints"


@pytest.mark.parametrize("part", sorted(generate.PARTS))
def test_the_committed_files_are_what_the_inputs_give(part):
    """`make hardware-check`, one part at a time (the PCB's is placed, routed, poured, checked
    by KiCad's DRC and plotted again: it needs KiCad 6, which `make test` installs; without
    it this fails naming the package)."""
    proc = subprocess.run([sys.executable, "-m", "hardware.generate", "--check", "--part", part],
                          capture_output=True, text=True, cwd=ROOT)
    if KICAD_MISSING in proc.stderr:
        pytest.fail("KiCad 6 is not installed: run `sudo %s` (make test does)" % KICAD_MISSING)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "up to date in hardware/generated" in proc.stdout


def _png(colour, level=6, **text):
    from PIL import PngImagePlugin
    out = io.BytesIO()
    info = PngImagePlugin.PngInfo()
    for key, value in text.items():
        info.add_text(key, value)
    Image.new("RGB", (16, 16), colour).save(out, format="PNG", pnginfo=info,
                                            compress_level=level)
    return out.getvalue()


def test_the_differences_name_each_changed_missing_and_left_over_file(tmp_path):
    fresh, committed = tmp_path / "fresh", tmp_path / "committed"
    files = {"board-wiring.md": (b"tables", b"edited by hand"),
             "template-42mm.pdf": (b"%PDF", None),
             "pcb/fab/iago-board-F_Cu.gtl": (b"copper", b"copper"),
             "pcb/iago-board.kicad_pcb": (b"board", b"board moved"),
             "score-full-board.png": (_png("red", 9), _png("red", 0)),
             "pcb/fab/old-board-F_Cu.gtl": (None, b"left from an older name"),
             "square5-diagram.svg": (None, b"from a map that is gone"),
             "notes.txt": (None, b"made by no part")}
    for name, (new, old) in files.items():
        for folder, data in ((fresh, new), (committed, old)):
            if data is not None:
                (folder / name).parent.mkdir(parents=True, exist_ok=True)
                (folder / name).write_bytes(data)
    changed, missing, left = generate.differences(fresh, committed, ["maps", "pcb", "seen"])
    assert changed == ["board-wiring.md", "pcb/iago-board.kicad_pcb"]   # the PNG's pixels agree
    assert missing == ["template-42mm.pdf"]
    assert left == ["notes.txt", "pcb/fab/old-board-F_Cu.gtl", "square5-diagram.svg"]
    # A part left out is not blamed for its files; a file no part makes always is.
    assert generate.differences(fresh, committed, ["seen"])[2] == ["notes.txt"]
    assert (committed / "score-full-board.png").read_bytes() != \
        (fresh / "score-full-board.png").read_bytes()
    for other in (_png("blue", 9), _png("red", 9, Comment="another note")):
        (committed / "score-full-board.png").write_bytes(other)
        assert "score-full-board.png" in generate.differences(fresh, committed, ["seen"])[0]


def test_make_hardware_writes_removes_and_then_checks_clean(tmp_path, capsys):
    out = tmp_path / "generated"
    assert generate.main(["--part", "maps", "--part", "readme", "--out", str(out)]) == 0
    assert generate.main(["--check", "--part", "maps", "--out", str(out)]) == 0
    (out / "board-wiring.md").write_text("edited by hand\n")
    (out / "template-42mm.pdf").unlink()
    (out / "square5-wiring.md").write_text("from a map that is gone\n")
    capsys.readouterr()
    assert generate.main(["--check", "--part", "maps", "--out", str(out)]) == 1
    err = capsys.readouterr().err
    for line in ("board-wiring.md differs", "template-42mm.pdf is missing",
                 "square5-wiring.md is made by nothing", "run make hardware"):
        assert line in err, err
    assert generate.main(["--part", "maps", "--out", str(out)]) == 0
    assert not (out / "square5-wiring.md").exists()
    assert generate.main(["--check", "--part", "maps", "--part", "readme",
                          "--out", str(out)]) == 0


def test_a_part_that_cannot_be_made_fails_the_run(tmp_path, monkeypatch, capsys):
    from hardware.generate import card
    from hardware.generate.seen import __main__ as seen
    monkeypatch.setattr(seen, "BOARD_MD", tmp_path / "board.md")
    (tmp_path / "board.md").write_text("# no cue table here\n")
    assert generate.main(["--part", "seen", "--out", str(tmp_path / "out")]) == 2
    assert "cue table" in capsys.readouterr().err
    monkeypatch.setattr(card, "DATA", tmp_path / "card.toml")
    (tmp_path / "card.toml").write_text('title = "a card with nothing else"\n')
    assert generate.main(["--check", "--part", "card", "--out", str(tmp_path / "out")]) == 2
    assert "card.toml has no 'subtitle'" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def test_every_generated_file_says_it_is_generated_where_its_format_has_room():
    readme = (GENERATED / "README.md").read_text()
    assert "do not edit" in readme and "python -m hardware.generate" in readme
    for path in sorted(GENERATED.rglob("*")):
        if not path.is_file():
            continue
        data = path.read_bytes()
        name = path.relative_to(GENERATED).as_posix()
        if path.suffix == ".svg":
            assert ("<!-- %s -->" % NOTE).encode() in data[:300], name
        elif path.suffix == ".stl":
            assert data.startswith(NOTE.encode()) and not data.startswith(b"solid"), name
        elif path.suffix == ".pdf":
            assert b"/Creator (python -m hardware.generate" in data, name
        elif path.suffix == ".png":
            with Image.open(path) as picture:
                assert picture.info.get("Comment", "").startswith("Generated by"), name
        elif path.suffix in (".md", ".txt"):
            assert "make hardware" in data.decode()[:400], name


def test_no_generated_file_names_a_path_of_this_machine_or_a_date():
    for path in sorted(GENERATED.rglob("*")):
        if not path.is_file():
            continue
        data = path.read_bytes()
        assert str(ROOT).encode() not in data, path
        assert b"/tmp/" not in data and b"/home/" not in data, path
        if path.suffix not in (".zip", ".png", ".stl", ".pdf"):   # binary: dates are not text
            # 2000-01-01: ezdxf's fixed date in a DXF, the same on every run
            dates = set(re.findall(rb"20\d\d-\d\d-\d\d", data)) - {b"2000-01-01"}
            assert not dates, (path, dates)


def test_output_is_deterministic_and_names_no_path_of_this_machine():
    first = make.outputs(make.default_maps(), 40.0, 30.0)
    second = make.outputs(make.default_maps(), 40.0, 30.0)
    assert first == second
    for name, data in first.items():
        assert str(ROOT).encode() not in data, name
        assert b"/tmp/" not in data and b"/home/" not in data, name


def test_the_command_line_runs_from_anywhere(tmp_path):
    out = tmp_path / "out"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.run([sys.executable, "-m", "hardware.generate.maps", "--out", str(out),
                           "--hex-mm", "44", "--map", str(HARDWARE / "board.json")],
                          capture_output=True, text=True, cwd=tmp_path, env=env)
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


# --- the docs find what they name ------------------------------------------------------------

DOCS = [ROOT / "README.md", HARDWARE / "README.md", HARDWARE / "board-map.md",
        GENERATED / "README.md"] + sorted((ROOT / "docs").glob("*.md"))


def test_every_file_the_docs_link_to_is_there():
    """A generated file that moves takes every link to it along (README.md, docs/*.md,
    hardware/README.md)."""
    missing = []
    for doc in DOCS:
        for target in re.findall(r"\]\(([^)\s]+)\)", doc.read_text()):
            path = target.split("#")[0]
            if not path or re.match(r"[a-z]+:", path):
                continue
            if not (doc.parent / path).exists():
                missing.append("%s -> %s" % (doc.relative_to(ROOT), target))
    assert not missing, missing


def test_every_hardware_command_the_docs_give_exists():
    """`python -m hardware.generate...` and its subcommands, as the docs spell them."""
    commands = set()
    for doc in DOCS:
        text = re.sub(r"\s*\n\s*", " ", doc.read_text())      # commands wrap across lines
        commands |= set(re.findall(r"python -m (hardware\.generate[\w.]*)((?: [a-z]+)?)", text))
    assert ("hardware.generate", "") in commands and len(commands) >= 5, commands
    for module, sub in sorted(commands):
        proc = subprocess.run([sys.executable, "-m", module] + sub.split() + ["--help"],
                              capture_output=True, text=True, cwd=ROOT)
        assert proc.returncode == 0, (module + sub, proc.stderr)
