"""What a reed switch reads from a disk's magnet: two models of the switch, and the standard
coil that turns its datasheet's ampere-turns into the same reading.

- The magnet is a cylinder magnetised through its thickness (magpylib computes its field
  exactly); a magnet whose axis leans is the sum of an upright one and one magnetised across,
  so every reading here comes in three parts: the magnet magnetised along z, x and y.
- A reed switch lying flat answers to the magnetic field along its axis, averaged over its
  length with a weight. Nothing published says which weight is right, so both are checked:
  * `gap`: the two reeds are each close to one magnetic potential, the mean along it, and
    the contact gap sees the difference: a triangular weight that peaks at the gap and falls
    to nothing at the lead ends (reed makers describe the leads as the switch's antennae);
  * `uniform`: the plain mean of the field along the switch, from lead end to lead end.
  The reading is an "equivalent field": the uniform field along the switch that would do the
  same, in mT.
- Sensitivity is rated in ampere-turns (AT) of a test coil. Coto measures the CT10 in a
  Philips 10JK coil whose size it does not publish; the NARM standard coil CTC01 that Clare's
  CM10 datasheet gives (a molded 10 mm reed switch like the CT10) is published: 5,000 turns of
  AWG 46 on a 3.96 mm bore, 10.4 mm long. Its winding's outer diameter is not given: 6.2 mm is
  what 5,000 turns of that wire fill (22 layers of 0.05 mm), and 5.8-7.0 mm moves the factor by
  under 3 %. Each model turns 1 AT into the reading that model gives for the switch centred in
  that coil. Littelfuse's application note on ampere-turns and mT warns that any such
  conversion can be off by a factor of two: the envelope check does not cover that (the jig
  and the self-test do, hardware/README.md).
"""

import math

import numpy as np

MU0 = 4e-7 * math.pi
MODELS = ("gap", "uniform")
TEST_COIL = {"name": "NARM CTC01", "turns": 5000, "bore_mm": 3.96, "outer_mm": 6.2,
             "length_mm": 10.4}
REED_POINTS = 40             # Gauss-Legendre points along the switch (20 each side of the gap)


