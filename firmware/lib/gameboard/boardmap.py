"""The board map: which GPIO does what, where each hex sits in the reed matrix and LED chain.

One JSON file (hardware/board.json, copied to the Pico as /board.json) describes a built
board; hardware/board-map.md documents the format. `load` reads and checks it and returns a
`BoardMap` of flat tables that the scan and LED paths index directly.
"""

import json

import iago

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

FORMAT = const(1)
CELLS = const(61)
MATRIX_COLS = const(8)       # at most 8 column lines: a row's switches are one byte of bits
MATRIX_ROWS = const(16)      # at most 16 row lines: a crossing (row * 8 + col) fits 7 bits
NO_CELL = const(255)         # cell_of_crossing at a crossing no hex uses
SQUARE_SIZES = (7, 8, 9)     # square boards the firmware referees (gameboard/layout.py)

# GPIOs a board may use: GP23-25 and GP29 are wired on the Pico itself (power-supply mode,
# VBUS sense, on-board LED, VSYS sense).
USABLE_GPIOS = tuple(range(0, 23)) + (26, 27, 28)

# LED types and how many channels (bytes per LED) each takes.
LED_TYPES = {"WS2812B": 3, "WS2812": 3, "SK6812": 3, "SK6812-RGBW": 4}
BUTTONS = ("select", "confirm")

# Entries with defaults; the others are required.
DEFAULTS = {
    "led_type": "WS2812B",
    "colour_order": "GRB",
    "buttons": {},
    # The FRAM's I2C pins, {"sda": 18, "scl": 19} on the PCB; {}: none wired. Whether one is
    # fitted there, the firmware finds out at start (gameboard/hw.py's fram).
    "fram": {},
    "current_budget_ma": 500,
    "led_ma_per_channel": 20,
    "led_idle_ma": 1,
    "debounce_ms": 10,
    # A diode in series with every switch (the documented build). Without them the matrix
    # shows ghost presses, and the firmware never plays a hex that could be one.
    "diodes": True,
    # The board's shape: {"kind": "hex"} (61 hexes, Iago) or {"kind": "square", "size": 8}
    # (Othello) / 7 or 9 (Io); gameboard/layout.py.
    "geometry": {"kind": "hex"},
}
REQUIRED = ("format", "name", "rows", "cols", "led_pin", "cells")
OPTIONAL = ("notes",)
# What a BoardMap holds (its docstring says what each is), in the order check() sets them.
FIELDS = ("format", "name", "row_pins", "col_pins", "lines", "led_pin", "buttons", "fram",
          "led_type",
          "bpp", "colour_order", "current_budget_ma", "led_ma_per_channel", "led_idle_ma",
          "debounce_ms", "diodes", "geometry", "size", "cells", "cell_of_crossing",
          "crossing_of_cell", "led_of_cell", "cell_of_led")


class BoardMapError(ValueError):
    """The board map is unusable; the message names the entry at fault."""


class BoardMap:
    """A checked board map, made by `check(data)` or `load(path)`.

    name, format
    row_pins, col_pins   tuples of GPIO numbers of the matrix lines
    led_pin, led_type, bpp (bytes per LED)
    colour_order         the byte offset within an LED of red, green, blue (and white), as
                         neopixel's ORDER: (1, 0, 2) for GRB
    buttons              {"select": gpio, "confirm": gpio}, either or both may be absent
    fram                 {"sda": gpio, "scl": gpio} of the FRAM's I2C bus, or {} (none wired)
    current_budget_ma, led_ma_per_channel, led_idle_ma, debounce_ms
    geometry, size       "hex" (size 9) or "square" (size 7, 8 or 9)
    cells                how many cells: 61 hexes, or size * size squares
    lines                how many row lines the scan fills: len(row_pins), at least 8
    cell_of_crossing     bytearray(lines * 8): crossing (row * 8 + col, positions in row_pins
                         and col_pins) -> cell, or NO_CELL where no cell is wired
    crossing_of_cell     bytearray(cells): cell -> crossing
    led_of_cell          bytearray(cells): cell -> position in the LED chain
    cell_of_led          bytearray(cells): position in the LED chain -> cell

    It has no methods, so nothing in it refers to this module: once the map is loaded, the
    module can be dropped from sys.modules to give its heap back.
    """

    # Declarations only (MicroPython ignores them); check() sets every one.
    format: int
    name: str
    row_pins: tuple
    col_pins: tuple
    led_pin: int
    led_type: str
    bpp: int
    colour_order: tuple
    buttons: dict
    fram: dict
    current_budget_ma: int
    led_ma_per_channel: int
    led_idle_ma: int
    debounce_ms: int
    diodes: bool
    geometry: str
    size: int
    lines: int
    cells: int
    cell_of_crossing: bytearray
    crossing_of_cell: bytearray
    led_of_cell: bytearray
    cell_of_led: bytearray


def _fail(message):
    raise BoardMapError("board map: " + message)


