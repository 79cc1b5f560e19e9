"""Generate the build documents from the board maps (`make hardware`).

    .venv/bin/python hardware/make.py                      # everything under hardware/generated/
    .venv/bin/python hardware/make.py --hex-mm 40 --out /tmp/t   # a template for 40 mm hexes
    .venv/bin/python hardware/make.py --map my-board.json --out build/
    .venv/bin/python hardware/make.py --check              # are the committed files up to date?

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

The output is deterministic (no dates, fixed PDF metadata), so a test can compare it byte for
byte with the committed files. The PDF is written with ReportLab (a dev dependency).
"""

import argparse
import io
import math
import sys
import tomllib
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
DEFAULT_OUT = HERE / "generated"
with open(HERE / "design.toml", "rb") as _f:
    DESIGN = tomllib.load(_f)     # the stack's parameters (hardware/stack/)
DEFAULT_HEX_MM = float(DESIGN["board"]["pitch"])
DEFAULT_DISK_MM = float(DESIGN["disk"]["diameter"])
# The settings hexes on the empty board (docs/board.md, "Settings").
SETTINGS = {"A1": "rules", "A2": "penalty", "A3": "hints", "A4": "brightness", "A5": "palette",
            "B1": "computer's side", "B6": "computer's level"}
MIN_HEX_MM = 20.0
MAX_HEX_MM = 100.0
MIN_CLEARANCE_MM = 2.0       # a disk must fit its hex with at least this much to spare

sys.path.insert(0, str(ROOT / "firmware" / "lib"))   # the firmware's own map check

from gameboard import boardmap  # noqa: E402
from iago import hexgrid  # noqa: E402

CELLS = hexgrid.CELLS
ROWS = "ABCDEFGHI"
SQRT3 = math.sqrt(3.0)

# Pico (RP2040) physical pin of each GPIO, and the power pins.
PICO_PIN = {0: 1, 1: 2, 2: 4, 3: 5, 4: 6, 5: 7, 6: 9, 7: 10, 8: 11, 9: 12, 10: 14, 11: 15,
            12: 16, 13: 17, 14: 19, 15: 20, 16: 21, 17: 22, 18: 24, 19: 25, 20: 26, 21: 27,
            22: 29, 26: 31, 27: 32, 28: 34}
POWER_PINS = (
    (40, "VBUS", "5 V from USB: may feed the LEDs of a board that runs on USB alone (then keep "
                 "current_budget_ma at 500)"),
    (39, "VSYS", "5 V in from the board's own supply through a Schottky diode (1N5817), band "
                 "toward VSYS"),
    (38, "GND", "common ground: LED supply, level shifter, buttons (any GND pin: 3, 8, 13, 18, "
                "23, 28, 33, 38)"),
)

# Fill colours of the row lines in the diagram (pale, so black text stays readable).
ROW_FILLS = ("#fde2e2", "#fdf0d5", "#fbf8cc", "#dcf5d9", "#d6f0f5", "#dde4fb", "#ebdcf9",
             "#f5dcec", "#e6e6e6", "#f2e6d9", "#e0f0e8", "#e8e0f0", "#f0f0dc", "#dcecf0",
             "#f0dce4", "#e4f0dc")      # a fill for each of up to 16 row lines


class UsageError(Exception):
    """Bad input to the generator; the message says what to change."""


# --- geometry ----------------------------------------------------------------------------------

def cell_centre(cell, flats):
    """The centre of `cell`, hexes `flats` across flats, pointy side up, row A at the bottom:
    (x, y) with y growing downwards, the board's bounding box starting at (0, 0)."""
    radius = flats / SQRT3
    row = hexgrid.ROW_OF[cell]
    number = hexgrid.NUMBER_OF[cell]
    x = (number - row / 2.0 + 1.0) * flats + flats / 2.0   # E1 (the leftmost) at flats / 2
    y = radius + (8 - row) * 1.5 * radius                    # row I at the top
    return x, y


def board_size(flats):
    radius = flats / SQRT3
    return 9 * flats, 14 * radius


def hex_points(cx, cy, flats, shrink=0.0):
    radius = flats / SQRT3 - shrink
    points = []
    for k in range(6):
        angle = math.radians(90 + 60 * k)
        points.append((cx + radius * math.cos(angle), cy - radius * math.sin(angle)))
    return points


