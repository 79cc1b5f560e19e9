"""The DC solve of the 5 V and GND copper: what each LED sees between its VDD and VSS pads
when the board draws its current, read from the board file KiCad wrote. Needs numpy and
scipy (the venv's), not KiCad.

    .venv/bin/python -m hardware.generate.pcb.powerflow [--board X.kicad_pcb]   # the report
    .venv/bin/python -m hardware.generate    # writes it as hardware/generated/pcb/power.txt

The model:
- 5 V side (nets VIN, VIN_FUSED, +5V): every track a resistor rho * length / (width *
  thickness), tracks joined where an end lies on another track, a pad or a via; the input's
  parts as resistors at their datasheet maxima (INPUT_PARTS); the terminal's + pin held at the
  supply's voltage.
- GND side: both pours (KiCad's filled polygons) as sheets of cells CELL mm square, each
  joined to its four neighbours by the sheet's conductance (thickness / rho), the two layers
  joined at every GND via and through-hole GND pad; the terminal's - pin at 0 V.
- Loads: each LED draws the same current from its VDD pad and returns it into the top pour at
  its VSS pad; the Pico and the level shifter draw PICO_MA through D101 and U2.
1 oz copper: 35 um; copper's resistivity at 20 C, 1.72e-8 ohm m, raised by 0.393 %/K to
HOT_C, the copper's temperature in a warm case (a worst case, not the nominal).
"""

import argparse
import functools
import math
import re
import sys
from pathlib import Path

from hardware.generate import PCB_GENERATED

from . import kicad_file

BOARD = PCB_GENERATED / "iago-board.kicad_pcb"

THICKNESS = 35e-6                   # m, 1 oz
HOT_C = 50.0
RHO = 1.72e-8 * (1 + 0.00393 * (HOT_C - 20.0))
VIA_OHM = RHO * 1.6e-3 / (math.pi * 0.3e-3 * 25e-6)    # a 0.3 mm hole plated 25 um, 1.6 mm
CELL = 0.5                          # mm, the pours' cells
SUPPLY_V = 5.0
PICO_MA = 50.0
# The input's parts at their datasheets' maxima: the PTC fuse's resistance before it has
# ever tripped (the fab-parts.toml spec: at most 25 mOhm), the P-MOSFET's R_DS(on) at
# V_GS = -5 V (AO4407A: 30 mOhm max at 25 C), raised 1.5 times for a hot junction.
INPUT_PARTS = {"F1": 0.025, "Q1": 0.030 * 1.5}
MIN_LED_V = 4.6
# The cases: the LEDs' total draw. The budget a 5 V 4 A supply allows (hardware/README.md,
# "Power budget": 80 % of 4 A less the Pico's 100 mA) and every LED at full white with its
# dark draw (the board map's estimate, 61 mA each).
CASES = (("the budget of a 5 V 4 A supply", 3100.0), ("full white, no budget", 61 * 61.0))


# --- reading the board file ----------------------------------------------------------------

def _nets(text):
    return {int(n): name for n, name in re.findall(r'^  \(net (\d+) "([^"]*)"\)', text, re.M)}


def tracks(text):
    """[(net, layer 'F'/'B', (x, y), (x, y), width)] in KiCad mm."""
    found = re.findall(r'\(segment \(start (\S+) (\S+)\) \(end (\S+) (\S+)\) \(width (\S+)\) '
                       r'\(layer "([FB])\.Cu"\) \(net (\d+)\)', text)
    return [(int(n), layer, (float(a), float(b)), (float(c), float(d)), float(w))
            for a, b, c, d, w, layer, n in found]


def vias(text):
    found = re.findall(r'\(via \(at (\S+) (\S+)\) \(size (\S+)\) \(drill \S+\) '
                       r'\(layers [^)]*\)(?: \(free\))? \(net (\d+)\)', text)
    return [(int(n), (float(x), float(y)), float(s)) for x, y, s, n in found]


