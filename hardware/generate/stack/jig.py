"""The go/no-go jig: a loose reed switch tested against the board's envelope before it is
soldered.

The switch lies in a groove of the jig's base, its inner end where it is on the PCB (under
the magnet's axis); one of the board's own disks sits in a cup that hangs by three lugs in the
base's bore. Lugs down their slots: the disk at the near height, where a switch must close.
Lifted and turned into the notches: the far height, where it must open again. The near height
is where the jig's strongest reading (its disk's magnet at the grade's strongest, lowest in the
jig's tolerances) is the board's weakest own reading over the envelope (the own disk less the
full board); the far height is where its weakest reading is the full board's strongest. So a
switch that closes near and opens far senses right in the board over the whole envelope under
either reed model, without the ampere-turn conversion the datasheet's figures need: the jig
and the board both measure it with the same kind of disk.

Print both parts (`stack-jig.stl`, side by side as they print: the base on its floor, the cup
on its floor), 0.2 mm layers, no supports.
"""

import math

import numpy as np

from . import envelope, field

MARGIN = envelope.FLOOR      # a passing switch senses right over the whole envelope
SAMPLE = 29                  # switches of a reel that, all passing, show with 95 % confidence
                             # that at most 10 % of the reel fails: 0.9 ** 29 < 0.05
CLEAR = 0.3                  # radial play: the disk in the cup, the cup in the bore
CUP_FLOOR = 1.2
CUP_WALL = 1.6
BASE_WALL = 2.4
LUG_R = 1.5                  # the lugs are short pins, 3 mm across
LUG_LENGTH = 3.0
LUGS = 3                     # at 0, 120 and 240 degrees: clear of the groove at 90 and 270
NOTCH_DEG = 30.0             # how far the cup turns from the slots into the notches
SWITCH_HEIGHT = 2.5          # the CT10's body, lying in the groove
SWITCH_WIDTH = 2.41
BODY_LENGTH = 12.8           # the molded body; the leads reach 1.8 mm beyond it each end
GROOVE_PLAY = 0.2
PROBE_SLOT = 1.4             # wide enough for a meter's probe, narrower than the body
SEGMENTS = 96


class JigError(ValueError):
    """The envelope leaves no room for a jig: the near height is not below the far one, or
    lower than the base can hold the cup."""


