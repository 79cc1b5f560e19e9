"""The laser-cut plates, as DXF (ezdxf) and SVG, in board coordinates at 1:1 in mm.

Every plate follows the PCB's outline and has its mounting holes; the plates over the PCB leave
room for the Pico's USB plug, the power input and the buttons:
- pocket plate (acrylic, opal or clear): a round pocket per hex, where the disks rest;
- top plate (opal acrylic): the diffuser the disks rest on;
- light-box grid (the light box's height of plywood, MDF or black acrylic): a hexagonal window
  over every LED, its walls between the hexes;
- carrier (hand-wired route, 3 mm plywood): in place of the PCB, a wire hole beside every LED
  and the LED's and switch's places engraved;
- base: the bottom plate; spacers: rings to stack between the base and the PCB.
"""

import io
import math

from hardware.generate import SVG_HEAD

from .design import DesignError, field_extent, hex_centre, hex_corners

CUT, ENGRAVE = "CUT", "ENGRAVE"
CUT_COLOUR, ENGRAVE_COLOUR = "#ff0000", "#0000ff"
CLEARANCE = 1.0              # between a hole or cut-out and a hex window
SPACER_OUTER = 8.0
SPACER_MATERIAL = 3.0        # spacer rings are cut from 3 mm sheet and stacked
WIRE_HOLE = 4.0              # the carrier's hole beside each LED, for its wires

TALL_PARTS = ("pico", "select_button", "confirm_button", "power_input", "bulk_capacitor")
PART_CLEARANCE = 1.0         # round a tall part's body, in the plates over the PCB
USB_PLUG = (12.0, 8.0)       # the plug's overmould: the gap it needs at the board's edge


def pcb_layout(design):
    """design.toml's [pcb] facts the plates use (the PCB's outline, mounting holes and the
    parts standing taller than the plates over it, in board coordinates, mm); DesignError when
    they are missing or the outline cannot hold the 61 hexes at the design's pitch."""
    pcb = design.pcb
    missing = [key for key in ("width", "height", "corner_radius", "mounting_hole_diameter",
                               "mounting_holes") + TALL_PARTS if key not in pcb]
    if missing:
        raise DesignError("design.toml [pcb] lacks %s" % ", ".join(missing))
    half_w, half_h = field_extent(design.board.pitch)
    if pcb["width"] / 2 < half_w or pcb["height"] / 2 < half_h:
        raise DesignError("design.toml [pcb]: a %g x %g mm outline cannot hold the hexes at a "
                          "%g mm pitch (%.1f x %.1f mm)" % (pcb["width"], pcb["height"],
                                                          design.board.pitch, 2 * half_w,
                                                          2 * half_h))
    return pcb


def _rectangle(x, y, size, rotation=0.0, grow=0.0):
    w, h = size[0] + 2 * grow, size[1] + 2 * grow
    if round(rotation) % 180 == 90:
        w, h = h, w
    return [(x - w / 2, y - h / 2), (x + w / 2, y - h / 2), (x + w / 2, y + h / 2),
            (x - w / 2, y + h / 2)]


def _rounded_rectangle(width, height, radius, segments=8):
    points = []
    for cx, cy, start in ((width / 2 - radius, -height / 2 + radius, -90),
                          (width / 2 - radius, height / 2 - radius, 0),
                          (-width / 2 + radius, height / 2 - radius, 90),
                          (-width / 2 + radius, -height / 2 + radius, 180)):
        for k in range(segments + 1):
            a = math.radians(start + 90.0 * k / segments)
            points.append((cx + radius * math.cos(a), cy + radius * math.sin(a)))
    return points


class Plate:
    """A plate's shapes: closed polygons and circles, each on the CUT or ENGRAVE layer."""

    def __init__(self, name, material, thickness):
        self.name = name
        self.material = material
        self.thickness = thickness
        self.polygons = []           # (layer, [(x, y), ...]) closed
        self.circles = []            # (layer, (x, y), radius)

    def polygon(self, points, layer=CUT):
        self.polygons.append((layer, [(float(x), float(y)) for x, y in points]))

    def circle(self, centre, radius, layer=CUT):
        self.circles.append((layer, (float(centre[0]), float(centre[1])), float(radius)))

    def bounds(self):
        xs = [x for _, pts in self.polygons for x, _ in pts]
        ys = [y for _, pts in self.polygons for _, y in pts]
        for _, (x, y), r in self.circles:
            xs += [x - r, x + r]
            ys += [y - r, y + r]
        return min(xs), min(ys), max(xs), max(ys)


