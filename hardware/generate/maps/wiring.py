"""The wiring tables of a board map (Markdown): the Pico's pins, the row and column lines,
the matrix, the LED chain and the current budget; and the matrix wire a hand builder runs."""

import math
from pathlib import Path

from hardware.generate.maps.geometry import shape

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


def colour_order(bmap):
    """The LEDs' colour order as letters in wire order, e.g. GRB."""
    order = bmap.colour_order
    return "".join("RGBW"[order.index(i)] for i in range(len(order)))


def wiring(bmap, source):
    """The wiring tables of one board map, as Markdown."""
    names, count = shape(bmap)[:2]
    cells = "hexes" if bmap.geometry == "hex" else "squares"
    at = {}
    for cell in range(count):
        crossing = bmap.crossing_of_cell[cell]
        at[(crossing >> 3, crossing & 7)] = names(cell)
    out = ["# Wiring of %s" % bmap.name, "",
           "Generated from `%s` by `python -m hardware.generate` (`make hardware`); do not edit "
           "by hand. The picture is `%s`." % (source, Path(source).stem + "-diagram.svg"), ""]
    out += _pins(bmap, at, names)
    out += _lines(bmap, at, cells)
    out += _matrix(bmap, at)
    out += _chain(bmap, names, count, cells)
    out += _budget(bmap, count)
    return "\n".join(out)


def _pins(bmap, at, names):
    rows, cols = bmap.row_pins, bmap.col_pins
    out = ["## Pico pins", "",
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
    lines.append((bmap.led_pin, "LED data (%s, %s)" % (bmap.led_type, colour_order(bmap)),
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
    return out


def _lines(bmap, at, cells):
    """Which cells every row line and column line visits."""
    rows, cols = bmap.row_pins, bmap.col_pins
    out = ["## Row lines", "",
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
    return out


def _matrix(bmap, at):
    """The cell at each crossing of a row line and a column line."""
    rows, cols = bmap.row_pins, bmap.col_pins
    one = "hex" if bmap.geometry == "hex" else "square"
    out = ["## The matrix", "", "The %s at each crossing (`-`: no switch there)." % one, "",
           "| | " + " | ".join("C%d GP%d" % (i, p) for i, p in enumerate(cols)) + " |",
           "| --- |" + " --- |" * len(cols)]
    for r, pin in enumerate(rows):
        out.append("| **R%d GP%d** | " % (r, pin) +
                   " | ".join(at.get((r, c), "-") for c in range(len(cols))) + " |")
    out.append("")
    return out


def _chain(bmap, names, count, cells):
    """The LED chain's order, ten LEDs a line."""
    out = ["## The LED chain", "",
           "Data from GP%d (Pico pin %d) through the level shifter into LED 0; each LED's DOUT "
           "to the next one's DIN. Every LED also gets 5 V and GND." % (bmap.led_pin,
                                                                      PICO_PIN[bmap.led_pin]),
           "", "| LEDs | %s |" % cells, "| --- | --- |"]
    for start in range(0, count, 10):
        end = min(start + 10, count)
        out.append("| %d-%d | %s |" % (start, end - 1, " ".join(
            names(bmap.cell_of_led[i]) for i in range(start, end))))
    out.append("")
    return out


def _budget(bmap, count):
    return ["## Budget and timing", "",
            "- LED current budget: %d mA (the firmware scales every brighter frame down to it); "
            "%d mA a channel at full duty, %d mA for a dark LED." % (
                bmap.current_budget_ma, bmap.led_ma_per_channel, bmap.led_idle_ma),
            "- Full white on all %d LEDs would take about %d mA." % (
                count, count * (bmap.led_idle_ma + 3 * bmap.led_ma_per_channel)),
            "- Switch debounce: %d ms. Diodes: %s." % (
                bmap.debounce_ms, "yes, one per switch" if bmap.diodes else "none"), ""]


def _list(names):
    return ", ".join(names) if names else "nothing"


# --- wire for a hand-wired build --------------------------------------------------------------

def wire_lengths(bmap, flats):
    """The matrix wire a hand builder runs (mm): for each row line and column line, the
    shortest wire joining its cells hex to hex (a minimum spanning tree of their centres; the
    run to the Pico is left out, it depends on where the Pico sits). Returns (rows total,
    columns total, (longest, its name))."""
    names, count, cell_at = shape(bmap)[:3]
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
