"""Pictures of the stack for hardware/README.md, drawn from the same parameters (SVG text,
the same bytes every run): a section through one hex along its reed switch, with every height
dimensioned; one hex seen from above with its lit ring; and the switch's reading as a disk
slides from its hex onto a neighbour, under both reed models."""

import math

import numpy as np

from hardware.generate import SVG_HEAD

from . import field, light, sensing
from .design import SQRT3, hex_corners
from .plates import _n

FONT = 'font-family="Helvetica, Arial, sans-serif"'
DIMENSION = "#555555"


class Svg:
    """Shapes in mm, y downward, written at `scale` px per mm."""

    def __init__(self, width, height, scale, title):
        self.scale = scale
        self.items = [SVG_HEAD,
                      '<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" '
                      'viewBox="0 0 %s %s" %s>' % (_n(width * scale), _n(height * scale),
                                                    _n(width), _n(height), FONT),
                      "<title>%s</title>" % title,
                      '<rect x="0" y="0" width="%s" height="%s" fill="#ffffff"/>'
                      % (_n(width), _n(height))]

    def rect(self, x, y, w, h, fill, stroke="#333333", width=0.15, dash=None):
        extra = ' stroke-dasharray="%s"' % dash if dash else ""
        self.items.append('<rect x="%s" y="%s" width="%s" height="%s" fill="%s" stroke="%s" '
                          'stroke-width="%s"%s/>' % (_n(x), _n(y), _n(w), _n(h), fill, stroke,
                                                     _n(width), extra))

    def poly(self, points, fill="none", stroke="#333333", width=0.15, dash=None, closed=True):
        tag = "polygon" if closed else "polyline"
        extra = ' stroke-dasharray="%s"' % dash if dash else ""
        self.items.append('<%s points="%s" fill="%s" stroke="%s" stroke-width="%s"%s/>'
                          % (tag, " ".join("%s,%s" % (_n(x), _n(y)) for x, y in points), fill,
                             stroke, _n(width), extra))

    def line(self, x1, y1, x2, y2, stroke="#333333", width=0.15, dash=None):
        self.poly([(x1, y1), (x2, y2)], stroke=stroke, width=width, dash=dash, closed=False)

    def circle(self, x, y, r, fill="none", stroke="#333333", width=0.15, dash=None):
        extra = ' stroke-dasharray="%s"' % dash if dash else ""
        self.items.append('<circle cx="%s" cy="%s" r="%s" fill="%s" stroke="%s" '
                          'stroke-width="%s"%s/>' % (_n(x), _n(y), _n(r), fill, stroke,
                                                     _n(width), extra))

    def text(self, x, y, text, size, anchor="start", fill="#000000"):
        anchor = "" if anchor == "start" else ' text-anchor="%s"' % anchor
        self.items.append('<text x="%s" y="%s" font-size="%s"%s fill="%s">%s</text>'
                          % (_n(x), _n(y), _n(size), anchor, fill,
                             text.replace("&", "&amp;").replace("<", "&lt;")))

    def vertical_dimension(self, x, y_top, y_bottom, label, size):
        """A dimension line at `x` between two heights (drawing y), arrows at both ends and
        `label` to its left."""
        self.line(x, y_top, x, y_bottom, DIMENSION, 0.3)
        tip = min(1.6, abs(y_bottom - y_top) / 2)
        for y, d in ((y_top, 1), (y_bottom, -1)):
            self.poly([(x, y), (x - 0.8, y + d * tip), (x + 0.8, y + d * tip)],
                      fill=DIMENSION, stroke="none")
        if label:
            self.text(x - 1.5, (y_top + y_bottom) / 2 + size * 0.35, label, size, "end",
                      DIMENSION)

    def done(self):
        return ("\n".join(self.items + ["</svg>"]) + "\n").encode()


# --- the section -------------------------------------------------------------------------

M = 3.0                      # the section's drawing units per mm: thin sheets stay legible


