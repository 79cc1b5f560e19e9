"""The stack's cut files and printed parts, read back as a laser cutter and a slicer would:
every cut outline closes, the windows and pockets sit over the LEDs, holes keep clear of the
light, every STL is a closed solid."""

import io
import math
import sys
from pathlib import Path

import ezdxf
import numpy as np
import pytest
import trimesh

from hardware.generate.stack import parts, plates
from hardware.generate.stack.design import Design, DesignError, hex_centre

ROOT = Path(__file__).resolve().parent.parent
GENERATED = ROOT / "hardware" / "generated"


DXFS = sorted(GENERATED.glob("stack-*.dxf"))


@pytest.fixture(scope="module")
def design():
    return Design.load()


def cut_shapes(path):
    """(closed polylines as point lists, open ones, circles as (x, y, r)) on the CUT layer."""
    doc = ezdxf.readfile(str(path))
    closed, opened, circles = [], [], []
    for entity in doc.modelspace():
        if entity.dxf.layer != plates.CUT:
            continue
        if entity.dxftype() == "LWPOLYLINE":
            points = [(x, y) for x, y, *_ in entity.get_points()]
            ends_meet = math.dist(points[0], points[-1]) < 1e-6
            (closed if entity.closed or ends_meet else opened).append(points)
        elif entity.dxftype() == "CIRCLE":
            circles.append((entity.dxf.center.x, entity.dxf.center.y, entity.dxf.radius))
        else:
            opened.append(entity.dxftype())
    return closed, opened, circles


def test_there_is_a_dxf_for_every_plate():
    assert [p.name for p in DXFS] == ["stack-%s.dxf" % n for n in sorted(
        ["base", "carrier", "light-box-grid", "pocket-plate", "spacers", "top-plate"])]


@pytest.mark.parametrize("path", DXFS, ids=[p.stem for p in DXFS])
def test_every_cut_outline_closes(path):
    closed, opened, circles = cut_shapes(path)
    assert not opened, "open cut lines in %s: %s" % (path.name, opened[:3])
    assert closed or circles
    assert all(len(points) >= 3 for points in closed)
    assert ezdxf.readfile(str(path)).units == 4          # millimetres


def test_an_open_outline_is_found(tmp_path):
    doc = ezdxf.new("R2010")
    doc.layers.add(plates.CUT)
    doc.modelspace().add_lwpolyline([(0, 0), (10, 0), (10, 10)], dxfattribs={"layer": "CUT"})
    doc.saveas(tmp_path / "open.dxf")
    assert cut_shapes(tmp_path / "open.dxf")[1]


def _centroid(points):
    return sum(x for x, _ in points) / len(points), sum(y for _, y in points) / len(points)


def test_windows_and_pockets_sit_over_the_leds(design):
    leds = [(cx + design.led.x, cy + design.led.y)
            for cx, cy in (hex_centre(c, design.board.pitch) for c in range(61))]
    closed, _, _ = cut_shapes(GENERATED / "stack-light-box-grid.dxf")
    windows = [_centroid(p) for p in closed if len(p) == 6]
    assert len(windows) == 61
    for led in leds:
        assert min(math.dist(led, w) for w in windows) < 0.1, led
    _, _, circles = cut_shapes(GENERATED / "stack-pocket-plate.dxf")
    pockets = [(x, y) for x, y, r in circles if r == pytest.approx(
        design.stack.pocket_diameter / 2)]
    assert len(pockets) == 61
    for led in leds:
        assert min(math.dist(led, p) for p in pockets) < 0.1, led


def test_every_plate_has_the_mounting_holes(design):
    layout = plates.pcb_layout(design)
    for path in DXFS:
        if path.stem == "stack-spacers":
            continue
        _, _, circles = cut_shapes(path)
        for x, y in layout["mounting_holes"]:
            assert any(math.dist((x, y), (cx, cy)) < 0.01 for cx, cy, _ in circles), path.name


