"""Does a disk close its own hex's reed switch, wherever it rests, and never a neighbour's?

The model, stated once:
- The disk's magnet is a cylinder magnetised through its thickness (magpylib computes its
  field exactly). Its remanence is the grade's weakest for the own hex and strongest for the
  neighbours.
- A reed switch answers to the magnetic potential difference across its contact gap. Each of
  its two reeds (blade and lead, nickel-iron) is nearly an equipotential at the mean potential
  along it, so the gap sees the mean of the field along the switch's axis weighted by a
  triangle that peaks at the gap and falls to nothing at the lead ends (the integral of
  H (1 - 2|s|/L) ds). Divided by L/2 it is the uniform field that would do the same: the
  "equivalent field" every figure here is in. Reed makers describe the leads this way, as the
  switch's magnetic antennae whose length sets its sensitivity (Hermetic Switch Inc., "Reed
  switch operation"; Dexter Magnetic, "FAQ: magnets for sensors").
- Sensitivity: makers rate a switch in ampere-turns (AT) of a standard test coil, and the
  magnet must give the switch what the coil gives it at that rating (Dexter Magnetic, same
  FAQ). Coto measures the CT10 in a Philips 10JK coil without publishing its size; we take
  the NARM standard coil that Clare's CM10 (a molded 10 mm reed like the CT10) datasheet
  gives: 5,000 turns, 3.96 mm bore, 10.4 mm long, about 6.4 mm across the winding. On its axis
  the same weighting turns 1 AT into about 0.093 mT for the CT10's 15.12 mm reeds. Littelfuse's
  application note "Ampere*turn versus mT and Gauss" warns that any such conversion can be off
  by a factor of two or more: hence `calibrate`, which replaces it with the builder's own
  measurement.
- A disk can rest anywhere its pocket lets it (its centre within the pocket's play of the hex
  centre), and the face either way up, so a magnet points either way. The own hex must reach
  the switch's highest operate value everywhere; the six neighbours together, each at its
  worst spot and pole, must stay below the lowest release value, so a switch opens when its
  own disk is lifted from a full neighbourhood.
"""

import math

import numpy as np

from .design import neighbour_offsets

MU0 = 4e-7 * math.pi
REQUIRED_MARGIN = 1.1        # both checks, on top of the worst cases stacked above

# The standard test coil (NARM CTC01, Clare CM10 datasheet); the outer diameter is estimated
# from its 5,000 turns of AWG 46 wire in 10.4 mm (24 layers of 0.05 mm).
TEST_COIL = {"turns": 5000, "bore_mm": 3.96, "outer_mm": 6.4, "length_mm": 10.4}

RING_POINTS = 16             # resting spots sampled round each circle of the pocket's play
REED_POINTS = 20             # Gauss-Legendre points on each reed


def coil_mt_per_at(reed_length, coil=TEST_COIL):
    """The equivalent field (mT) that 1 AT in the test coil gives a switch `reed_length` mm
    long centred on the coil's axis."""
    half = reed_length / 2.0
    length = coil["length_mm"]
    s = np.linspace(-half, half, 2001)
    fields = []
    for radius in np.linspace(coil["bore_mm"] / 2, coil["outer_mm"] / 2, 9):
        # On-axis H of a thin solenoid carrying 1 AT, per mm (A/mm).
        fields.append(((s + length / 2) / np.hypot(s + length / 2, radius)
                       - (s - length / 2) / np.hypot(s - length / 2, radius)) / (2 * length))
    h = np.mean(fields, axis=0)
    weight = 1 - np.abs(s) / half
    mmf = float(np.sum((h * weight)[1:] + (h * weight)[:-1]) / 2 * (s[1] - s[0]))   # A
    return MU0 * mmf / (half * 1e-3) * 1e3


def _reed_samples(design):
    """(points (n, 3) in mm, weights (n,), axis unit vector) of the weighted reed model."""
    reed = design.reed
    half = reed.length / 2.0
    (x0, y0), (x1, y1) = design.part_points(reed, [(-half, 0.0), (half, 0.0)])
    axis = np.array([x1 - x0, y1 - y0, 0.0]) / reed.length
    nodes, weights = np.polynomial.legendre.leggauss(REED_POINTS)
    points, weight = [], []
    for lo, hi in ((0.0, 0.5), (0.5, 1.0)):       # the triangle's kink at the gap
        t = lo + (nodes + 1) / 2 * (hi - lo)
        points.append(np.stack([x0 + t * (x1 - x0), y0 + t * (y1 - y0),
                                np.full_like(t, reed.axis_height)], axis=1))
        weight.append(weights * (hi - lo) / 2 * (1 - np.abs(2 * t - 1)) * 2)
    return np.concatenate(points), np.concatenate(weight), axis