@functools.lru_cache(maxsize=2)
def _board(text):
    return kicad_file.Board(text)


def pads(text):
    """[(ref, number, net, (x, y), radius, through)] of every pad with a net: `radius` the
    half of its larger side (a track ending anywhere on it is within), `through` for a
    through-hole pad."""
    return [(pad.ref, pad.number, pad.net, (pad.x, pad.y), pad.radius, pad.through)
            for fp in _board(text).footprints.values() for pad in fp.pads if pad.net]


def pours(text, net_name="GND"):
    """{'F': [polygon], 'B': [...]}: the filled polygons of the zone of `net_name`."""
    out = {"F": [], "B": []}
    for zone in re.split(r"\n  \(zone ", text)[1:]:
        if '(net_name "%s")' % net_name not in zone[:200]:
            continue
        for layer, pts in re.findall(r'\(filled_polygon\s+\(layer "([FB])\.Cu"\)'
                                     r'(?:\s+\(island\))?\s+\(pts((?:\s*\(xy \S+ \S+\))*)\s*\)',
                                     zone):
            out[layer].append([(float(x), float(y))
                               for x, y in re.findall(r"\(xy (\S+) (\S+)\)", pts)])
    return out


# --- the 5 V side: a resistor network of tracks ------------------------------------------------

class Network:
    """Nodes and resistors; node 0 is ground's reference where one is needed."""

    def __init__(self):
        self.count = 0
        self.resistors = []            # (a, b, ohms)

    def node(self):
        self.count += 1
        return self.count - 1

    def resistor(self, a, b, ohms):
        if a != b:
            self.resistors.append((a, b, max(ohms, 1e-9)))


def track_ohms(length_mm, width_mm):
    return RHO * length_mm * 1e-3 / (width_mm * 1e-3 * THICKNESS)


def supply_side(text, names=("VIN", "VIN_FUSED", "+5V")):
    """The 5 V side as a Network: returns (network, {(ref, pad number): node})."""
    nets = _nets(text)
    wanted = {n for n, name in nets.items() if name in names}
    segs = [t for t in tracks(text) if t[0] in wanted]
    net = Network()
    points = {}                        # (layer, rounded x, y) -> node

    def at(layer, p):
        key = (layer, round(p[0], 3), round(p[1], 3))
        if key not in points:
            points[key] = net.node()
        return points[key]

    # The places where copper meets copper: track ends, vias, pads.
    joints = [(lay, a) for _, lay, a, _, _ in segs] + [(lay, b) for _, lay, _, b, _ in segs]
    for n, p, _ in vias(text):
        if n in wanted:
            joints += [("F", p), ("B", p)]
            net.resistor(at("F", p), at("B", p), VIA_OHM)
    pad_nodes = {}
    for ref, number, name, p, radius, through in pads(text):
        if name not in names:
            continue
        node = pad_nodes.setdefault((ref, number), net.node())
        for layer in ("F", "B") if through else ("F",):
            net.resistor(node, at(layer, p), 1e-6)
            joints.append((layer, p))
        for _, lay, a, b, w in segs:       # a track that ends inside the pad joins it
            for end in (a, b):
                if (lay == "F" or through) and math.hypot(end[0] - p[0], end[1] - p[1]) \
                        <= radius + w / 2.0:
                    net.resistor(node, at(lay, end), 1e-6)
    for _, lay, a, b, w in segs:
        length = math.hypot(b[0] - a[0], b[1] - a[1])
        if length < 1e-9:
            continue
        ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
        stops = {0.0: a, length: b}
        for layer, p in joints:            # other copper ending on this track splits it
            if layer != lay:
                continue
            t = (p[0] - a[0]) * ux + (p[1] - a[1]) * uy
            off = abs(-(p[0] - a[0]) * uy + (p[1] - a[1]) * ux)
            if 1e-6 < t < length - 1e-6 and off <= w / 2.0 + 1e-6:
                stops[t] = (a[0] + ux * t, a[1] + uy * t)
                net.resistor(at(lay, stops[t]), at(lay, p), track_ohms(off, w))
            else:                          # on the round end of this track
                for end in (a, b):
                    gap = math.hypot(p[0] - end[0], p[1] - end[1])
                    if 1e-6 < gap <= w / 2.0 + 1e-6:
                        net.resistor(at(lay, end), at(lay, p), track_ohms(gap, w))
        order = sorted(stops)
        for t0, t1 in zip(order, order[1:]):
            net.resistor(at(lay, stops[t0]), at(lay, stops[t1]), track_ohms(t1 - t0, w))
    return net, pad_nodes


