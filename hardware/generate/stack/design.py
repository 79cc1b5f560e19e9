"""hardware/design.toml, read and checked, and where each hex and part sits on the board.

Board coordinates (those of design.toml's [pcb]): mm, origin at the centre hex E5, x toward
higher positions along a row, y toward row I. Hexes are pointy toward row I.
"""

import copy
import math
import tomllib
from pathlib import Path
from types import SimpleNamespace

from iago import hexgrid

from hardware.generate import DESIGN

SQRT3 = math.sqrt(3.0)

# The keys this package reads, with their kind: "mm" a positive length, "deg" an angle, "pair"
# two ascending positive numbers, "text" a string.
SCHEMA = {
    "board": {"pitch": "mm"},
    "disk": {"diameter": "mm", "thickness": "mm", "magnet_diameter": "mm",
             "magnet_thickness": "mm", "magnet_grade": "text", "magnet_remanence": "pair",
             "magnet_depth": "length", "magnet_axis_tolerance": "length"},
    "stack": {"pocket_plate": "mm", "pocket_diameter": "mm", "top_plate": "mm",
              "light_box": "mm", "light_wall": "mm", "pcb": "mm", "under_pcb": "mm",
              "base": "mm"},
    "parts.led": {"part": "text", "footprint": "text", "x": "number", "y": "number",
                  "rotation": "deg", "height": "mm"},
    "parts.reed": {"part": "text", "footprint": "text", "x": "number", "y": "number",
                   "rotation": "deg", "pull_in_at": "pair", "release_at_min": "mm",
                   "length": "mm", "axis_height": "mm"},
    "tolerances": {"sheet": "length", "disk": "length", "cut": "length",
                   "magnet_slack": "length", "reed_placement": "length"},
}


class DesignError(ValueError):
    """design.toml lacks a value or holds one that cannot be built; the message names it."""


def _section(data, dotted):
    node = data
    for part in dotted.split("."):
        node = node.get(part) if isinstance(node, dict) else None
        if node is None:
            raise DesignError("design.toml has no [%s] section" % dotted)
    return node


def _checked(dotted, key, kind, value):
    where = "design.toml [%s] %s" % (dotted, key)
    if kind == "text":
        if not isinstance(value, str) or not value:
            raise DesignError("%s must be a text, not %r" % (where, value))
        return value
    if kind == "pair":
        if (not isinstance(value, list) or len(value) != 2
                or not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value)
                or not 0 < value[0] <= value[1]):
            raise DesignError("%s must be two numbers, low then high, above 0: not %r"
                              % (where, value))
        return (float(value[0]), float(value[1]))
    if not isinstance(value, (int, float)) or isinstance(value, bool) or value != value:
        raise DesignError("%s must be a number, not %r" % (where, value))
    value = float(value)
    if kind == "mm" and value <= 0:
        raise DesignError("%s must be above 0 mm, not %g" % (where, value))
    if kind == "length" and value < 0:
        raise DesignError("%s must be 0 mm or more, not %g" % (where, value))
    return value