def resting_spots(play):
    """Disk-centre offsets sampled over a circle of radius `play`: the centre and two rings."""
    spots = [(0.0, 0.0)]
    for radius in (play / 2.0, play):
        if radius > 0:
            spots += [(radius * math.cos(2 * math.pi * k / RING_POINTS),
                       radius * math.sin(2 * math.pi * k / RING_POINTS))
                      for k in range(RING_POINTS)]
    return spots


def readings(design, centres, remanence, magnet=None):
    """The switch's equivalent field (mT, signed) for a disk magnet at each of `centres`
    ((x, y, z) mm, hex frame), magnetised upward with `remanence` tesla."""
    import magpylib

    diameter, thickness = magnet or (design.disk.magnet_diameter, design.disk.magnet_thickness)
    points, weights, axis = _reed_samples(design)
    sources = [magpylib.magnet.Cylinder(polarization=(0, 0, remanence),
                                        dimension=(diameter * 1e-3, thickness * 1e-3),
                                        position=np.asarray(c, float) * 1e-3) for c in centres]
    field = np.asarray(magpylib.getB(sources, points * 1e-3)).reshape(len(sources), -1, 3)
    return (field @ axis) @ weights * 1e3


class SensingResult:
    """The check's figures, all in mT of equivalent field."""

    def __init__(self, **values):
        self.__dict__.update(values)

    @property
    def ok(self):
        return self.own_margin >= REQUIRED_MARGIN and self.release_margin >= REQUIRED_MARGIN


def fields(design, magnet=None, remanence=None):
    """(weakest own reading and its offset, strongest neighbour readings with offsets) for
    the design, or for another magnet (diameter, thickness) and remanence (low, high)."""
    low, high = remanence or design.disk.magnet_remanence
    z = design.magnet_height()
    spots = resting_spots(design.play())
    own = np.abs(readings(design, [(x, y, z) for x, y in spots], low, magnet))
    worst = int(np.argmin(own))
    neighbours = []
    for nx, ny in neighbour_offsets(design.board.pitch):
        near = np.abs(readings(design, [(nx + x, ny + y, z) for x, y in spots], high, magnet))
        k = int(np.argmax(near))
        neighbours.append((float(near[k]), spots[k]))
    return (float(own[worst]), spots[worst]), neighbours


def check(design):
    """The sensing check of `design` against its switch's datasheet values."""
    reed = design.reed
    per_at = coil_mt_per_at(reed.length)
    close = reed.pull_in_at[1] * per_at
    release = reed.release_at_min * per_at
    (own, own_at), neighbours = fields(design)
    total = sum(b for b, _ in neighbours)
    return SensingResult(mt_per_at=per_at, close=close, release=release, own=own,
                         own_at=own_at, neighbours=neighbours, neighbour_sum=total,
                         own_margin=own / close, release_margin=release / total if total else
                         math.inf)


def report(result):
    lines = ["Sensing (equivalent field along the reed switch, mT; 1 AT = %.4f mT):"
             % result.mt_per_at,
             "  own hex: weakest %.3f mT (disk %s off centre) against %.3f mT to close: "
             "margin %.2f" % (result.own, _offset(result.own_at), result.close,
                              result.own_margin),
             "  neighbours: %s; together %.3f mT against %.3f mT release: margin %.2f"
             % (", ".join("%d deg %.3f" % (60 * k, b)
                          for k, (b, _) in enumerate(result.neighbours)),
                result.neighbour_sum, result.release, result.release_margin),
             "  %s (both margins at least %.2f)" % ("PASS" if result.ok else "FAIL",
                                                   REQUIRED_MARGIN)]
    return "\n".join(lines)


def _offset(spot):
    x, y = spot
    return "%.2f mm" % math.hypot(x, y) if (x or y) else "0 mm"


# --- the builder's calibration -----------------------------------------------------------

