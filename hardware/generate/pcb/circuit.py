"""The board's circuit from its map and parameters: every part, where it sits and what each
of its pads connects to. Plain Python: the KiCad stage places exactly this, and the tests
compare what KiCad wrote back with the board map, not with this module.

Net names: `ROW<r>` and `COL<c>` the matrix lines (r, c their places in the map's rows and
cols), `SW_<hex>` a hex's switch-to-diode node, `DIN_<hex>` the data into that hex's LED,
`+5V`, `GND`, `+3V3`, `VSYS`, `LED_DATA` (the Pico to the level shifter), `LED_DATA_5V` (the
level shifter to the data resistor), `LED_CHAIN_OUT` (the last LED's data out), `BTN_SELECT`,
`BTN_CONFIRM`, `RUN` (the Pico's reset), `I2C_SDA`, `I2C_SCL`, `GP<n>` (the expansion header's
spare GPIOs), `VIN` (the terminal to the fuse), `VIN_FUSED` (the fuse to the P-MOSFET).
USB's VBUS stays on the Pico: the LEDs take their 5 V from the terminal only.
"""

import math
import os
import re
from pathlib import Path

from hardware.generate import PCB_GENERATED

from . import params as P
from .footprints import FOOTPRINTS, pico_pin

FOOTPRINT_DIRS = [Path(os.environ.get("KICAD6_FOOTPRINT_DIR", "/usr/share/kicad/footprints"))]
PROJECT_LIBRARY = PCB_GENERATED / "iago.pretty"

PICO_PIN = P.PICO_PIN
PICO_GND_PINS = (3, 8, 13, 18, 23, 28, 33, 38)
PICO_RUN, PICO_3V3, PICO_VSYS = 30, 36, 39


class Component:
    """One part on the board: `ref`, its `part` (params.Part), where it sits (board
    coordinates, rotation in degrees counter-clockwise), `nets` {pad number: net name}, and
    `hex`, the name of the hex it serves (None for the parts around the Pico)."""

    def __init__(self, ref, part, x, y, rotation, nets, hex_name=None):
        self.ref, self.part = ref, part
        self.x, self.y, self.rotation = x, y, rotation % 360.0
        self.nets = nets
        self.hex = hex_name

    def __repr__(self):
        return "<%s %s at %.2f, %.2f>" % (self.ref, self.part.key, self.x, self.y)


def footprint_file(part):
    """The .kicad_mod file of a part's footprint."""
    if part.library == "iago":
        return PROJECT_LIBRARY / (part.name + ".kicad_mod")
    for folder in FOOTPRINT_DIRS:
        path = folder / (part.library + ".pretty") / (part.name + ".kicad_mod")
        if path.is_file():
            return path
    raise P.ParamError("footprint %s not found under %s: install KiCad's footprint library "
                       "(apt-get install kicad-footprints)"
                       % (part.footprint, ", ".join(str(d) for d in FOOTPRINT_DIRS)))


def pad_position(part, number):
    """Pad `number`'s place in the part's footprint, turned to board axes (y up)."""
    if part.library == "iago" and part.name == "RaspberryPi_Pico":
        x, y = pico_pin(int(number))
        return x, -y
    text = footprint_file(part).read_text() if part.library != "iago" else \
        FOOTPRINTS[part.name]()
    found = re.search(r'\(pad "%s" \S+ \S+ \(at (\S+) (\S+)' % re.escape(str(number)), text)
    if not found:
        raise P.ParamError("%s has no pad %s" % (part.footprint, number))
    return float(found.group(1)), -float(found.group(2).rstrip(")"))


def rotate(x, y, degrees):
    a = math.radians(degrees)
    return x * math.cos(a) - y * math.sin(a), x * math.sin(a) + y * math.cos(a)


def _in_frame(origin, rotation, offset):
    dx, dy = rotate(offset[0], offset[1], rotation)
    return origin[0] + dx, origin[1] + dy


def chain_runs_right(params, cell):
    """True if the LED chain runs toward higher positions through `cell` (its data comes in
    from the left): then the LED is turned half round from design.toml's rotation, so its
    DIN pad faces the previous LED."""
    bmap = params.map
    led = bmap.led_of_cell[cell]
    x, y = params.hex_centre(cell)
    for step in (-1, 1):            # a neighbour in the chain on the same row decides
        if 0 <= led + step < bmap.cells:
            ox, oy = params.hex_centre(bmap.cell_of_led[led + step])
            if abs(oy - y) < 1:
                return (ox < x) == (step < 0)
    return True