def section(design):
    """A section through a hex along its reed switch (board y), layers to scale, the heights
    that set the sensing and the light dimensioned on the left, every layer named on the
    right."""
    st = design.stack
    half = design.board.pitch / SQRT3 + 2             # a hex's corner and a little
    left = 80.0 + M * half
    label = left + M * half + 16
    width = label + 190
    y0 = 24 + M * (st.light_box + st.top_plate + st.pocket_plate + 2)   # the PCB's top
    height = y0 + M * (st.pcb + st.under_pcb + st.base) + 14
    svg = Svg(width, height, 4, "The stack: a section through one hex along its reed switch")

    def x(v):
        return left + M * v

    def y(z):
        return y0 - M * z

    notes = _section_layers(svg, design, x, y)
    notes.append(_section_disk(svg, design, x, y))
    notes += _section_parts(svg, design, x, y)
    _section_notes(svg, notes, x, y, label, 22, height - 10)
    _section_dimensions(svg, design, x, y)
    svg.text(4, 10, "A hex in section along its reed switch (row I to the right), to scale; "
             "heights in mm above the PCB's top", 7)
    return svg.done()


def _section_layers(svg, design, x, y):
    """The base, PCB, spacers, light box, top plate and pocket plate; their notes as (height
    of the point to mark, where along the section, text)."""
    st = design.stack
    corner = design.board.pitch / SQRT3
    window = design.window_across_flats() / SQRT3
    pocket = st.pocket_diameter / 2
    z_top = st.light_box + st.top_plate
    layers = [("base, %s mm" % _n(st.base), -st.pcb - st.under_pcb - st.base, st.base,
               "#d9c7a7"),
              ("PCB, %s mm" % _n(st.pcb), -st.pcb, st.pcb, "#3d7a4a"),
              ("top plate (opal acrylic), %s mm" % _n(st.top_plate), st.light_box,
               st.top_plate, "#f4f4f4")]
    notes = []
    for name, z, h, fill in layers:
        svg.rect(x(-corner), y(z + h), M * 2 * corner, M * h, fill)
        # The PCB's leader from its left end, below the parts' leaders.
        notes.append((z + h / 2, corner - 1 if z != -st.pcb else 3 - corner, name))
    for side in (-1, 1):                             # the grid's walls at the corners
        inner, outer = side * window, side * (corner + 1)
        svg.rect(min(x(inner), x(outer)), y(st.light_box), M * abs(outer - inner),
                 M * st.light_box, "#555555")
        svg.rect(x(side * (corner - 3)) - M, y(-st.pcb), 2 * M, M * st.under_pcb, "#b0b0b0")
        svg.rect(min(x(outer), x(side * pocket)), y(z_top + st.pocket_plate),
                 M * abs(outer - side * pocket), M * st.pocket_plate, "#fbf7ea")
    notes.append((st.light_box / 2, corner + 0.5, "light-box grid, %s mm: walls %s mm"
                  % (_n(st.light_box), _n(st.light_wall))))
    notes.append((-st.pcb - st.under_pcb / 2, corner - 2, "spacers, %s mm" % _n(st.under_pcb)))
    notes.append((z_top + st.pocket_plate / 2, corner - 1,
                  "pocket plate (opal acrylic), %s mm: pockets %s mm"
                  % (_n(st.pocket_plate), _n(st.pocket_diameter))))
    return notes


def _section_disk(svg, design, x, y):
    """The disk in its pocket and its magnet; its note."""
    st, disk = design.stack, design.disk
    z_rest = st.light_box + st.top_plate
    r = disk.diameter / 2
    svg.rect(x(-r), y(z_rest + disk.thickness), M * 2 * r, M * disk.thickness, "#303030")
    m = disk.magnet_diameter / 2
    svg.rect(x(-m), y(design.magnet_height() + disk.magnet_thickness / 2), M * 2 * m,
             M * disk.magnet_thickness, "#c0392b")
    return (z_rest + disk.thickness - 0.5, r - 1, "disk %s x %s mm, magnet %s x %s mm %s"
            % (_n(disk.diameter), _n(disk.thickness), _n(disk.magnet_diameter),
               _n(disk.magnet_thickness), disk.magnet_grade))


