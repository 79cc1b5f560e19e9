"""The board at 1:1 for hexes N mm across flats, as SVG and PDF: the outer ring and the centre
marked, each hex's name small in a corner, the disk's footprint, the hex centre where the reed
switch's inner end goes, and the settings hexes' names. The PDF has the whole board on one
page of its own size (for a print shop) and then the same cut into A4 sheets."""

import io
import math
import tomllib

from iago import hexgrid

from hardware.generate import DESIGN as DESIGN_FILE
from hardware.generate.maps.drawing import Drawing, fmt
from hardware.generate.maps.geometry import CELLS, SQRT3, board_size, cell_centre, hex_points

with open(DESIGN_FILE, "rb") as _f:
    DESIGN = tomllib.load(_f)     # the stack's parameters (hardware/generate/stack/)
DEFAULT_HEX_MM = float(DESIGN["board"]["pitch"])
DEFAULT_DISK_MM = float(DESIGN["disk"]["diameter"])
# The settings hexes on the empty board (docs/board.md, "Settings").
SETTINGS = {"A1": "rules", "A2": "penalty", "A3": "hints", "A4": "brightness", "A5": "palette",
            "B1": "computer's side", "B6": "computer's level"}


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
           "Dark grey with a ring: the centre, E5. Cross: the hex centre, where the switch starts; "
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
    canvas.setCreator("python -m hardware.generate (make hardware)")
    d.pdf(canvas, PT_PER_MM, d.height * PT_PER_MM)
    canvas.showPage()

    d = template(flats, disk, furniture=False)
    count, sheet, usable, across, down = _sheets(d)
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
            _sheet_frame(canvas, (x0, y0, w, h), page_h,
                         "Iago template, hexes %s mm: sheet %d of %d (row %d, column %d from the "
                         "top left). Print at 100 %%. Trim at the frame where sheets join."
                         % (fmt(flats), n, count, j + 1, i + 1))
            canvas.showPage()
    canvas.save()
    return buf.getvalue()


def _sheets(d):
    """The fewest A4 sheets that hold drawing `d`: (how many, the sheet's size, its usable
    size, sheets across, sheets down)."""
    best = None
    for sheet in (A4, (A4[1], A4[0])):
        usable = (sheet[0] - 2 * SHEET_MARGIN, sheet[1] - 2 * SHEET_MARGIN)
        across = math.ceil(d.width / usable[0])
        down = math.ceil(d.height / usable[1])
        if best is None or across * down < best[0]:
            best = (across * down, sheet, usable, across, down)
    return best


def _sheet_frame(canvas, frame, page_h, caption):
    """A sheet's frame to trim at (x0, y0, w, h in points), its caption and a 100 mm bar."""
    x0, y0, w, h = frame
    canvas.setDash([], 0)
    canvas.setStrokeColorRGB(0, 0, 0)
    canvas.setLineWidth(0.25)
    canvas.rect(x0, y0, w, h, stroke=1, fill=0)
    canvas.setFillColorRGB(0, 0, 0)
    canvas.setFont("Helvetica", 7.5)
    canvas.drawString(x0, page_h - (SHEET_MARGIN - 4) * PT_PER_MM, caption)
    bar_y = (SHEET_MARGIN - 6) * PT_PER_MM
    canvas.line(x0, bar_y, x0 + 100 * PT_PER_MM, bar_y)
    for k in range(11):
        canvas.line(x0 + 10 * k * PT_PER_MM, bar_y, x0 + 10 * k * PT_PER_MM,
                    bar_y + (2.5 if k % 5 == 0 else 1.5) * PT_PER_MM)
    canvas.drawString(x0 + 103 * PT_PER_MM, bar_y - 1, "100 mm")