def _solve(count, resistors, injections, fixed):
    """Node voltages of a resistor network: `injections` {node: amperes into it}, `fixed`
    {node: volts}, every other node floating; each fixed node is held by a conductance
    large against the copper's."""
    import numpy as np
    from scipy.sparse import coo_matrix
    from scipy.sparse.linalg import spsolve
    a = np.array([r[0] for r in resistors], dtype=np.int64)
    b = np.array([r[1] for r in resistors], dtype=np.int64)
    g = 1.0 / np.array([r[2] for r in resistors])
    rows = np.concatenate([a, b, a, b])
    cols = np.concatenate([a, b, b, a])
    vals = np.concatenate([g, g, -g, -g])
    held = 1e9
    diag = np.full(count, 1e-6)     # a leak, so that a floating piece stays solvable
    rhs = np.zeros(count)
    for node, amps in injections.items():
        rhs[node] += amps
    for node, volts in fixed.items():
        diag[node] += held
        rhs[node] += held * volts
    rows = np.concatenate([rows, np.arange(count)])
    cols = np.concatenate([cols, np.arange(count)])
    vals = np.concatenate([vals, diag])
    matrix = coo_matrix((vals, (rows, cols)), shape=(count, count)).tocsc()
    return spsolve(matrix, rhs)


# --- the GND side: the pours as sheets of cells -------------------------------------------------

def _raster(polygons, x0, y0, nx, ny):
    """Cells (ny, nx) whose centres lie inside the polygons (even-odd, as KiCad's fills are
    simple outlines with their holes cut in)."""
    import numpy as np
    mask = np.zeros((ny, nx), dtype=bool)
    ys = y0 + (np.arange(ny) + 0.5) * CELL
    for poly in polygons:
        pts = np.array(poly)
        xa, ya = pts[:, 0], pts[:, 1]
        xb, yb = np.roll(xa, -1), np.roll(ya, -1)
        for j, y in enumerate(ys):
            cross = (ya <= y) != (yb <= y)
            if not cross.any():
                continue
            xs = np.sort(xa[cross] + (y - ya[cross]) * (xb[cross] - xa[cross]) /
                         (yb[cross] - ya[cross]))
            for left, right in zip(xs[0::2], xs[1::2]):
                i0 = int(math.ceil((left - x0) / CELL - 0.5))
                i1 = int(math.floor((right - x0) / CELL - 0.5))
                if i1 >= i0:
                    mask[j, max(i0, 0):min(i1, nx - 1) + 1] ^= True
    return mask