# --- a tiny drawing model, rendered to SVG and to PDF ------------------------------------------

def fmt(value):
    """A number for the output: 2 decimals at most, no '-0'."""
    text = "%.2f" % value
    text = text.rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def esc(text):
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


class Drawing:
    """Shapes in the drawing's units, y downwards: polygons, lines, circles and text."""

    def __init__(self, width, height):
        self.width = width
        self.height = height
        self.items = []

    def polygon(self, points, stroke="#000000", fill=None, width=1.0, dash=None, closed=True,
                opacity=1.0):
        self.items.append(("poly", points, stroke, fill, width, dash, closed, opacity))

    def line(self, x1, y1, x2, y2, stroke="#000000", width=1.0, dash=None):
        self.polygon([(x1, y1), (x2, y2)], stroke, None, width, dash, False)

    def circle(self, cx, cy, r, stroke="#000000", fill=None, width=1.0, dash=None):
        self.items.append(("circle", cx, cy, r, stroke, fill, width, dash))

    def text(self, x, y, text, size, anchor="start", bold=False, fill="#000000", halo=None):
        """`y` is the baseline; anchor start, middle or end; `halo`: a colour drawn round the
        letters (SVG only) so a line behind the text does not cross it."""
        self.items.append(("text", x, y, text, size, anchor, bold, fill, halo))

    # --- SVG ---

    def svg(self, unit="", title=""):
        w, h = fmt(self.width), fmt(self.height)
        out = ['<?xml version="1.0" encoding="UTF-8"?>',
               '<svg xmlns="http://www.w3.org/2000/svg" width="%s%s" height="%s%s" '
               'viewBox="0 0 %s %s" font-family="Helvetica, Arial, sans-serif">'
               % (w, unit, h, unit, w, h)]
        if title:
            out.append("<title>%s</title>" % esc(title))
        out.append('<rect x="0" y="0" width="%s" height="%s" fill="#ffffff"/>' % (w, h))
        for item in self.items:
            out.append(_svg_item(item))
        out.append("</svg>")
        return "\n".join(out) + "\n"

    # --- PDF (ReportLab canvas, units converted by `scale`, the page's height `page_h`) ---

    def pdf(self, canvas, scale, page_h, dx=0.0, dy=0.0):
        """Draw onto a ReportLab canvas: drawing point (x, y) lands at PDF point
        ((x + dx) * scale, page_h - (y + dy) * scale)."""
        def pt(x, y):
            return (x + dx) * scale, page_h - (y + dy) * scale
        for item in self.items:
            kind = item[0]
            if kind == "poly":
                _, points, stroke, fill, width, dash, closed, opacity = item
                _pdf_style(canvas, stroke, fill, width * scale, dash, scale, opacity)
                path = canvas.beginPath()
                x, y = pt(*points[0])
                path.moveTo(x, y)
                for p in points[1:]:
                    x, y = pt(*p)
                    path.lineTo(x, y)
                if closed:
                    path.close()
                canvas.drawPath(path, stroke=1 if stroke else 0, fill=1 if fill else 0)
                if opacity < 1:
                    canvas.setStrokeAlpha(1)
            elif kind == "circle":
                _, cx, cy, r, stroke, fill, width, dash = item
                _pdf_style(canvas, stroke, fill, width * scale, dash, scale, 1.0)
                x, y = pt(cx, cy)
                canvas.circle(x, y, r * scale, stroke=1 if stroke else 0, fill=1 if fill else 0)
            else:
                _, x, y, text, size, anchor, bold, fill, halo = item
                canvas.setFillColor(_rgb(fill))
                canvas.setFont("Helvetica-Bold" if bold else "Helvetica", size * scale)
                px, py = pt(x, y)
                if anchor == "middle":
                    canvas.drawCentredString(px, py, text)
                elif anchor == "end":
                    canvas.drawRightString(px, py, text)
                else:
                    canvas.drawString(px, py, text)


def _svg_style(stroke, fill, width, dash):
    parts = ['fill="%s"' % (fill or "none")]
    if stroke:
        parts.append('stroke="%s" stroke-width="%s"' % (stroke, fmt(width)))
        if dash:
            parts.append('stroke-dasharray="%s"' % " ".join(fmt(d) for d in dash))
    return " ".join(parts)


