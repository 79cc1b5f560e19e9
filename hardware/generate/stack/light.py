"""How much light a player sees around a resting disk, from above and from the side.

Each hex glows through its light-box window: the hex less half a wall on every side. The lit
ring is the surface of the opal pocket plate between a disk's pocket and the window's edge
(and the thin gap inside the pocket), narrowest at the window's flats. A disk pushed against
its pocket's wall has its far edge at that wall whatever its own size, so from above the ring
is at worst the window's apothem less the pocket's radius (the pocket cut at its widest).

Seen from a player's seat, 45 degrees above the board, a disk standing proud of the pocket
plate hides a band of the ring behind it as wide as it stands proud (cot 45 = 1): the ring
there is narrower by the most the disk can stand proud, its thickest print on the thinnest
pocket plate. The least it stands proud, on the thickest plate, is what a player's fingers
find to lift it by.

Target: a ring at least 3 mm wide everywhere round a disk wherever it rests, from above and
from 45 degrees. At a table a 3 mm band of colour reads at a glance, while the hex's own light
still sits inside its walls.
"""

import math

from .design import SQRT3

MIN_RING_MM = 3.0
VIEW_DEG = 45.0              # a seated player's view of the board's far side
MIN_GRIP_MM = 0.5            # a disk stands at least this proud of its pocket, to be lifted


class LightResult:
    def __init__(self, **values):
        self.__dict__.update(values)

    @property
    def ok(self):
        return (self.flats_worst >= MIN_RING_MM and self.seen_worst >= MIN_RING_MM
                and self.proud_least >= MIN_GRIP_MM)


def check(design):
    tol = design.tolerances
    apothem = design.window_across_flats() / 2.0
    corner = apothem * 2.0 / SQRT3
    radius = design.disk.diameter / 2.0
    pocket = (design.stack.pocket_diameter + tol.cut) / 2.0
    proud = design.disk.thickness - design.stack.pocket_plate
    proud_most = proud + tol.disk + tol.sheet
    hidden = proud_most / math.tan(math.radians(VIEW_DEG))
    hex_area = SQRT3 / 2.0 * design.board.pitch ** 2
    window_area = 2.0 * SQRT3 * apothem ** 2
    lit = window_area - math.pi * radius ** 2
    return LightResult(flats=apothem - radius, flats_worst=apothem - pocket,
                       corners=corner - radius, corners_worst=corner - pocket,
                       seen_worst=apothem - pocket - hidden, proud=proud,
                       proud_most=proud_most, proud_least=proud - tol.disk - tol.sheet,
                       share=lit / hex_area, lit_area=lit, hex_area=hex_area,
                       play=design.play())


def report(result):
    return "\n".join([
        "Light (the lit ring round a resting disk, mm):",
        "  from above: at the flats %.2f centred, %.2f at worst (the disk against its pocket's "
        "wall, the pocket cut wide); at the corners %.2f, %.2f at worst"
        % (result.flats, result.flats_worst, result.corners, result.corners_worst),
        "  from %g degrees: %.2f at worst behind a disk standing %.2f mm proud (%.2f nominal; "
        "at least %.2f to lift it by)" % (VIEW_DEG, result.seen_worst, result.proud_most,
                                          result.proud, result.proud_least),
        "  lit: %.0f of the hex's %.0f mm2 (%.1f %%)" % (result.lit_area, result.hex_area,
                                                          100 * result.share),
        "  %s (a ring at least %.1f mm from above and from %g degrees; a disk at least %.1f "
        "mm proud)" % ("PASS" if result.ok else "FAIL", MIN_RING_MM, VIEW_DEG, MIN_GRIP_MM)])