def build(params):
    """The list of Components."""
    bmap = params.map
    parts = params.parts
    out = []
    reed_part = parts["reed"]
    for cell in range(P.CELLS):
        name = P.cell_name(cell)
        n = cell + 1
        cx, cy = params.hex_centre(cell)
        row, col = params.crossing(cell)
        led = bmap.led_of_cell[cell]
        led_rot = params.led.rotation + (180.0 if chain_runs_right(params, cell) else 0.0)
        led_at = (cx + params.led.x, cy + params.led.y)
        dout = ("DIN_" + P.cell_name(bmap.cell_of_led[led + 1]) if led + 1 < bmap.cells
                else "LED_CHAIN_OUT")
        out.append(Component("LED%d" % n, parts["led"], led_at[0], led_at[1], led_rot,
                             {"1": "+5V", "2": dout, "3": "GND", "4": "DIN_" + name}, name))
        cap_at = _in_frame(led_at, led_rot, (params.capacitor.x, params.capacitor.y))
        out.append(Component("C%d" % n, parts["led_capacitor"], cap_at[0], cap_at[1],
                             led_rot + params.capacitor.rotation, {"1": "+5V", "2": "GND"}, name))
        reed_at = (cx + params.reed.x, cy + params.reed.y)
        out.append(Component("SW%d" % n, reed_part, reed_at[0], reed_at[1], params.reed.rotation,
                             {"1": "COL%d" % col, "2": "SW_" + name}, name))
        diode_at = _in_frame(reed_at, params.reed.rotation, (params.diode.x, params.diode.y))
        out.append(Component("D%d" % n, parts["matrix_diode"], diode_at[0], diode_at[1],
                             params.reed.rotation + params.diode.rotation,
                             {"1": "ROW%d" % row, "2": "SW_" + name}, name))
    out += _corner(params)
    return out


def _pico_nets(params):
    """{Pico pin number: net} of the board map's lines, the FRAM's I2C pair and the power."""
    bmap = params.map
    pico_nets = {}
    for r, gpio in enumerate(bmap.row_pins):
        pico_nets[str(PICO_PIN[gpio])] = "ROW%d" % r
    for c, gpio in enumerate(bmap.col_pins):
        pico_nets[str(PICO_PIN[gpio])] = "COL%d" % c
    pico_nets[str(PICO_PIN[bmap.led_pin])] = "LED_DATA"
    for name, gpio in bmap.buttons.items():
        pico_nets[str(PICO_PIN[gpio])] = "BTN_" + name.upper()
    used = set(bmap.row_pins) | set(bmap.col_pins) | {bmap.led_pin} | set(bmap.buttons.values())
    extra = [("I2C_SDA", params.fram_sda, "[fram]"), ("I2C_SCL", params.fram_scl, "[fram]")]
    extra += [("GP%d" % g, g, "[expansion]") for g in params.expansion_gpios]
    for what, gpio, where in extra:
        if gpio in used or gpio not in PICO_PIN:
            raise P.ParamError("pcb.toml %s: GP%d is %s" % (
                where, gpio, "used by the board map or another net" if gpio in used
                else "not on a Pico pin"))
        used.add(gpio)
        pico_nets[str(PICO_PIN[gpio])] = what
    for pin in PICO_GND_PINS:
        pico_nets[str(pin)] = "GND"
    pico_nets.update({str(PICO_RUN): "RUN", str(PICO_3V3): "+3V3", str(PICO_VSYS): "VSYS"})
    return pico_nets


def _corner(params):
    """The Pico and the parts around it, then the parts at the board's edge."""
    bmap = params.map
    parts = params.parts
    pico = params.pico
    out = [Component("U1", parts["pico"], pico.x, pico.y, pico.rotation, _pico_nets(params))]

    def near(key, ref, part, nets):
        c = params.corner[key]
        out.append(Component(ref, parts[part], pico.x + c.x, pico.y + c.y, c.rotation, nets))

    g, v = "GND", "+5V"
    near("level_shifter", "U2", "level_shifter", {
        "1": g, "2": "LED_DATA", "3": "LED_DATA_5V", "4": v, "5": g, "6": None, "7": g,
        "8": None, "9": g, "10": v, "11": None, "12": g, "13": v, "14": v})
    near("level_shifter_capacitor", "C101", "capacitor", {"1": v, "2": g})
    near("data_resistor", "R1", "data_resistor",
         {"1": "LED_DATA_5V", "2": "DIN_" + P.cell_name(bmap.cell_of_led[0])})
    near("vsys_diode", "D101", "schottky", {"1": "VSYS", "2": v})
    near("led_data_pulldown", "R4", "pullup", {"1": "LED_DATA", "2": g})
    near("run_button", "SW103", "run_button", {"1": "RUN", "2": g})
    header = {"1": v, "2": g, "3": "+3V3", "4": "I2C_SDA", "5": "I2C_SCL"}
    header.update({str(6 + k): "GP%d" % gpio for k, gpio in enumerate(params.expansion_gpios)})
    near("expansion_header", "J2", "expansion_header", header)
    near("fram", "U3", "fram", {"1": g, "2": g, "3": g, "4": g, "5": "I2C_SDA",
                                "6": "I2C_SCL", "7": g, "8": "+3V3"})
    near("fram_capacitor", "C102", "fram_capacitor", {"1": "+3V3", "2": g})
    near("sda_pullup", "R2", "pullup", {"1": "+3V3", "2": "I2C_SDA"})
    near("scl_pullup", "R3", "pullup", {"1": "+3V3", "2": "I2C_SCL"})
    return out + _edge_parts(params)