def _svg_item(item):
    kind = item[0]
    if kind == "poly":
        _, points, stroke, fill, width, dash, closed, opacity = item
        coords = " ".join("%s,%s" % (fmt(x), fmt(y)) for x, y in points)
        extra = "" if opacity >= 1 else ' stroke-opacity="%s"' % fmt(opacity)
        if not closed:
            extra += ' stroke-linejoin="round" stroke-linecap="round"'
        return '<%s points="%s" %s%s/>' % ("polygon" if closed else "polyline", coords,
                                           _svg_style(stroke, fill, width, dash), extra)
    if kind == "circle":
        _, cx, cy, r, stroke, fill, width, dash = item
        return '<circle cx="%s" cy="%s" r="%s" %s/>' % (fmt(cx), fmt(cy), fmt(r),
                                                      _svg_style(stroke, fill, width, dash))
    _, x, y, text, size, anchor, bold, fill, halo = item
    attrs = 'x="%s" y="%s" font-size="%s"' % (fmt(x), fmt(y), fmt(size))
    if anchor != "start":
        attrs += ' text-anchor="%s"' % anchor
    if bold:
        attrs += ' font-weight="bold"'
    attrs += ' fill="%s"' % fill
    if halo:
        attrs += (' stroke="%s" stroke-width="%s" paint-order="stroke" stroke-linejoin="round"'
                  % (halo, fmt(size * 0.25)))
    return "<text %s>%s</text>" % (attrs, esc(text))


def _rgb(colour):
    from reportlab.lib.colors import Color
    return Color(int(colour[1:3], 16) / 255.0, int(colour[3:5], 16) / 255.0,
                 int(colour[5:7], 16) / 255.0)


def _pdf_style(canvas, stroke, fill, width, dash, scale, opacity):
    if stroke:
        canvas.setStrokeColor(_rgb(stroke))
        canvas.setLineWidth(width)
        if opacity < 1:
            canvas.setStrokeAlpha(opacity)
    if fill:
        canvas.setFillColor(_rgb(fill))
    if dash:
        canvas.setDash([d * scale for d in dash], 0)
    else:
        canvas.setDash([], 0)
    canvas.setLineJoin(1)
    canvas.setLineCap(1)


# --- the board diagram -------------------------------------------------------------------------

