"""The PCB's inputs, read and checked: the board map, design.toml (shared with the stack) and
pcb.toml (the PCB's own). Plain Python: no KiCad needed.

Coordinates here are the board's (design.toml): mm, origin at the centre hex E5, x toward
higher positions along a row, y toward row I, angles counter-clockwise seen from the top.
"""

import math
import tomllib
from pathlib import Path

from gameboard import boardmap   # the firmware's own map check
from iago import hexgrid

from hardware.generate import BOARD_MAP, DESIGN, HARDWARE, shown_path
# The build documents' generator shares the Pico's pin numbers and its drawing model (the
# schematic's).
from hardware.generate.maps import drawing, wiring

PICO_PIN = wiring.PICO_PIN           # GPIO -> Pico pin number
Drawing = drawing.Drawing

PCB = HARDWARE / "pcb" / "pcb.toml"
SQRT3 = math.sqrt(3.0)
CELLS = hexgrid.CELLS
ROW_LETTERS = "ABCDEFGHI"


class ParamError(Exception):
    """A parameter file or the board map cannot make a board; the message says what to fix."""


def _table(data, path, where):
    node = data
    for key in path.split("."):
        if not isinstance(node, dict) or key not in node:
            raise ParamError("%s: missing [%s]" % (where, path))
        node = node[key]
    return node


def _number(table, key, where, low=None, high=None):
    value = table.get(key)
    if type(value) not in (int, float):
        raise ParamError("%s: %s must be a number, not %r" % (where, key, value))
    if (low is not None and value < low) or (high is not None and value > high):
        raise ParamError("%s: %s = %s is outside %s-%s" % (where, key, value, low, high))
    return float(value)


def _point(value, where):
    if (not isinstance(value, list) or len(value) != 2 or
            any(type(v) not in (int, float) for v in value)):
        raise ParamError("%s must be [x, y], not %r" % (where, value))
    return float(value[0]), float(value[1])


class Placement:
    """A part's place: x, y (mm) and rotation (degrees), in some frame."""

    def __init__(self, x, y, rotation):
        self.x, self.y, self.rotation = x, y, rotation

    def __repr__(self):
        return "Placement(%g, %g, %g)" % (self.x, self.y, self.rotation)


def _placement(table, where):
    return Placement(_number(table, "x", where, -1000, 1000),
                     _number(table, "y", where, -1000, 1000),
                     _number(table, "rotation", where, -360, 360))


class Box:
    """A tall part's body from design.toml [pcb.*]: centre, size along x and y, height."""

    def __init__(self, table, where):
        self.x = _number(table, "x", where, -1000, 1000)
        self.y = _number(table, "y", where, -1000, 1000)
        self.rotation = float(table.get("rotation", 0.0))
        self.size = _point(table.get("size"), where + ".size") if "size" in table else None
        self.height = table.get("height")


class Part:
    """What a part is and how it is ordered (pcb.toml [parts.*]); the LED's and the reed
    switch's footprints come from design.toml (`footprint`)."""

    def __init__(self, key, table, footprint=None):
        where = "pcb.toml [parts.%s]" % key
        self.key = key
        if footprint is not None:
            table = dict(table, footprint=footprint)
        for name in ("footprint", "value", "manufacturer", "mpn", "lcsc"):
            if not isinstance(table.get(name), str):
                raise ParamError("%s: %s must be a string" % (where, name))
        if ":" not in table["footprint"]:
            raise ParamError("%s: footprint must be LIBRARY:NAME, not %r"
                             % (where, table["footprint"]))
        self.library, self.name = table["footprint"].split(":", 1)
        self.footprint = table["footprint"]
        self.value = table["value"]
        self.manufacturer = table["manufacturer"]
        self.mpn = table["mpn"]
        self.lcsc = table["lcsc"]
        self.assembled = bool(table.get("assembled", False))
        self.fitted = bool(table.get("fitted", True))
        self.sourcing = table.get("sourcing", "lcsc" if self.lcsc else "")
        if self.sourcing not in ("lcsc", "global", ""):
            raise ParamError("%s: sourcing must be \"global\" (the fab buys it by its "
                             "manufacturer's part number), not %r" % (where, self.sourcing))
        if self.sourcing == "global" and not (self.mpn and self.manufacturer):
            raise ParamError("%s: a globally sourced part needs its manufacturer and mpn"
                             % where)

    @property
    def placed_by_fab(self):
        """In the fab's BOM and placement files: assembled and fitted."""
        return self.assembled and self.fitted