def _is_int(value):
    return type(value) is int  # bool is not a count or a pin


def _count(data, key, minimum):
    value = data[key]
    if not _is_int(value) or value < minimum:
        _fail("%s must be a whole number of at least %d, not %s" % (key, minimum, _show(value)))
    return value


def _show(value):
    return json.dumps(value)


def _pin(value, where, used):
    if not _is_int(value) or value not in USABLE_GPIOS:
        _fail("%s: %s is not a usable Pico GPIO (0-22, 26-28)" % (where, _show(value)))
    if value in used:
        _fail("%s: GP%d is already used by %s" % (where, value, used[value]))
    used[value] = where
    return value


def _lines(data, key, used, most):
    pins = data[key]
    if not isinstance(pins, list) or not 1 <= len(pins) <= most:
        _fail("%s must be a list of 1-%d GPIO numbers" % (key, most))
    return tuple(_pin(p, "%s[%d]" % (key, i), used) for i, p in enumerate(pins))


def _fram(wiring, used):
    """The FRAM's pins: {} or one I2C block's SDA and SCL (on an RP2040 or RP2350, an even
    GPIO is SDA and the odd one SCL, of block (gpio >> 1) & 1)."""
    if not isinstance(wiring, dict) or (wiring and sorted(wiring) != ["scl", "sda"]):
        _fail("fram must be {} (none) or an object such as {\"sda\": 18, \"scl\": 19}")
    if not wiring:
        return {}
    sda = _pin(wiring["sda"], "fram.sda", used)
    scl = _pin(wiring["scl"], "fram.scl", used)
    if sda % 2 or not scl % 2 or (sda >> 1) & 1 != (scl >> 1) & 1:
        _fail("fram: GP%d and GP%d are not the SDA and SCL of one I2C block (GP18 and GP19 "
              "are I2C1's)" % (sda, scl))
    return {"sda": sda, "scl": scl}


def check(data):
    """Check a parsed board map (a dict) and build its BoardMap; raises BoardMapError."""
    data = _check(data)
    bmap = BoardMap()
    bmap.format = FORMAT
    if data["format"] != FORMAT:
        _fail("format %s is not supported (this firmware reads format %d)"
              % (_show(data["format"]), FORMAT))
    name = data["name"]
    if not isinstance(name, str) or not name:
        _fail("name must be a non-empty string")
    bmap.name = name

    used = {}
    bmap.row_pins = _lines(data, "rows", used, MATRIX_ROWS)
    bmap.col_pins = _lines(data, "cols", used, MATRIX_COLS)
    bmap.lines = max(8, len(bmap.row_pins))
    bmap.led_pin = _pin(data["led_pin"], "led_pin", used)
    buttons = data["buttons"]
    if not isinstance(buttons, dict):
        _fail("buttons must be an object such as {\"select\": 20, \"confirm\": 21}")
    bmap.buttons = {}
    for key in sorted(buttons):
        if key not in BUTTONS:
            _fail("buttons: unknown button %s (known: %s)" % (_show(key), ", ".join(BUTTONS)))
        bmap.buttons[key] = _pin(buttons[key], "buttons." + key, used)
    bmap.fram = _fram(data["fram"], used)
    _led_chain(data, bmap)
    bmap.debounce_ms = _count(data, "debounce_ms", 1)
    if data["diodes"] not in (True, False):
        _fail("diodes must be true or false, not %s" % _show(data["diodes"]))
    bmap.diodes = data["diodes"]
    if bmap.debounce_ms > 1000:
        _fail("debounce_ms %d is longer than any switch bounces (at most 1000)" % bmap.debounce_ms)
    _geometry(data["geometry"], bmap)
    idle = bmap.led_idle_ma * bmap.cells
    if bmap.current_budget_ma <= idle:
        _fail("current_budget_ma %d does not cover the LEDs' idle draw of %d mA"
              % (bmap.current_budget_ma, idle))
    if "notes" in data and not isinstance(data["notes"], (str, list)):
        _fail("notes must be a string or a list of strings")

    _cells(data["cells"], bmap)
    return bmap


def _check(data):
    """The map's entries, each known and the required ones there, with the defaults added."""
    if not isinstance(data, dict):
        _fail("the file must hold a JSON object")
    for key in sorted(data):
        if key not in REQUIRED and key not in DEFAULTS and key not in OPTIONAL:
            _fail("unknown entry %s" % _show(key))
    for key in REQUIRED:
        if key not in data:
            _fail("missing entry %s" % _show(key))
    data = dict(data)
    for key in DEFAULTS:
        if key not in data:
            data[key] = DEFAULTS[key]
    return data