class Jig:
    """The two heights (the magnet's centre above the switch's underside, mm) and what the
    jig's disk reads there under each model (mT, nominal: the jig as drawn, the grade's
    middle)."""

    def __init__(self, design, result=None):
        self.design = design
        result = result or envelope.check(design)
        tol = design.tolerances
        disk = design.disk
        # The jig's own spread: its print, the disk's skin and magnet slack, the switch in
        # its groove; the disk in the cup and the cup in the bore.
        self.rise = 2 * tol.disk + tol.magnet_slack + tol.reed_placement
        self.reach = 2 * CLEAR + tol.disk / 2 + tol.magnet_slack + tol.reed_placement
        self.body_lean = result.envelope.body_lean
        self.axis_lean = result.envelope.axis_lean
        self.magnet = (disk.magnet_diameter, disk.magnet_thickness)
        low, high = disk.magnet_remanence
        near, far, self.models = [], [], []
        for r in result.models:
            reed = field.Reed(design, r.model)
            z_near = self._solve(reed, r.own_less_board / MARGIN, high, strongest=True)
            z_far = self._solve(reed, r.board * MARGIN, low, strongest=False)
            near.append(z_near)
            far.append(z_far)
            self.models.append((r, reed))
        self.near = max(near)
        self.far = min(far)
        self._check_room()

    def _reading(self, reed, z, remanence, strongest):
        """The jig's strongest (or weakest) reading with its magnet centre nominally `z`
        mm up, over the jig's spread."""
        where = envelope.spots(self.reach, 2)
        z = z - self.rise if strongest else z + self.rise
        centres = np.column_stack([where, np.full(len(where), z)])
        most, least = field.leaning_near(reed, centres, self.magnet, self.body_lean,
                                         self.axis_lean)
        return float(most.max() if strongest else least.min()) * remanence

    def _solve(self, reed, target, remanence, strongest):
        """The height at which the reading falls to `target` (bisection: it falls with
        height above the switch)."""
        lo, hi = SWITCH_HEIGHT, 50.0
        if target <= 0:
            raise JigError("the board's own disk, less the full board, cannot close a switch "
                           "over the whole envelope: no height tells a good switch")
        if self._reading(reed, hi, remanence, strongest) > target:
            raise JigError("even %g mm above the switch the disk reads more than %.3f mT"
                           % (hi, target))
        while hi - lo > 0.004:
            mid = (lo + hi) / 2
            if self._reading(reed, mid, remanence, strongest) > target:
                lo = mid
            else:
                hi = mid
        # To 0.01 mm, rounded to the safe side: higher near, lower far.
        return math.ceil(hi * 100) / 100 if strongest else math.floor(lo * 100) / 100

    def _check_room(self):
        if self.far <= self.near + 2 * LUG_R:
            raise JigError("the far height (%.2f mm) is not above the near one (%.2f mm): the "
                           "envelope leaves no switch that passes" % (self.far, self.near))
        if self.cup_bottom(self.near) < self.bore_floor() + 0.2:
            raise JigError("the near height (%.2f mm) puts the cup on the switch" % self.near)

    def nominal(self, reed, z):
        """What the jig's disk reads at height `z`, as drawn and of the grade's middle."""
        middle = sum(self.design.disk.magnet_remanence) / 2
        return abs(float(field.readings(reed, [(0.0, 0.0, z)], self.magnet)[0, 0])) * middle

    # --- the parts' dimensions (mm, z up from the switch's underside) -------------------

    def cup_bottom(self, z_magnet):
        return z_magnet - CUP_FLOOR - self.design.disk.thickness / 2

    def bore_floor(self):
        return SWITCH_HEIGHT + 0.3

    def cup_height(self):
        return CUP_FLOOR + self.design.disk.thickness + 1.5

    def lug_centre(self):
        """Above the cup's bottom."""
        return self.cup_height() - LUG_R - 0.5

    def rest(self, z_magnet):
        """Where a lug's underside rests for the magnet to be at `z_magnet`."""
        return self.cup_bottom(z_magnet) + self.lug_centre() - LUG_R

    def cup_radius(self):
        return self.design.disk.diameter / 2 + CLEAR + CUP_WALL

    def bore_radius(self):
        return self.cup_radius() + CLEAR

    def base_top(self):
        return self.rest(self.far) + 2 * LUG_R + 0.4 + 3.0

    def report(self):
        lines = ["Go/no-go jig (stack-jig.stl): the magnet %.2f mm above the switch's underside "
                 "(near: it must close), then %.2f mm (far: it must open again)"
                 % (self.near, self.far)]
        for r, reed in self.models:
            near, far = self.nominal(reed, self.near), self.nominal(reed, self.far)
            lines.append("  %s model: the jig reads %.3f mT near (%.1f AT) and %.3f mT far "
                         "(%.1f AT) as drawn; a passing switch operates below %.3f mT and "
                         "releases above %.3f mT in the jig's worst case"
                         % (r.model, near, near / r.mt_per_at, far, far / r.mt_per_at,
                            r.own_less_board / MARGIN, r.board * MARGIN))
        lines.append("  test every switch before soldering it, or %d of a reel (all passing: "
                     "at most 10 %% of the reel fails, with 95 %% confidence)" % SAMPLE)
        return "\n".join(lines)


# --- the solids ------------------------------------------------------------------------

def _cylinder(height, radius, z=0.0):
    from manifold3d import Manifold

    return Manifold.cylinder(height, radius, circular_segments=SEGMENTS).translate((0, 0, z))


