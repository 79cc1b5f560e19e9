"""The schematic a person reads (SVG), drawn from the same circuit the PCB is made of: one hex
cell, the matrix as a table, the Pico's pins, the power, the LED data line, the buttons and
the FRAM. Every name, pin and value in it comes from the circuit and the board map.
"""

from . import circuit as C
from . import params as P

Drawing = P.Drawing
INK = "#000000"
NOTE = "#444444"
NET = "#1f4e9c"
W, H = 1400, 1110


def _diode(d, x, y, label, value):
    """A diode pointing right (anode left, cathode right), centre (x, y)."""
    d.line(x - 30, y, x - 10, y, width=1.5)
    d.polygon([(x - 10, y - 9), (x - 10, y + 9), (x + 8, y)], fill="#ffffff", width=1.5)
    d.line(x + 8, y - 9, x + 8, y + 9, width=2)
    d.line(x + 8, y, x + 30, y, width=1.5)
    d.text(x, y - 14, label, 12, "middle", bold=True)
    d.text(x, y + 24, value, 11, "middle", fill=NOTE)


def _switch(d, x, y, label, value):
    d.line(x - 30, y, x - 12, y, width=1.5)
    d.circle(x - 12, y, 2.5, fill=INK)
    d.line(x - 12, y, x + 12, y - 10, width=1.5)
    d.circle(x + 12, y, 2.5, fill=INK)
    d.line(x + 12, y, x + 30, y, width=1.5)
    d.text(x, y - 18, label, 12, "middle", bold=True)
    d.text(x, y + 20, value, 11, "middle", fill=NOTE)


def _resistor(d, x, y, label, value, vertical=False):
    if vertical:
        d.polygon([(x - 6, y - 16), (x + 6, y - 16), (x + 6, y + 16), (x - 6, y + 16)],
                  fill="#ffffff", width=1.5)
        d.line(x, y - 30, x, y - 16, width=1.5)
        d.line(x, y + 16, x, y + 30, width=1.5)
        d.text(x + 12, y - 2, label, 12, bold=True)
        d.text(x + 12, y + 12, value, 11, fill=NOTE)
        return
    d.polygon([(x - 16, y - 6), (x + 16, y - 6), (x + 16, y + 6), (x - 16, y + 6)],
              fill="#ffffff", width=1.5)
    d.line(x - 30, y, x - 16, y, width=1.5)
    d.line(x + 16, y, x + 30, y, width=1.5)
    d.text(x, y - 12, label, 12, "middle", bold=True)
    d.text(x, y + 22, value, 11, "middle", fill=NOTE)


def _capacitor(d, x, y, label, value, polarised=False):
    """Vertical: the top lead at y - 30, the bottom at y + 30."""
    d.line(x, y - 30, x, y - 4, width=1.5)
    d.line(x - 12, y - 4, x + 12, y - 4, width=2)
    d.line(x - 12, y + 4, x + 12, y + 4, width=2)
    d.line(x, y + 4, x, y + 30, width=1.5)
    if polarised:
        d.text(x - 16, y - 8, "+", 12)
    d.text(x + 16, y - 2, label, 12, bold=True)
    d.text(x + 16, y + 12, value, 11, fill=NOTE)


def _ground(d, x, y):
    d.line(x, y, x, y + 8, width=1.5)
    for k, half in enumerate((10, 6, 2)):
        d.line(x - half, y + 8 + 4 * k, x + half, y + 8 + 4 * k, width=1.5)


def _net(d, x, y, name, anchor="start"):
    d.text(x, y - 4, name, 11, anchor, fill=NET, bold=True)


def _box(d, x, y, w, h, title):
    d.polygon([(x, y), (x + w, y), (x + w, y + h), (x, y + h)], stroke="#888888", width=1)
    d.text(x + 8, y + 18, title, 14, bold=True)


def draw(params, components):
    by_ref = {c.ref: c for c in components}
    bmap = params.map
    d = Drawing(W, H)
    d.text(20, 32, "Iago board (%s): schematic" % bmap.name, 22, bold=True)
    d.text(20, 54, "Generated from hardware/board.json, hardware/design.toml and hardware/pcb/"
           "pcb.toml by python -m hardware.generate (make hardware). Net names as on the PCB.", 12,
           fill=NOTE)
    _hex_cell(d, params, by_ref, 20, 70)
    _matrix(d, params, 20, 330)
    _pico(d, params, components, 720, 70)
    _power(d, by_ref, 20, 690)
    _led_line(d, params, by_ref, 480, 690)
    _extras(d, params, by_ref, 20, 910)
    return d.svg(title="Iago board schematic")