def _along(model, points):
    """(t in 0..1 along the switch, weights summing to 1) for `model`."""
    if model not in MODELS:
        raise ValueError("a reed model is one of %s, not %r" % (", ".join(MODELS), model))
    nodes, weights = np.polynomial.legendre.leggauss(points // 2)
    ts, ws = [], []
    for lo, hi in ((0.0, 0.5), (0.5, 1.0)):       # the triangle's kink at the gap
        t = lo + (nodes + 1) / 2 * (hi - lo)
        w = weights * (hi - lo) / 2
        if model == "gap":
            w = w * (1 - np.abs(2 * t - 1)) * 2
        ts.append(t)
        ws.append(w)
    return np.concatenate(ts), np.concatenate(ws)


def mt_per_at(model, reed_length, coil=TEST_COIL):
    """The reading (mT of equivalent field) that 1 AT in the test coil gives a switch
    `reed_length` mm long centred on the coil's axis, under `model`."""
    t, w = _along(model, 400)
    s = (t - 0.5) * reed_length
    length = coil["length_mm"]
    fields = []
    for radius in np.linspace(coil["bore_mm"] / 2, coil["outer_mm"] / 2, 11):
        # The on-axis H of a thin solenoid carrying 1 AT, in A/mm.
        fields.append(((s + length / 2) / np.hypot(s + length / 2, radius)
                       - (s - length / 2) / np.hypot(s - length / 2, radius)) / (2 * length))
    h = np.mean(fields, axis=0)
    return MU0 * float(h @ w) * 1e6


class Reed:
    """A reed switch in a hex's frame (mm, origin at the hex centre on the PCB's top), and the
    points and weights of one model along it."""

    def __init__(self, design, model, points=REED_POINTS):
        reed = design.reed
        half = reed.length / 2.0
        (x0, y0), (x1, y1) = design.part_points(reed, [(-half, 0.0), (half, 0.0)])
        t, self.weights = _along(model, points)
        self.model = model
        self.axis = np.array([x1 - x0, y1 - y0, 0.0]) / reed.length
        self.points = np.stack([x0 + t * (x1 - x0), y0 + t * (y1 - y0),
                                np.full_like(t, reed.axis_height)], axis=1)
        self.mt_per_at = mt_per_at(model, reed.length)


def readings(reed, centres, magnet):
    """The switch's reading (mT, signed) from a magnet of 1 T at each of `centres` ((n, 3) mm,
    hex frame), magnetised along z, x and y: an (n, 3) array. `magnet`: (diameter, thickness)
    in mm."""
    import magpylib

    centres = np.asarray(centres, float).reshape(-1, 3) * 1e-3
    diameter, thickness = magnet
    size = (diameter * 1e-3, thickness * 1e-3)
    out = np.empty((len(centres), 3))
    for k, polarisation in enumerate(((0, 0, 1.0), (1.0, 0, 0), (0, 1.0, 0))):
        source = magpylib.magnet.Cylinder(polarization=polarisation, dimension=size,
                                          position=centres)
        field = np.asarray(magpylib.getB(source, reed.points * 1e-3))
        field = field.reshape(len(centres), len(reed.points), 3)
        out[:, k] = (field @ reed.axis) @ reed.weights * 1e3
    return out


TURNS = 16                   # directions a leaning magnet's body is tried in
BETWEEN_TURNS = 0.001        # how much more the reading can change between two of them (0.02 %
                             # seen, tests), added to the bounds


def leaning_near(reed, centres, magnet, body_lean, axis_lean, turns=TURNS):
    """The strongest and weakest |reading| per tesla of a magnet near the switch whose body
    leans by `body_lean` (its slack in the disk) in any of `turns` directions, and whose
    magnetisation leans up to `axis_lean` further off its body's axis in any direction. Near
    the switch the body's tilt matters, so each tilted body is computed; within it the
    reading is linear in the magnetisation, so its lean is bounded exactly (as `leaning`).
    (strongest, weakest), each an array over `centres`."""
    import magpylib
    from scipy.spatial.transform import Rotation

    centres = np.asarray(centres, float).reshape(-1, 3)
    size = (magnet[0] * 1e-3, magnet[1] * 1e-3)
    most = np.zeros(len(centres))
    least = np.full(len(centres), np.inf)
    for k in range(turns):
        a = 2 * math.pi * k / turns
        body = Rotation.from_rotvec((-math.sin(a) * body_lean, math.cos(a) * body_lean, 0.0))
        parts = np.empty((len(centres), 3))
        for i, polarisation in enumerate(((0, 0, 1.0), (1.0, 0, 0), (0, 1.0, 0))):
            source = magpylib.magnet.Cylinder(polarization=polarisation, dimension=size,
                                              position=centres * 1e-3, orientation=body)
            got = np.asarray(magpylib.getB(source, reed.points * 1e-3))
            parts[:, i] = (got.reshape(len(centres), len(reed.points), 3) @ reed.axis) \
                @ reed.weights * 1e3
        strongest, weakest = leaning(parts, axis_lean)
        most = np.maximum(most, strongest)
        least = np.minimum(least, weakest)
    spread = BETWEEN_TURNS if body_lean else 0.0
    return most * (1 + spread), least * (1 - spread)


def leaning(parts, lean):
    """The strongest and the weakest |reading| of a magnet whose axis leans by up to `lean`
    radians in any direction, from its three parts ((n, 3)): (strongest, weakest). Exact for
    a magnetisation leaning in an upright body; for a leaning body it holds for a magnet far
    from the switch, whose size no longer matters (a neighbour's: within 0.2 %, tests)."""
    upright = np.abs(parts[:, 0])
    across = np.hypot(parts[:, 1], parts[:, 2])
    # Leaning by b turns the reading into |upright cos b + across sin b cos(turn)|: the most
    # is at the lean where the two add, or at b = atan(across / upright) if that is nearer.
    strongest = np.where(across >= upright * math.tan(lean),
                         upright * math.cos(lean) + across * math.sin(lean),
                         np.hypot(upright, across))
    weakest = np.maximum(upright * math.cos(lean) - across * math.sin(lean), 0.0)
    return strongest, weakest