def _shape(bmap):
    """(cell names, cell count, centre(cell, flats) -> (x, y), outline(x, y, flats) -> points,
    (width, height)) of the map's board: hexes, or squares with rank 1 at the bottom."""
    if bmap.geometry == "hex":
        return (hexgrid.cell_name, CELLS, cell_centre, hex_points, board_size,
                "row A (dark's side) at the bottom")
    from iago import squaregrid
    grid = squaregrid.grid(bmap.size)
    n = bmap.size

    def centre(cell, flats):
        return (cell % n + 0.5) * flats, (n - 1 - cell // n + 0.5) * flats

    def square(cx, cy, flats, shrink=0.0):
        h = flats / 2 - shrink
        return [(cx - h, cy - h), (cx + h, cy - h), (cx + h, cy + h), (cx - h, cy + h)]

    return (grid.cell_name, bmap.cells, centre, square, lambda flats: (n * flats, n * flats),
            "rank 1 at the bottom")


def diagram(bmap, source):
    """The wiring diagram of one board map, as SVG text."""
    flats = 96.0
    margin = 24.0
    top = 64.0
    names, count, cell_at, outline, size_of, bottom = _shape(bmap)
    bw, bh = size_of(flats)
    per_line = max(1, int(bw // 104))            # row-line keys on a legend line
    legend_lines = 5 + math.ceil(len(bmap.row_pins) / per_line)
    width = bw + 2 * margin
    height = top + bh + 16 + legend_lines * 22 + margin
    d = Drawing(width, height)
    d.text(margin, 30, "Board %s: the cells, the reed matrix and the LED chain" % bmap.name, 20,
           bold=True)
    d.text(margin, 50, "Generated from %s by hardware/make.py (make hardware). Seen from above, "
           "%s." % (source, bottom), 12, fill="#444444")

    def centre(cell):
        x, y = cell_at(cell, flats)
        return x + margin, y + top

    for cell in range(count):
        cx, cy = centre(cell)
        crossing = bmap.crossing_of_cell[cell]
        row, col = crossing >> 3, crossing & 7
        d.polygon(outline(cx, cy, flats), stroke="#333333", fill=ROW_FILLS[row], width=1.2)

    # The LED chain, from LED 0 to the last, through the hexes' centres, between their lines
    # of text.
    low = 0.0
    chain = []
    for i in range(count):
        x, y = centre(bmap.cell_of_led[i])
        chain.append((x, y + low))
    d.polygon(chain, stroke="#e06c00", width=4, closed=False, opacity=0.6)
    for (x1, y1), (x2, y2) in zip(chain, chain[1:]):
        mx, my = (x1 + x2) / 2, (y1 + y2) / 2
        ux, uy = (x2 - x1), (y2 - y1)
        length = math.hypot(ux, uy)
        ux, uy = ux / length, uy / length
        size = 7.0
        d.polygon([(mx + ux * size, my + uy * size),
                   (mx - ux * size - uy * size * 0.7, my - uy * size + ux * size * 0.7),
                   (mx - ux * size + uy * size * 0.7, my - uy * size - ux * size * 0.7)],
                  stroke=None, fill="#e06c00")
    x0, y0 = chain[0]
    d.circle(x0, y0, 7, stroke="#e06c00", fill="#ffffff", width=3)
    xn, yn = chain[-1]
    d.polygon([(xn - 6, yn - 6), (xn + 6, yn - 6), (xn + 6, yn + 6), (xn - 6, yn + 6)],
              stroke="#e06c00", fill="#ffffff", width=3)

    for cell in range(count):
        cx, cy = centre(cell)
        crossing = bmap.crossing_of_cell[cell]
        row, col = crossing >> 3, crossing & 7
        fill = ROW_FILLS[row]
        d.text(cx, cy - 25, names(cell), 17, "middle", bold=True, halo=fill)
        d.text(cx, cy - 10, "LED %d" % bmap.led_of_cell[cell], 12, "middle", fill="#8a3b00",
               halo=fill)
        d.text(cx, cy + 20, "R%d GP%d" % (row, bmap.row_pins[row]), 11.5, "middle", halo=fill)
        d.text(cx, cy + 34, "C%d GP%d" % (col, bmap.col_pins[col]), 11.5, "middle", halo=fill)

    y = top + bh + 30
    d.text(margin, y, "Fill colour: the cell's matrix row line. In each cell: its name, its LED's "
           "position in the chain, its row line (R) and column line (C) with their GPIOs.", 12)
    y += 22
    for row, pin in enumerate(bmap.row_pins):
        if row and row % per_line == 0:
            y += 22
        x = margin + 104 * (row % per_line)
        d.polygon([(x, y - 12), (x + 18, y - 12), (x + 18, y + 4), (x, y + 4)], stroke="#333333",
                  fill=ROW_FILLS[row], width=1)
        d.text(x + 24, y, "R%d = GP%d" % (row, pin), 12)
    y += 22
    first = names(bmap.cell_of_led[0])
    last = names(bmap.cell_of_led[count - 1])
    d.text(margin, y, "Orange: the LED chain (%s, %s), data in at %s (LED 0, circle) from "
           "GP%d through the level shifter, last LED at %s (LED %d, square)."
           % (bmap.led_type, "".join("RGBW"[i] for i in _order(bmap)), first, bmap.led_pin,
              last, count - 1), 12)
    y += 22
    d.text(margin, y, "Columns: %s." % ", ".join("C%d = GP%d" % (i, p)
                                                 for i, p in enumerate(bmap.col_pins)), 12)
    y += 22
    buttons = ", ".join("%s GP%d" % (name, bmap.buttons[name]) for name in sorted(bmap.buttons))
    d.text(margin, y, "Buttons to ground: %s. LED current budget %d mA. Diodes: %s."
           % (buttons or "none", bmap.current_budget_ma,
              "one per switch, band toward the row line" if bmap.diodes else "none"), 12)
    return d.svg(title="Iago board %s: wiring diagram" % bmap.name)


def _order(bmap):
    """The colour order's letters in wire order, e.g. (1, 0, 2) for GRB."""
    order = bmap.colour_order
    return [order.index(i) for i in range(len(order))]


# --- the wiring tables -------------------------------------------------------------------------

def wiring(bmap, source):
    """The wiring tables of one board map, as Markdown."""
    names, count = _shape(bmap)[:2]
    rows, cols = bmap.row_pins, bmap.col_pins
    one, cells = ("hex", "hexes") if bmap.geometry == "hex" else ("square", "squares")
    at = {}
    for cell in range(count):
        crossing = bmap.crossing_of_cell[cell]
        at[(crossing >> 3, crossing & 7)] = names(cell)
    order = "".join("RGBW"[i] for i in _order(bmap))
    out = ["# Wiring of %s" % bmap.name, "",
           "Generated from `%s` by `hardware/make.py` (`make hardware`); do not edit by hand. "
           "The picture is `%s`." % (source, Path(source).stem + "-diagram.svg"), ""]

    out += ["## Pico pins", "",
            "| Pico pin | GPIO | function | goes to |", "| --- | --- | --- | --- |"]
    lines = []
    for i, pin in enumerate(rows):
        hexes = [at[(i, c)] for c in range(len(cols)) if (i, c) in at]
        lines.append((pin, "matrix row line R%d (driven low in turn)" % i,
                      "the diode bands (cathodes) of %s" % _list(hexes)))
    for i, pin in enumerate(cols):
        hexes = [at[(r, i)] for r in range(len(rows)) if (r, i) in at]
        lines.append((pin, "matrix column line C%d (input, pull-up)" % i,
                      "one contact of the reed switches of %s" % _list(hexes)))
    lines.append((bmap.led_pin, "LED data (%s, %s)" % (bmap.led_type, order),
                  "the level shifter's input (74AHCT125), its output through 330 ohm to DIN of "
                  "LED 0 at %s" % names(bmap.cell_of_led[0])))
    for name in sorted(bmap.buttons):
        lines.append((bmap.buttons[name], "button `%s`" % name,
                      "a push button to GND (internal pull-up)"))
    for pin, function, goes in sorted(lines):
        out.append("| %d | GP%d | %s | %s |" % (PICO_PIN[pin], pin, function, goes))
    for number, name, what in POWER_PINS:
        out.append("| %d | %s | power | %s |" % (number, name, what))
    out.append("")

    out += ["## Row lines", "",
            "Each row line runs to the crossings in its row: a switch in series with a diode "
            "whose band (cathode) faces the row line.", "",
            "| row line | GPIO (Pico pin) | %s, by column line |" % cells, "| --- | --- | --- |"]
    for i, pin in enumerate(rows):
        hexes = ["%s (C%d)" % (at[(i, c)], c) for c in range(len(cols)) if (i, c) in at]
        out.append("| R%d | GP%d (%d) | %s |" % (i, pin, PICO_PIN[pin], ", ".join(hexes) or "-"))
    out.append("")
    out += ["## Column lines", "", "| column line | GPIO (Pico pin) | %s, by row line |" % cells,
            "| --- | --- | --- |"]
    for i, pin in enumerate(cols):
        hexes = ["%s (R%d)" % (at[(r, i)], r) for r in range(len(rows)) if (r, i) in at]
        out.append("| C%d | GP%d (%d) | %s |" % (i, pin, PICO_PIN[pin], ", ".join(hexes) or "-"))
    out.append("")

    out += ["## The matrix", "", "The %s at each crossing (`-`: no switch there)." % one, "",
            "| | " + " | ".join("C%d GP%d" % (i, p) for i, p in enumerate(cols)) + " |",
            "| --- |" + " --- |" * len(cols)]
    for r, pin in enumerate(rows):
        out.append("| **R%d GP%d** | " % (r, pin) +
                   " | ".join(at.get((r, c), "-") for c in range(len(cols))) + " |")
    out.append("")

    out += ["## The LED chain", "",
            "Data from GP%d (Pico pin %d) through the level shifter into LED 0; each LED's DOUT "
            "to the next one's DIN. Every LED also gets 5 V and GND." % (bmap.led_pin,
                                                                       PICO_PIN[bmap.led_pin]),
            "", "| LEDs | %s |" % cells, "| --- | --- |"]
    for start in range(0, count, 10):
        end = min(start + 10, count)
        out.append("| %d-%d | %s |" % (start, end - 1, " ".join(
            names(bmap.cell_of_led[i]) for i in range(start, end))))
    out.append("")
    out += ["## Budget and timing", "",
            "- LED current budget: %d mA (the firmware scales every brighter frame down to it); "
            "%d mA a channel at full duty, %d mA for a dark LED." % (
                bmap.current_budget_ma, bmap.led_ma_per_channel, bmap.led_idle_ma),
            "- Full white on all %d LEDs would take about %d mA." % (
                count, count * (bmap.led_idle_ma + 3 * bmap.led_ma_per_channel)),
            "- Switch debounce: %d ms. Diodes: %s." % (
                bmap.debounce_ms, "yes, one per switch" if bmap.diodes else "none"), ""]
    return "\n".join(out)


def _list(names):
    return ", ".join(names) if names else "nothing"


# --- the 1:1 template --------------------------------------------------------------------------

def template(flats, disk, furniture=True):
    """The board at 1:1 in millimetres, as a Drawing; without `furniture` (the headings and
    the scale bar) only the board, with a 1 mm margin."""
    radius = flats / SQRT3
    margin = 12.0 if furniture else 1.0
    head = 16.0 if furniture else 0.0
    foot = 18.0 if furniture else 0.0
    bw, bh = board_size(flats)
    width = bw + 2 * margin
    height = head + bh + foot + 2 * margin
    d = Drawing(width, height)
    ox, oy = margin, margin + head
    k = min(1.0, flats / DEFAULT_HEX_MM)     # smaller boards: smaller headings
    if furniture:
        _headings(d, margin, flats, disk, k)
    _hexes(d, ox, oy, flats, disk, radius)
    if furniture:
        # A 100 mm bar with centimetre ticks, to check the print's scale with a ruler.
        y = oy + bh + foot * 0.55
        d.line(margin, y, margin + 100, y, width=0.4)
        for i in range(11):
            tick = 2.5 if i % 5 == 0 else 1.5
            d.line(margin + 10 * i, y - tick, margin + 10 * i, y, width=0.3)
        d.text(margin + 104, y + 1.2, "100 mm", 3.5)
    return d


def _headings(d, margin, flats, disk, k):
    d.text(margin, margin + 4.5, "Iago board template: hexes %s mm across flats, disks %s mm. "
           "Print at 100 %% (actual size), then check the 100 mm bar." % (fmt(flats), fmt(disk)),
           4.2 * k, bold=True)
    d.text(margin, margin + 10.5, "Grey: the outer ring (rows A and I and the ends of every row). "
           "Dark grey with a ring: the centre, E5. Cross: the hex centre, where the LED goes; "
           "dashed circle: a disk; small labels: the settings hexes.", 3.2 * k, fill="#333333")


def _hexes(d, ox, oy, flats, disk, radius):
    name_size = flats * 0.085
    for cell in range(CELLS):
        cx, cy = cell_centre(cell, flats)
        cx, cy = cx + ox, cy + oy
        fill = None
        if cell == hexgrid.CENTRE:
            fill = "#b4b4b4"
        elif hexgrid.IS_OUTER[cell]:
            fill = "#e2e2e2"
        d.polygon(hex_points(cx, cy, flats), stroke="#000000", fill=fill, width=0.3)
        d.circle(cx, cy, disk / 2.0, stroke="#888888", width=0.15, dash=(1.2, 1.2))
        arm = min(2.5, flats * 0.07)
        d.line(cx - arm, cy, cx + arm, cy, stroke="#000000", width=0.2)
        d.line(cx, cy - arm, cx, cy + arm, stroke="#000000", width=0.2)
        if cell == hexgrid.CENTRE:
            d.circle(cx, cy, disk / 2.0 + (flats - disk) / 4.0, stroke="#000000", width=0.5)
        d.text(cx - flats / 2.0 + name_size * 0.45, cy - radius / 2.0 + name_size * 1.15,
               hexgrid.cell_name(cell), name_size, fill="#222222")
        setting = SETTINGS.get(hexgrid.cell_name(cell))
        if setting:
            d.text(cx, cy + radius * 0.62, setting, name_size * 0.75, "middle", fill="#444444")


def template_svg(flats, disk):
    return template(flats, disk).svg(
        "mm", "Iago board template, hexes %s mm across flats" % fmt(flats))


A4 = (210.0, 297.0)
SHEET_MARGIN = 12.0     # mm kept clear on each A4 sheet: printers cannot print to the edge
PT_PER_MM = 72.0 / 25.4


def template_pdf(flats, disk):
    """The template as PDF bytes: page 1 the whole board at 1:1 on a page of its own size, then
    the board cut into A4 sheets (portrait or landscape, whichever needs fewer), each with its
    part of the board centred on the grid of sheets, to trim along their frame lines and butt
    together."""
    from reportlab.pdfgen.canvas import Canvas

    d = template(flats, disk)
    buf = io.BytesIO()
    canvas = Canvas(buf, pagesize=(d.width * PT_PER_MM, d.height * PT_PER_MM), invariant=1,
                    pageCompression=0)
    canvas.setTitle("Iago board template, hexes %s mm across flats" % fmt(flats))
    canvas.setAuthor("Iago board project")
    canvas.setSubject("Print at 100 % (actual size)")
    canvas.setCreator("hardware/make.py")
    d.pdf(canvas, PT_PER_MM, d.height * PT_PER_MM)
    canvas.showPage()

    d = template(flats, disk, furniture=False)
    best = None
    for sheet in (A4, (A4[1], A4[0])):
        usable = (sheet[0] - 2 * SHEET_MARGIN, sheet[1] - 2 * SHEET_MARGIN)
        across = math.ceil(d.width / usable[0])
        down = math.ceil(d.height / usable[1])
        if best is None or across * down < best[0]:
            best = (across * down, sheet, usable, across, down)
    count, sheet, usable, across, down = best
    # Centre the board on the grid of sheets, so no sheet holds a mere sliver.
    off_x = (across * usable[0] - d.width) / 2.0
    off_y = (down * usable[1] - d.height) / 2.0
    n = 0
    for j in range(down):
        for i in range(across):
            n += 1
            canvas.setPageSize((sheet[0] * PT_PER_MM, sheet[1] * PT_PER_MM))
            page_h = sheet[1] * PT_PER_MM
            x0 = SHEET_MARGIN * PT_PER_MM
            y0 = page_h - (SHEET_MARGIN + usable[1]) * PT_PER_MM
            w, h = usable[0] * PT_PER_MM, usable[1] * PT_PER_MM
            canvas.saveState()
            path = canvas.beginPath()
            path.rect(x0, y0, w, h)
            canvas.clipPath(path, stroke=0, fill=0)
            # Drawing point (x, y) -> sheet point SHEET_MARGIN + x - (window start).
            d.pdf(canvas, PT_PER_MM, page_h,
                  dx=SHEET_MARGIN + off_x - i * usable[0],
                  dy=SHEET_MARGIN + off_y - j * usable[1])
            canvas.restoreState()
            canvas.setDash([], 0)
            canvas.setStrokeColorRGB(0, 0, 0)
            canvas.setLineWidth(0.25)
            canvas.rect(x0, y0, w, h, stroke=1, fill=0)
            canvas.setFillColorRGB(0, 0, 0)
            canvas.setFont("Helvetica", 7.5)
            canvas.drawString(x0, page_h - (SHEET_MARGIN - 4) * PT_PER_MM,
                              "Iago template, hexes %s mm: sheet %d of %d (row %d, column %d "
                              "from the top left). Print at 100 %%. Trim at the frame where "
                              "sheets join." % (fmt(flats), n, count, j + 1, i + 1))
            bar_y = (SHEET_MARGIN - 6) * PT_PER_MM
            canvas.line(x0, bar_y, x0 + 100 * PT_PER_MM, bar_y)
            for k in range(11):
                canvas.line(x0 + 10 * k * PT_PER_MM, bar_y, x0 + 10 * k * PT_PER_MM,
                            bar_y + (2.5 if k % 5 == 0 else 1.5) * PT_PER_MM)
            canvas.drawString(x0 + 103 * PT_PER_MM, bar_y - 1, "100 mm")
            canvas.showPage()
    canvas.save()
    return buf.getvalue()


# --- wire for a hand-wired build --------------------------------------------------------------

def wire_lengths(bmap, flats):
    """The matrix wire a hand builder runs (mm): for each row line and column line, the
    shortest wire joining its cells hex to hex (a minimum spanning tree of their centres; the
    run to the Pico is left out, it depends on where the Pico sits). Returns (rows total,
    columns total, (longest, its name))."""
    names, count, cell_at = _shape(bmap)[:3]
    lines = {}
    for cell in range(count):
        crossing = bmap.crossing_of_cell[cell]
        for key in (("R", crossing >> 3), ("C", crossing & 7)):
            lines.setdefault(key, []).append(cell_at(cell, flats))
    totals = {"R": 0.0, "C": 0.0}
    longest = (0.0, "")
    for (kind, index), points in sorted(lines.items()):
        length = _spanning_tree(points)
        totals[kind] += length
        longest = max(longest, (length, "%s%d" % (kind, index)))
    return totals["R"], totals["C"], longest


def _spanning_tree(points):
    """The length of the minimum spanning tree of `points` (Prim's algorithm)."""
    if len(points) < 2:
        return 0.0
    best = {i: math.dist(points[0], points[i]) for i in range(1, len(points))}
    total = 0.0
    while best:
        nearest = min(best, key=best.get)
        total += best.pop(nearest)
        for i in best:
            best[i] = min(best[i], math.dist(points[nearest], points[i]))
    return total


def print_wire(maps, flats):
    for path in maps:
        bmap = boardmap.load(str(path))
        rows, cols, (longest, line) = wire_lengths(bmap, flats)
        print("%s: matrix wire cell to cell at %s mm: %.2f m in all (rows %.2f m, columns "
              "%.2f m), the longest line %s %.2f m" % (shown_path(path), fmt(flats),
                                                        (rows + cols) / 1000, rows / 1000,
                                                        cols / 1000, line, longest / 1000))


# --- the command ---------------------------------------------------------------------------

def default_maps():
    return [HERE / "board.json"] + sorted((HERE / "boards").glob("*.json"))


def shown_path(path):
    """A path as the outputs name it: relative to the project, never this machine's."""
    path = Path(path).resolve()
    try:
        return path.relative_to(ROOT).as_posix()
    except ValueError:
        return path.name


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
        files[stem + "-diagram.svg"] = diagram(bmap, source).encode()
        files[stem + "-wiring.md"] = wiring(bmap, source).encode()
    name = "template-%smm" % fmt(flats)
    files[name + ".svg"] = template_svg(flats, disk).encode()
    files[name + ".pdf"] = template_pdf(flats, disk)
    return files


def stale(files, out):
    """The names in `files` whose copy in `out` is missing or different."""
    return [name for name in sorted(files)
            if not (out / name).is_file() or (out / name).read_bytes() != files[name]]


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="hardware/make.py",
        description="Generate the board diagram, wiring tables and 1:1 template from board maps.")
    parser.add_argument("--map", action="append", metavar="PATH",
                        help="a board map (repeat for several; default: hardware/board.json "
                             "and hardware/boards/*.json)")
    parser.add_argument("--out", metavar="DIR", help="where to write (default: hardware/generated)")
    parser.add_argument("--hex-mm", type=float, default=DEFAULT_HEX_MM, metavar="MM",
                        help="template hex size across flats (default %s)" % fmt(DEFAULT_HEX_MM))
    parser.add_argument("--disk-mm", type=float, default=DEFAULT_DISK_MM, metavar="MM",
                        help="disk diameter drawn in the template (default %s)"
                             % fmt(DEFAULT_DISK_MM))
    parser.add_argument("--check", action="store_true",
                        help="write nothing; exit 1 if the files in --out are not up to date")
    args = parser.parse_args(argv)
    maps = [Path(p) for p in args.map] if args.map else default_maps()
    out = Path(args.out) if args.out else DEFAULT_OUT
    try:
        files = outputs(maps, args.hex_mm, args.disk_mm)
    except UsageError as exc:
        parser.error(str(exc))
    if args.check:
        behind = stale(files, out)
        if behind:
            print("not up to date in %s (run make hardware): %s"
                  % (shown_path(out), ", ".join(behind)), file=sys.stderr)
            return 1
        print("%d files up to date in %s" % (len(files), shown_path(out)))
        return 0
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