def _hex_cell(d, params, by_ref, x, y):
    _box(d, x, y, 680, 250, "Every hex (61 times; hex n: SWn, Dn, LEDn, Cn)")
    cy = y + 80
    _net(d, x + 20, cy, "COLc")
    d.line(x + 20, cy, x + 90, cy, width=1.5)
    reed = by_ref["SW1"].part
    _switch(d, x + 120, cy, "SWn", "%s %s" % (reed.manufacturer.split()[0], reed.mpn))
    d.line(x + 150, cy, x + 210, cy, width=1.5)
    _net(d, x + 160, cy, "SW_hex")
    _diode(d, x + 240, cy, "Dn", by_ref["D1"].part.value)
    d.line(x + 270, cy, x + 330, cy, width=1.5)
    _net(d, x + 280, cy, "ROWr")
    d.text(x + 20, y + 190, "The reed switch of hex h sits at the crossing the board map names: "
           "column line c to row line r, through its", 11, fill=NOTE)
    d.text(x + 20, y + 206, "diode, cathode (pad 1, the band) toward the row line: any number "
           "of disks reads true.", 11, fill=NOTE)
    # The LED and its capacitor.
    lx, ly = x + 470, y + 60
    d.polygon([(lx, ly), (lx + 90, ly), (lx + 90, ly + 90), (lx, ly + 90)], fill="#ffffff",
              width=1.5)
    d.text(lx + 45, ly + 50, "LEDn", 12, "middle", bold=True)
    d.text(lx + 45, ly + 108, by_ref["LED1"].part.value, 11, "middle", fill=NOTE)
    for label, px, py in (("VDD 1", lx + 4, ly + 16), ("DIN 4", lx + 4, ly + 76),
                          ("DOUT 2", lx + 86, ly + 76), ("VSS 3", lx + 86, ly + 16)):
        d.text(px, py, label, 10, "start" if px < lx + 45 else "end")
    d.line(lx - 40, ly + 72, lx, ly + 72, width=1.5)
    _net(d, lx - 40, ly + 72, "DIN_hex")
    d.line(lx + 90, ly + 72, lx + 130, ly + 72, width=1.5)
    _net(d, lx + 130, ly + 72, "DIN_next", "end")
    d.line(lx, ly + 12, lx - 30, ly + 12, width=1.5)
    d.line(lx - 30, ly + 12, lx - 30, ly - 20, width=1.5)
    _net(d, lx - 30, ly - 20, "+5V")
    d.line(lx + 90, ly + 12, lx + 110, ly + 12, width=1.5)
    _ground(d, lx + 110, ly + 12)
    _capacitor(d, lx + 150, ly + 30, "Cn", by_ref["C1"].part.value)
    d.line(lx + 150, ly, lx + 150, ly - 20, width=1.5)
    _net(d, lx + 150, ly - 20, "+5V")
    _ground(d, lx + 150, ly + 60)
    d.text(x + 20, y + 232, "Data runs from the previous LED's DOUT into DIN; every LED has "
           "its 100 nF between VDD and VSS beside it.", 11, fill=NOTE)