def _section_parts(svg, design, x, y):
    """The reed switch in the section and the LED beside it (dashed: behind the section
    plane); their notes."""
    reed, led = design.reed, design.led
    (_, y1), (_, y2) = design.part_points(reed, [(-reed.length / 2, 0), (reed.length / 2, 0)])
    lo, hi = min(y1, y2), max(y1, y2)
    body = 12.8
    mid = (lo + hi) / 2
    svg.rect(x(mid - body / 2), y(2.5), M * body, M * 2.5, "#9ecae1")
    for end in (lo, hi):
        svg.rect(x(end - 0.4), y(0.4), M * 0.8, M * 0.4, "#b08d57")
    svg.rect(x(led.y - 2.5), y(led.height), M * 5, M * led.height, "none", "#777777", 0.4,
             "1.5,1")
    return [(1.25, mid + 3, "reed switch, its inner end %s mm %s the hex centre"
             % (_n(abs(lo)), "past" if lo < 0 else "short of")),
            (led.height / 2, led.y - 2, "LED (dashed: %s mm beside the section)"
             % _n(abs(led.x)))]


def _section_notes(svg, notes, x, y, label, top, bottom):
    """Each layer's name at the right, a leader line to the point it names."""
    notes.sort(key=lambda n: -n[0])
    step = (bottom - top) / max(len(notes) - 1, 1)
    for i, (z, along, text) in enumerate(notes):
        ty = top + i * step
        svg.circle(x(along), y(z), 0.8, fill="#999999", stroke="none")
        svg.line(x(along), y(z), label - 2, ty - 2, "#999999", 0.3)
        svg.text(label, ty, text, 6)


def _section_dimensions(svg, design, x, y):
    """The heights that set the sensing and the light, as dimension lines on the left: the
    layers over the PCB in one column, the magnet's and the switch's heights in another."""
    st, disk = design.stack, design.disk
    corner = design.board.pitch / SQRT3
    z_rest = st.light_box + st.top_plate
    z_plate = z_rest + st.pocket_plate
    z_disk = z_rest + disk.thickness
    magnet, axis = design.magnet_height(), design.reed.axis_height
    near, far = x(-corner) - 6, x(-corner) - 40
    for zz in (0.0, st.light_box, z_rest, z_plate, z_disk, magnet, axis):
        reach = x(-disk.magnet_diameter / 2) if zz == magnet else x(-corner)
        svg.line(far - 4, y(zz), reach, y(zz), "#bbbbbb", 0.25, "1.2,0.9")
    for lo, hi, text in ((0.0, st.light_box, "light box %s" % _n(st.light_box)),
                         (st.light_box, z_rest, "top plate %s" % _n(st.top_plate)),
                         (z_rest, z_plate, "pocket plate %s" % _n(st.pocket_plate)),
                         (z_plate, z_disk, "disk proud %s" % _n(z_disk - z_plate))):
        svg.vertical_dimension(near, y(hi), y(lo), text, 4.2)
    svg.vertical_dimension(far, y(magnet), y(0), "magnet", 4.2)
    svg.text(far - 2, y(magnet / 2) + 5.5, _n(magnet), 4.2, "end", DIMENSION)
    svg.vertical_dimension(far - 22, y(axis), y(0), "", 4.2)
    svg.text(far - 23.5, y(axis) - 2, "switch", 4.2, "end", DIMENSION)
    svg.text(far - 23.5, y(axis) + 3, "axis %s" % _n(axis), 4.2, "end", DIMENSION)
    # A player's sight line at 45 degrees over the disk's far edge onto the pocket plate.
    r = disk.diameter / 2
    proud = z_disk - z_plate
    svg.line(x(r - 4), y(z_disk + 4), x(r + proud), y(z_plate), "#e67e22", 0.5, "2,1.2")
    svg.text(x(r - 4) - 1, y(z_disk + 4) - 1, "a player's view, 45 deg", 4.2, "end",
             "#e67e22")


# --- one hex from above --------------------------------------------------------------------

