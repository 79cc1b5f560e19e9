"""The board in KiCad: footprints placed from the circuit, the long copper laid straight, the
rest routed by router.py; finish.py then makes the tracks, the GND pours and the silkscreen.
Coordinates are KiCad's (frame.py). Needs KiCad 6's pcbnew.
"""

import math

import pcbnew

from . import circuit as C
from . import corner
from . import finish
from . import ground
from . import params as P
from . import router as R
from . import shapes as S
from .frame import B, F, KLAYER, ORIGIN_X, ORIGIN_Y, kpos, mm, wxmm


class Builder:
    """Builds the pcbnew BOARD for `params`; `log` receives progress lines."""

    def __init__(self, params, log=lambda line: None):
        self.p = params
        self.log = log
        self.components = C.build(params)
        self.board = pcbnew.BOARD()
        self.netinfo = {}
        self.net_id = {}
        self.footprints = {}
        self.pads = {}            # (ref, number) -> [pcbnew PAD]
        self.fixed = []           # (index in the grid's tracks, which end to trim): the buses

    # --- set-up ---------------------------------------------------------------------------

    def build(self):
        self._settings()
        self._nets()
        self._place()
        self._check_windows()
        self._outline()
        self._grid()
        self._fixed_copper()
        self._route()
        self.log("stitched GND with %d vias" % ground.stitch(self))
        finish.copy_copper(self)
        finish.zones(self)
        finish.silkscreen(self)
        return self.board

    def _settings(self):
        r = self.p.rules
        ds = self.board.GetDesignSettings()
        ds.SetCopperLayerCount(2)
        ds.SetBoardThickness(pcbnew.FromMM(float(self.p.stack.get("pcb", 1.6))))
        ds.m_TrackMinWidth = pcbnew.FromMM(0.2)
        ds.m_ViasMinSize = pcbnew.FromMM(r["via_diameter"])
        ds.m_MinThroughDrill = pcbnew.FromMM(r["via_drill"])
        ds.m_ViasMinAnnularWidth = pcbnew.FromMM(0.13)
        ds.m_HoleToHoleMin = pcbnew.FromMM(0.25)
        ds.m_CopperEdgeClearance = pcbnew.FromMM(r["edge_clearance"] - 0.05)
        ds.m_MinClearance = pcbnew.FromMM(r["clearance"])
        default = ds.GetNetClasses().GetDefault()
        default.SetClearance(pcbnew.FromMM(r["clearance"]))
        default.SetTrackWidth(pcbnew.FromMM(r["track"]))
        default.SetViaDiameter(pcbnew.FromMM(r["via_diameter"]))
        default.SetViaDrill(pcbnew.FromMM(r["via_drill"]))

    def _nets(self):
        names = set()
        for comp in self.components:
            names.update(n for n in comp.nets.values() if n)
        for name in sorted(names):
            info = pcbnew.NETINFO_ITEM(self.board, name)
            self.board.Add(info)
            self.netinfo[name] = info
            self.net_id[name] = len(self.net_id) + 1

    def _place(self):
        loaded = {}
        for comp in self.components:
            part = comp.part
            if part.footprint not in loaded:
                folder = C.footprint_file(part).parent
                loaded[part.footprint] = pcbnew.FootprintLoad(str(folder), part.name)
                if loaded[part.footprint] is None:
                    raise P.ParamError("KiCad could not load %s" % part.footprint)
            fp = pcbnew.FOOTPRINT(loaded[part.footprint])
            fp.SetFPID(pcbnew.LIB_ID(part.library, part.name))
            fp.SetReference(comp.ref)
            fp.SetValue(part.value)
            fp.SetPosition(wxmm(kpos(comp.x, comp.y)))
            fp.SetOrientationDegrees(comp.rotation)
            if comp.hex:
                fp.SetProperty("hex", comp.hex)
            if comp.hex or part.assembled:
                fp.Reference().SetVisible(False)
            if part.key == "test_point":
                corner.label_test_point(fp, comp.nets["1"])
            if part.mpn:
                fp.SetProperty("MPN", part.mpn)
            if part.lcsc:
                fp.SetProperty("LCSC", part.lcsc)
            attributes = fp.GetAttributes()
            if not part.fitted:
                attributes |= pcbnew.FP_EXCLUDE_FROM_BOM | pcbnew.FP_EXCLUDE_FROM_POS_FILES
                fp.SetProperty("fitted", "no")
            fp.SetAttributes(attributes)
            for pad in fp.Pads():
                net = comp.nets.get(pad.GetNumber())
                if net:
                    pad.SetNet(self.netinfo[net])
                if part.key == "power_input":
                    # The whole supply current: solid to the pours, no thermal spokes.
                    pad.SetZoneConnection(pcbnew.ZONE_CONNECTION_FULL)
                self.pads.setdefault((comp.ref, pad.GetNumber()), []).append(pad)
            self.board.Add(fp)
            self.footprints[comp.ref] = fp

    def _check_windows(self):
        """Every part of a hex inside its window (design.toml [stack] light_wall): under a
        wall it would hold the light-box grid off the board."""
        p = self.p
        cos30 = math.sqrt(3) / 2.0
        for comp in self.components:
            if not comp.hex:
                continue
            fp = self.footprints[comp.ref]
            fp.BuildCourtyardCaches()
            poly = fp.GetCourtyard(pcbnew.F_CrtYd)
            points = [(mm(poly.CVertex(k).x), mm(poly.CVertex(k).y))
                      for k in range(poly.TotalVertices())]
            if not points:
                box = fp.GetBoundingBox(False, False)
                points = [(mm(box.GetX()), mm(box.GetY())), (mm(box.GetRight()),
                                                            mm(box.GetBottom()))]
            cx, cy = kpos(*p.hex_centre(P.hexgrid.parse_cell(comp.hex)))
            for X, Y in points:
                dx, dy = X - cx, cy - Y
                # Distance across flats: the largest projection on the hex's three axes
                # (its flats face 0, 60 and 120 degrees: pointy toward row I).
                across = max(abs(dx), abs(dx * 0.5 + dy * cos30), abs(-dx * 0.5 + dy * cos30))
                if across > p.window + 1e-6:
                    raise P.ParamError(
                        "%s (%s of hex %s) reaches %.2f mm from the hex's centre, past its "
                        "window of %.2f mm inside the light walls: move it (design.toml "
                        "[parts.*] or pcb.toml [hex.*])" % (comp.ref, comp.part.key, comp.hex,
                                                            across, p.window))
        # No two parts of a hex on top of each other.
        for cell in range(P.CELLS):
            name = P.cell_name(cell)
            mine = [c for c in self.components if c.hex == name]
            for k, a in enumerate(mine):
                for b in mine[k + 1:]:
                    if self._courtyards_overlap(a.ref, b.ref):
                        raise P.ParamError("in hex %s, %s (%s) and %s (%s) overlap: move one "
                                           "(design.toml [parts.*] or pcb.toml [hex.*])"
                                           % (name, a.ref, a.part.key, b.ref, b.part.key))

    def _courtyards_overlap(self, a, b):
        pa = self.footprints[a].GetCourtyard(pcbnew.F_CrtYd)
        pb = self.footprints[b].GetCourtyard(pcbnew.F_CrtYd)
        both = pcbnew.SHAPE_POLY_SET(pa)
        both.BooleanIntersection(pb, pcbnew.SHAPE_POLY_SET.PM_FAST)
        return both.OutlineCount() > 0 and both.Area() > 0

    def _outline(self):
        p = self.p
        w, h, r = p.width / 2.0, p.height / 2.0, p.corner_radius
        self._edge_line((-w + r, -h), (w - r, -h))
        self._edge_line((w, -h + r), (w, h - r))
        self._edge_line((w - r, h), (-w + r, h))
        self._edge_line((-w, h - r), (-w, -h + r))
        if r <= 0:
            return
        for sx, sy in ((1, -1), (1, 1), (-1, 1), (-1, -1)):
            cx, cy = sx * (w - r), sy * (h - r)
            arc = pcbnew.PCB_SHAPE(self.board)
            arc.SetShape(pcbnew.SHAPE_T_ARC)
            arc.SetArcGeometry(wxmm(kpos(sx * w, cy)),
                               wxmm(kpos(cx + sx * r / math.sqrt(2), cy + sy * r / math.sqrt(2))),
                               wxmm(kpos(cx, sy * h)))
            arc.SetLayer(pcbnew.Edge_Cuts)
            arc.SetWidth(pcbnew.FromMM(0.1))
            self.board.Add(arc)

    def _edge_line(self, a, b):
        line = pcbnew.PCB_SHAPE(self.board)
        line.SetShape(pcbnew.SHAPE_T_SEGMENT)
        line.SetStart(wxmm(kpos(*a)))
        line.SetEnd(wxmm(kpos(*b)))
        line.SetLayer(pcbnew.Edge_Cuts)
        line.SetWidth(pcbnew.FromMM(0.1))
        self.board.Add(line)

    # --- the router's grid ------------------------------------------------------------------

    def _grid(self):
        p, r = self.p, self.p.rules
        g = r["grid"]
        # Align the grid with the Pico's pins: a track passes between two of them on a node.
        px, py = kpos(p.pico.x, p.pico.y)
        left, top = kpos(-p.width / 2.0, p.height / 2.0)
        x0 = px - math.floor((px - left) / g) * g
        y0 = py - math.floor((py - top) / g) * g
        nx = int(math.ceil((left + p.width - x0) / g)) + 1
        ny = int(math.ceil((top + p.height - y0) / g)) + 1
        self.grid = R.Grid(x0, y0, nx, ny, g, r["clearance"],
                           {"signal": r["track"], "power": r["power_track"],
                            "bus": r["bus_5v"], "trunk": r["trunk_5v"]},
                           r["via_diameter"], r["via_drill"], r["hole_to_hole"])
        grid = self.grid
        edge = r["edge_clearance"]
        for a, b in ((( -p.width / 2, -p.height / 2), (p.width / 2, -p.height / 2)),
                     ((p.width / 2, -p.height / 2), (p.width / 2, p.height / 2)),
                     ((p.width / 2, p.height / 2), (-p.width / 2, p.height / 2)),
                     ((-p.width / 2, p.height / 2), (-p.width / 2, -p.height / 2))):
            grid.add_keepout((F, B), S.Segment(kpos(*a), kpos(*b), edge))
        # Beyond a rounded corner: what the edge bands leave of it, on the diagonal.
        reach = p.corner_radius * (math.sqrt(2) - 1) + edge
        for sx in (-1, 1):
            for sy in (-1, 1):
                grid.add_keepout((F, B), S.Circle(kpos(sx * p.width / 2, sy * p.height / 2),
                                                  reach))
        for _, pads in sorted(self.pads.items()):
            for pad in pads:
                self._stamp_pad(pad)

    def pad_shape(self, pad):
        cx, cy = (mm(v) for v in pad.ShapePos())
        sx, sy = mm(pad.GetSize().x), mm(pad.GetSize().y)
        angle = pad.GetOrientationDegrees()
        shape = pad.GetShape()
        if shape == pcbnew.PAD_SHAPE_CIRCLE:
            return S.Circle((cx, cy), sx / 2.0)
        if shape == pcbnew.PAD_SHAPE_OVAL and abs(sx - sy) > 1e-6:
            long, short = max(sx, sy), min(sx, sy)
            a = math.radians(angle + (0 if sx > sy else 90))
            dx, dy = (long - short) / 2.0 * math.cos(a), -(long - short) / 2.0 * math.sin(a)
            return S.Segment((cx - dx, cy - dy), (cx + dx, cy + dy), short / 2.0)
        if shape == pcbnew.PAD_SHAPE_OVAL:
            return S.Circle((cx, cy), sx / 2.0)
        return S.Rect((cx, cy), (sx, sy), angle)

    def pad_layers(self, pad):
        return tuple(k for k, layer in enumerate(KLAYER) if pad.IsOnLayer(layer))

    def _stamp_pad(self, pad):
        grid = self.grid
        attribute = pad.GetAttribute()
        hole = pad.GetPosition()
        if attribute == pcbnew.PAD_ATTRIB_NPTH:
            radius = mm(pad.GetDrillSize().x) / 2.0
            grid.add_keepout((F, B), S.Circle((mm(hole.x), mm(hole.y)),
                                              radius + self.p.rules["clearance"] + 1.0))
            grid.add_hole((mm(hole.x), mm(hole.y)), radius)
            return
        layers = self.pad_layers(pad)
        if not layers:
            return
        name = pad.GetNetname()
        net = self.net_id.get(name, 0)
        shape = self.pad_shape(pad)
        grid.add_copper(net, layers, shape, tree=False)
        if attribute == pcbnew.PAD_ATTRIB_PTH:
            grid.add_hole((mm(hole.x), mm(hole.y)), mm(pad.GetDrillSize().x) / 2.0)
        else:
            grid.no_vias(shape)

    # --- the copper laid straight -----------------------------------------------------------

    def _fixed_copper(self):
        """Each row's 5 V bus and row line, straight along the row, and the 5 V trunk from
        the jack up the right edge joining the buses' right ends."""
        p = self.p
        r = p.rules
        grid = self.grid
        rh = p.pitch / P.SQRT3 / 2.0          # half a hex's vertical edge
        vdd = {c.hex: c for c in self.components if c.ref.startswith("LED")}
        trunk = []
        for row in range(9):
            cells = self.p.row_cells(row)
            xs = [p.hex_centre(c)[0] for c in cells]
            yc = p.hex_centre(cells[0])[1]
            side = self._vdd_side(cells, vdd)
            lines = [p.crossing(c)[0] for c in cells]
            line = max(set(lines), key=lines.count)
            on_line = [c for c in cells if p.crossing(c)[0] == line]
            x_trunk = max(xs) + p.pitch / 2.0 + p.trunk_gap
            y5 = grid.snap(ORIGIN_Y - (yc + side * p.bus_5v_offset), 1)
            yr = grid.snap(ORIGIN_Y - (yc + p.row_line_y), 1)
            left = ORIGIN_X + min(xs)
            self.fixed_copper("+5V", F, (grid.snap(left, 0), y5),
                        (grid.snap(ORIGIN_X + x_trunk, 0), y5), r["bus_5v"], "bus",
                        "the 5 V bus of row %s" % P.ROW_LETTERS[row], trim="start")
            xr0 = grid.snap(left - p.pitch / 2.0 - 1.5, 0)
            xr1 = grid.snap(ORIGIN_X + max(p.hex_centre(c)[0] for c in on_line), 0)
            self.fixed_copper("ROW%d" % line, F, (xr0, yr), (xr1, yr), r["track"], "signal",
                        "the row line of row %s" % P.ROW_LETTERS[row], trim="both")
            x = grid.snap(ORIGIN_X + x_trunk, 0)
            trunk.append((x, ORIGIN_Y - (yc - rh)))
            trunk.append((x, ORIGIN_Y - (yc + rh)) if row < 8 else (x, y5))
        # From the reverse-polarity P-MOSFET's source (pin 1: the trunk's width clears the
        # gate, pin 4), where the 5 V rail begins.
        self.root("Q1", "1")
        source = self.pad_centre("Q1", "1")
        trunk.insert(0, (trunk[0][0], source[1]))
        trunk.insert(0, source)
        for a, b in zip(trunk, trunk[1:]):
            self.fixed_copper("+5V", F, a, b, r["trunk_5v"], "trunk", "the 5 V trunk")

    def _vdd_side(self, cells, leds):
        """+1 if the row's LEDs have their VDD pads toward row I, else -1."""
        total = 0.0
        for cell in cells:
            comp = leds[P.cell_name(cell)]
            px, py = C.pad_position(comp.part, "1")
            total += C.rotate(px, py, comp.rotation)[1]
        return 1 if total > 0 else -1

    def pad_centre(self, ref, number):
        pad = self.pads[(ref, number)][0]
        return mm(pad.ShapePos().x), mm(pad.ShapePos().y)

    def fixed_copper(self, net, layer, a, b, width, width_class, what, trim=None):
        n = self.net_id[net]
        lane = self.grid.free[width_class][layer]
        for x, y in _samples(a, b, self.grid.pitch / 2.0):
            i, j = self.grid.node(x, y)
            if not (0 <= i < self.grid.nx and 0 <= j < self.grid.ny):
                raise P.ParamError("%s leaves the board" % what)
            v = lane[j * self.grid.nx + i]
            if v != R.FREE and v != n:
                raise P.ParamError("%s (%.1f, %.1f) runs into %s: move it (pcb.toml [rows]) "
                                   "or the parts" % (what, x - ORIGIN_X, ORIGIN_Y - y,
                                                     self._what_is_near(x, y, n)))
        if trim:
            self.fixed.append((len(self.grid.tracks), trim))
        self.grid.add_track(n, layer, a, b, width)

    def _what_is_near(self, x, y, net):
        best = None
        for (ref, number), pads in self.pads.items():
            for pad in pads:
                if self.net_id.get(pad.GetNetname(), 0) == net:
                    continue
                d = self.pad_shape(pad).distance(x, y)
                if best is None or d < best[0]:
                    best = (d, "pad %s of %s" % (number, ref))
        return best[1] if best else "something"

    # --- routing ----------------------------------------------------------------------------

    def starts(self, ref, number, width_class="signal", net=None, which=None):
        out = []
        for k, pad in enumerate(self.pads[(ref, number)]):
            if which is not None and k != which:
                continue
            n = net or self.net_id[pad.GetNetname()]
            out += self.grid.pad_nodes(self.pad_layers(pad), self.pad_shape(pad), width_class, n)
        return out

    def connect(self, ref, number, width_class="signal", prefer=F, target=None, **kw):
        """Route pad `number` of `ref` to its net's tree, or to `target`: a pad (ref, number),
        or "via" (a via nearby: GND's pours)."""
        pad = self.pads[(ref, number)][0]
        net = self.net_id[pad.GetNetname()]
        name = "%s pad %s (%s)" % (ref, number, pad.GetNetname())
        goal = target
        if isinstance(target, tuple):
            goal = self.starts(target[0], target[1], width_class, net, which=0)
        self.grid.route(net, self.starts(ref, number, width_class, which=0), width_class,
                        prefer=prefer, target=goal, name=name, **kw)
        self.root(ref, number, 0)
        if isinstance(target, tuple):
            self.root(target[0], target[1], 0)
        if target == "via":
            return
        # A part with two pads of one number (a push button) is joined on the board too.
        for r, n in [(ref, number)] + ([target] if isinstance(target, tuple) else []):
            for k in range(1, len(self.pads[(r, n)])):
                self.grid.route(net, self.starts(r, n, width_class, which=k), width_class,
                                prefer=prefer, name=name, **kw)
                self.root(r, n, k)

    def root(self, ref, number, which=None):
        """Make a pad part of its net's tree: routes of the net may end on it."""
        for k, pad in enumerate(self.pads[(ref, number)]):
            if which is None or k == which:
                net = self.net_id[pad.GetNetname()]
                self.grid.join(net, self.pad_layers(pad), self.pad_shape(pad))

    def ground(self, ref, number):
        """Each pad `number` of `ref` (a button has two) through a via into the GND pours."""
        pad = self.pads[(ref, number)][0]
        net = self.net_id[pad.GetNetname()]
        for k in range(len(self.pads[(ref, number)])):
            self.grid.route(net, self.starts(ref, number, "power", which=k), "power",
                            prefer=F, target="via",
                            name="%s pad %s (%s)" % (ref, number, pad.GetNetname()))
            self.root(ref, number, k)

    def _route(self):
        corner.route_power_input(self)
        self._route_hexes()
        self._route_led_chain()
        pico_pin = self._pico_pins()
        self._route_rows(pico_pin)
        self._route_columns(pico_pin)
        corner.route_corner(self, pico_pin)
        corner.route_headers(self, pico_pin)
        corner.route_test_points(self)

    def _route_hexes(self):
        self.log("routing the hexes")
        for cell in range(P.CELLS):
            n = cell + 1
            self.connect("LED%d" % n, "1", "power")
            self.connect("C%d" % n, "1", "power")
            self.ground("C%d" % n, "2")
            self.ground("LED%d" % n, "3")
            self.connect("D%d" % n, "2", target=("SW%d" % n, "2"))

    def _route_led_chain(self):
        self.log("routing the LED chain")
        bmap = self.p.map
        for led in range(bmap.cells - 1):
            a = bmap.cell_of_led[led] + 1
            b = bmap.cell_of_led[led + 1] + 1
            self.connect("LED%d" % a, "2", target=("LED%d" % b, "4"))

    def _pico_pins(self):
        """{net: the Pico's pin number} of its connected pins."""
        pico_pin = {}
        for number in range(1, 41):
            pad = self.pads[("U1", str(number))][0]
            if pad.GetNetname():
                pico_pin[pad.GetNetname()] = str(number)
        return pico_pin

    def _route_rows(self, pico_pin):
        self.log("routing the row lines")
        for cell in range(P.CELLS):
            self.connect("D%d" % (cell + 1), "1")
        for line in range(len(self.p.map.row_pins)):
            self.connect("U1", pico_pin["ROW%d" % line])

    def _route_columns(self, pico_pin):
        self.log("routing the column lines")
        p = self.p
        for col in range(len(p.map.col_pins)):
            cells = [c for c in range(P.CELLS) if p.crossing(c)[1] == col]
            cells.sort(key=lambda c: (P.hexgrid.ROW_OF[c], -p.hex_centre(c)[0]))
            self.root("U1", pico_pin["COL%d" % col])
            for cell in cells:
                self.connect("SW%d" % (cell + 1), "1", prefer=B)



def _samples(a, b, step):
    length = math.hypot(b[0] - a[0], b[1] - a[1])
    n = max(1, int(length / step))
    return [(a[0] + (b[0] - a[0]) * k / n, a[1] + (b[1] - a[1]) * k / n) for k in range(n + 1)]