def _box(x0, x1, y0, y1, z0, z1):
    from manifold3d import Manifold

    return Manifold.cube((x1 - x0, y1 - y0, z1 - z0)).translate((x0, y0, z0))


def base(jig):
    """The base: its floor on z = 0 - FLOOR, the switch's underside at z = 0."""
    floor = 1.2
    bore, outer = jig.bore_radius(), jig.bore_radius() + BASE_WALL
    top = jig.base_top()
    body = _cylinder(top + floor, outer, -floor) - _cylinder(top + 1, bore, jig.bore_floor())
    start = _inner_end(jig.design)      # the switch's inner end where the PCB puts it
    body_stop = start + (jig.design.reed.length - BODY_LENGTH) / 2 - GROOVE_PLAY
    half = SWITCH_WIDTH / 2 + GROOVE_PLAY
    depth = jig.bore_floor()
    body -= _box(-half, half, body_stop, outer + 1, 0.0, depth)
    body -= _box(-PROBE_SLOT / 2, PROBE_SLOT / 2, -outer - 1, body_stop + 0.01, 0.0, depth)
    slot = LUG_R + 0.3
    near, far = jig.rest(jig.near), jig.rest(jig.far)
    for k in range(LUGS):
        turn = 360.0 * k / LUGS
        cut = _box(bore - 1, outer + 1, -slot, slot, near, top + 1)
        notch = _notch(bore, outer, slot, far)
        body -= cut.rotate((0, 0, turn))
        body -= notch.rotate((0, 0, turn))
    return body


def _notch(bore, outer, slot, floor):
    """The horizontal notch a lug turns into at the far height: an arc through the wall."""
    from manifold3d import CrossSection

    steps = 12
    r0, r1 = bore - 1, outer + 1
    a0, a1 = 0.0, math.radians(NOTCH_DEG) + slot / bore
    pts = [(r1 * math.cos(a0 + (a1 - a0) * i / steps), r1 * math.sin(a0 + (a1 - a0) * i / steps))
           for i in range(steps + 1)]
    pts += [(r0 * math.cos(a1 - (a1 - a0) * i / steps), r0 * math.sin(a1 - (a1 - a0) * i / steps))
            for i in range(steps + 1)]
    ring = CrossSection([pts]).extrude(2 * LUG_R + 0.4).translate((0, 0, floor))
    return ring.rotate((0, 0, -math.degrees(slot / bore)))


def _inner_end(design):
    """How far the switch's inner lead end is from the hex centre along the switch (mm;
    negative: past the centre)."""
    reed = design.reed
    (x0, y0), _ = design.part_points(reed, [(-reed.length / 2, 0.0), (0.0, 0.0)])
    axis = math.radians(reed.rotation)
    return x0 * math.cos(axis) + y0 * math.sin(axis)


def cup(jig):
    """The cup: its floor on z = 0, the disk resting on it, three lugs near its top."""
    height = jig.cup_height()
    radius = jig.cup_radius()
    body = _cylinder(height, radius) - _cylinder(height, radius - CUP_WALL, CUP_FLOOR)
    from manifold3d import Manifold

    pin = Manifold.cylinder(LUG_LENGTH + 1, LUG_R, circular_segments=32)
    pin = pin.rotate((0, 90, 0)).translate((radius - 1, 0, jig.lug_centre()))
    for k in range(LUGS):
        body += pin.rotate((0, 0, 360.0 * k / LUGS))
    return body


def outputs(design, result=None):
    from .parts import stl_bytes

    jig = Jig(design, result)
    base_part = base(jig).translate((0, 0, 1.2))
    gap = jig.bore_radius() + BASE_WALL + jig.cup_radius() + LUG_LENGTH + 4
    return {"stack-jig.stl": stl_bytes(base_part + cup(jig).translate((gap, 0, 0)))}
