"""The sensing envelope: every switch must close under its own disk and open without it, on a
full board, for every build the tolerances allow.

What it covers (design.toml's [disk], [parts.reed] and [tolerances]):
- the whole board: the 60 other disks, each at its worst spot in its pocket, its magnet leaning
  its worst way and its pole pointing whichever way adds up (a player can put either face up),
  at every hex; the worst hex is reported;
- the own disk anywhere in its pocket with its magnet leaning its worst way, less every other
  disk's field (their poles against it);
- both reed models (field.MODELS), each with its own AT-to-mT factor from the test coil;
- the magnet grade's remanence range: the weakest for the own disk, the strongest for the rest;
- every cut sheet between the switch and the magnet (the light box, the top plate) thicker or
  thinner by the sheet tolerance; the printed disk's skin over the magnet, its diameter and the
  pocket's cut diameter by theirs; the magnet's slack in its printed pocket (off centre, up or
  down: which face is up decides which), and the lean that slack allows; the magnet's own
  magnetisation axis off its geometric one; the reed switch's placement.
The magnet's height, its offset and its lean are taken at their extremes for every disk at
once, which no real board reaches: the figures are bounds.
"""

import math

import numpy as np

from . import field
from .design import hex_centre, neighbour_offsets

REQUIRED_MARGIN = 1.25       # both margins, on top of the whole envelope
FLOOR = 1.0                  # below it a switch within its datasheet can fail in the envelope
RING_POINTS = 24             # spots round each circle of the own disk's reach
OWN_RINGS = 4                # circles of spots inside it
FAR_POINTS = 16              # spots round the edge of another disk's reach
BETWEEN_SPOTS = 0.002        # how much more a far disk can read between two of them (0.16 %
                             # at most, against 96 spots over its whole reach: tests)


class Envelope:
    """The ranges a build can reach, from the design's tolerances (mm, radians, tesla)."""

    def __init__(self, design):
        disk, stack, tol = design.disk, design.stack, design.tolerances
        self.remanence = disk.magnet_remanence
        self.magnet = (disk.magnet_diameter, disk.magnet_thickness)
        nominal = design.magnet_height()
        # Thicker sheets and skins raise the magnet; the slack lets it sit up or down in its
        # pocket; the switch's glass may sit higher or lower on the PCB.
        rise = (2 * tol.sheet + tol.disk + tol.magnet_slack + tol.reed_placement)
        self.heights = (nominal - rise, nominal, nominal + rise)
        # How far the magnet's axis can be from the hex centre over the switch: the disk in
        # its pocket (the pocket cut wide, the disk printed small), the magnet in the disk,
        # the switch off its place.
        self.reach = ((stack.pocket_diameter + tol.cut - (disk.diameter - tol.disk)) / 2
                      + tol.magnet_slack + tol.reed_placement)
        # The slack above and below the magnet lets it lean by atan(2 slack / diameter); its
        # magnetisation leans a further axis tolerance within it.
        self.body_lean = math.atan(2 * tol.magnet_slack / disk.magnet_diameter)
        self.axis_lean = math.radians(disk.magnet_axis_tolerance)
        self.lean = self.body_lean + self.axis_lean
        self.rise = rise


def spots(reach, rings, points=RING_POINTS):
    """Offsets of a disk's centre: the centre and `rings` circles of `points` out to
    `reach`."""
    out = [(0.0, 0.0)]
    if reach > 0:
        for i in range(1, rings + 1):
            r = reach * i / rings
            out += [(r * math.cos(2 * math.pi * k / points),
                     r * math.sin(2 * math.pi * k / points)) for k in range(points)]
    return np.array(out)


def board_offsets(design, neighbours_only=False):
    """{(dx, dy) rounded: (dx, dy)} of every other hex seen from every hex, and the centres."""
    pitch = design.board.pitch
    centres = np.array([hex_centre(c, pitch) for c in range(61)])
    if neighbours_only:
        ring = neighbour_offsets(pitch)
        return {_key(d): np.array(d) for d in ring}, centres
    offsets = {}
    for h in range(61):
        for j in range(61):
            if j != h:
                d = centres[j] - centres[h]
                offsets[_key(d)] = d
    return offsets, centres


