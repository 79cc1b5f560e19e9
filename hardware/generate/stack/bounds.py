"""What bounds the sensing margins: the check again with one part of the envelope left out at
a time (`python -m hardware.generate.stack bounds`).

A stronger or weaker magnet trades one margin for the other (both readings scale with it), so
each line gives the balanced margin, sqrt(own x release): both margins' value with the magnet
chosen to make them equal. The gain over the design's own balanced margin is what that part
of the envelope costs.
"""

import math

from . import envelope

# (what is left out, design changes, narrower check's arguments)
PARTS = (
    ("nothing: the whole envelope", {}, {}),
    ("the magnet's axis tolerance", {"disk": {"magnet_axis_tolerance": 0.0}}, {}),
    ("the sheets' tolerance", {"tolerances": {"sheet": 0.0}}, {}),
    ("the printed disk's tolerance", {"tolerances": {"disk": 0.0}}, {}),
    ("the magnet's slack in its pocket", {"tolerances": {"magnet_slack": 0.0}}, {}),
    ("the switch's placement", {"tolerances": {"reed_placement": 0.0}}, {}),
    ("the pocket's cut", {"tolerances": {"cut": 0.0}}, {}),
    ("the grade's range (its middle only)", "grade", {}),
    ("the uniform model (the gap model only)", {}, {"models": ("gap",)}),
    ("the gap model (the uniform model only)", {}, {"models": ("uniform",)}),
    ("the board beyond the six neighbours", {}, {"neighbours_only": True}),
    ("the other disks against the own one", {}, {"subtract": False}),
)


def balanced(result):
    return math.sqrt(result.own_margin * result.release_margin)


def bounds(design):
    """[(what is left out, own margin, release margin, balanced margin)]."""
    rows = []
    for name, changes, narrower in PARTS:
        if changes == "grade":
            low, high = design.disk.magnet_remanence
            changes = {"disk": {"magnet_remanence": [(low + high) / 2] * 2}}
        found = envelope.check(design.changed(**changes) if changes else design, **narrower)
        rows.append((name, found.own_margin, found.release_margin, balanced(found)))
    return rows


def report(rows):
    base = rows[0][3]
    lines = ["What bounds the sensing margins (the check with one part of the envelope left "
             "out; balanced: both margins with the magnet chosen to make them equal):",
             "  %-44s %6s %8s %9s %6s" % ("left out", "own", "release", "balanced", "gain")]
    for name, own, release, best in rows:
        lines.append("  %-44s %6.2f %8.2f %9.2f %+5.0f%%" % (name, own, release, best,
                                                               100 * (best / base - 1)))
    return "\n".join(lines)