def _cutouts(layout):
    """The gaps the plates over the PCB leave: each tall part's body with some clearance, and
    the USB plug's way in from the board's edge."""
    gaps = []
    for key in TALL_PARTS:
        part = layout.get(key)
        if part:
            gaps.append((key, _rectangle(part["x"], part["y"], part["size"],
                                         part.get("rotation", 0.0), PART_CLEARANCE)))
    usb = layout.get("usb")
    if usb:
        gaps.append(("usb", _rectangle(usb["x"], usb["y"], USB_PLUG)))
    return gaps


def _outline(layout, cutouts):
    """The PCB's outline, less the cut-outs that reach its edge (manifold3d's 2D booleans); and
    the cut-outs that stay inside it, as holes."""
    from manifold3d import CrossSection

    shape = CrossSection([_rounded_rectangle(layout["width"], layout["height"],
                                             layout.get("corner_radius", 0.0) or 0.001)])
    for _, gap in cutouts:
        shape = shape - CrossSection([gap])
    polygons = [_tidy(p) for p in shape.to_polygons()]
    outer = max(polygons, key=lambda p: abs(_area(p)))
    holes = [p for p in polygons if p is not outer]
    return outer, holes


def _area(points):
    return sum(x1 * y2 - x2 * y1 for (x1, y1), (x2, y2) in zip(points, points[1:] + points[:1]))


def _tidy(points):
    """A polygon's points rounded to 1 um, counter-clockwise, starting at the lowest-left
    point: the same bytes from every run."""
    pts = [(round(float(x), 3) + 0.0, round(float(y), 3) + 0.0) for x, y in points]
    if _area(pts) < 0:
        pts.reverse()
    start = min(range(len(pts)), key=lambda i: (pts[i][1], pts[i][0]))
    return pts[start:] + pts[:start]


