"""Pictures of the stack for hardware/README.md, drawn from the same parameters (SVG text,
the same bytes every run): a section through one hex, one hex seen from above with its lit
ring, and the sensing curve of a disk slid from its hex onto the worst neighbour."""

import math

import numpy as np

from . import light, sensing
from .design import SQRT3, hex_corners
from .plates import _n

FONT = 'font-family="Helvetica, Arial, sans-serif"'


class Svg:
    """Shapes in mm, y downward, written at `scale` px per mm."""

    def __init__(self, width, height, scale, title):
        self.scale = scale
        self.items = ['<?xml version="1.0" encoding="UTF-8"?>',
                      '<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" '
                      'viewBox="0 0 %s %s" %s>' % (_n(width * scale), _n(height * scale),
                                                    _n(width), _n(height), FONT),
                      "<title>%s</title>" % title,
                      '<rect x="0" y="0" width="%s" height="%s" fill="#ffffff"/>'
                      % (_n(width), _n(height))]

    def rect(self, x, y, w, h, fill, stroke="#333333", width=0.15):
        self.items.append('<rect x="%s" y="%s" width="%s" height="%s" fill="%s" stroke="%s" '
                          'stroke-width="%s"/>' % (_n(x), _n(y), _n(w), _n(h), fill, stroke,
                                                   _n(width)))

    def poly(self, points, fill="none", stroke="#333333", width=0.15, dash=None, closed=True):
        tag = "polygon" if closed else "polyline"
        extra = ' stroke-dasharray="%s"' % dash if dash else ""
        self.items.append('<%s points="%s" fill="%s" stroke="%s" stroke-width="%s"%s/>'
                          % (tag, " ".join("%s,%s" % (_n(x), _n(y)) for x, y in points), fill,
                             stroke, _n(width), extra))

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

    def done(self):
        return ("\n".join(self.items + ["</svg>"]) + "\n").encode()


def section(design):
    """A section through a hex along its reed switch (y), layers to scale, heights noted."""
    st = design.stack
    half = design.board.pitch / SQRT3 + 3          # a hex's corner and a little
    left, label = 4.0, 2 * half + 10
    width = label + 62
    top = st.light_box + st.top_plate + st.pocket_plate + 5
    bottom = st.pcb + st.under_pcb + st.base
    height = max(top + bottom + 16, 60.0)
    svg = Svg(width, height, 6, "The stack: a section through one hex along its reed switch")
    y0 = top + 8                                    # the PCB's top

    def x(v):
        return left + half + v

    def y(z):
        return y0 - z

    notes = _section_layers(svg, design, x, y)      # (height of the layer's middle, text)
    notes.append(_section_disk(svg, design, x, y))
    notes.sort(reverse=True)
    corner = design.board.pitch / SQRT3
    for i, (z, text) in enumerate(notes):
        ty = 9 + i * (height - 12) / len(notes)
        svg.poly([(x(corner + 1.5), y(z)), (label - 1, ty - 1)], stroke="#999999", width=0.1,
                 closed=False)
        svg.text(label, ty, text, 2.6)
    _section_parts(svg, design, x, y)
    svg.text(left, 4.5, "Section along the reed switch (row I to the right); magnet %s mm up."
             % _n(design.magnet_height()), 3)
    return svg.done()


