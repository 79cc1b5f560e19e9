"""A small two-layer grid router: A* on a square grid with 45-degree moves and vias.

No autorouter for KiCad 6 is installable here, and none is needed: the board is regular, so
the generator lays the long straight copper itself (buses, the 5 V trunk) and asks this router
only for the connections in between, one at a time, each from a pad to the nearest copper of
its net. What it routes is clean by construction, and KiCad's DRC checks it afterwards.

The grid: nodes `pitch` apart (0.254 mm: a tenth of the Pico's pin pitch, so a track passes
between two of its pins on a node). For every layer and every track width it keeps a map of
which net may put a track centre on each node: copper of another net closer than clearance +
half the width + a margin blocks it. The margin covers a segment between two free nodes
passing nearer an obstacle than its ends (at most 0.046 mm on a diagonal of this grid).
Coordinates are KiCad's: mm, y down.
"""

import heapq
import math
from array import array

from .shapes import Circle, Segment

FREE = 0
BLOCKED = 0xFFFF
MARGIN = 0.05
STEP = 10            # cost of a step along an axis; a diagonal costs 14
LAYERS = ("F.Cu", "B.Cu")
_MOVES = ((1, 0, 10), (-1, 0, 10), (0, 1, 10), (0, -1, 10),
          (1, 1, 14), (1, -1, 14), (-1, 1, 14), (-1, -1, 14))


class RouteError(Exception):
    """A connection the router could not make; the message names it."""


# --- the grid ----------------------------------------------------------------------------

