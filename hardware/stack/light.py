"""How much light a player sees around a resting disk.

Each hex glows through its light-box window: the hex less half a wall on every side. A disk
covers its middle; what stays lit is the ring between the disk's edge and the window's, narrowest
at the window's flats and widest at its corners. The disk rests anywhere its pocket lets it, so
the worst ring is the centred one less the pocket's play.

Target: a ring at least 3 mm wide everywhere round a disk wherever it rests. At a table a
3 mm band of colour reads at a glance, while the hex's own light still sits inside its walls.
"""

import math

from .design import SQRT3

MIN_RING_MM = 3.0


class LightResult:
    def __init__(self, **values):
        self.__dict__.update(values)

    @property
    def ok(self):
        return self.flats_worst >= MIN_RING_MM


def check(design):
    apothem = design.window_across_flats() / 2.0
    corner = apothem * 2.0 / SQRT3
    radius = design.disk.diameter / 2.0
    play = design.play()
    hex_area = SQRT3 / 2.0 * design.board.pitch ** 2
    window_area = 2.0 * SQRT3 * apothem ** 2
    lit = window_area - math.pi * radius ** 2
    return LightResult(flats=apothem - radius, flats_worst=apothem - radius - play,
                       corners=corner - radius, corners_worst=corner - radius - play,
                       share=lit / hex_area, lit_area=lit, hex_area=hex_area, play=play)


def report(result):
    return "\n".join([
        "Light (the lit ring round a resting disk, mm):",
        "  at the flats %.2f centred, %.2f at worst (disk %.2f mm off centre); at the corners "
        "%.2f, %.2f at worst" % (result.flats, result.flats_worst, result.play, result.corners,
                                 result.corners_worst),
        "  lit: %.0f of the hex's %.0f mm2 (%.1f %%)" % (result.lit_area, result.hex_area,
                                                          100 * result.share),
        "  %s (at least %.1f mm everywhere)" % ("PASS" if result.ok else "FAIL", MIN_RING_MM)])
