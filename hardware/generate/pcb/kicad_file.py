"""A .kicad_pcb read back as KiCad wrote it, with a reader of our own (not pcbnew, and not the
builder's model of the board): its footprints with their properties and pads where the board
puts them, and the pads of every net. The DC solve (powerflow.py) reads the board through it,
and the tests read the nets back through it to check them against the board map."""

import math
import re

TOKEN = re.compile(r'\(|\)|"(?:[^"\\]|\\.)*"|[^\s()"]+')


def parse(text):
    """A .kicad_pcb's s-expressions as nested lists (strings unquoted); the pours' filled
    polygons, the bulk of the file, are skipped."""
    cut = text.find("\n  (zone")
    if cut >= 0:
        text = text[:cut] + "\n)"
    stack = [[]]
    for token in TOKEN.findall(text):
        if token == "(":
            stack.append([])
        elif token == ")":
            done = stack.pop()
            stack[-1].append(done)
        else:
            stack[-1].append(token[1:-1] if token.startswith('"') else token)
    return stack[0][0]


def _field(node, name):
    for item in node:
        if isinstance(item, list) and item and item[0] == name:
            return item
    return None


class Pad:
    """A pad where the board puts it (KiCad's frame, mm): `radius` half its larger side,
    `through` for a through-hole pad."""

    def __init__(self, ref, number, net, x, y, radius=0.0, through=False):
        self.ref, self.number, self.net, self.x, self.y = ref, number, net, x, y
        self.radius, self.through = radius, through

    def __repr__(self):
        return "%s.%s(%s)" % (self.ref, self.number, self.net)


class Footprint:
    def __init__(self, node):
        self.library = node[1]
        at = _field(node, "at")
        self.x, self.y = float(at[1]), float(at[2])
        self.rotation = float(at[3]) if len(at) > 3 else 0.0
        self.properties = {p[1]: p[2] for p in node
                           if isinstance(p, list) and p[:1] == ["property"]}
        self.ref = next(t[2] for t in node if isinstance(t, list) and t[:2] == ["fp_text",
                                                                                "reference"])
        self.pads = []
        a = math.radians(self.rotation)
        for item in node:
            if not (isinstance(item, list) and item[:1] == ["pad"]):
                continue
            pat = _field(item, "at")
            px, py = float(pat[1]), float(pat[2])
            # KiCad's y points down: a footprint turned by `rotation` counter-clockwise on
            # the screen carries its pads with it.
            x = self.x + px * math.cos(a) + py * math.sin(a)
            y = self.y - px * math.sin(a) + py * math.cos(a)
            net = _field(item, "net")
            size = _field(item, "size")
            radius = max(float(size[1]), float(size[2])) / 2.0 if size else 0.0
            self.pads.append(Pad(self.ref, item[1], net[2] if net else None, x, y, radius,
                                 item[2] == "thru_hole"))

    def pad(self, number):
        return [p for p in self.pads if p.number == number]

    def net(self, number):
        nets = {p.net for p in self.pad(number)}
        return nets.pop() if len(nets) == 1 else None


class Board:
    """The footprints of a .kicad_pcb, by reference, and the pads of every net."""

    def __init__(self, text):
        tree = parse(text)
        self.footprints = {}
        for node in tree:
            if isinstance(node, list) and node[:1] == ["footprint"]:
                fp = Footprint(node)
                self.footprints[fp.ref] = fp
        self.nets = {}
        for fp in self.footprints.values():
            for pad in fp.pads:
                if pad.net:
                    self.nets.setdefault(pad.net, []).append(pad)

    def by_hex(self):
        out = {}
        for fp in self.footprints.values():
            if "hex" in fp.properties:
                out.setdefault(fp.properties["hex"], []).append(fp)
        return out