def _section_layers(svg, design, x, y):
    """The base, PCB, spacers, light box, top plate and pocket plate, drawn at x(along the
    section), y(height); their notes."""
    st = design.stack
    corner = design.board.pitch / SQRT3
    window = design.window_across_flats() / SQRT3
    layers = [("base, %s mm" % _n(st.base), -st.pcb - st.under_pcb - st.base, st.base,
               "#d9c7a7"),
              ("PCB, %s mm" % _n(st.pcb), -st.pcb, st.pcb, "#3d7a4a"),
              ("top plate (opal), %s mm" % _n(st.top_plate), st.light_box, st.top_plate,
               "#f4f4f4")]
    notes = []
    for name, z, h, fill in layers:
        svg.rect(x(-corner), y(z + h), 2 * corner, h, fill)
        notes.append((z + h / 2, name))
    for side in (-1, 1):                             # the grid's walls at the corners
        inner = side * window
        svg.rect(min(x(inner), x(side * (corner + 1))), y(st.light_box),
                 abs(side * (corner + 1) - inner), st.light_box, "#555555")
        svg.rect(x(side * (corner - 2)) - 1, y(-st.pcb), 2, st.under_pcb, "#b0b0b0")
    notes.append((st.light_box / 2, "light box, %s mm: walls %s mm"
                  % (_n(st.light_box), _n(st.light_wall))))
    notes.append((-st.pcb - st.under_pcb / 2, "spacers, %s mm" % _n(st.under_pcb)))
    z_pocket = st.light_box + st.top_plate
    pocket = st.pocket_diameter / 2
    for side in (-1, 1):
        outer, inner = side * (corner + 1), side * pocket
        svg.rect(min(x(outer), x(inner)), y(z_pocket + st.pocket_plate), abs(outer - inner),
                 st.pocket_plate, "#e8f0f8")
    notes.append((z_pocket + st.pocket_plate * 0.75, "pocket plate, %s mm: pockets %s mm"
                  % (_n(st.pocket_plate), _n(st.pocket_diameter))))
    return notes


def _section_disk(svg, design, x, y):
    """The disk in its pocket and its magnet; its note."""
    st, disk = design.stack, design.disk
    z_pocket = st.light_box + st.top_plate
    r = disk.diameter / 2
    svg.rect(x(-r), y(z_pocket + disk.thickness), 2 * r, disk.thickness, "#303030")
    m = disk.magnet_diameter / 2
    svg.rect(x(-m), y(design.magnet_height() + disk.magnet_thickness / 2), 2 * m,
             disk.magnet_thickness, "#c0392b")
    return (z_pocket + disk.thickness, "disk %s x %s mm, magnet %s x %s mm %s" % (
        _n(disk.diameter), _n(disk.thickness), _n(disk.magnet_diameter),
        _n(disk.magnet_thickness), disk.magnet_grade))


def _section_parts(svg, design, x, y):
    """The LED and the reed switch on the PCB, named under it."""
    st, reed, led = design.stack, design.reed, design.led
    svg.rect(x(led.y - 2.5), y(led.height), 5, led.height, "#ffffff")
    (_, y1), (_, y2) = design.part_points(reed, [(-reed.length / 2, 0), (reed.length / 2, 0)])
    svg.rect(x(min(y1, y2)), y(2.5), abs(y2 - y1), 2.5, "#9ecae1")
    svg.text(x(0), y(-st.pcb) + 4.5, "LED", 2.4, "middle")
    svg.text(x((y1 + y2) / 2), y(-st.pcb) + 4.5, "reed switch", 2.4, "middle")


def hex_view(design):
    """One hex from above: window, pocket, disk, LED, reed switch, and the lit ring's widths."""
    lit = light.check(design)
    pitch = design.board.pitch
    size = pitch + 20
    svg = Svg(size + 70, size + 8, 8, "One hex from above: the lit ring round a resting disk")
    cx, cy = size / 2, size / 2 + 6

    def pt(x, y):
        return cx + x, cy - y

    svg.poly([pt(x, y) for x, y in hex_corners(0, 0, pitch)], fill="#555555")
    svg.poly([pt(x, y) for x, y in hex_corners(0, 0, design.window_across_flats())],
             fill="#fff3c4", stroke="none")
    svg.circle(*pt(0, 0), design.stack.pocket_diameter / 2, stroke="#4a78a8", dash="1,0.6")
    svg.circle(*pt(0, 0), design.disk.diameter / 2, fill="#303030", stroke="none")
    led, reed = design.led, design.reed
    svg.poly([pt(*p) for p in design.part_points(led, [(-2.5, -2.5), (2.5, -2.5), (2.5, 2.5),
                                                      (-2.5, 2.5)])],
             fill="#ffffff", stroke="#ffffff", dash="0.5,0.5")
    body = [(-reed.length / 2, -1.2), (reed.length / 2, -1.2), (reed.length / 2, 1.2),
            (-reed.length / 2, 1.2)]
    svg.poly([pt(*p) for p in design.part_points(reed, body)], stroke="#9ecae1", width=0.3,
             dash="0.8,0.4")
    apothem = design.window_across_flats() / 2
    r = design.disk.diameter / 2
    svg.poly([pt(r, 0), pt(apothem, 0)], stroke="#c0392b", width=0.4, closed=False)
    corner = apothem * 2 / SQRT3
    a = math.radians(-30)
    svg.poly([pt(r * math.cos(a), r * math.sin(a)), pt(corner * math.cos(a),
                                                        corner * math.sin(a))],
             stroke="#c0392b", width=0.4, closed=False)
    tx = size + 2
    for i, line in enumerate([
            "Hex %s mm, window %s mm" % (_n(pitch), _n(design.window_across_flats())),
            "across flats; disk %s mm in a" % _n(design.disk.diameter),
            "%s mm pocket (dashed)." % _n(design.stack.pocket_diameter),
            "Lit ring (red):",
            "  flats %.1f mm (%.1f at worst)" % (lit.flats, lit.flats_worst),
            "  corners %.1f mm (%.1f at worst)" % (lit.corners, lit.corners_worst),
            "  %.0f %% of the hex" % (100 * lit.share),
            "LED (white) under the disk's",
            "centre; reed switch (blue,",
            "dashed) toward the corner."]):
        svg.text(tx, 8 + 4.6 * i, line, 3)
    return svg.done()