class Grid:
    """Nodes at (x0 + i * pitch, y0 + j * pitch), i < nx, j < ny, on two layers."""

    def __init__(self, x0, y0, nx, ny, pitch, clearance, widths, via_diameter, via_drill,
                 hole_to_hole):
        self.x0, self.y0, self.nx, self.ny, self.pitch = x0, y0, nx, ny, pitch
        self.clearance = clearance
        self.widths = dict(widths)                 # class name -> track width
        self.via_radius = via_diameter / 2.0
        self.via_drill = via_drill
        self.hole_to_hole = hole_to_hole
        size = nx * ny
        self.core = [array("H", bytes(2 * size)) for _ in LAYERS]
        self.free = {name: [array("H", bytes(2 * size)) for _ in LAYERS] for name in widths}
        self.via = array("H", bytes(2 * size))
        self.anchors = {}                          # net -> points on its copper
        self.tracks = []                           # (net, layer, a, b, width) routed
        self.vias = []                             # (net, (x, y))

    # coordinates

    def node(self, x, y):
        return (int(round((x - self.x0) / self.pitch)), int(round((y - self.y0) / self.pitch)))

    def point(self, i, j):
        return (round(self.x0 + i * self.pitch, 4), round(self.y0 + j * self.pitch, 4))

    def snap(self, value, axis):
        origin = self.x0 if axis == 0 else self.y0
        return origin + round((value - origin) / self.pitch) * self.pitch

    # what is where

    def _stamp(self, grid, shape, reach, value, override=False):
        """Mark the nodes closer than `reach` to `shape` with `value`: a node already marked
        for another value becomes BLOCKED (unless `override`)."""
        x0, y0, x1, y1 = shape.bbox(reach)
        p = self.pitch
        j0 = max(0, int(math.floor((y0 - self.y0) / p)))
        j1 = min(self.ny - 1, int(math.ceil((y1 - self.y0) / p)))
        nx = self.nx
        for j in range(j0, j1 + 1):
            span = shape.span(self.y0 + j * p, reach)
            if span is None:
                continue
            i0 = max(0, int(math.ceil((span[0] - self.x0) / p + 1e-9)))
            i1 = min(nx - 1, int(math.floor((span[1] - self.x0) / p - 1e-9)))
            if i1 < i0:
                continue
            row = j * nx
            if override:
                grid[row + i0:row + i1 + 1] = array("H", [value]) * (i1 - i0 + 1)
                continue
            for k in range(row + i0, row + i1 + 1):
                old = grid[k]
                if old == FREE:
                    grid[k] = value
                elif old != value:
                    grid[k] = BLOCKED

    def add_copper(self, net, layers, shape, tree=True):
        """Copper of `net` (an int >= 1, or 0 for copper of no net) on `layers` (indices).
        `tree`: it is connected to the net's tree, the copper routes of the net end on; a pad
        is added outside the tree, and joins it (`join`) once a route reaches it."""
        value = net if net else BLOCKED
        for layer in layers:
            for name, width in self.widths.items():
                self._stamp(self.free[name][layer], shape,
                            self.clearance + width / 2.0 + MARGIN, value)
        self._stamp(self.via, shape, self.clearance + self.via_radius, value)
        if net and tree:
            self.join(net, layers, shape)

    def join(self, net, layers, shape):
        """Make copper already added part of the net's tree."""
        for layer in layers:
            self._stamp(self.core[layer], shape, 1e-9, net)
        if isinstance(shape, Segment):
            self.anchors.setdefault(net, []).append((shape.a, shape.b))
        else:
            self.anchors.setdefault(net, []).append((shape.centre, shape.centre))

    def add_hole(self, centre, radius):
        """A drilled hole: no via may come within hole_to_hole of its edge, whatever the net."""
        self._stamp(self.via, Circle(centre, radius),
                    self.hole_to_hole + self.via_drill / 2.0, BLOCKED, override=True)

    def add_keepout(self, layers, shape, vias=True):
        """No copper: the board's edge and what lies beyond it, a mounting hole's ring."""
        for layer in layers:
            for name, width in self.widths.items():
                self._stamp(self.free[name][layer], shape, width / 2.0 + MARGIN, BLOCKED,
                            override=True)
        if vias:
            self._stamp(self.via, shape, self.via_radius, BLOCKED, override=True)

    def no_vias(self, shape):
        """No via on `shape` (an SMD pad: a via in it would wick the solder away)."""
        self._stamp(self.via, shape, self.via_radius + 0.05, BLOCKED, override=True)

    def add_track(self, net, layer, a, b, width):
        self.tracks.append((net, layer, a, b, width))
        self.add_copper(net, (layer,), Segment(a, b, width / 2.0))

    def open_space(self, i, j):
        """True if a via fits at node (i, j) and no copper of any net is within the widest
        track's reach of it on either layer."""
        k = j * self.nx + i
        widest = max(self.widths, key=self.widths.get)
        return self.via[k] == FREE and all(self.free[widest][layer][k] == FREE
                                           for layer in range(len(LAYERS)))

    def add_via(self, net, at):
        self.vias.append((net, at))
        self.add_copper(net, (0, 1), Circle(at, self.via_radius))
        self.add_hole(at, self.via_drill / 2.0)

    # routing

    def pad_nodes(self, layers, shape, width_class, net):
        """The nodes a track of `width_class` may start or end on inside a pad: within the
        pad less half the track, and clear of other nets; [(layer, (x, y)), ...]."""
        half = self.widths[width_class] / 2.0
        x0, y0, x1, y1 = shape.bbox(0.0)
        i0, j0 = self.node(x0, y0)
        i1, j1 = self.node(x1, y1)
        inside, loose = [], []
        for j in range(max(0, j0 - 1), min(self.ny - 1, j1 + 1) + 1):
            for i in range(max(0, i0 - 1), min(self.nx - 1, i1 + 1) + 1):
                x, y = self.point(i, j)
                d = shape.distance(x, y)
                if d > 0:
                    continue
                for layer in layers:
                    v = self.free[width_class][layer][j * self.nx + i]
                    ok = v == FREE or v == net
                    (inside if d <= -half and ok else loose).append((layer, (x, y)))
        if inside:
            return inside
        if loose:
            return loose
        cx, cy = _middle(shape)
        return [(layer, self.point(*self.node(cx, cy))) for layer in layers]

    def route(self, net, starts, width_class, prefer=None, target=None, name="",
              window=12.0, via_cost=60, wrong_layer=3, max_window=400.0):
        """Route `net` from `starts` [(layer, (x, y)), ...] (a pad's nodes) to the nearest
        copper of the net, or to `target` [(layer, (x, y)), ...] if given, or, with target
        "via", to the nearest node where a via of the net fits (and put one there). Adds the
        tracks and vias; returns the path [(layer, (x, y)), ...]. `prefer`: the layer the net
        keeps to (on the other, a step costs `wrong_layer` times as much)."""
        free = self.free[width_class]
        goal_points = self._goal_points(net, starts, target)
        span = window
        while True:
            path = self._search(net, starts, free, prefer, target, goal_points, span,
                                via_cost, wrong_layer)
            if path is not None:
                break
            if span >= max_window:
                raise RouteError("no route for %s" % (name or "net %d" % net))
            span = min(max_window, span * 3)
        self._lay(net, path, self.widths[width_class])
        if target == "via":
            self.add_via(net, path[-1][1])
        return path

    def _goal_points(self, net, starts, target):
        if target == "via":
            return []
        if target is not None:
            xs = [p[0] for _, p in target]
            ys = [p[1] for _, p in target]
            return [((min(xs) + max(xs)) / 2.0, (min(ys) + max(ys)) / 2.0)]
        segments = self.anchors.get(net)
        if not segments:
            raise RouteError("net %s has no copper to route to" % net)
        sx = sum(p[0] for _, p in starts) / len(starts)
        sy = sum(p[1] for _, p in starts) / len(starts)
        return [min((_nearest(a, b, sx, sy) for a, b in segments),
                    key=lambda p: (p[0] - sx) ** 2 + (p[1] - sy) ** 2)]

    def _search(self, net, starts, free, prefer, target, goal_points, span, via_cost,
                wrong_layer):
        """A* from `starts` to the goal in a window `span` mm round them and the goal points:
        the node path [(layer, (x, y)), ...], or None if the window holds no way."""
        window = self._window(goal_points, starts, span)
        plane = window[2] * window[3]
        g = array("i", [1 << 30]) * (2 * plane)
        parent = array("i", [-1]) * (2 * plane)
        layer_cost = [1, 1]
        if prefer is not None:
            layer_cost[1 - prefer] = wrong_layer
        if goal_points:
            gi, gj = self.node(*goal_points[0])
            weight = 12          # a tenth more than the true cost: fewer nodes, near-best paths
        else:
            gi = gj = 0
            weight = 0
        heap = self._seed(starts, window, g, (gi, gj, weight))
        goal = (self._wanted(target, window), target == "via", gi, gj, weight)
        found = self._walk(net, free, heap, g, parent, window, goal, (layer_cost, via_cost))
        return None if found < 0 else self._trace(found, parent, window)

    def _window(self, goal_points, starts, span):
        """The nodes searched: (i0, j0, columns, rows) round the starts and the goal points,
        `span` mm beyond them, within the grid. A node's index in the window is layer * plane
        + (j - j0) * columns + (i - i0), plane = columns * rows."""
        pts = [self.node(*p) for p in goal_points] + [self.node(*p) for _, p in starts]
        margin = int(span / self.pitch)
        i0 = max(0, min(i for i, _ in pts) - margin)
        i1 = min(self.nx - 1, max(i for i, _ in pts) + margin)
        j0 = max(0, min(j for _, j in pts) - margin)
        j1 = min(self.ny - 1, max(j for _, j in pts) + margin)
        return i0, j0, i1 - i0 + 1, j1 - j0 + 1

    def _wanted(self, target, window):
        """The window's nodes of a target pad; None for the net's copper or a via's place."""
        if target is None or target == "via":
            return None
        i0, j0, ww, wh = window
        wanted = set()
        for layer, p in target:
            i, j = self.node(*p)
            if i0 <= i < i0 + ww and j0 <= j < j0 + wh:
                wanted.add(layer * ww * wh + (j - j0) * ww + (i - i0))
        return wanted

    def _seed(self, starts, window, g, heuristic):
        """The heap of the start nodes in the window, each at cost 0 (so marked in `g`)."""
        i0, j0, ww, wh = window
        gi, gj, weight = heuristic
        heap = []
        for layer, p in starts:
            i, j = self.node(*p)
            if not (i0 <= i < i0 + ww and j0 <= j < j0 + wh):
                continue
            s = layer * ww * wh + (j - j0) * ww + (i - i0)
            if g[s] == 0:
                continue
            g[s] = 0
            dx, dy = abs(i - gi), abs(j - gj)
            heapq.heappush(heap, ((10 * (dx + dy) - 6 * (dx if dx < dy else dy)) * weight // 10,
                                  0, s))
        return heap

    def _walk(self, net, free, heap, g, parent, window, goal, costs):
        """A*'s loop, one on purpose (a call per node would cost what it saves): the first node
        popped that `goal` takes, or -1; `g` and `parent` filled in on the way."""
        i0, j0, ww, wh = window
        wanted, via_target, gi, gj, weight = goal
        layer_cost, via_cost = costs
        nx, core, via_map, plane = self.nx, self.core, self.via, ww * wh
        moves = [(di, dj, c, di + dj * ww, di + dj * nx) for di, dj, c in _MOVES]
        push, pop = heapq.heappush, heapq.heappop
        while heap:
            f, gs, s = pop(heap)
            if gs > g[s]:
                continue
            layer, rest = divmod(s, plane)
            lj, li = divmod(rest, ww)
            i, j = li + i0, lj + j0
            k = j * nx + i
            if via_target:
                v = via_map[k]
                if v == FREE or v == net:
                    return s
            elif gs > 0:
                if wanted is None:
                    if core[layer][k] == net:
                        return s
                elif s in wanted:
                    return s
            lane = free[layer]
            factor = layer_cost[layer]
            edge = li == 0 or lj == 0 or li == ww - 1 or lj == wh - 1
            for di, dj, c, ds, dk in moves:
                if edge:
                    ni, nj = li + di, lj + dj
                    if ni < 0 or nj < 0 or ni >= ww or nj >= wh:
                        continue
                v = lane[k + dk]
                if v != FREE and v != net:
                    continue
                t = s + ds
                ng = gs + c * factor
                if ng < g[t]:
                    g[t] = ng
                    parent[t] = s
                    dx = i + di - gi
                    dy = j + dj - gj
                    if dx < 0:
                        dx = -dx
                    if dy < 0:
                        dy = -dy
                    push(heap, (ng + (10 * (dx + dy) - 6 * (dx if dx < dy else dy)) * weight
                                // 10, ng, t))
            v = via_map[k]
            if v == FREE or v == net:
                other = 1 - layer
                ov = free[other][k]
                if ov == FREE or ov == net:
                    t = other * plane + rest
                    ng = gs + via_cost
                    if ng < g[t]:
                        g[t] = ng
                        parent[t] = s
                        push(heap, (ng + f - gs, ng, t))
        return -1

    def _trace(self, found, parent, window):
        """The path from a start to node `found`, back along `parent`."""
        i0, j0, ww, wh = window
        path = []
        s = found
        while s >= 0:
            layer, rest = divmod(s, ww * wh)
            lj, li = divmod(rest, ww)
            path.append((layer, self.point(li + i0, lj + j0)))
            s = parent[s]
        path.reverse()
        return path

    def _lay(self, net, path, width):
        """Turn a node path into tracks (straight runs merged) and vias, and add them."""
        start = 0
        for k in range(1, len(path)):
            if path[k][0] != path[k - 1][0]:
                self._run(net, path, start, k - 1, width)
                self.add_via(net, path[k][1])
                start = k
            elif k - 1 > start and (_direction(path[k - 2][1], path[k - 1][1]) !=
                                    _direction(path[k - 1][1], path[k][1])):
                self._run(net, path, start, k - 1, width)
                start = k - 1
        self._run(net, path, start, len(path) - 1, width)

    def _run(self, net, path, first, last, width):
        if path[first][1] != path[last][1]:
            self.add_track(net, path[first][0], path[first][1], path[last][1], width)


def _direction(a, b):
    return (_sign(b[0] - a[0]), _sign(b[1] - a[1]))


def _sign(v):
    return (v > 1e-9) - (v < -1e-9)


def _nearest(a, b, x, y):
    """The point of segment a-b nearest to (x, y)."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length2 = dx * dx + dy * dy
    if length2 == 0:
        return a
    t = max(0.0, min(1.0, ((x - a[0]) * dx + (y - a[1]) * dy) / length2))
    return a[0] + t * dx, a[1] + t * dy


def _middle(shape):
    return ((shape.a[0] + shape.b[0]) / 2.0, (shape.a[1] + shape.b[1]) / 2.0) \
        if isinstance(shape, Segment) else shape.centre
