"""What the fab's placement preview should show, one package at a time: each footprint family
the fab places, drawn as it sits on this board (its first part, at its rotation), seen from
the top with row I up: its pads, its body, and where the fab's part must have its pin 1 (or
+ lead, or cathode) once turned by the placement file's rotation (jlc.py). The build guide
shows this picture (hardware/README.md, "Ordering"). Needs KiCad 6's pcbnew.
"""

import math


from . import jlc
from .frame import mm

CELL = (240.0, 170.0)    # px a package's cell
FIT = 80.0               # px the largest package's longer side
COLUMNS = 4


def draw(board, components, drawing_class):
    """The picture (SVG text) of every family of the parts the fab places."""
    footprints = {fp.GetReference(): fp for fp in board.GetFootprints()}
    first = {}
    for comp in components:
        if comp.part.placed_by_fab:
            first.setdefault(jlc.family(comp.part.name).pattern, comp)
    shown = sorted(first.values(), key=lambda c: c.part.name)
    rows = (len(shown) + COLUMNS - 1) // COLUMNS
    d = drawing_class(COLUMNS * CELL[0], rows * CELL[1] + 40)
    d.text(10, 22, "The fab's placement preview, package by package: each part's pin 1 (or +, "
           "or cathode) must sit on the red mark", 13, bold=True)
    for k, comp in enumerate(shown):
        x0 = (k % COLUMNS) * CELL[0]
        y0 = 40 + (k // COLUMNS) * CELL[1]
        _package(d, footprints[comp.ref], comp, x0 + CELL[0] * 0.5, y0 + 55.0, x0 + 8.0)
    return d.svg(title="The fab's placement preview, per package")


def _package(d, fp, comp, cx, cy, left):
    fam = jlc.family(comp.part.name)
    pads = list(fp.Pads())
    xs = [mm(p.GetPosition().x) for p in pads]
    ys = [mm(p.GetPosition().y) for p in pads]
    mid = ((min(xs) + max(xs)) / 2.0, (min(ys) + max(ys)) / 2.0)
    box = fp.GetBoundingBox(False, False)
    scale = min(9.0, FIT / max(mm(box.GetWidth()), mm(box.GetHeight())))

    def px(x, y):
        return cx + (x - mid[0]) * scale, cy + (y - mid[1]) * scale

    body = [px(mm(box.GetX()), mm(box.GetY())), px(mm(box.GetRight()), mm(box.GetY())),
            px(mm(box.GetRight()), mm(box.GetBottom())), px(mm(box.GetX()), mm(box.GetBottom()))]
    d.polygon(body, stroke="#777777", fill="#f2f2f2", width=1.0)
    for pad in pads:
        p = pad.GetPosition()
        w, h = mm(pad.GetSize().x) / 2.0, mm(pad.GetSize().y) / 2.0
        a = math.radians(pad.GetOrientationDegrees())
        corners = [(mm(p.x) + u * math.cos(a) + v * math.sin(a),
                    mm(p.y) - u * math.sin(a) + v * math.cos(a))
                   for u, v in ((-w, -h), (w, -h), (w, h), (-w, h))]
        d.polygon([px(*c) for c in corners], stroke="#8a6d1d", fill="#d4af37", width=0.8)
    rotation = jlc.placement(comp.part.name, 0.0, 0.0, fp.GetOrientationDegrees())[2]
    angle = math.radians(jlc.degrees(fam.pin1) + rotation)
    reach = 0.5 * max(max(xs) - min(xs), max(ys) - min(ys), 2.0)
    mark = px(mid[0] + reach * math.cos(angle), mid[1] - reach * math.sin(angle))
    d.circle(mark[0], mark[1], 6.0, stroke="#c0392b", fill="#e74c3c", width=1.0)
    top = cy + FIT / 2.0 + 16.0
    d.text(left, top, "%s  %s" % (comp.ref, comp.part.value[:28]), 11, bold=True)
    d.text(left, top + 14, "%s: KiCad %g, fab %g deg" % (
        fam.pattern.strip("^$-_"), fp.GetOrientationDegrees() % 360, rotation), 10)
    words, line, y = fam.mark.split(), "", top + 27
    for word in words:                 # the mark's words, wrapped to the cell
        if len(line) + len(word) > 38:
            d.text(left, y, line, 10, fill="#555555")
            line, y = "", y + 12
        line = (line + " " + word).strip()
    d.text(left, y, line, 10, fill="#555555")