def _matrix(d, params, x, y):
    bmap = params.map
    rows, cols = len(bmap.row_pins), len(bmap.col_pins)
    cell_w, cell_h = 66, 26
    _box(d, x, y, 680, 56 + (rows + 2) * cell_h, "The matrix: the hex at each crossing")
    top = y + 36
    left = x + 120
    for c, gpio in enumerate(bmap.col_pins):
        d.text(left + c * cell_w + cell_w / 2, top + 16, "C%d GP%d" % (c, gpio), 11, "middle",
               bold=True)
    at = {}
    for cell in range(P.CELLS):
        at[params.crossing(cell)] = P.cell_name(cell)
    for r, gpio in enumerate(bmap.row_pins):
        ry = top + (r + 1) * cell_h
        d.text(x + 12, ry + 17, "R%d GP%d (pin %d)" % (r, gpio, C.PICO_PIN[gpio]), 11,
               bold=True)
        for c in range(cols):
            cx = left + c * cell_w
            d.polygon([(cx, ry), (cx + cell_w, ry), (cx + cell_w, ry + cell_h), (cx, ry + cell_h)],
                      stroke="#bbbbbb", width=0.8)
            d.text(cx + cell_w / 2, ry + 17, at.get((r, c), "-"), 12, "middle")
    d.text(x + 12, top + (rows + 2) * cell_h + 14,
           "Column line c on GP%d+c (pin %d up): read in one register read. Row lines driven low "
           "one at a time." % (bmap.col_pins[0], C.PICO_PIN[bmap.col_pins[0]]), 11, fill=NOTE)


def _pico(d, params, components, x, y):
    pico = next(c for c in components if c.ref == "U1")
    _box(d, x, y, 660, 580, "U1 Raspberry Pi Pico: the pins in use")
    lines = []
    for pin in range(1, 41):
        net = pico.nets.get(str(pin))
        if not net:
            continue
        gpio = next((g for g, p in C.PICO_PIN.items() if p == pin), None)
        lines.append((pin, "GP%d" % gpio if gpio is not None else "", net))
    ty = y + 44
    for k, (pin, gpio, net) in enumerate(lines):
        col = k // 20
        row = k % 20
        tx = x + 16 + col * 330
        yy = ty + row * 25
        d.text(tx, yy, "pin %d" % pin, 12)
        d.text(tx + 60, yy, gpio, 12, bold=True)
        d.text(tx + 120, yy, net, 12, fill=NET, bold=True)
    d.text(x + 16, y + 566, "Pins in the Pico's numbering (USB at the top: 1 top left, 40 top "
           "right). GND pins all on the ground pours.", 11, fill=NOTE)


def _power(d, by_ref, x, y):
    _box(d, x, y, 440, 210, "Power")
    d.text(x + 16, y + 46, "J1 %s" % by_ref["J1"].part.value, 11, bold=True)
    d.line(x + 16, y + 70, x + 40, y + 70, width=1.5)
    _resistor(d, x + 64, y + 70, "F1", "PTC 4 A")
    d.line(x + 88, y + 70, x + 110, y + 70, width=1.5)
    d.text(x + 126, y + 66, "Q1", 11, "middle", bold=True)
    d.text(x + 126, y + 90, "D>S, G: GND", 10, "middle")
    d.line(x + 142, y + 70, x + 170, y + 70, width=1.5)
    _net(d, x + 146, y + 70, "+5V")
    _capacitor(d, x + 180, y + 100, "C103", by_ref["C103"].part.value, polarised=True)
    _ground(d, x + 180, y + 130)
    d.line(x + 255, y + 70, x + 255, y + 84, width=1.5)         # the TVS: cathode up
    d.polygon([(x + 246, y + 102), (x + 264, y + 102), (x + 255, y + 86)], fill="#ffffff",
              width=1.5)
    d.line(x + 246, y + 86, x + 264, y + 86, width=2)
    d.line(x + 255, y + 102, x + 255, y + 118, width=1.5)
    _ground(d, x + 255, y + 118)
    d.text(x + 266, y + 122, "D103 TVS", 11, bold=True)
    d.line(x + 170, y + 70, x + 300, y + 70, width=1.5)
    _diode(d, x + 330, y + 70, "D101", by_ref["D101"].part.value)
    _net(d, x + 356, y + 70, "VSYS (39)")
    d.text(x + 16, y + 162, "5 V from J1 feeds the LEDs and, through D101, the Pico; Q1 "
           "blocks a reversed", 11, fill=NOTE)
    d.text(x + 16, y + 178, "supply, F1 trips on a short. USB feeds only the Pico (VBUS, "
           "pin 40, unwired):", 11, fill=NOTE)
    d.text(x + 16, y + 194, "the LEDs light from J1 alone.", 11, fill=NOTE)