def _key(d):
    return (round(float(d[0]), 3), round(float(d[1]), 3))


class ModelResult:
    """One reed model's worst cases: per tesla of remanence until `margins` scales them."""

    def __init__(self, **values):
        self.__dict__.update(values)


def worst_own(reed, env):
    """The own disk's weakest |reading| per tesla over its reach, heights and lean, and where:
    (reading, (x, y) offset, height)."""
    where = spots(env.reach, OWN_RINGS)
    best = None
    for z in env.heights:
        centres = np.column_stack([where, np.full(len(where), z)])
        _, weakest = field.leaning_near(reed, centres, env.magnet, env.body_lean, env.axis_lean)
        k = int(np.argmin(weakest))
        if best is None or weakest[k] < best[0]:
            best = (float(weakest[k]), tuple(where[k]), z)
    return best


def strongest_others(reed, env, offsets):
    """{offset key: the strongest |reading| per tesla of a disk there}, over its reach (the
    edge of it: a far magnet's reading changes monotonically across its pocket), the lowest
    and highest magnet (the reading grows with the height: tests) and its lean; raised by what
    lies between the edge's spots."""
    where = spots(env.reach, 1, FAR_POINTS)
    keys = list(offsets)
    centres = []
    for key in keys:
        d = offsets[key]
        for z in (env.heights[0], env.heights[-1]):
            centres.extend((d[0] + x, d[1] + y, z) for x, y in where)
    strongest, _ = field.leaning(field.readings(reed, centres, env.magnet), env.lean)
    per = strongest.reshape(len(keys), -1).max(axis=1) * (1 + BETWEEN_SPOTS)
    return dict(zip(keys, per))


def model_result(design, env, model, neighbours_only=False, subtract=True):
    """The worst cases of one reed model over the envelope."""
    reed = field.Reed(design, model)
    offsets, centres = board_offsets(design, neighbours_only)
    far = strongest_others(reed, env, offsets)
    if neighbours_only:
        sums = np.full(61, sum(far.values()))
    else:
        sums = np.array([sum(far[_key(centres[j] - centres[h])] for j in range(61) if j != h)
                         for h in range(61)])
    hex_at = int(np.argmax(sums))
    own, own_at, own_height = worst_own(reed, env)
    low, high = env.remanence
    board = float(sums[hex_at]) * high
    own_reading = own * low - (board if subtract else 0.0)
    per_at = reed.mt_per_at
    close = design.reed.pull_in_at[1] * per_at
    release = design.reed.release_at_min * per_at
    return ModelResult(model=model, mt_per_at=per_at, close=close, release=release,
                       own=own * low, own_at=own_at, own_height=own_height,
                       board=board, hex=hex_at, own_less_board=own_reading,
                       ratio=own * low / board, own_margin=own_reading / close,
                       release_margin=release / board)


class SensingResult:
    """The check's figures under every model; `worst_own` and `worst_release` are the
    ModelResults where each margin is least."""

    def __init__(self, env, results):
        self.envelope = env
        self.models = results
        self.worst_own = min(results, key=lambda r: r.own_margin)
        self.worst_release = min(results, key=lambda r: r.release_margin)
        self.own_margin = self.worst_own.own_margin
        self.release_margin = self.worst_release.release_margin

    @property
    def ok(self):
        """Both margins at least REQUIRED_MARGIN, with any switch of the datasheet."""
        return self.own_margin >= REQUIRED_MARGIN and self.release_margin >= REQUIRED_MARGIN

    @property
    def sound(self):
        """Both margins at least FLOOR: every switch of the datasheet senses right over the
        whole envelope, with no margin for what the model leaves out."""
        return self.own_margin >= FLOOR and self.release_margin >= FLOOR


def check(design, models=field.MODELS, neighbours_only=False, subtract=True):
    """The sensing check of `design` over its envelope. The keyword arguments leave out what
    an older, narrower check left out, to show what each part of the envelope costs."""
    env = Envelope(design)
    return SensingResult(env, [model_result(design, env, m, neighbours_only, subtract)
                               for m in models])
