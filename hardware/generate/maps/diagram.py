"""The wiring diagram of a board map (SVG): every cell with its name, its LED's place in the
chain, its matrix row and column lines and their GPIOs, and the LED chain's path."""

import math

from hardware.generate.maps.drawing import Drawing
from hardware.generate.maps.geometry import shape
from hardware.generate.maps.wiring import colour_order

# Fill colours of the row lines in the diagram (pale, so black text stays readable).
ROW_FILLS = ("#fde2e2", "#fdf0d5", "#fbf8cc", "#dcf5d9", "#d6f0f5", "#dde4fb", "#ebdcf9",
             "#f5dcec", "#e6e6e6", "#f2e6d9", "#e0f0e8", "#e8e0f0", "#f0f0dc", "#dcecf0",
             "#f0dce4", "#e4f0dc")      # a fill for each of up to 16 row lines
FLATS = 96.0        # a cell's size in the diagram
MARGIN = 24.0
TOP = 64.0          # the title's height
KEY_WIDTH = 104     # a row line's key in the legend


def diagram(bmap, source):
    """The wiring diagram of one board map, as SVG text."""
    names, count, cell_at, outline, size_of, bottom = shape(bmap)
    bw, bh = size_of(FLATS)
    per_line = max(1, int(bw // KEY_WIDTH))            # row-line keys on a legend line
    legend_lines = 5 + math.ceil(len(bmap.row_pins) / per_line)
    d = Drawing(bw + 2 * MARGIN, TOP + bh + 16 + legend_lines * 22 + MARGIN)
    d.text(MARGIN, 30, "Board %s: the cells, the reed matrix and the LED chain" % bmap.name, 20,
           bold=True)
    d.text(MARGIN, 50, "Generated from %s by python -m hardware.generate (make hardware). "
           "Seen from above, %s." % (source, bottom), 12, fill="#444444")

    def centre(cell):
        x, y = cell_at(cell, FLATS)
        return x + MARGIN, y + TOP

    for cell in range(count):
        cx, cy = centre(cell)
        row = bmap.crossing_of_cell[cell] >> 3
        d.polygon(outline(cx, cy, FLATS), stroke="#333333", fill=ROW_FILLS[row], width=1.2)
    _led_chain(d, [centre(bmap.cell_of_led[i]) for i in range(count)])
    for cell in range(count):
        _cell_labels(d, bmap, centre(cell), cell, names(cell))
    _legend(d, bmap, TOP + bh + 30, per_line, names, count)
    return d.svg(title="Iago board %s: wiring diagram" % bmap.name)


def _led_chain(d, chain):
    """The LED chain, from LED 0 to the last, through the cells' centres (between their lines
    of text), an arrow on every link; a circle at the data input, a square at the end."""
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


def _cell_labels(d, bmap, at, cell, name):
    """A cell's name, its LED, its row line and column line with their GPIOs."""
    cx, cy = at
    crossing = bmap.crossing_of_cell[cell]
    row, col = crossing >> 3, crossing & 7
    fill = ROW_FILLS[row]
    d.text(cx, cy - 25, name, 17, "middle", bold=True, halo=fill)
    d.text(cx, cy - 10, "LED %d" % bmap.led_of_cell[cell], 12, "middle", fill="#8a3b00",
           halo=fill)
    d.text(cx, cy + 20, "R%d GP%d" % (row, bmap.row_pins[row]), 11.5, "middle", halo=fill)
    d.text(cx, cy + 34, "C%d GP%d" % (col, bmap.col_pins[col]), 11.5, "middle", halo=fill)


def _legend(d, bmap, y, per_line, names, count):
    """Under the board, from baseline `y`: the fills' key, the chain, the columns, the rest."""
    d.text(MARGIN, y, "Fill colour: the cell's matrix row line. In each cell: its name, its LED's "
           "position in the chain, its row line (R) and column line (C) with their GPIOs.", 12)
    y += 22
    for row, pin in enumerate(bmap.row_pins):
        if row and row % per_line == 0:
            y += 22
        x = MARGIN + KEY_WIDTH * (row % per_line)
        d.polygon([(x, y - 12), (x + 18, y - 12), (x + 18, y + 4), (x, y + 4)], stroke="#333333",
                  fill=ROW_FILLS[row], width=1)
        d.text(x + 24, y, "R%d = GP%d" % (row, pin), 12)
    y += 22
    first = names(bmap.cell_of_led[0])
    last = names(bmap.cell_of_led[count - 1])
    d.text(MARGIN, y, "Orange: the LED chain (%s, %s), data in at %s (LED 0, circle) from "
           "GP%d through the level shifter, last LED at %s (LED %d, square)."
           % (bmap.led_type, colour_order(bmap), first, bmap.led_pin, last, count - 1), 12)
    y += 22
    d.text(MARGIN, y, "Columns: %s." % ", ".join("C%d = GP%d" % (i, p)
                                                 for i, p in enumerate(bmap.col_pins)), 12)
    y += 22
    buttons = ", ".join("%s GP%d" % (name, bmap.buttons[name]) for name in sorted(bmap.buttons))
    d.text(MARGIN, y, "Buttons to ground: %s. LED current budget %d mA. Diodes: %s."
           % (buttons or "none", bmap.current_budget_ma,
              "one per switch, band toward the row line" if bmap.diodes else "none"), 12)