class GroundSheet:
    """The two GND pours as cells, with the vias and through-hole pads joining them."""

    def __init__(self, text):
        import numpy as np
        self.x0, self.y0 = 0.0, 0.0
        edge = [float(v) for v in re.findall(r'\(gr_line \(start (\S+) \S+\) \(end \S+ \S+\) '
                                              r'\(layer "Edge\.Cuts"\)', text)]
        self.x0 = min(edge) - 1.0 if edge else 0.0
        self.y0 = self.x0
        self.nx = self.ny = int(420 / CELL)
        polys = pours(text)
        self.mask = [_raster(polys[layer], self.x0, self.y0, self.nx, self.ny)
                     for layer in ("F", "B")]
        self.index = [np.full((self.ny, self.nx), -1, dtype=np.int64) for _ in range(2)]
        count = 0
        for k in range(2):
            cells = int(self.mask[k].sum())
            self.index[k][self.mask[k]] = np.arange(count, count + cells)
            count += cells
        gnd = {n for n, name in _nets(text).items() if name == "GND"}
        self.ties = [(p, VIA_OHM) for n, p, _ in vias(text) if n in gnd]
        # A through-hole GND pad: a node of its own, joined on both layers to the pour
        # round it (through its thermal spokes, which cells this size may not show).
        self.pad_node = {}
        for ref, number, name, p, radius, through in pads(text):
            if name == "GND" and through:
                self.pad_node[(ref, number)] = (count, p, radius)
                count += 1
        self.count = count

    def cell(self, layer, p):
        """The copper cell of `layer` (0 top, 1 bottom) nearest the point p, or -1."""
        import numpy as np
        i = int((p[0] - self.x0) / CELL)
        j = int((p[1] - self.y0) / CELL)
        for reach in range(0, 6):
            block = self.index[layer][max(j - reach, 0):j + reach + 1,
                                      max(i - reach, 0):i + reach + 1]
            found = block[block >= 0]
            if found.size:
                return int(np.min(found)) if reach else int(found[0])
        return -1

    def resistors(self):
        import numpy as np
        sheet = RHO / THICKNESS
        parts = []
        for k in range(2):
            idx = self.index[k]
            for a, b in ((idx[:, :-1], idx[:, 1:]), (idx[:-1, :], idx[1:, :])):
                both = (a >= 0) & (b >= 0)
                parts.append(np.stack([a[both], b[both]], axis=1))
        pairs = np.concatenate(parts)
        out = [(int(x), int(y), sheet) for x, y in pairs]
        for p, ohms in self.ties:
            top, bottom = self.cell(0, p), self.cell(1, p)
            if top >= 0 and bottom >= 0:
                out.append((top, bottom, ohms))
        for node, p, radius in self.pad_node.values():
            reach = int(math.ceil((radius + 1.0) / CELL))
            i = int((p[0] - self.x0) / CELL)
            j = int((p[1] - self.y0) / CELL)
            for k in range(2):
                block = self.index[k][j - reach:j + reach + 1, i - reach:i + reach + 1]
                for cell in block[block >= 0]:
                    out.append((node, int(cell), 1e-3))
        return out


def leds(text):
    """{LED ref: ((x, y) of VDD pad 1, (x, y) of VSS pad 3)}."""
    out = {}
    for ref, number, _, p, _, _ in pads(text):
        if re.fullmatch(r"LED\d+", ref) and number in ("1", "3"):
            out.setdefault(ref, [None, None])[0 if number == "1" else 1] = p
    return {ref: tuple(v) for ref, v in out.items()}