class Design:
    """The checked parameters: `design.board.pitch`, `design.disk.diameter`, `design.reed.x`...;
    `design.pcb` is the [pcb] section as written (its owner's), `design.data` all of it."""

    def __init__(self, data, source="hardware/design.toml"):
        self.data = data
        self.source = source
        for dotted, keys in SCHEMA.items():
            section = _section(data, dotted)
            values = {}
            for key, kind in keys.items():
                if key not in section:
                    raise DesignError("design.toml [%s] lacks %s" % (dotted, key))
                values[key] = _checked(dotted, key, kind, section[key])
            setattr(self, dotted.split(".")[-1], SimpleNamespace(**values))
        self.pcb = data.get("pcb", {})
        self._check_fits()

    def _check_fits(self):
        disk, stack = self.disk, self.stack
        if abs(disk.magnet_depth * 2 + disk.magnet_thickness - disk.thickness) > 1e-6:
            # Both faces alike: a magnet off the middle would sense one face up less.
            raise DesignError("the %g mm magnet %g mm under both faces needs a disk %g mm thick, "
                              "not %g" % (disk.magnet_thickness, disk.magnet_depth,
                                          disk.magnet_thickness + 2 * disk.magnet_depth,
                                          disk.thickness))
        if disk.magnet_diameter >= disk.diameter:
            raise DesignError("the magnet (%g mm) must be narrower than the disk (%g mm)"
                              % (disk.magnet_diameter, disk.diameter))
        if stack.pocket_diameter < disk.diameter:
            raise DesignError("a %g mm disk does not fit its %g mm pocket"
                              % (disk.diameter, stack.pocket_diameter))
        if stack.pocket_diameter >= self.window_across_flats():
            raise DesignError("the %g mm pocket does not fit the hex's light-box window (%g mm "
                              "across flats): a larger pitch or a smaller pocket"
                              % (stack.pocket_diameter, self.window_across_flats()))

    @classmethod
    def load(cls, path=DESIGN):
        path = Path(path)
        try:
            with open(path, "rb") as f:
                data = tomllib.load(f)
        except OSError as exc:
            raise DesignError("cannot read %s: %s" % (path.name, exc.strerror or exc))
        except tomllib.TOMLDecodeError as exc:
            raise DesignError("%s is not valid TOML: %s" % (path.name, exc))
        return cls(data, path.name)

    def changed(self, **sections):
        """A copy with some values replaced: `design.changed(board={"pitch": 36})`; a section
        name with a dot is written with an underscore (`parts_reed`)."""
        data = copy.deepcopy(self.data)
        for name, values in sections.items():
            target = data
            for part in name.replace("parts_", "parts.").split("."):
                target = target.setdefault(part, {})
            target.update(values)
        return Design(data, self.source + " (changed)")

    # --- geometry ---

    def window_across_flats(self):
        """Across flats of one hex's light-box window: the hex less the wall, half each side."""
        return self.board.pitch - self.stack.light_wall

    def play(self):
        """How far a disk's centre can be from its hex centre: the pocket's slack."""
        return (self.stack.pocket_diameter - self.disk.diameter) / 2.0

    def magnet_height(self):
        """The magnet's centre above the PCB's top, the disk resting on the top plate."""
        return (self.stack.light_box + self.stack.top_plate + self.disk.magnet_depth
                + self.disk.magnet_thickness / 2.0)

    def part_points(self, part, points):
        """`points` given in a part's own frame (x, y), placed in the hex frame by the part's
        position and rotation."""
        turn = math.radians(part.rotation)
        c, s = math.cos(turn), math.sin(turn)
        return [(part.x + c * x - s * y, part.y + s * x + c * y) for x, y in points]


def hex_centre(cell, pitch):
    """The centre of `cell` in board coordinates (origin at E5, y toward row I)."""
    row = hexgrid.ROW_OF[cell]
    number = hexgrid.NUMBER_OF[cell]
    return (number - row / 2.0 - 3.0) * pitch, (row - 4) * 1.5 * pitch / SQRT3


def hex_corners(cx, cy, across_flats):
    """The six corners of a hex pointy toward +y, counter-clockwise from the corner at 30
    degrees."""
    radius = across_flats / SQRT3
    return [(cx + radius * math.cos(math.radians(30 + 60 * k)),
             cy + radius * math.sin(math.radians(30 + 60 * k))) for k in range(6)]


def neighbour_offsets(pitch):
    """The six neighbours' centres relative to a hex centre, at 0, 60, ... 300 degrees."""
    return [(pitch * math.cos(math.radians(60 * k)), pitch * math.sin(math.radians(60 * k)))
            for k in range(6)]


def field_extent(pitch):
    """(half width, half height) of the 61 hexes' outline around E5."""
    return 4.5 * pitch, 4 * 1.5 * pitch / SQRT3 + pitch / SQRT3