def _edge_parts(params):
    """The buttons, the power input, the mounting holes, fiducials and test points."""
    bmap = params.map
    parts = params.parts
    g = "GND"
    out = []
    # The buttons: design.toml gives the middle of the 6 x 6 mm body; the footprint's origin
    # is pad 1, 3.25 mm left of and 2.25 mm above the middle.
    for ref, name in (("SW101", "select"), ("SW102", "confirm")):
        box = params.buttons[name]
        if name not in bmap.buttons:
            continue
        ox, oy = _in_frame((box.x, box.y), box.rotation, (-3.25, 2.25))
        out.append(Component(ref, parts["button"], ox, oy, box.rotation,
                             {"1": "BTN_" + name.upper(), "2": g}))
    out += _power_input(params)
    for k, (x, y) in enumerate(params.mounting_holes):
        out.append(Component("H%d" % (k + 1), parts["mounting_hole"], x, y, 0.0, {}))
    for k, (x, y) in enumerate(params.fiducials):
        out.append(Component("FID%d" % (k + 1), parts["fiducial"], x, y, 0.0, {}))
    return out + _test_points(params)


def _power_input(params):
    """The terminal (design.toml gives the middle of its body; the footprint's origin, pad 1,
    is 2.54 mm left of it and 0.3 mm behind), the fuse, the reverse-polarity P-MOSFET
    (drain to the fuse, source to 5 V, gate to GND), the TVS and the bulk capacitor."""
    parts, power = params.parts, params.power
    g, v = "GND", "+5V"
    box = params.power_input
    ox, oy = _in_frame((box.x, box.y), box.rotation, (-2.54, -0.3))
    out = [Component("J1", parts["power_input"], ox, oy, box.rotation, {"1": "VIN", "2": g})]

    def at(key, ref, nets):
        c = power[key]
        out.append(Component(ref, parts[key], c.x, c.y, c.rotation, nets))

    at("input_fuse", "F1", {"1": "VIN_FUSED", "2": "VIN"})
    at("reverse_fet", "Q1", {"1": v, "2": v, "3": v, "4": g, "5": "VIN_FUSED",
                            "6": "VIN_FUSED", "7": "VIN_FUSED", "8": "VIN_FUSED"})
    at("tvs", "D103", {"1": v, "2": g})
    bulk = params.bulk_capacitor
    out.append(Component("C103", parts["bulk_capacitor"], bulk.x, bulk.y, bulk.rotation,
                         {"1": v, "2": g}))
    hx, hy = params.tp_chain_header
    out.append(Component("J3", parts["chain_header"], hx, hy, 90.0,
                         {"1": v, "2": "LED_CHAIN_OUT", "3": g}))
    return out


def test_point_places(params):
    """[(net, x, y)] of every test point: each row line's at its left end, each column
    line's in its hex nearest row A, the power and LED data points below the level shifter,
    the chain's end beside its header."""
    places = []
    lines = {}
    for row in range(9):
        cells = params.row_cells(row)
        crossings = [params.crossing(c)[0] for c in cells]
        line = max(set(crossings), key=crossings.count)
        x0 = min(params.hex_centre(c)[0] for c in cells) - params.pitch / 2.0 - 1.5
        lines[line] = (x0 - params.tp_row_gap, params.hex_centre(cells[0])[1] + params.row_line_y)
    for line in sorted(lines):
        places.append(("ROW%d" % line,) + lines[line])
    for col in range(len(params.map.col_pins)):
        cells = [c for c in range(P.CELLS) if params.crossing(c)[1] == col]
        cell = min(cells, key=lambda c: (P.hexgrid.ROW_OF[c], params.hex_centre(c)[0]))
        cx, cy = params.hex_centre(cell)
        places.append(("COL%d" % col, cx + params.tp_column_offset[0],
                       cy + params.tp_column_offset[1]))
    x, y = params.tp_corner
    for k, net in enumerate(params.tp_corner_nets):
        places.append((net, x + k * params.tp_corner_pitch, y))
    hx, hy = params.tp_chain_header
    places.append(("LED_CHAIN_OUT", hx - 4.0, hy))
    return places


def _test_points(params):
    return [Component("TP%d" % (k + 1), params.parts["test_point"], x, y, 0.0, {"1": net})
            for k, (net, x, y) in enumerate(test_point_places(params))]