def solve(text, total_ma, ground=None, source=("J1", "1"), volts=SUPPLY_V):
    """{LED ref: volts between its VDD and VSS} with the LEDs drawing `total_ma` together
    (the same each) and the Pico PICO_MA, `source` (a pad) held at `volts`; and the voltages
    at the worst LED and the input."""
    import numpy as np
    led_pads = leds(text)
    each = total_ma / 1000.0 / len(led_pads)
    net, pad_nodes = supply_side(text)
    for ref, ohms in INPUT_PARTS.items():
        if not any(r == ref for r, _ in pad_nodes):
            continue
        numbers = sorted(n for r, n in pad_nodes if r == ref)
        if ref == "Q1":                # source 1-3, gate 4, drain 5-8
            sides = [[n for n in numbers if n in "123"], [n for n in numbers if n in "5678"]]
        else:
            sides = [[numbers[0]], [numbers[1]]]
        ends = [net.node(), net.node()]
        for end, side in zip(ends, sides):
            for number in side:
                net.resistor(end, pad_nodes[(ref, number)], 1e-6)
        net.resistor(ends[0], ends[1], ohms)
    loads = {pad_nodes[(ref, "1")]: -each for ref in led_pads}
    loads[pad_nodes[("D101", "2")]] = -PICO_MA / 1000.0
    v5 = _solve(net.count, net.resistors, loads, {pad_nodes[source]: volts})
    sheet = ground or GroundSheet(text)
    returns = {}
    for _, vss in led_pads.values():
        cell = sheet.cell(0, vss)
        returns[cell] = returns.get(cell, 0.0) + each
    fixed = {sheet.pad_node[("J1", "2")][0]: 0.0}
    resistors = sheet.resistors()
    vg = _solve(sheet.count, resistors, returns, fixed)
    out = {ref: float(v5[pad_nodes[(ref, "1")]] - vg[sheet.cell(0, vss)])
           for ref, (_, vss) in led_pads.items()}
    worst = min(out, key=out.get)
    detail = {"5 V at its VDD": float(v5[pad_nodes[(worst, "1")]]),
              "GND at its VSS": float(vg[sheet.cell(0, led_pads[worst][1])])}
    if ("Q1", "1") in pad_nodes:
        detail["5 V after the input's parts"] = float(
            np.mean([v5[pad_nodes[("Q1", n)]] for n in "123"]))
    return out, detail


def report(text):
    """The report (text) and the worst LED's voltage at the supply's budget."""
    hexes = {ref: fp.properties["hex"] for ref, fp in _board(text).footprints.items()
             if "hex" in fp.properties}

    def cell_of_led_ref(ref):
        return hexes.get(ref, ref)

    sheet = GroundSheet(text)
    lines = ["DC solve of the 5 V and GND copper of iago-board.kicad_pcb "
             "(hardware/generate/pcb/powerflow.py, make hardware)", "",
             "Supply %.2f V at the terminal J1; copper 35 um at %g C (rho %.3g ohm m); "
             "vias %.2f mOhm; GND pours in %g mm cells; F1 %g mOhm and Q1 %g mOhm (their "
             "maxima, Q1 hot); the Pico and the level shifter %g mA."
             % (SUPPLY_V, HOT_C, RHO, VIA_OHM * 1e3, CELL, INPUT_PARTS["F1"] * 1e3,
                INPUT_PARTS["Q1"] * 1e3, PICO_MA), ""]
    budget_worst = None
    for name, ma in CASES:
        out, detail = solve(text, ma, sheet)
        order = sorted(out, key=out.get)
        worst = order[0]
        if budget_worst is None:
            budget_worst = out[worst]
        lines.append("%s: %.0f mA, %.1f mA an LED" % (name, ma, ma / len(out)))
        lines.append("  worst LED %s (%s): %.3f V between VDD and VSS%s"
                     % (worst, cell_of_led_ref(worst), out[worst],
                        "" if out[worst] >= MIN_LED_V else "  (below %.1f V)" % MIN_LED_V))
        for key, value in detail.items():
            lines.append("    %s: %.3f V" % (key, value))
        lines.append("  the five lowest: " + ", ".join(
            "%s %.3f" % (cell_of_led_ref(ref), out[ref]) for ref in order[:5]))
        lines.append("  the highest: %s %.3f V" % (cell_of_led_ref(order[-1]), out[order[-1]]))
        lines.append("")
    lines.append("USB: its VBUS feeds the Pico only; no LED takes current from USB.")
    return "\n".join(lines) + "\n", budget_worst


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m hardware.generate.pcb.powerflow",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("--board", default=str(BOARD), help="the .kicad_pcb to solve")
    args = parser.parse_args(argv)
    text, worst = report(Path(args.board).read_text())
    print(text, end="")
    if worst < MIN_LED_V:
        print(too_low(worst), file=sys.stderr)
        return 1
    return 0


def too_low(worst):
    return ("powerflow: the worst LED gets %.3f V at the budget, under %.1f V"
            % (worst, MIN_LED_V))


if __name__ == "__main__":
    sys.exit(main())