def hex_view(design):
    """One hex from above: window (the lit surface, yellow), pocket, disk, LED, reed switch,
    and the lit ring's widths (red dimension lines)."""
    lit = light.check(design)
    pitch = design.board.pitch
    size = pitch + 8
    svg = Svg(size + 80, size + 22, 8, "One hex from above: the lit ring round a resting disk")
    cx, cy = size / 2 + 2, size / 2 + 8

    def pt(x, y):
        return cx + x, cy - y

    svg.text(2, 5, "One hex from above, to scale (row I up)", 3.2)
    svg.poly([pt(x, y) for x, y in hex_corners(0, 0, pitch)], fill="#555555")
    svg.poly([pt(x, y) for x, y in hex_corners(0, 0, design.window_across_flats())],
             fill="#fff3c4", stroke="none")
    svg.circle(*pt(0, 0), design.stack.pocket_diameter / 2, stroke="#4a78a8", dash="1,0.6")
    svg.circle(*pt(0, 0), design.disk.diameter / 2, fill="#303030", stroke="none")
    led, reed = design.led, design.reed
    svg.poly([pt(*p) for p in design.part_points(led, [(-2.5, -2.5), (2.5, -2.5), (2.5, 2.5),
                                                      (-2.5, 2.5)])],
             stroke="#ffffff", width=0.3, dash="0.8,0.4")
    body = [(-reed.length / 2, -1.2), (reed.length / 2, -1.2), (reed.length / 2, 1.2),
            (-reed.length / 2, 1.2)]
    svg.poly([pt(*p) for p in design.part_points(reed, body)], stroke="#9ecae1", width=0.3,
             dash="0.8,0.4")
    svg.circle(*pt(0, 0), design.disk.magnet_diameter / 2, stroke="#c0392b", width=0.2,
               dash="0.5,0.4")
    _ring_dimensions(svg, design, pt)
    _hex_legend(svg, design, lit, size + 6)
    return svg.done()


def _ring_dimensions(svg, design, pt):
    """The ring's width at a flat (0 degrees) and at a corner (-30), red, with arrows."""
    apothem = design.window_across_flats() / 2
    r = design.disk.diameter / 2
    corner = apothem * 2 / SQRT3
    for angle, outer in ((0.0, apothem), (-30.0, corner)):
        a = math.radians(angle)
        (x1, y1), (x2, y2) = pt(r * math.cos(a), r * math.sin(a)), pt(outer * math.cos(a),
                                                                      outer * math.sin(a))
        svg.line(x1, y1, x2, y2, "#c0392b", 0.4)
        for (xa, ya), (xb, yb) in (((x1, y1), (x2, y2)), ((x2, y2), (x1, y1))):
            d = math.hypot(xb - xa, yb - ya)
            ux, uy = (xb - xa) / d, (yb - ya) / d
            svg.poly([(xa, ya), (xa + ux * 1.0 - uy * 0.45, ya + uy * 1.0 + ux * 0.45),
                      (xa + ux * 1.0 + uy * 0.45, ya + uy * 1.0 - ux * 0.45)],
                     fill="#c0392b", stroke="none")


def _hex_legend(svg, design, lit, tx):
    black, red = "#000000", "#c0392b"
    lines = [
        (0, "Hex %s mm, window %s mm across" % (_n(design.board.pitch),
                                               _n(design.window_across_flats())), black),
        (0, "flats: its yellow is the lit surface.", black),
        (0, "Disk %s mm in a %s mm pocket (blue," % (_n(design.disk.diameter),
                                                    _n(design.stack.pocket_diameter)), black),
        (0, "dashed); its magnet (red, dashed).", black),
        (0, "The lit ring's width (red lines):", red),
        (3, "flats %.1f mm, %.2f at worst" % (lit.flats, lit.flats_worst), red),
        (3, "corners %.1f mm, %.2f at worst" % (lit.corners, lit.corners_worst), red),
        (3, "from %g deg, behind a disk %s mm" % (light.VIEW_DEG, _n(lit.proud)), red),
        (3, "proud: %.2f at worst" % lit.seen_worst, red),
        (0, "%.0f %% of the hex is lit." % (100 * lit.share), black),
        (0, "Under the disk (white and blue,", black),
        (0, "dashed): the LED %s mm beside the" % _n(math.hypot(design.led.x, design.led.y)),
         black),
        (0, "centre, the reed switch from under", black),
        (0, "the magnet toward the corner.", black)]
    for i, (indent, text, colour) in enumerate(lines):
        svg.text(tx + indent, 12 + 3.9 * i, text, 2.9, "start", colour)


# --- the switch's reading as a disk slides ------------------------------------------------