def _led_chain(data, bmap):
    """The LEDs' type, colour order and current figures."""
    led_type = data["led_type"]
    if led_type not in LED_TYPES:
        _fail("led_type %s is unknown (known: %s)"
              % (_show(led_type), ", ".join(sorted(LED_TYPES))))
    bmap.led_type = led_type
    bmap.bpp = LED_TYPES[led_type]
    order = data["colour_order"]
    channels = "RGBW"[:bmap.bpp]
    if (not isinstance(order, str) or len(order) != bmap.bpp or
            sorted(order) != sorted(channels)):
        _fail("colour_order %s must arrange the letters %s (e.g. %s) for a %s"
              % (_show(order), ", ".join(channels), "GRB" + channels[3:], led_type))
    bmap.colour_order = tuple(order.index(ch) for ch in channels)

    bmap.current_budget_ma = _count(data, "current_budget_ma", 1)
    bmap.led_ma_per_channel = _count(data, "led_ma_per_channel", 1)
    bmap.led_idle_ma = _count(data, "led_idle_ma", 0)


def _geometry(geometry, bmap):
    kind = geometry.get("kind") if isinstance(geometry, dict) else None
    if kind == "hex" and sorted(geometry) == ["kind"]:
        bmap.geometry = "hex"
        bmap.size = 9
        bmap.cells = CELLS
        return
    if kind == "square" and sorted(geometry) == ["kind", "size"]:
        size = geometry["size"]
        if _is_int(size) and size in SQUARE_SIZES:
            bmap.geometry = "square"
            bmap.size = size
            bmap.cells = size * size
            return
        _fail("geometry: a square board is 7, 8 or 9 squares a side (Io 7x7, Othello, "
              "Io 9x9), not %s" % _show(size))
    _fail("geometry must be {\"kind\": \"hex\"} or {\"kind\": \"square\", \"size\": 8}, "
          "not %s" % _show(geometry))


def _names(bmap):
    """The cell names of the map's geometry, in cell order, and how to describe them."""
    if bmap.geometry == "hex":
        return [iago.cell_name(c) for c in range(CELLS)], "A1-A5 ... I5-I9"
    from iago import squaregrid
    grid = squaregrid.grid(bmap.size)
    return [grid.cell_name(c) for c in range(bmap.cells)], "a1-%s" % grid.cell_name(bmap.cells - 1)


def _cells(cells, bmap):
    if not isinstance(cells, dict):
        _fail("cells must be an object of cells: "
              "{\"A1\": {\"row\": 0, \"col\": 0, \"led\": 0}, ...}")
    count = bmap.cells
    names, span = _names(bmap)
    bmap.cell_of_crossing = bytearray(b"\xff" * (bmap.lines * MATRIX_COLS))
    bmap.crossing_of_cell = bytearray(count)
    bmap.led_of_cell = bytearray(count)
    bmap.cell_of_led = bytearray(count)
    for key in sorted(cells):
        if key not in names:
            _fail("cells: unknown cell %s (cells are %s)" % (_show(key), span))
    missing = [n for n in names if n not in cells]
    if missing:
        _fail("cells: missing %s" % ", ".join(missing))
    rows = len(bmap.row_pins)
    cols = len(bmap.col_pins)
    led_user = [None] * count
    for cell in range(count):
        name = names[cell]
        entry = cells[name]
        if not isinstance(entry, dict) or sorted(entry) != ["col", "led", "row"]:
            _fail("cells: %s must be {\"row\": R, \"col\": C, \"led\": L}" % name)
        row, col, led = entry["row"], entry["col"], entry["led"]
        if not _is_int(row) or not 0 <= row < rows:
            _fail("cells: %s: row %s is not a position in rows (0-%d)"
                  % (name, _show(row), rows - 1))
        if not _is_int(col) or not 0 <= col < cols:
            _fail("cells: %s: col %s is not a position in cols (0-%d)"
                  % (name, _show(col), cols - 1))
        if not _is_int(led) or not 0 <= led < count:
            _fail("cells: %s: LED %s is out of range (0-%d)" % (name, _show(led), count - 1))
        crossing = row * MATRIX_COLS + col
        other = bmap.cell_of_crossing[crossing]
        if other != NO_CELL:
            _fail("cells: %s and %s both use the crossing of row %d and col %d"
                  % (names[other], name, row, col))
        if led_user[led] is not None:
            _fail("cells: %s and %s both use LED %d" % (led_user[led], name, led))
        led_user[led] = name
        bmap.cell_of_crossing[crossing] = cell
        bmap.crossing_of_cell[cell] = crossing
        bmap.led_of_cell[cell] = led
        bmap.cell_of_led[led] = cell


def load(path):
    """Read and check the board map file at `path`; raises OSError or BoardMapError."""
    with open(path) as f:
        return parse(f.read(), path)


def parse(text, path):
    """Check the board map `text` (read from `path`); raises BoardMapError."""
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise BoardMapError("board map: %s is not valid JSON (%s)" % (path, exc))
    return check(data)


def checked_copy(bmap):
    """A checked map's entries as JSON-ready data, which gameboard.checkedmap reads back."""
    out = {}
    for name in FIELDS:
        value = getattr(bmap, name)
        out[name] = list(value) if isinstance(value, (tuple, bytearray)) else value
    return out
