"""The PCB's wiring as KiCad wrote it, read back from the .kicad_pcb (the board file's reader,
hardware/generate/pcb/kicad_file.py, not pcbnew nor the builder's model of the board), and
checked against the board map.

KiCad's DRC (0 violations, 0 unconnected pads) proves the copper joins exactly the pads of each
net; `problems` proves the nets are the board the map describes: every hex's switch and diode
between its row and column lines (the diode's cathode, pad 1, toward the row), the LED chain
in the map's order from the level shifter, every LED on 5 V and GND with its capacitor beside
it, every GPIO's net on the Pico pad of that GPIO, the buttons between their GPIO and GND.
"""

import math

# The Raspberry Pi Pico's pin number of each GPIO (its datasheet's pinout).
PICO_PIN = {0: 1, 1: 2, 2: 4, 3: 5, 4: 6, 5: 7, 6: 9, 7: 10, 8: 11, 9: 12, 10: 14, 11: 15,
            12: 16, 13: 17, 14: 19, 15: 20, 16: 21, 17: 22, 18: 24, 19: 25, 20: 26, 21: 27,
            22: 29, 26: 31, 27: 32, 28: 34}
def _kind(fp):
    """What a hex's footprint is, from its library footprint."""
    name = fp.library.split(":")[-1]
    if name.startswith("LED_"):
        return "led"
    if "REED" in name.upper():
        return "switch"
    if name.startswith("D_"):
        return "diode"
    if name.startswith("C_"):
        return "capacitor"
    return name


def problems(board, bmap, cell_name, hex_centre, window):
    """Everything in `board` (a Board) that disagrees with the board map `bmap`; [] for a
    board wired as the map says. `hex_centre(cell)` gives a hex's centre in KiCad's frame,
    `window` how far from it (across flats) its parts may reach."""
    out = []
    pico = board.footprints.get("U1")
    if pico is None:
        return ["no Pico (U1) on the board"]

    def pico_net(gpio):
        return pico.net(str(PICO_PIN[gpio]))

    hexes = board.by_hex()
    for cell in range(bmap.cells):
        name = cell_name(cell)
        parts = {}
        for fp in hexes.get(name, []):
            parts.setdefault(_kind(fp), []).append(fp)
            cx, cy = hex_centre(cell)
            for pad in fp.pads:
                dx, dy = pad.x - cx, cy - pad.y
                across = max(abs(dx), abs(dx / 2 + dy * math.sqrt(3) / 2),
                             abs(-dx / 2 + dy * math.sqrt(3) / 2))
                if across > window:
                    out.append("%s: pad %s of %s is outside the hex (%.1f mm)"
                               % (name, pad.number, fp.ref, across))
        if sorted(parts) != ["capacitor", "diode", "led", "switch"] or any(
                len(v) != 1 for v in parts.values()):
            out.append("%s: its parts are %s, not one each of LED, capacitor, switch, diode"
                       % (name, sorted((k, len(v)) for k, v in parts.items())))
            continue
        switch, diode = parts["switch"][0], parts["diode"][0]
        led, cap = parts["led"][0], parts["capacitor"][0]
        crossing = bmap.crossing_of_cell[cell]
        row, col = crossing >> 3, crossing & 7
        row_net, col_net = pico_net(bmap.row_pins[row]), pico_net(bmap.col_pins[col])
        node = diode.net("2")
        if diode.net("1") != row_net:
            out.append("%s: the diode's cathode (pad 1) is on %s, not on row line %d (%s, GP%d)"
                       % (name, diode.net("1"), row, row_net, bmap.row_pins[row]))
        switch_nets = sorted(filter(None, (switch.net("1"), switch.net("2"))))
        if node is None or sorted([node, col_net]) != switch_nets:
            out.append("%s: the switch joins %s, not column line %d (%s, GP%d) and its diode's "
                       "anode (%s)" % (name, switch_nets, col, col_net, bmap.col_pins[col], node))
        elif sorted(p.ref for p in board.nets[node]) != sorted([switch.ref, diode.ref]):
            out.append("%s: the switch-to-diode net %s also reaches %s"
                       % (name, node, sorted(p.ref for p in board.nets[node])))
        if led.net("1") != "+5V" or led.net("3") != "GND":
            out.append("%s: the LED's VDD and VSS are on %s and %s"
                       % (name, led.net("1"), led.net("3")))
        if sorted([cap.net("1"), cap.net("2")]) != ["+5V", "GND"]:
            out.append("%s: its capacitor is on %s and %s" % (name, cap.net("1"), cap.net("2")))
        elif math.hypot(cap.x - led.x, cap.y - led.y) > 8.0:
            out.append("%s: its capacitor is %.1f mm from the LED"
                       % (name, math.hypot(cap.x - led.x, cap.y - led.y)))
    out += _chain(board, bmap, cell_name, hexes, pico_net)
    for button, ref in (("select", "SW101"), ("confirm", "SW102")):
        if button not in bmap.buttons:
            continue
        fp = board.footprints.get(ref)
        want = sorted([pico_net(bmap.buttons[button]), "GND"])
        if fp is None or sorted([fp.net("1"), fp.net("2")]) != want:
            out.append("the %s button (%s) is not between GP%d's pin and GND"
                       % (button, ref, bmap.buttons[button]))
    return out


def _chain(board, bmap, cell_name, hexes, pico_net):
    out = []
    leds = {}
    for name, fps in hexes.items():
        for fp in fps:
            if _kind(fp) == "led":
                leds[name] = fp
    shifter = board.footprints.get("U2")
    if shifter is None or shifter.net("2") != pico_net(bmap.led_pin):
        return ["the level shifter's input (U2 pin 2) is not on GP%d's pin" % bmap.led_pin]
    if shifter.net("14") != "+5V" or shifter.net("7") != "GND" or shifter.net("1") != "GND":
        out.append("the level shifter is not powered from 5 V with its gate enabled")
    out_net = shifter.net("3")
    # Test points (TP*) are bare pads for a probe, on the nets they test.
    resistors = [p.ref for p in board.nets.get(out_net, []) if p.ref != "U2"
                 and not p.ref.startswith("TP")]
    if len(resistors) != 1:
        return out + ["the level shifter's output reaches %s, not one resistor" % resistors]
    resistor = board.footprints[resistors[0]]
    previous = resistor.net("2") if resistor.net("1") == out_net else resistor.net("1")
    for k in range(bmap.cells):
        name = cell_name(bmap.cell_of_led[k])
        led = leds.get(name)
        if led is None:
            out.append("LED %d (%s) is missing" % (k, name))
            break
        if led.net("4") != previous:
            out.append("LED %d (%s) gets its data from %s, not from %s"
                       % (k, name, led.net("4"), "the resistor" if k == 0 else
                          "LED %d's DOUT" % (k - 1)))
        reached = sorted(p.ref for p in board.nets.get(led.net("4"), [])
                         if not p.ref.startswith("TP"))
        if k > 0 and len(reached) != 2:
            out.append("LED %d's data in reaches %s" % (k, reached))
        previous = led.net("2")
    return out
