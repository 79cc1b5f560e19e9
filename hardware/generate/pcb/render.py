"""Pictures of the finished board, both sides, as SVG (hardware/README.md shows them): the
solder mask over copper, pads, holes, the silkscreen's text and the parts' bodies, drawn
from what pcbnew holds after the pours are filled. The back is seen from behind (mirrored).
"""

import pcbnew

from hardware.generate import SVG_HEAD

MASK = "#1d5a32"          # board under solder mask
COPPER = "#2e7d45"        # copper under the mask
PAD = "#d4af37"           # bare copper (gold)
HOLE = "#101010"
SILK = "#f2f2f2"
BODY = {"LED": "#f4f4f0", "SW": "#cfe8f3", "D": "#202020", "C": "#b98c5a", "R": "#202020",
        "U": "#202020", "J": "#303030", "H": None, "FID": None}


def _mm(v):
    return pcbnew.ToMM(v)


def _f(v):
    text = "%.2f" % v
    text = text.rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


class Picture:
    def __init__(self, board, side, box):
        self.board = board
        self.front = side == "front"
        self.layer = pcbnew.F_Cu if self.front else pcbnew.B_Cu
        self.x0, self.y0, self.x1, self.y1 = box
        self.out = []

    def xy(self, x, y):
        """KiCad mm to the picture's mm: from the top left corner, mirrored for the back."""
        px = x - self.x0 if self.front else self.x1 - x
        return px, y - self.y0

    def pts(self, points):
        out = []
        last = None
        for x, y in points:
            p = tuple(_f(v) for v in self.xy(x, y))
            if p != last:
                out.append("%s,%s" % p)
                last = p
        return " ".join(out)

    def svg(self, title):
        w, h = self.x1 - self.x0, self.y1 - self.y0
        head = [SVG_HEAD,
                '<svg xmlns="http://www.w3.org/2000/svg" width="%smm" height="%smm" '
                'viewBox="0 0 %s %s" font-family="Helvetica, Arial, sans-serif">'
                % (_f(w), _f(h), _f(w), _f(h)),
                "<title>%s</title>" % title]
        return "\n".join(head + self.out + ["</svg>"]) + "\n"


def picture(board, side, width, height, corner_radius, origin):
    """The SVG text of one side of `board` (a rectangle `width` x `height` mm centred on
    `origin` in KiCad's frame)."""
    ox, oy = origin
    box = (ox - width / 2.0, oy - height / 2.0, ox + width / 2.0, oy + height / 2.0)
    pic = Picture(board, side, box)
    out = pic.out
    out.append('<rect x="0" y="0" width="%s" height="%s" rx="%s" fill="%s"/>'
               % (_f(width), _f(height), _f(corner_radius), MASK))
    for zone in board.Zones():
        if zone.GetLayer() != pic.layer:
            continue
        polys = zone.GetFilledPolysList(zone.GetLayer())
        for k in range(polys.OutlineCount()):
            outline = polys.Outline(k)
            points = [(_mm(outline.CPoint(i).x), _mm(outline.CPoint(i).y))
                      for i in range(outline.PointCount())]
            out.append('<polygon points="%s" fill="%s"/>' % (pic.pts(points), COPPER))
    tracks = []
    vias = []
    for item in board.GetTracks():
        if item.GetClass() == "PCB_VIA":
            vias.append(item)
        elif item.GetLayer() == pic.layer:
            tracks.append(item)
    for track in tracks:
        (ax, ay), (bx, by) = (pic.xy(_mm(track.GetStart().x), _mm(track.GetStart().y)),
                              pic.xy(_mm(track.GetEnd().x), _mm(track.GetEnd().y)))
        out.append('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="%s" '
                   'stroke-linecap="round"/>' % (_f(ax), _f(ay), _f(bx), _f(by), COPPER,
                                                 _f(_mm(track.GetWidth()))))
    for via in vias:
        x, y = pic.xy(_mm(via.GetPosition().x), _mm(via.GetPosition().y))
        out.append('<circle cx="%s" cy="%s" r="%s" fill="%s"/>'
                   % (_f(x), _f(y), _f(_mm(via.GetWidth()) / 2.0), COPPER))
        out.append('<circle cx="%s" cy="%s" r="%s" fill="%s"/>'
                   % (_f(x), _f(y), _f(_mm(via.GetDrillValue()) / 2.0), HOLE))
    footprints = sorted(board.GetFootprints(), key=lambda fp: fp.GetReference())
    for fp in footprints:
        for pad in fp.Pads():
            if pad.IsOnLayer(pic.layer):
                out.append(_pad(pic, pad))
    for fp in footprints:
        for pad in fp.Pads():
            if pad.GetDrillSize().x > 0:
                x, y = pic.xy(_mm(pad.GetPosition().x), _mm(pad.GetPosition().y))
                out.append('<circle cx="%s" cy="%s" r="%s" fill="%s"/>'
                           % (_f(x), _f(y), _f(_mm(pad.GetDrillSize().x) / 2.0), HOLE))
    if pic.front:
        for fp in footprints:
            out += _body(pic, fp)
        for item in board.GetDrawings():
            if item.GetClass() == "PTEXT" and item.GetLayer() == pcbnew.F_SilkS:
                out.append(_text(pic, item))
    title = "Iago board, %s side%s" % (side, "" if pic.front else " (seen from behind)")
    return pic.svg(title)


