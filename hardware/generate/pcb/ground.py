"""The GND pours as KiCad filled them: every island (a separate piece of pour on one layer)
and where it is tied to the rest of GND (a GND via, or a GND pad that goes through the board,
inside it: each joins the two layers there). An island tied at fewer than two places hangs
on one via, or on nothing; the stitching vias (stitch) tie every island at both ends.
Needs KiCad 6's pcbnew.
"""

import pcbnew

from .frame import KLAYER, kpos, mm

STITCH_PITCH = 8.0          # mm between stitching vias, a grid over the whole board


def _ties(board):
    """Where GND goes through the board: its vias and its through-hole pads, (centre, the
    radius of their copper)."""
    ties = [(v.GetPosition(), v.GetWidth() // 2) for v in board.GetTracks()
            if v.GetClass() == "PCB_VIA" and v.GetNetname() == "GND"]
    return ties + [(p.GetPosition(), min(p.GetSize().x, p.GetSize().y) // 2)
                   for p in board.GetPads()
                   if p.GetNetname() == "GND" and p.GetAttribute() == pcbnew.PAD_ATTRIB_PTH]


def _tied(piece, ties):
    """How many of `ties` reach into the island `piece` (their copper touches it)."""
    return sum(1 for at, radius in ties
               if piece.Contains(pcbnew.VECTOR2I(at.x, at.y), -1, int(radius)))


def _pieces(board):
    """(layer, SHAPE_POLY_SET of one island) of every GND island."""
    out = []
    for zone in board.Zones():
        if zone.GetNetname() != "GND":
            continue
        for layer in KLAYER:
            if not zone.IsOnLayer(layer):
                continue
            polys = zone.GetFilledPolysList(layer)
            for k in range(polys.OutlineCount()):
                one = pcbnew.SHAPE_POLY_SET()
                one.AddOutline(polys.Outline(k))
                for h in range(polys.HoleCount(k)):
                    one.AddHole(polys.Hole(k, h))
                out.append((layer, one))
    return out


def islands(board):
    """[(layer name, area in mm2, ties, (x, y) of its first point)] of the GND pours."""
    ties = _ties(board)
    out = []
    for layer, one in _pieces(board):
        count = _tied(one, ties)
        first = one.Outline(0).CPoint(0)
        out.append((board.GetLayerName(layer), one.Area() / 1e12, count,
                    (mm(first.x), mm(first.y))))
    return out


def report(board):
    """The islands as text, and (islands, islands tied at fewer than two places)."""
    found = islands(board)
    loose = [i for i in found if i[2] < 2]
    lines = ["GND pours of iago-board.kicad_pcb, as KiCad filled them (make hardware)", "",
             "%d islands (top %d, bottom %d); %d tied at fewer than two places"
             % (len(found), sum(1 for i in found if i[0] == "F.Cu"),
                sum(1 for i in found if i[0] == "B.Cu"), len(loose)), ""]
    lines.append("layer  area mm2  ties  first point (KiCad mm)")
    for layer, area, count, (x, y) in sorted(found, key=lambda i: (i[0], -i[1])):
        lines.append("%-5s  %8.1f  %4d  %.1f, %.1f" % (layer, area, count, x, y))
    return "\n".join(lines) + "\n", (len(found), len(loose))


def stitch(builder):
    """GND vias on a grid wherever nothing lies within a trunk's reach on either layer (so
    the pours surround the via on both), holding the two layers' pours to each other: every
    island of either layer is then tied to the other layer at many places, not at one.
    Returns how many."""
    grid = builder.grid
    gnd = builder.net_id["GND"]
    p = builder.p
    step = int(round(STITCH_PITCH / grid.pitch))
    margin = p.rules["edge_clearance"] + p.rules["via_diameter"] + p.rules["zone_clearance"]
    added = 0
    left, top = kpos(-p.width / 2.0 + margin, p.height / 2.0 - margin)
    right, bottom = kpos(p.width / 2.0 - margin, -p.height / 2.0 + margin)
    i0, j0 = grid.node(left, top)
    i1, j1 = grid.node(right, bottom)
    for j in range(j0 + step // 2, j1, step):
        for i in range(i0 + step // 2, i1, step):
            if grid.open_space(i, j):
                grid.add_via(gnd, grid.point(i, j))
                added += 1
    return added


def tie_loose_islands(board, builder):
    """After a fill: for every island tied at fewer than two places, GND vias inside it where
    a via fits and the other layer's pour surrounds it too, the two farthest apart (its two
    ends). Returns how many vias; the zones must be filled again."""
    grid = builder.grid
    gnd = builder.net_id["GND"]
    pieces = _pieces(board)
    ties = _ties(board)
    reach = pcbnew.FromMM(grid.via_radius + builder.p.rules["zone_clearance"])
    added = 0
    for layer, one in pieces:
        have = _tied(one, ties)
        if have >= 2:
            continue
        others = [o for lay, o in pieces if lay != layer]
        outline = one.Outline(0)
        xs = [mm(outline.CPoint(k).x) for k in range(outline.PointCount())]
        ys = [mm(outline.CPoint(k).y) for k in range(outline.PointCount())]
        i0, j0 = grid.node(min(xs), min(ys))
        i1, j1 = grid.node(max(xs), max(ys))
        spots = []
        for j in range(max(j0, 0), min(j1, grid.ny - 1) + 1, 2):
            for i in range(max(i0, 0), min(i1, grid.nx - 1) + 1, 2):
                if grid.via[j * grid.nx + i] != 0:
                    continue
                x, y = grid.point(i, j)
                ring = [pcbnew.VECTOR2I(pcbnew.FromMM(x) + dx, pcbnew.FromMM(y) + dy)
                        for dx, dy in ((0, 0), (reach, 0), (-reach, 0), (0, reach),
                                       (0, -reach))]
                if all(one.Contains(p) for p in ring) and any(
                        all(o.Contains(p) for p in ring) for o in others):
                    spots.append((x, y))
        if not spots:
            continue
        a = spots[0]
        b = max(spots, key=lambda s: (s[0] - a[0]) ** 2 + (s[1] - a[1]) ** 2)
        a = max(spots, key=lambda s: (s[0] - b[0]) ** 2 + (s[1] - b[1]) ** 2)
        for at in ([a, b] if a != b else [a])[:2 - have]:
            if grid.via[grid.node(*at)[1] * grid.nx + grid.node(*at)[0]] != 0:
                continue
            grid.add_via(gnd, at)
            via = pcbnew.PCB_VIA(board)
            via.SetPosition(pcbnew.wxPointMM(at[0], at[1]))
            via.SetWidth(pcbnew.FromMM(builder.p.rules["via_diameter"]))
            via.SetDrill(pcbnew.FromMM(builder.p.rules["via_drill"]))
            via.SetLayerPair(pcbnew.F_Cu, pcbnew.B_Cu)
            via.SetNet(board.FindNet("GND"))
            board.Add(via)
            added += 1
    return added