# Magnets sold for such work: (diameter, thickness) mm, and grades with their remanence (T).
MAGNETS = [(4, 2), (5, 1), (5, 2), (6, 1), (6, 1.5), (6, 2), (6, 3), (8, 1), (8, 1.5), (8, 2),
           (10, 1), (10, 2)]
GRADES = {"N35": (1.17, 1.22), "N42": (1.28, 1.32), "N52": (1.42, 1.47)}
MIN_SKIN = 0.5               # plastic over the magnet on each face of a disk


def centred_reading(design, height, remanence=None, magnet=None):
    """The reading with the disk flat and centred over the hex, its underside `height` mm
    above the PCB's top: the one-switch test."""
    thickness = design.disk.thickness
    low = (remanence or design.disk.magnet_remanence)[0]
    return abs(float(readings(design, [(0.0, 0.0, height + thickness / 2.0)], low, magnet)[0]))


def calibrate(design, closes_at, opens_at=None):
    """A verdict from the one-switch test: the disk, flat and centred over a hex with nothing
    else near, closes the switch with its underside `closes_at` mm above the PCB (and opens it
    again at `opens_at` mm when raised). Returns (ok, lines of text)."""
    reed = design.reed
    if closes_at <= 0:
        raise ValueError("the closing height must be above 0 mm, not %g" % closes_at)
    if opens_at is not None and opens_at < closes_at:
        raise ValueError("a switch opens farther away than it closes: --opens-at %g is below "
                         "--closes-at %g" % (opens_at, closes_at))
    close = centred_reading(design, closes_at)
    if opens_at is not None:
        release = centred_reading(design, opens_at)
        how = "measured"
    else:
        release = close * reed.release_at_min / reed.pull_in_at[0]
        how = "the datasheet's worst ratio of release to operate, %g/%g" % (
            reed.release_at_min, reed.pull_in_at[0])
    (own, _), neighbours = fields(design)
    total = sum(b for b, _ in neighbours)
    rest = design.stack.light_box + design.stack.top_plate
    lines = ["Your switch closes at %.3f mT and releases at %.3f mT (%s); converted, it operates "
             "at %.1f AT." % (close, release, how, close / coil_mt_per_at(reed.length)),
             "In the board a disk rests %.1f mm above the PCB: the weakest own reading is "
             "%.3f mT (margin %.2f), the six neighbours give at most %.3f mT (margin %.2f)."
             % (rest, own, own / close, total, release / total)]
    ok = own / close >= REQUIRED_MARGIN and release / total >= REQUIRED_MARGIN
    if ok:
        lines.append("SAFE: both margins are at least %.2f; build the board as designed."
                     % REQUIRED_MARGIN)
        return True, lines
    lines.append("NOT SAFE: %s." % " and ".join(
        text for text, bad in (("a disk may not close its own switch", own / close <
                                REQUIRED_MARGIN),
                               ("neighbours may hold a switch closed", release / total <
                                REQUIRED_MARGIN)) if bad))
    lines += _advice(design, close, release)
    return False, lines


def _advice(design, close, release):
    """Magnets that would make both margins hold with this switch, or what else to change."""
    fits = []
    room = design.disk.thickness - 2 * MIN_SKIN
    for diameter, thickness in MAGNETS:
        if thickness > room or diameter > design.disk.diameter - 4:
            continue
        (own, _), neighbours = fields(design, (diameter, thickness), (1.0, 1.0))
        total = sum(b for b, _ in neighbours)
        for grade, (low, high) in GRADES.items():
            own_margin = own * low / close
            release_margin = release / (total * high)
            if min(own_margin, release_margin) >= REQUIRED_MARGIN:
                fits.append((min(own_margin, release_margin), diameter, thickness, grade,
                             own_margin, release_margin))
    if fits:
        fits.sort(reverse=True)
        lines = ["Magnets that would make both margins hold with your switch (best first):"]
        for _, diameter, thickness, grade, own_margin, release_margin in fits[:5]:
            lines.append("  %g x %g mm %s: margins %.2f and %.2f" % (
                diameter, thickness, grade, own_margin, release_margin))
        return lines
    return ["No common magnet fits this switch: bring the magnet nearer the switch (a lower "
            "light box or a thinner top plate), choose a switch with a narrower operate range, "
            "or a larger pitch to move the neighbours away."]