class Params:
    """Everything the PCB is generated from."""

    def __init__(self, design=DESIGN, pcb=PCB, board_map=BOARD_MAP):
        self.sources = {"design": Path(design), "pcb": Path(pcb), "map": Path(board_map)}
        design_data = _load_toml(design)
        pcb_data = _load_toml(pcb)
        self._load_map(board_map)
        self._design(design_data)
        self._pcb(pcb_data)
        self._parts(design_data, pcb_data)
        self._hexes_fit()
        for key in ("led", "led_capacitor", "matrix_diode", "reed", "pico",
                    "level_shifter", "capacitor", "data_resistor", "pullup", "fram",
                    "fram_capacitor", "schottky", "bulk_capacitor", "power_input", "input_fuse",
                    "reverse_fet", "tvs", "button", "run_button", "expansion_header",
                    "chain_header", "test_point", "mounting_hole", "fiducial"):
            if key not in self.parts:
                raise ParamError("pcb.toml: missing [parts.%s]" % key)

    def _load_map(self, board_map):
        try:
            self.map = boardmap.load(str(board_map))
        except OSError as exc:
            raise ParamError("cannot read the board map %s: %s" % (board_map, exc.strerror))
        except boardmap.BoardMapError as exc:
            raise ParamError("%s: %s" % (Path(board_map).name, exc))
        if self.map.geometry != "hex":
            raise ParamError("%s is a square board's map: the PCB is the 61-hex board"
                             % Path(board_map).name)
        self.map_name = Path(board_map).name

    def _design(self, design_data):
        """The pitch, the hex's LED and reed switch, the window and the outline."""
        where = "design.toml"
        self.pitch = _number(_table(design_data, "board", where), "pitch", where, 20, 100)
        self.led = _placement(_table(design_data, "parts.led", where), where + " [parts.led]")
        self.reed = _placement(_table(design_data, "parts.reed", where),
                               where + " [parts.reed]")
        self.stack = _table(design_data, "stack", where)
        wall = _number(self.stack, "light_wall", where + " [stack]", 0, self.pitch / 2)
        # Every part of a hex stays inside its window: the hex less the walls.
        self.window = (self.pitch - wall) / 2.0
        self._outline(_table(design_data, "pcb", where))

    def _pcb(self, pcb_data):
        """pcb.toml's rules, the row lines, the hex's own parts, the corner and the FRAM."""
        where = "pcb.toml"
        rules = _table(pcb_data, "rules", where)
        self.rules = {k: _number(rules, k, where + " [rules]", 0.05, 10) for k in (
            "clearance", "track", "power_track", "bus_5v", "trunk_5v", "via_diameter",
            "via_drill", "hole_to_hole", "edge_clearance", "zone_clearance", "grid")}
        if self.rules["via_drill"] >= self.rules["via_diameter"]:
            raise ParamError("pcb.toml [rules]: via_drill must be smaller than via_diameter")
        rows = _table(pcb_data, "rows", where)
        self.bus_5v_offset = _number(rows, "bus_5v_offset", where + " [rows]", 1, self.pitch)
        self.row_line_y = _number(rows, "row_line_y", where + " [rows]", -self.pitch,
                                  self.pitch)
        self.trunk_gap = _number(rows, "trunk_gap", where + " [rows]", 1, 20)
        self.diode = _placement(_table(pcb_data, "hex.diode", where), where + " [hex.diode]")
        self.capacitor = _placement(_table(pcb_data, "hex.capacitor", where),
                                    where + " [hex.capacitor]")
        self.corner = {k: _placement(v, "%s [corner.%s]" % (where, k))
                       for k, v in _table(pcb_data, "corner", where).items()}
        fram = _table(pcb_data, "fram", where)
        self.fram_sda = int(_number(fram, "sda_gpio", where + " [fram]", 0, 28))
        self.fram_scl = int(_number(fram, "scl_gpio", where + " [fram]", 0, 28))
        self.power = {k: _placement(v, "%s [power.%s]" % (where, k))
                      for k, v in _table(pcb_data, "power", where).items()}
        gpios = _table(pcb_data, "expansion", where).get("gpios")
        if not isinstance(gpios, list) or any(type(g) is not int or not 0 <= g <= 28
                                              for g in gpios):
            raise ParamError("%s [expansion]: gpios must be a list of GPIO numbers" % where)
        self.expansion_gpios = gpios
        self._test_points(_table(pcb_data, "test_points", where))

    def _test_points(self, table):
        where = "pcb.toml [test_points]"
        self.tp_row_gap = _number(table, "row_line_gap", where, 1, 10)
        self.tp_column_offset = _point(table.get("column_offset"), where + " column_offset")
        self.tp_corner = _point(table.get("corner"), where + " corner")
        self.tp_corner_pitch = _number(table, "corner_pitch", where, 2, 10)
        nets = table.get("corner_nets")
        if not isinstance(nets, list) or not all(isinstance(n, str) for n in nets):
            raise ParamError("%s: corner_nets must be a list of net names" % where)
        self.tp_corner_nets = nets
        self.tp_chain_header = _point(table.get("chain_header"), where + " chain_header")

    def _parts(self, design_data, pcb_data):
        """The parts to order; the LED and the reed switch as design.toml names them."""
        led = _table(design_data, "parts.led", "design.toml")
        reed = _table(design_data, "parts.reed", "design.toml")
        footprints = {"led": led.get("footprint"), "reed": reed.get("footprint")}
        for key, value in footprints.items():
            if not isinstance(value, str):
                raise ParamError("design.toml [parts.%s]: footprint must name the part's KiCad "
                                 "footprint (LIBRARY:NAME)" % key)
        self.parts = {k: Part(k, v, footprints.get(k))
                      for k, v in _table(pcb_data, "parts", "pcb.toml").items()}
        for key, design_part in (("led", led.get("part")), ("reed", reed.get("part"))):
            mpn = self.parts[key].mpn if key in self.parts else ""
            if not isinstance(design_part, str) or not (
                    design_part.split()[-1] in mpn or mpn in design_part):
                raise ParamError("design.toml [parts.%s] is the part %r, but pcb.toml "
                                 "[parts.%s] orders %r: make them agree"
                                 % (key, design_part, key, mpn))

    def _outline(self, pcb):
        where = "design.toml [pcb]"
        self.width = _number(pcb, "width", where, 50, 1000)
        self.height = _number(pcb, "height", where, 50, 1000)
        self.corner_radius = _number(pcb, "corner_radius", where, 0, 20)
        self.hole_diameter = _number(pcb, "mounting_hole_diameter", where, 1, 8)
        self.mounting_holes = [_point(p, where + " mounting_holes")
                               for p in pcb.get("mounting_holes", [])]
        self.fiducials = [_point(p, where + " fiducials") for p in pcb.get("fiducials", [])]
        self.pico = Box(_table(pcb, "pico", where), where + " [pcb.pico]")
        self.usb = Box(_table(pcb, "usb", where), where + " [pcb.usb]")
        self.buttons = {name: Box(_table(pcb, name + "_button", where),
                                  "%s [pcb.%s_button]" % (where, name))
                        for name in ("select", "confirm")}
        self.power_input = Box(_table(pcb, "power_input", where), where + " [pcb.power_input]")
        self.bulk_capacitor = Box(_table(pcb, "bulk_capacitor", where),
                                  where + " [pcb.bulk_capacitor]")
        # The Pico's USB end must be where [pcb.usb] says the plug goes in.
        angle = math.radians(self.pico.rotation)
        end = (self.pico.x - 25.5 * math.sin(angle), self.pico.y + 25.5 * math.cos(angle))
        if math.hypot(end[0] - self.usb.x, end[1] - self.usb.y) > 0.5:
            raise ParamError("%s: the Pico's USB end is at (%.1f, %.1f), but [pcb.usb] says "
                             "(%.1f, %.1f)" % (where, end[0], end[1], self.usb.x, self.usb.y))

    def _hexes_fit(self):
        """Every hex's window (where its parts may go) inside the outline."""
        margin = self.rules["edge_clearance"]
        for cell in range(CELLS):
            for x, y in self.hex_corners(cell, self.window):
                if abs(x) > self.width / 2.0 - margin or abs(y) > self.height / 2.0 - margin:
                    raise ParamError(
                        "hex %s reaches (%.1f, %.1f), outside the %g x %g mm board: at a %g mm "
                        "pitch make design.toml [pcb] width and height larger"
                        % (cell_name(cell), x, y, self.width, self.height, self.pitch))

    # --- geometry ---

    def hex_centre(self, cell):
        """The centre of hex `cell` (0-60): row A at y < 0, E5 at the origin."""
        row = hexgrid.ROW_OF[cell]
        number = hexgrid.NUMBER_OF[cell]
        return ((number - row / 2.0 - 3.0) * self.pitch, (row - 4) * self.pitch * SQRT3 / 2.0)

    def hex_corners(self, cell, flats=None):
        """The corners of hex `cell`, or of a hex `flats` from its centre across flats."""
        cx, cy = self.hex_centre(cell)
        radius = (self.pitch / 2.0 if flats is None else flats) * 2.0 / SQRT3
        return [(cx + radius * math.cos(math.radians(90 + 60 * k)),
                 cy + radius * math.sin(math.radians(90 + 60 * k))) for k in range(6)]

    def row_cells(self, row):
        return [c for c in range(CELLS) if hexgrid.ROW_OF[c] == row]

    def crossing(self, cell):
        crossing = self.map.crossing_of_cell[cell]
        return crossing >> 3, crossing & 7


def _load_toml(path):
    try:
        with open(path, "rb") as f:
            return tomllib.load(f)
    except OSError as exc:
        raise ParamError("cannot read %s: %s" % (path, exc.strerror))
    except tomllib.TOMLDecodeError as exc:
        raise ParamError("%s: %s" % (Path(path).name, exc))


def cell_name(cell):
    return hexgrid.cell_name(cell)


shown = shown_path