def sensing_curve(design, samples=61):
    """The switch's reading as a disk slides from its hex's centre to the centre of the
    neighbour that pulls hardest (60 degrees), log scale, with the thresholds."""
    found = sensing.check(design)
    pitch = design.board.pitch
    z = design.magnet_height()
    a = math.radians(60)
    d = np.linspace(0, pitch, samples)
    centres = [(t * math.cos(a), t * math.sin(a), z) for t in d]
    values = np.abs(sensing.readings(design, centres, design.disk.magnet_remanence[0]))
    w, h, left, top = 160.0, 90.0, 18.0, 10.0
    pw, ph = w - left - 6, h - top - 16
    svg = Svg(w, h, 5, "The reed switch's reading as a disk slides to the next hex")
    lo, hi = -2.0, 1.0                               # 0.01 to 10 mT

    def pt(dist, mt):
        v = min(max(math.log10(max(mt, 1e-9)), lo), hi)
        return left + pw * dist / pitch, top + ph * (hi - v) / (hi - lo)

    svg.rect(left, top, pw, ph, "#ffffff")
    for e in range(int(lo), int(hi) + 1):
        _, yy = pt(0, 10 ** e)
        svg.poly([(left, yy), (left + pw, yy)], stroke="#dddddd", closed=False)
        svg.text(left - 1, yy + 1, _n(10 ** e), 2.6, "end")
    for dist in (0, pitch / 2, pitch):
        xx, _ = pt(dist, 1)
        svg.text(xx, top + ph + 4, "%s mm" % _n(dist), 2.6, "middle")
    for mt, colour, name in ((found.close, "#c0392b", "closes at %.2f mT (%g AT)" % (
            found.close, design.reed.pull_in_at[1])), (found.release, "#2471a3",
                                                       "releases at %.2f mT (%g AT)" % (
            found.release, design.reed.release_at_min))):
        _, yy = pt(0, mt)
        svg.poly([(left, yy), (left + pw, yy)], stroke=colour, width=0.3, dash="1.5,0.8",
                 closed=False)
        svg.text(left + pw - 1, yy - 1, name, 2.6, "end", colour)
    svg.poly([pt(t, v) for t, v in zip(d, values)], stroke="#000000", width=0.4, closed=False)
    _, yy = pt(0, found.neighbour_sum)
    xx, _ = pt(pitch, 1)
    svg.circle(xx, yy, 0.8, fill="#2471a3", stroke="none")
    svg.text(xx - 2, yy + 4, "six neighbours at worst: %.3f mT" % found.neighbour_sum, 2.6,
             "end", "#2471a3")
    svg.text(left, 6, "Reading of E5's switch (mT, log) as a disk slides from E5's centre to its "
             "60-degree neighbour's", 3)
    svg.text(left + pw / 2, h - 2, "distance of the disk's centre from E5's centre", 2.6,
             "middle")
    return svg.done()


def outputs(design):
    return {"stack-section.svg": section(design), "stack-hex.svg": hex_view(design),
            "stack-sensing.svg": sensing_curve(design)}
