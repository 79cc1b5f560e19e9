"""Does a disk close its own hex's reed switch, and does the switch open again without it, on
a full board, for every build the tolerances allow?

The field and the switch's models are in field.py, the envelope in envelope.py; this module
reports the check against the switch's datasheet and reads a builder's measurement of one
switch (the closing and opening heights of a disk held centred over it), saying what that
measurement can tell and what it cannot.
"""

import math

import numpy as np

from . import envelope, field

REQUIRED_MARGIN = envelope.REQUIRED_MARGIN


def check(design, **narrower):
    """The sensing check of `design` over its whole envelope (envelope.check)."""
    return envelope.check(design, **narrower)


def report(result):
    env = result.envelope
    lines = ["Sensing over the envelope (equivalent field along the reed switch, mT):",
             "  the magnet %.2f-%.2f mm above the PCB, up to %.2f mm off the hex centre, "
             "leaning up to %.1f deg; remanence %.2f-%.2f T"
             % (env.heights[0], env.heights[-1], env.reach, math.degrees(env.lean),
                env.remanence[0], env.remanence[1])]
    for r in result.models:
        lines.append("  %s model (1 AT = %.4f mT): own disk %.3f mT at worst (%s off centre, "
                     "%.2f mm up) less %.3f mT from the board against %.3f mT to close: "
                     "margin %.2f; full board %.3f mT at %s against %.3f mT release: "
                     "margin %.2f; own to board %.1f"
                     % (r.model, r.mt_per_at, r.own, _offset(r.own_at), r.own_height, r.board,
                        r.close, r.own_margin, r.board, _cell(r.hex), r.release,
                        r.release_margin, r.ratio))
    lines.append("  worst: own %.2f (%s model), release %.2f (%s model): %s"
                 % (result.own_margin, result.worst_own.model, result.release_margin,
                    result.worst_release.model, verdict(result)))
    return "\n".join(lines)


def verdict(result):
    if result.ok:
        return "PASS: both at least %.2f with any switch of the datasheet" % REQUIRED_MARGIN
    if result.sound:
        return ("FAIL: below %.2f, though every switch of the datasheet senses right over the "
                "whole envelope (both at least %.2f)" % (REQUIRED_MARGIN, envelope.FLOOR))
    return ("FAIL: a switch within its datasheet can sense wrong inside the envelope (a margin "
            "below %.2f)" % envelope.FLOOR)


def _offset(spot):
    x, y = spot
    return "%.2f mm" % math.hypot(x, y) if (x or y) else "0 mm"


def _cell(cell):
    from iago import hexgrid

    return hexgrid.cell_name(cell)


# --- a builder's measurement of one switch ---------------------------------------------

HEIGHT_STEP = 0.5            # what a stack of cards or 0.5 mm shims resolves, either way


def centred(design, reed, height, remanence):
    """The reading (mT, model `reed`) of a disk flat and centred over the hex, its underside
    `height` mm above the PCB's top, with no other disk near."""
    z = height + design.disk.magnet_depth + design.disk.magnet_thickness / 2.0
    magnet = (design.disk.magnet_diameter, design.disk.magnet_thickness)
    return abs(float(field.readings(reed, [(0.0, 0.0, z)], magnet)[0, 0])) * remanence


def measure(design, closes_at, opens_at, result=None):
    """What one switch's closing and opening heights tell (lines of text): the fields it
    operates and releases at under each model, within the measurement's resolution and the
    magnet grade's spread; its own margins in the board; the conversion factor it allows.
    No verdict on the design: one switch says nothing of the other 60."""
    if not closes_at > 0:
        raise ValueError("the closing height must be above 0 mm, not %g" % closes_at)
    if opens_at < closes_at:
        raise ValueError("a switch opens farther away than it closes: --opens-at %g is below "
                         "--closes-at %g" % (opens_at, closes_at))
    result = result or check(design)
    low, high = design.disk.magnet_remanence
    reed_part = design.reed
    lines = ["One switch, closing with the disk's underside %g mm above it and opening at %g mm "
             "(each +-%g mm):" % (closes_at, opens_at, HEIGHT_STEP)]
    for r in result.models:
        reed = field.Reed(design, r.model)
        # A higher disk or a weaker magnet reads less: the switch's thresholds lie between.
        operate = (centred(design, reed, closes_at + HEIGHT_STEP, low),
                   centred(design, reed, max(closes_at - HEIGHT_STEP, 0.0), high))
        release = (centred(design, reed, opens_at + HEIGHT_STEP, low),
                   centred(design, reed, max(opens_at - HEIGHT_STEP, 0.0), high))
        own = r.own_less_board
        lines.append("  %s model: operates at %.2f-%.2f mT, releases at %.2f-%.2f mT; in the "
                     "board its own margin is %.2f-%.2f and its release margin %.2f-%.2f"
                     % (r.model, operate[0], operate[1], release[0], release[1],
                        own / operate[1], own / operate[0], release[0] / r.board,
                        release[1] / r.board))
        lines.append("    a %s switch (%g-%g AT) operating there converts at %.3f-%.3f mT "
                     "per AT; the model's %.4f %s"
                     % (reed_part.part, reed_part.pull_in_at[0], reed_part.pull_in_at[1],
                        operate[0] / reed_part.pull_in_at[1],
                        operate[1] / reed_part.pull_in_at[0], r.mt_per_at,
                        "lies inside" if operate[0] / reed_part.pull_in_at[1] <= r.mt_per_at
                        <= operate[1] / reed_part.pull_in_at[0] else "lies OUTSIDE: for "
                        "this switch the model's conversion is wrong"))
    lines += ["What this tells: this switch's own margins, to the spread above (the height "
              "step and the magnet grade). What it cannot: the other switches (the datasheet "
              "lets them operate anywhere in %g-%g AT, a spread of %.0f:1) nor the conversion "
              "closer than that spread. Test every switch with the jig (hardware/README.md)."
              % (reed_part.pull_in_at[0], reed_part.pull_in_at[1],
                 reed_part.pull_in_at[1] / reed_part.pull_in_at[0])]
    return lines


def curve(design, reed, distances, direction_deg, remanence):
    """|reading| (mT) of a disk whose centre is `distances` mm from the hex centre toward
    `direction_deg`, resting at its nominal height: for the sensing picture."""
    a = math.radians(direction_deg)
    z = design.magnet_height()
    centres = [(d * math.cos(a), d * math.sin(a), z) for d in distances]
    magnet = (design.disk.magnet_diameter, design.disk.magnet_thickness)
    return np.abs(field.readings(reed, centres, magnet)[:, 0]) * remanence