def test_a_hole_or_a_tall_part_in_a_window_is_refused(design):
    bad = design.changed(pcb=dict(design.pcb, mounting_holes=[[0.0, 0.0]]))
    with pytest.raises(ValueError, match="mounting hole at \\(0, 0\\).*hex E5"):
        plates.plates(bad)
    pico = dict(design.pcb["pico"], x=-100.0, y=-104.0)
    with pytest.raises(ValueError, match="pico at \\(-100, -104\\)"):
        plates.plates(design.changed(pcb=dict(design.pcb, pico=pico)))


def test_the_plates_take_the_pcb_section_and_refuse_one_that_cannot_hold_the_hexes(design):
    layout = plates.pcb_layout(design.changed(pcb=dict(
        design.pcb, width=400.0, mounting_holes=[[-193.0, 0.0]])))
    assert layout["width"] == 400.0 and layout["mounting_holes"] == [[-193.0, 0.0]]
    # An outline made for 36 mm hexes cannot hold them at 42 mm.
    with pytest.raises(DesignError, match="340 x 300 mm outline cannot hold the hexes at a 42 mm"):
        plates.pcb_layout(design.changed(pcb=dict(design.pcb, width=340.0, height=300.0)))
    lacking = design.changed()
    del lacking.pcb["pico"]
    with pytest.raises(DesignError, match=r"\[pcb\] lacks pico"):
        plates.pcb_layout(lacking)


def test_the_plates_over_the_pcb_clear_its_tall_parts(design):
    layout = plates.pcb_layout(design)
    for name in ("stack-pocket-plate", "stack-top-plate", "stack-light-box-grid"):
        closed, _, _ = cut_shapes(GENERATED / (name + ".dxf"))
        for key in ("pico", "select_button", "power_input", "bulk_capacitor"):
            x, y = layout[key]["x"], layout[key]["y"]
            inside = [p for p in closed if len(p) != 6 and _inside((x, y), p)]
            # The part's centre lies in the outline's notch or in a hole: inside the outline
            # polygon an even number of times (0 or 2).
            assert len(inside) % 2 == 0, (name, key)


def _inside(point, polygon):
    x, y = point
    hit = False
    for (x1, y1), (x2, y2) in zip(polygon, polygon[1:] + polygon[:1]):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            hit = not hit
    return hit


def test_the_disk_half_is_a_closed_solid_with_its_pocket(design):
    mesh = trimesh.load(io.BytesIO((GENERATED / "stack-disk-half.stl").read_bytes()),
                        file_type="stl")
    assert mesh.is_watertight and mesh.is_volume
    disk = design.disk
    r, t = disk.diameter / 2, disk.thickness / 2
    pocket_r = disk.magnet_diameter / 2 + design.tolerances.magnet_slack
    pocket_depth = disk.magnet_thickness / 2 + design.tolerances.magnet_slack
    expected = math.pi * (r * r * t - pocket_r * pocket_r * pocket_depth)
    assert mesh.volume == pytest.approx(expected, rel=0.01)     # facets: a polygon, not a circle
    assert mesh.bounds[1][2] == pytest.approx(t)


def test_a_pocket_deeper_than_the_half_is_refused(design):
    with pytest.raises(ValueError, match="leaves no face"):
        parts.disk_half(design.changed(disk={"thickness": 1.0, "magnet_depth": 0.0}))


def _bodies(path):
    mesh = trimesh.load(io.BytesIO(path.read_bytes()), file_type="stl")
    # trimesh's split needs networkx; faces sharing vertices, grouped by hand, do the same.
    mesh.merge_vertices()
    groups = trimesh.graph.connected_component_labels(mesh.face_adjacency, len(mesh.faces))
    return [mesh.submesh([np.flatnonzero(groups == g)], append=True) for g in set(groups)]


