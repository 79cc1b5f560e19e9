"""What copper (or a hole) covers, with exact distances, in KiCad's mm (y down): tracks and
oval pads (Segment), round pads and vias (Circle), rectangular pads at any angle (Rect). Each
gives its bounding box, the x-span it covers on a line of the router's grid, and the distance
from a point to its edge."""

import math


class Segment:
    """A track or an oval pad: the points within `half` of the segment a-b."""

    def __init__(self, a, b, half):
        self.a, self.b, self.half = a, b, half

    def bbox(self, extra):
        r = self.half + extra
        return (min(self.a[0], self.b[0]) - r, min(self.a[1], self.b[1]) - r,
                max(self.a[0], self.b[0]) + r, max(self.a[1], self.b[1]) + r)

    def span(self, y, reach):
        """The x-interval of the points on the line at `y` within `reach` of the shape (the
        shape grown by `reach` is convex, so it is one interval), or None."""
        d = self.half + reach
        (ax, ay), (bx, by) = self.a, self.b
        lo, hi = math.inf, -math.inf
        for cx, cy in (self.a, self.b):
            dy = y - cy
            if -d <= dy <= d:
                w = math.sqrt(d * d - dy * dy)
                lo, hi = min(lo, cx - w), max(hi, cx + w)
        length = math.hypot(bx - ax, by - ay)
        if length > 0:
            ux, uy = (bx - ax) / length, (by - ay) / length
            band = _clip((ax, ay), y, ((ux, uy, 0.0, length), (-uy, ux, -d, d)))
            if band:
                lo, hi = min(lo, band[0]), max(hi, band[1])
        return (lo, hi) if lo <= hi else None

    def distance(self, x, y):
        (ax, ay), (bx, by) = self.a, self.b
        dx, dy = bx - ax, by - ay
        length2 = dx * dx + dy * dy
        t = 0.0 if length2 == 0 else max(0.0, min(1.0, ((x - ax) * dx + (y - ay) * dy) / length2))
        return math.hypot(x - ax - t * dx, y - ay - t * dy) - self.half


class Circle(Segment):
    def __init__(self, centre, radius):
        Segment.__init__(self, centre, centre, radius)


class Rect:
    """A rectangle (a rect or rounded-rect pad, taken square-cornered) rotated by `angle`
    degrees counter-clockwise on the screen (KiCad's sense)."""

    def __init__(self, centre, size, angle):
        self.centre, self.size = centre, size
        a = math.radians(angle)
        self.c, self.s = math.cos(a), math.sin(a)
        hx, hy = size[0] / 2.0, size[1] / 2.0
        self.half = (hx, hy)
        corners = [self._to_board(px, py) for px, py in ((hx, hy), (hx, -hy), (-hx, hy),
                                                          (-hx, -hy))]
        self._box = (min(p[0] for p in corners), min(p[1] for p in corners),
                     max(p[0] for p in corners), max(p[1] for p in corners))

    def _to_board(self, px, py):
        # KiCad's y points down, so counter-clockwise on the screen is clockwise in (x, y).
        return (self.centre[0] + px * self.c + py * self.s,
                self.centre[1] - px * self.s + py * self.c)

    def bbox(self, extra):
        x0, y0, x1, y1 = self._box
        return x0 - extra, y0 - extra, x1 + extra, y1 + extra

    def span(self, y, reach):
        """As Segment.span: the rectangle grown by `reach` is the union of two rectangles
        grown along each axis and four discs at the corners."""
        hx, hy = self.half
        u, v = (self.c, -self.s), (self.s, self.c)
        lo, hi = math.inf, -math.inf
        for ex, ey in ((hx + reach, hy), (hx, hy + reach)):
            band = _clip(self.centre, y, ((u[0], u[1], -ex, ex), (v[0], v[1], -ey, ey)))
            if band:
                lo, hi = min(lo, band[0]), max(hi, band[1])
        for px, py in ((hx, hy), (hx, -hy), (-hx, hy), (-hx, -hy)):
            cx, cy = self._to_board(px, py)
            dy = y - cy
            if -reach <= dy <= reach:
                w = math.sqrt(reach * reach - dy * dy)
                lo, hi = min(lo, cx - w), max(hi, cx + w)
        return (lo, hi) if lo <= hi else None

    def distance(self, x, y):
        dx, dy = x - self.centre[0], y - self.centre[1]
        px = dx * self.c - dy * self.s
        py = dx * self.s + dy * self.c
        qx, qy = abs(px) - self.half[0], abs(py) - self.half[1]
        if qx <= 0 and qy <= 0:
            return max(qx, qy)
        return math.hypot(max(qx, 0.0), max(qy, 0.0))


def _clip(origin, y, conditions):
    """The x-interval on the line at `y` where lo <= (p - origin) . (vx, vy) <= hi for every
    (vx, vy, lo, hi) in `conditions`, or None."""
    left, right = -math.inf, math.inf
    for vx, vy, lo, hi in conditions:
        c = (y - origin[1]) * vy
        if abs(vx) < 1e-12:
            if not lo - 1e-12 <= c <= hi + 1e-12:
                return None
            continue
        x1 = origin[0] + (lo - c) / vx
        x2 = origin[0] + (hi - c) / vx
        if x1 > x2:
            x1, x2 = x2, x1
        left, right = max(left, x1), min(right, x2)
    return (left, right) if left <= right else None
