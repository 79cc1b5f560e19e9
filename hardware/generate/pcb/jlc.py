"""How the fab (JLCPCB) reads a placement file: its parts library draws each package in its
own orientation, which for whole footprint families differs from KiCad's, and it places a
part by the middle of its body. Plain Python: no KiCad needed.

The corrections are KiBot's table, taken as it stands (INTI-CMNB/KiBot, kibot/misc.py,
DEFAULT_ROTATIONS and DEFAULT_OFFSETS, commit 7362376, 2025-05-29), which grew from
JLCKicadTools' (matthewlai/JLCKicadTools, jlc_kicad_tools/cpl_rotations_db.csv, commit
02f5483); a family neither lists takes no correction there, and is written here with 0 and
says so. The fab's CPL rotation is KiCad's plus the family's correction (KiBot's rot_footprint
filter, top side); both count counter-clockwise seen from the top.

Each family also says where the fab's library puts pin 1 (or the + lead, or the cathode) at
0 degrees, as a compass point of the body seen from the top (north toward row I): what the
fab's placement preview must show once the part is turned by the CPL's rotation. The tests
check every assembled part against it from the KiCad footprint's own pad 1, and fail for a
family missing here.
"""

import re

KIBOT = "KiBot kibot/misc.py DEFAULT_ROTATIONS (commit 7362376)"
JLCKICADTOOLS = "JLCKicadTools cpl_rotations_db.csv (commit 02f5483)"
NONE_LISTED = "not in %s nor %s: no correction" % (KIBOT, JLCKICADTOOLS)
COMPASS = ("E", "NE", "N", "NW", "W", "SW", "S", "SE")


class Family:
    """A footprint family: `pattern` (a regular expression on KiCad's footprint name),
    `rotation` added for the fab, `offset` (x, y in mm, the footprint's frame with y toward
    row I) from KiCad's origin to the body's middle, `pin1` the compass point of pin 1 in
    the fab's library at 0 degrees, `mark` what shows pin 1 on the part, `source`."""

    def __init__(self, pattern, rotation, pin1, mark, source, offset=(0.0, 0.0)):
        self.pattern, self.rotation, self.pin1 = pattern, rotation, pin1
        self.mark, self.source, self.offset = mark, source, offset
        self.regex = re.compile(pattern)

    def __repr__(self):
        return "Family(%r, %g)" % (self.pattern, self.rotation)


FAMILIES = (
    Family(r"^LED_WS2812B_PLCC4", 180.0, "SE", "the cut corner and the dot at pin 1 (VDD)",
           "KiBot ^LED_WS2812B_PLCC4 180"),
    Family(r"^SOIC-", 270.0, "SW", "the dot or bevel at pin 1",
           "KiBot and JLCKicadTools ^SOIC- 270"),
    Family(r"^CP_Elec_", 180.0, "E", "the + pad; the dark band of the can marks the - lead",
           "KiBot ^CP_Elec_ 180 (JLCKicadTools lists sizes up to 8x10.5 at 180)"),
    Family(r"^D_SOD-123", 0.0, "W", "the cathode band", NONE_LISTED),
    Family(r"^D_SMA$", 0.0, "W", "the cathode band", NONE_LISTED),
    Family(r"^C_0603_", 0.0, "W", "none (not polarised)", NONE_LISTED),
    Family(r"^R_0603_", 0.0, "W", "none (not polarised)", NONE_LISTED),
    Family(r"^Fuse_2920_", 0.0, "W", "none (not polarised)", NONE_LISTED),
    Family(r"^SW_SPST_REED_CT10-", 0.0, "W", "none (not polarised: a reed switch)",
           NONE_LISTED),
    Family(r"^SW_SPST_TL3342$", 0.0, "N", "none (pads 1 and 2 each a pair)", NONE_LISTED),
    # KiCad's origin for these is pad 1, not the part's middle: the fab places by the middle
    # of the pads, 3.25 mm along and 2.25 mm across for the button, 2.54 mm along for the
    # terminal (the footprints' own pad grids).
    Family(r"^SW_PUSH_6mm_H13mm$", 0.0, "N", "none (pads 1 and 2 each a pair)", NONE_LISTED,
           offset=(3.25, -2.25)),
    Family(r"^TerminalBlock_Phoenix_MKDS-1,5-2-5.08_", 0.0, "W",
           "the wire entries toward the board's edge (row A's side), the screws up",
           NONE_LISTED, offset=(2.54, 0.0)),
)


class MissingFamily(Exception):
    """An assembled footprint whose family is not in FAMILIES."""


def family(footprint_name):
    """The Family of a footprint name (without its library); MissingFamily if none."""
    for fam in FAMILIES:
        if fam.regex.search(footprint_name):
            return fam
    raise MissingFamily("%s is in no family of hardware/generate/pcb/jlc.py: find the fab's "
                        "orientation of the package and add it" % footprint_name)


def compass(degrees):
    """The compass point nearest `degrees` (counter-clockwise from east)."""
    return COMPASS[int(round((degrees % 360.0) / 45.0)) % 8]


def degrees(point):
    return COMPASS.index(point) * 45.0


def placement(footprint_name, x, y, rotation):
    """(x, y, rotation) as the fab's CPL wants them, from KiCad's origin and rotation."""
    import math
    fam = family(footprint_name)
    a = math.radians(rotation)
    dx, dy = fam.offset
    return (x + dx * math.cos(a) - dy * math.sin(a), y + dx * math.sin(a) + dy * math.cos(a),
            (rotation + fam.rotation) % 360.0)