def _led_line(d, params, by_ref, x, y):
    bmap = params.map
    _box(d, x, y, 900, 210, "The LED data line")
    first = P.cell_name(bmap.cell_of_led[0])
    last = P.cell_name(bmap.cell_of_led[bmap.cells - 1])
    d.text(x + 16, y + 70, "GP%d (pin %d)" % (bmap.led_pin, C.PICO_PIN[bmap.led_pin]), 12,
           bold=True)
    d.line(x + 110, y + 66, x + 170, y + 66, width=1.5)
    _net(d, x + 112, y + 66, "LED_DATA")
    d.polygon([(x + 170, y + 40), (x + 290, y + 40), (x + 290, y + 120), (x + 170, y + 120)],
              fill="#ffffff", width=1.5)
    d.text(x + 230, y + 60, "U2 %s" % by_ref["U2"].part.value, 12, "middle", bold=True)
    d.text(x + 176, y + 80, "2 1A", 10)
    d.text(x + 284, y + 80, "1Y 3", 10, "end")
    d.text(x + 230, y + 100, "1 1OE: GND; 14 VCC: +5V", 10, "middle")
    d.text(x + 230, y + 114, "7 GND; C101 100 nF", 10, "middle")
    d.line(x + 290, y + 66, x + 330, y + 66, width=1.5)
    _resistor(d, x + 360, y + 66, "R1", by_ref["R1"].part.value)
    d.line(x + 390, y + 66, x + 440, y + 66, width=1.5)
    _net(d, x + 396, y + 66, "DIN_%s" % first)
    d.text(x + 450, y + 70, "LED 0 (%s) -> LED 1 -> ... -> LED %d (%s), in the board map's "
           "order" % (first, bmap.cells - 1, last), 12)
    d.text(x + 16, y + 160, "The level shifter lifts the Pico's 3.3 V data to 5 V. Its unused "
           "gates: inputs (5, 9, 12) to GND, enables (4, 10, 13) to +5V.", 11, fill=NOTE)
    d.text(x + 16, y + 178, "LED type %s, colour order %s, current budget %d mA (the firmware "
           "caps every frame to it)." % (bmap.led_type, "".join(
               "RGBW"[i] for i in sorted(range(bmap.bpp), key=lambda k: bmap.colour_order[k])),
            bmap.current_budget_ma), 11, fill=NOTE)


def _extras(d, params, by_ref, x, y):
    bmap = params.map
    _box(d, x, y, 1360, 180, "Buttons and the FRAM")
    bx = x + 20
    for ref, name in (("SW101", "select"), ("SW102", "confirm")):
        if name not in bmap.buttons:
            continue
        gpio = bmap.buttons[name]
        d.text(bx, y + 64, "GP%d (pin %d)" % (gpio, C.PICO_PIN[gpio]), 12, bold=True)
        d.line(bx + 100, y + 60, bx + 130, y + 60, width=1.5)
        _switch(d, bx + 160, y + 60, "%s %s" % (ref, name), "to GND")
        _ground(d, bx + 190, y + 60)
        bx += 300
    fx = x + 640
    fram = by_ref["U3"].part
    d.polygon([(fx, y + 40), (fx + 200, y + 40), (fx + 200, y + 130), (fx, y + 130)],
              fill="#ffffff", width=1.5)
    d.text(fx + 100, y + 60, "U3 %s" % fram.value, 12, "middle", bold=True)
    d.text(fx + 8, y + 82, "5 SDA: GP%d (pin %d)" % (params.fram_sda, C.PICO_PIN[params.fram_sda]),
           11)
    d.text(fx + 8, y + 98, "6 SCL: GP%d (pin %d)" % (params.fram_scl, C.PICO_PIN[params.fram_scl]),
           11)
    d.text(fx + 8, y + 114, "8 VDD: +3V3 (pin 36); 1-4, 7: GND", 11)
    _resistor(d, fx + 260, y + 85, "R2, R3", by_ref["R2"].part.value + " to +3V3",
              vertical=True)
    d.text(fx + 380, y + 82, "C102 100 nF at VDD. 32 KB for the game in progress:", 11,
           fill=NOTE)
    d.text(fx + 380, y + 98, "saves that need no flash erase. R4 4.7k holds LED_DATA", 11,
           fill=NOTE)
    d.text(fx + 380, y + 114, "low while the Pico is out; SW103 pulls RUN (30) low.", 11,
           fill=NOTE)