def _check_clear(design, layout):
    """Every hole and cut-out must stay clear of every hex's window."""
    from iago import hexgrid

    apothem = design.window_across_flats() / 2.0
    items = [("mounting hole", p, layout["mounting_hole_diameter"] / 2.0)
             for p in layout["mounting_holes"]]
    for what, gap in _cutouts(layout):
        xs, ys = [x for x, _ in gap], [y for _, y in gap]
        centre = ((min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2)
        items.append((what.replace("_", " "), centre, math.dist(centre, gap[0])))
    for what, (x, y), radius in items:
        for cell in range(61):
            cx, cy = hex_centre(cell, design.board.pitch)
            if _hex_distance(x - cx, y - cy, apothem) < radius + CLEARANCE:
                raise ValueError("the %s at (%g, %g) comes within %g mm of hex %s's light-box "
                                 "window" % (what, x, y, CLEARANCE, hexgrid.cell_name(cell)))


def _hex_distance(dx, dy, apothem):
    """How far (dx, dy) lies outside a pointy hex of `apothem` centred at 0 (negative
    inside)."""
    return max(abs(dx * math.cos(math.radians(a)) + dy * math.sin(math.radians(a)))
               for a in (0, 60, 120)) - apothem


def _frame(plate, layout, cutouts=True):
    outer, holes = _outline(layout, _cutouts(layout) if cutouts else [])
    plate.polygon(outer)
    for hole in holes:
        plate.polygon(hole)
    for x, y in layout["mounting_holes"]:
        plate.circle((x, y), layout["mounting_hole_diameter"] / 2.0)


def plates(design):
    """{name: Plate} of every laser-cut plate."""
    layout = pcb_layout(design)
    _check_clear(design, layout)
    stack, pitch = design.stack, design.board.pitch
    centres = [hex_centre(cell, pitch) for cell in range(61)]
    led = design.led

    pocket = Plate("pocket-plate", "acrylic, opal or clear", stack.pocket_plate)
    _frame(pocket, layout)
    for cx, cy in centres:
        pocket.circle((cx + led.x, cy + led.y), stack.pocket_diameter / 2.0)

    top = Plate("top-plate", "opal acrylic", stack.top_plate)
    _frame(top, layout)

    grid = Plate("light-box-grid", "plywood, MDF or black acrylic", stack.light_box)
    _frame(grid, layout)
    for cx, cy in centres:
        grid.polygon(_tidy(hex_corners(cx + led.x, cy + led.y, design.window_across_flats())))

    carrier = Plate("carrier", "plywood (hand-wired route, in place of the PCB)", 3.0)
    _frame(carrier, layout, cutouts=False)
    reed = design.reed
    for cx, cy in centres:
        carrier.circle((cx + led.x - 6.0, cy + led.y - 6.0), WIRE_HOLE / 2.0)
        half = 2.5
        square = [(-half, -half), (half, -half), (half, half), (-half, half)]
        carrier.polygon(_tidy([(cx + x, cy + y) for x, y in design.part_points(led, square)]),
                        ENGRAVE)
        body = [(-reed.length / 2, -1.2), (reed.length / 2, -1.2), (reed.length / 2, 1.2),
                (-reed.length / 2, 1.2)]
        carrier.polygon(_tidy([(cx + x, cy + y) for x, y in design.part_points(reed, body)]),
                        ENGRAVE)

    base = Plate("base", "plywood or MDF", stack.base)
    _frame(base, layout, cutouts=False)

    spacers = Plate("spacers", "3 mm plywood or acrylic, rings stacked", SPACER_MATERIAL)
    rings = len(layout["mounting_holes"]) * math.ceil(stack.under_pcb / SPACER_MATERIAL)
    across = 8
    step = SPACER_OUTER + 3.0
    for i in range(rings):
        x, y = (i % across) * step, (i // across) * step
        spacers.circle((x, y), SPACER_OUTER / 2.0)
        spacers.circle((x, y), layout["mounting_hole_diameter"] / 2.0)
    return {p.name: p for p in (pocket, top, grid, carrier, base, spacers)}


# --- writers ---------------------------------------------------------------------------

def dxf_bytes(plate):
    import ezdxf

    # ezdxf's own switch for fixed dates and GUIDs in the header: the same bytes every run.
    fixed = ezdxf.options.write_fixed_meta_data_for_testing
    ezdxf.options.write_fixed_meta_data_for_testing = True
    try:
        return _dxf(plate)
    finally:
        ezdxf.options.write_fixed_meta_data_for_testing = fixed


def _dxf(plate):
    import ezdxf

    doc = ezdxf.new("R2010", setup=False)
    doc.units = 4            # millimetres
    doc.header["$MEASUREMENT"] = 1
    doc.layers.add(CUT, color=1)
    doc.layers.add(ENGRAVE, color=5)
    space = doc.modelspace()
    for layer, points in plate.polygons:
        space.add_lwpolyline(points, close=True, dxfattribs={"layer": layer})
    for layer, centre, radius in plate.circles:
        space.add_circle(centre, radius, dxfattribs={"layer": layer})
    # ezdxf adds the required CLASS records from a set: sort them, or their order follows
    # Python's string hashing, which changes from run to run.
    doc.classes.add_required_classes(doc.dxfversion)
    doc.classes.classes = dict(sorted(doc.classes.classes.items()))
    out = io.StringIO()
    doc.write(out, fmt="asc")
    return out.getvalue().replace("\r\n", "\n").encode()


def _n(value):
    text = "%.3f" % value
    text = text.rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def svg_text(plate, margin=5.0):
    """The plate at 1:1 (width and height in mm), board y upward, cut lines red and engraved
    ones blue, 0.1 mm wide: what laser cutters' software expects."""
    x0, y0, x1, y1 = plate.bounds()
    width, height = x1 - x0 + 2 * margin, y1 - y0 + 2 * margin

    def pt(x, y):
        return _n(x - x0 + margin), _n(y1 - y + margin)

    out = [SVG_HEAD,
           '<svg xmlns="http://www.w3.org/2000/svg" width="%smm" height="%smm" '
           'viewBox="0 0 %s %s">' % (_n(width), _n(height), _n(width), _n(height)),
           "<title>%s: %s, %s mm</title>" % (plate.name, plate.material, _n(plate.thickness))]
    for layer, points in plate.polygons:
        colour = CUT_COLOUR if layer == CUT else ENGRAVE_COLOUR
        out.append('<polygon points="%s" fill="none" stroke="%s" stroke-width="0.1"/>'
                   % (" ".join("%s,%s" % pt(x, y) for x, y in points), colour))
    for layer, (x, y), radius in plate.circles:
        colour = CUT_COLOUR if layer == CUT else ENGRAVE_COLOUR
        cx, cy = pt(x, y)
        out.append('<circle cx="%s" cy="%s" r="%s" fill="none" stroke="%s" stroke-width="0.1"/>'
                   % (cx, cy, _n(radius), colour))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def outputs(design):
    """{file name: bytes} of every plate's DXF and SVG."""
    files = {}
    for name, plate in plates(design).items():
        files["stack-%s.dxf" % name] = dxf_bytes(plate)
        files["stack-%s.svg" % name] = svg_text(plate).encode()
    return files