def _pad(pic, pad):
    cx, cy = pic.xy(_mm(pad.ShapePos().x), _mm(pad.ShapePos().y))
    sx, sy = _mm(pad.GetSize().x), _mm(pad.GetSize().y)
    angle = pad.GetOrientationDegrees()
    turn = -angle if pic.front else angle
    shape = pad.GetShape()
    if shape == pcbnew.PAD_SHAPE_CIRCLE:
        return '<circle cx="%s" cy="%s" r="%s" fill="%s"/>' % (_f(cx), _f(cy), _f(sx / 2), PAD)
    radius = min(sx, sy) / 2.0 if shape == pcbnew.PAD_SHAPE_OVAL else (
        min(sx, sy) * pad.GetRoundRectRadiusRatio() if shape == pcbnew.PAD_SHAPE_ROUNDRECT
        else 0.0)
    return ('<rect x="%s" y="%s" width="%s" height="%s" rx="%s" fill="%s" '
            'transform="rotate(%s %s %s)"/>' % (_f(cx - sx / 2), _f(cy - sy / 2), _f(sx), _f(sy),
                                                _f(radius), PAD, _f(turn), _f(cx), _f(cy)))


def _body(pic, fp):
    """A part's body: its courtyard less a margin, in the part's colour; an LED gets its
    round window, the Pico its board colour."""
    ref = fp.GetReference()
    prefix = ref.rstrip("0123456789")
    colour = BODY.get(prefix, "#303030")
    if ref == "U1":
        colour = "#14963c"            # the Pico's own green board
    elif prefix == "SW" and int(ref[2:]) > 100:
        colour = "#202020"            # the push buttons
    if colour is None:
        return []
    fp.BuildCourtyardCaches()
    poly = fp.GetCourtyard(pcbnew.F_CrtYd)
    if poly.OutlineCount() == 0:
        return []
    outline = poly.Outline(0)
    points = [(_mm(outline.CPoint(i).x), _mm(outline.CPoint(i).y))
              for i in range(outline.PointCount())]
    cx = sum(p[0] for p in points) / len(points)
    cy = sum(p[1] for p in points) / len(points)
    shrink = 0.8 if prefix in ("LED", "U", "J") else 0.6
    inner = [(cx + (x - cx) * shrink, cy + (y - cy) * shrink) for x, y in points]
    out = ['<polygon points="%s" fill="%s" fill-opacity="0.92"/>' % (pic.pts(inner), colour)]
    if prefix == "LED":
        x, y = pic.xy(_mm(fp.GetPosition().x), _mm(fp.GetPosition().y))
        out.append('<circle cx="%s" cy="%s" r="1.9" fill="#fffbe6" stroke="#d8d2b0" '
                   'stroke-width="0.2"/>' % (_f(x), _f(y)))
    return out


def _text(pic, item):
    x, y = pic.xy(_mm(item.GetPosition().x), _mm(item.GetPosition().y))
    size = _mm(item.GetTextHeight())
    anchor = {pcbnew.GR_TEXT_HJUSTIFY_LEFT: "start", pcbnew.GR_TEXT_HJUSTIFY_RIGHT: "end"}.get(
        item.GetHorizJustify(), "middle")
    text = item.GetText().replace("&", "&amp;").replace("<", "&lt;")
    return ('<text x="%s" y="%s" font-size="%s" text-anchor="%s" dominant-baseline="middle" '
            'fill="%s">%s</text>' % (_f(x), _f(y), _f(size * 1.3), anchor, SILK, text))