def sensing_curve(design, result=None, samples=81):
    """The switch's reading as a disk slides from its hex's centre to the centre of the
    neighbour at 60 degrees, in ampere-turns under each model (log scale), against the
    switch's thresholds and the worst cases of the envelope."""
    result = result or sensing.check(design)
    pitch = design.board.pitch
    d = np.linspace(0, pitch, samples)
    middle = sum(design.disk.magnet_remanence) / 2
    w, h, left, top = 170.0, 96.0, 16.0, 14.0
    pw, ph = w - left - 58, h - top - 14
    svg = Svg(w, h, 5, "The reed switch's reading as a disk slides to the next hex")
    lo, hi = -1.0, 2.0                               # 0.1 to 100 AT

    def pt(dist, at):
        v = min(max(math.log10(max(at, 1e-9)), lo), hi)
        return left + pw * dist / pitch, top + ph * (hi - v) / (hi - lo)

    svg.rect(left, top, pw, ph, "#ffffff")
    for e in range(int(lo), int(hi) + 1):
        _, yy = pt(0, 10 ** e)
        svg.line(left, yy, left + pw, yy, "#dddddd")
        svg.text(left - 1, yy + 1, _n(10 ** e), 2.6, "end")
    for dist in (0, pitch / 2, pitch):
        xx, _ = pt(dist, 1)
        svg.text(xx, top + ph + 4, "%s mm" % _n(dist), 2.6, "middle")
    styles = {"gap": (None, "gap-weighted"), "uniform": ("1.2,0.8", "uniform")}
    for r in result.models:
        reed = field.Reed(design, r.model)
        at = sensing.curve(design, reed, d, 60.0, middle) / r.mt_per_at
        svg.poly([pt(t, v) for t, v in zip(d, at)], stroke="#000000", width=0.35,
                 dash=styles[r.model][0], closed=False)
    reed = design.reed
    svg.line(left, pt(0, reed.pull_in_at[1])[1], left + pw, pt(0, reed.pull_in_at[1])[1],
             "#c0392b", 0.3, "1.5,0.8")
    svg.line(left, pt(0, reed.release_at_min)[1], left + pw, pt(0, reed.release_at_min)[1],
             "#2471a3", 0.3, "1.5,0.8")
    _curve_legend(svg, design, result, left + pw + 3, top, styles)
    svg.text(2, 6, "Reading of E5's switch as a disk slides from E5's centre to the centre "
             "of its neighbour at 60 degrees", 3)
    svg.text(2, 10, "(nominal stack, the grade's middle; ampere-turns: each model's reading "
             "over its own mT per AT)", 2.6, "start", "#555555")
    svg.text(left + pw / 2, top + ph + 9, "distance of the disk's centre from E5's centre", 2.6,
             "middle")
    svg.text(3, top + ph / 2, "AT", 2.6, "middle")
    return svg.done()


def _curve_legend(svg, design, result, x, top, styles):
    """The legend beside the plot: the curves, the thresholds, the envelope's worst cases."""
    reed = design.reed
    y = top + 2
    for model in ("gap", "uniform"):
        svg.line(x, y - 0.8, x + 6, y - 0.8, "#000000", 0.35, styles[model][0])
        svg.text(x + 7, y, "%s model" % styles[model][1], 2.6)
        y += 4.5
    rows = [("#c0392b", "closes at %g AT at the most" % reed.pull_in_at[1], "1.5,0.8"),
            ("#2471a3", "releases at %g AT at the least" % reed.release_at_min, "1.5,0.8")]
    for colour, text, dash in rows:
        svg.line(x, y - 0.8, x + 6, y - 0.8, colour, 0.3, dash)
        svg.text(x + 7, y, text, 2.6, "start", colour)
        y += 4.5
    y += 2
    svg.text(x, y, "Over the envelope (AT):", 2.6)
    for r in result.models:
        y += 4.2
        svg.text(x, y, "%s: own disk less the board" % r.model, 2.4)
        y += 3.4
        svg.text(x + 2, y, "%.1f (margin %.2f)" % (r.own_less_board / r.mt_per_at,
                                                   r.own_margin), 2.4, "start", "#c0392b")
        y += 3.4
        svg.text(x, y, "full board at %s" % sensing._cell(r.hex), 2.4)
        y += 3.4
        svg.text(x + 2, y, "%.2f (margin %.2f)" % (r.board / r.mt_per_at, r.release_margin),
                 2.4, "start", "#2471a3")


def outputs(design, result=None):
    result = result or sensing.check(design)
    return {"stack-section.svg": section(design), "stack-hex.svg": hex_view(design),
            "stack-sensing.svg": sensing_curve(design, result)}
