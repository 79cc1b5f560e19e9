"""The routed board made into pcbnew's items: the straight buses trimmed to their
connections, the tracks and vias, the GND pours on both layers and the silkscreen. Each step
takes the board.Builder that placed and routed them."""

import math

import pcbnew

from . import params as P
from .frame import KLAYER, ORIGIN_X, ORIGIN_Y, kpos, wxmm


def trim(builder):
    """Cut each straight bus back to the stretch between its outermost connections: an
    end that leads nowhere would be a dangling stub (KiCad's DRC says so)."""
    tracks = builder.grid.tracks
    for index, ends in builder.fixed:
        net, layer, a, b, width = tracks[index]
        length = math.hypot(b[0] - a[0], b[1] - a[1])
        ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length

        def along(pt, a=a, ux=ux, uy=uy):
            dx, dy = pt[0] - a[0], pt[1] - a[1]
            t = dx * ux + dy * uy
            off = abs(-dx * uy + dy * ux)
            return t, off

        hits = []
        for k, (n, lay, p, q, _) in enumerate(tracks):
            if n != net or k == index or (lay != layer):
                continue
            for pt in (p, q):
                t, off = along(pt)
                if (-width <= t <= length + width and
                        math.hypot(max(0.0, -t, t - length), off) <= width / 2.0 + 0.01):
                    hits.append(t)
        for n, at in builder.grid.vias:
            t, off = along(at)
            if n == net and (-width <= t <= length + width and
                             math.hypot(max(0.0, -t, t - length), off) <= width / 2.0 + 0.3):
                hits.append(t)
        for pads in builder.pads.values():
            for pad in pads:
                if builder.net_id.get(pad.GetNetname()) != net or not pad.IsOnLayer(
                        KLAYER[layer]):
                    continue
                shape = builder.pad_shape(pad)
                x0, y0, x1, y1 = shape.bbox(width / 2.0)
                if (x1 < min(a[0], b[0]) or x0 > max(a[0], b[0]) or
                        y1 < min(a[1], b[1]) or y0 > max(a[1], b[1])):
                    continue
                centre, _ = along(((x0 + x1) / 2.0, (y0 + y1) / 2.0))
                reach = max(x1 - x0, y1 - y0)
                for k in range(int(reach * 20) + 1):
                    t = centre - reach / 2.0 + k * 0.05
                    if 0 <= t <= length and shape.distance(
                            a[0] + ux * t, a[1] + uy * t) < width / 2.0:
                        hits.append(t)
        if ends == "start":
            hits.append(length)           # the end that meets the trunk stays
        if not hits:
            tracks[index] = None
            continue
        t0, t1 = max(0.0, min(hits)), min(length, max(hits))
        if t1 - t0 < 0.01:
            tracks[index] = None
            continue
        tracks[index] = (net, layer, (a[0] + ux * t0, a[1] + uy * t0),
                         (a[0] + ux * t1, a[1] + uy * t1), width)


def copy_copper(builder):
    trim(builder)
    by_id = {v: builder.netinfo[k] for k, v in builder.net_id.items()}
    for item in builder.grid.tracks:
        if item is None:
            continue
        net, layer, a, b, width = item
        track = pcbnew.PCB_TRACK(builder.board)
        track.SetStart(wxmm(a))
        track.SetEnd(wxmm(b))
        track.SetWidth(pcbnew.FromMM(width))
        track.SetLayer(KLAYER[layer])
        track.SetNet(by_id[net])
        builder.board.Add(track)
    for net, at in builder.grid.vias:
        via = pcbnew.PCB_VIA(builder.board)
        via.SetPosition(wxmm(at))
        via.SetWidth(pcbnew.FromMM(builder.p.rules["via_diameter"]))
        via.SetDrill(pcbnew.FromMM(builder.p.rules["via_drill"]))
        via.SetLayerPair(pcbnew.F_Cu, pcbnew.B_Cu)
        via.SetNet(by_id[net])
        builder.board.Add(via)


# --- pours and silkscreen ---------------------------------------------------------------

def zones(builder):
    p, r = builder.p, builder.p.rules
    inset = r["edge_clearance"]
    w, h = p.width / 2.0 - inset, p.height / 2.0 - inset
    for layer in KLAYER:
        zone = pcbnew.ZONE(builder.board)
        zone.SetLayer(layer)
        zone.SetNet(builder.netinfo["GND"])
        zone.SetLocalClearance(pcbnew.FromMM(r["zone_clearance"]))
        zone.SetMinThickness(pcbnew.FromMM(0.25))
        zone.SetThermalReliefGap(pcbnew.FromMM(0.3))
        zone.SetThermalReliefSpokeWidth(pcbnew.FromMM(0.4))
        zone.SetPadConnection(pcbnew.ZONE_CONNECTION_THT_THERMAL)
        zone.SetIslandRemovalMode(pcbnew.ISLAND_REMOVAL_MODE_ALWAYS)
        outline = zone.Outline()
        outline.NewOutline()
        for x, y in ((-w, -h), (w, -h), (w, h), (-w, h)):
            X, Y = kpos(x, y)
            outline.Append(pcbnew.FromMM(X), pcbnew.FromMM(Y))
        builder.board.Add(zone)


def silkscreen(builder):
    p = builder.p
    for cell in range(P.CELLS):
        cx, cy = p.hex_centre(cell)
        spot = _free_spot(builder, cx, cy)
        _text(builder.board, P.cell_name(cell), spot, 2.0)
    # The board's name and revision in the corner right of row I, clear of the trunk.
    x = p.width / 2.0 - 12.0
    y = p.height / 2.0 - 8.0
    _text(builder.board, "IAGO BOARD", (x, y), 3.5, "right")
    _text(builder.board, "map %s" % p.map.name, (x, y - 5.0), 1.5, "right")
    _text(builder.board, "hardware/generated/pcb: make hardware", (x, y - 7.5), 1.5, "right")
    # The terminal's pins, named behind its body (the wires come in from the edge).
    for number, label in (("1", "5V"), ("2", "GND")):
        pad = builder.pads[("J1", number)][0]
        at = (pcbnew.ToMM(pad.GetPosition().x) - ORIGIN_X,
              ORIGIN_Y - pcbnew.ToMM(pad.GetPosition().y) + 7.5)
        _text(builder.board, label, at, 1.5)


def _free_spot(builder, cx, cy):
    pitch = builder.p.pitch
    # Inside the hex, at its upper left (the LED and reed switch are in the middle).
    for dx, dy in ((-0.25, 0.2), (0.25, 0.2), (-0.25, -0.2), (0.25, -0.2), (0.0, -0.35),
                   (0.0, 0.35)):
        x, y = cx + dx * pitch, cy + dy * pitch
        X, Y = kpos(x, y)
        if all(builder.pad_shape(pad).distance(X, Y) > 2.5
               for pads in builder.pads.values() for pad in pads):
            return x, y
    return cx - 0.25 * pitch, cy + 0.2 * pitch


def _text(board, text, at, size, justify="centre"):
    item = pcbnew.PCB_TEXT(board)
    item.SetText(text)
    if justify == "right":
        item.SetHorizJustify(pcbnew.GR_TEXT_HJUSTIFY_RIGHT)
    item.SetPosition(wxmm(kpos(*at)))
    item.SetLayer(pcbnew.F_SilkS)
    item.SetTextSize(pcbnew.wxSizeMM(size, size))
    item.SetTextThickness(pcbnew.FromMM(size * 0.15))
    board.Add(item)