def _down(mesh, x, y, top=100.0):
    """The highest surface of `mesh` under (x, y) below `top`: where a pin dropped there
    would rest (each face's plane at (x, y), for the faces whose outline holds it)."""
    a, b, c = (mesh.vertices[mesh.faces[:, k]] for k in range(3))
    d = (b[:, 1] - c[:, 1]) * (a[:, 0] - c[:, 0]) + (c[:, 0] - b[:, 0]) * (a[:, 1] - c[:, 1])
    flat = np.abs(d) > 1e-12
    d = np.where(flat, d, 1.0)
    u = ((b[:, 1] - c[:, 1]) * (x - c[:, 0]) + (c[:, 0] - b[:, 0]) * (y - c[:, 1])) / d
    v = ((c[:, 1] - a[:, 1]) * (x - c[:, 0]) + (a[:, 0] - c[:, 0]) * (y - c[:, 1])) / d
    inside = flat & (u >= -1e-9) & (v >= -1e-9) & (u + v <= 1 + 1e-9)
    z = u * a[:, 2] + v * b[:, 2] + (1 - u - v) * c[:, 2]
    z = z[inside & (z <= top)]
    return float(z.max()) if len(z) else None


@pytest.fixture(scope="module")
def printed_jig(design):
    from hardware.generate.stack import jig

    made = jig.Jig(design)
    base, cup = sorted(_bodies(GENERATED / "stack-jig.stl"), key=lambda m: m.bounds[0][0])
    return made, base, cup


def test_the_jig_prints_as_two_closed_solids_flat_on_the_bed(printed_jig):
    made, base, cup = printed_jig
    for part in (base, cup):
        assert part.is_watertight and part.is_volume and part.volume > 0
        assert part.bounds[0][2] == pytest.approx(0.0, abs=1e-6)
    assert cup.bounds[0][0] > base.bounds[1][0]                 # side by side, not touching


def test_the_jig_sets_the_disk_at_its_two_heights(printed_jig, design):
    from hardware.generate.stack import jig

    made, base, cup = printed_jig
    floor = 1.2                                  # under the switch's groove
    bore = made.bore_radius()
    lug_ring = (bore + made.bore_radius() + jig.BASE_WALL) / 2
    # Down a lug's slot a pin rests at the near height's lug seat; beside the slot, on the
    # notch's floor, at the far one's.
    assert _down(base, lug_ring, 0.0) - floor == pytest.approx(made.rest(made.near), abs=0.01)
    turn = math.radians(jig.NOTCH_DEG) - 0.05
    in_notch = _down(base, lug_ring * math.cos(turn), lug_ring * math.sin(turn),
                     top=made.rest(made.far) + floor + 2 * jig.LUG_R)
    assert in_notch - floor == pytest.approx(made.rest(made.far), abs=0.01)
    # The switch's groove: its floor 1.2 mm up (z = 0 of the heights), open to both sides.
    reed_mid = design.reed.y
    assert _down(base, 0.0, reed_mid, top=made.bore_floor() + floor - 0.1) == pytest.approx(
        floor, abs=0.01)
    assert _down(base, 0.0, -made.bore_radius() - 1.0,
                 top=made.bore_floor() + floor - 0.1) == pytest.approx(floor, abs=0.01)
    # The cup: the disk rests on its floor; three lugs at the lug height.
    assert _down(cup, cup.bounds[0][0] + made.cup_radius(), 0.0) == pytest.approx(
        jig.CUP_FLOOR, abs=0.01)
    assert cup.bounds[1][2] == pytest.approx(made.cup_height(), abs=0.01)


def test_the_files_do_not_depend_on_pythons_string_hashing(tmp_path):
    import os
    import subprocess

    runs = []
    for seed in ("1", "2"):
        out = tmp_path / seed
        env = dict(os.environ, PYTHONHASHSEED=seed)
        subprocess.run([sys.executable, "-m", "hardware.generate.stack", "write", "--out",
                        str(out)], cwd=ROOT, env=env, check=True, capture_output=True)
        runs.append({p.name: p.read_bytes() for p in out.iterdir()})
    assert runs[0] == runs[1]
