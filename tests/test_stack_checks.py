"""The stack's sensing check over its envelope, its light check, the jig's heights and a
builder's measurement (hardware/generate/stack): the default design's figures, the model checked
against physics it must obey, and designs that each part of the envelope must fail."""

import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from hardware.generate.stack import bounds, envelope, field, jig, light, sensing
from hardware.generate.stack.design import Design, DesignError

ROOT = Path(__file__).resolve().parent.parent
MU0 = 4e-7 * math.pi
NOMINAL = {"tolerances": {"sheet": 0.0, "disk": 0.0, "cut": 0.0, "magnet_slack": 0.0,
                          "reed_placement": 0.0}, "disk": {"magnet_axis_tolerance": 0.0}}
# The board before this envelope: 40 mm hexes, 30 x 4 mm disks with a 6 x 2 mm N35 magnet on
# 4 mm light boxes, the switch's inner end 4.2 mm from the hex centre.
OLD = {"board": {"pitch": 40.0},
       "disk": {"diameter": 30.0, "thickness": 4.0, "magnet_thickness": 2.0,
                "magnet_grade": "N35", "magnet_remanence": [1.17, 1.22]},
       "stack": {"light_box": 4.0, "pocket_diameter": 31.0},
       "parts_led": {"x": 0.0}, "parts_reed": {"y": 11.76}}


@pytest.fixture(scope="module")
def design():
    return Design.load()


@pytest.fixture(scope="module")
def found(design):
    return sensing.check(design)


# --- the default design ------------------------------------------------------------------

def test_the_default_design_over_its_whole_envelope(found):
    # The figures hardware/README.md gives: both margins at least 1.25 over the whole
    # envelope, under both models, with any switch of the datasheet.
    assert found.ok and found.sound
    assert found.own_margin == pytest.approx(1.255, abs=0.002)
    assert found.release_margin == pytest.approx(1.273, abs=0.002)
    by_model = {r.model: r for r in found.models}
    assert by_model["gap"].own_margin == pytest.approx(1.280, abs=0.002)
    assert by_model["gap"].release_margin == pytest.approx(1.579, abs=0.002)
    assert found.worst_own.model == found.worst_release.model == "uniform"
    # The board's centre is where the most disks pull; the own disk's weakest is highest up.
    assert {r.hex for r in found.models} == {30}                       # E5
    assert all(r.own_height == found.envelope.heights[-1] for r in found.models)
    assert by_model["gap"].ratio == pytest.approx(21.2, abs=0.05)
    assert by_model["uniform"].ratio == pytest.approx(17.0, abs=0.05)


def test_the_envelope_spans_every_tolerance(design):
    env = envelope.Envelope(design)
    tol = design.tolerances
    assert env.heights[1] == design.magnet_height() == pytest.approx(6.5)
    assert env.rise == pytest.approx(2 * tol.sheet + tol.disk + tol.magnet_slack
                                     + tol.reed_placement)
    assert env.reach == pytest.approx((30.0 + 0.1 - 28.8) / 2 + 0.15 + 0.2)
    assert math.degrees(env.lean) == pytest.approx(math.degrees(math.atan(0.3 / 6)) + 5.0)


def test_the_old_board_under_the_old_and_the_new_checks(design):
    old = design.changed(**OLD)
    # The old check's figures (six neighbours, the gap model, no tolerances), which an
    # independent model of the same design reproduced: own 3.224 mT, margins 1.16 and 1.14.
    narrow = envelope.check(old.changed(**NOMINAL), models=("gap",), neighbours_only=True,
                            subtract=False)
    assert narrow.worst_own.own == pytest.approx(3.224, abs=0.002)
    assert narrow.own_margin == pytest.approx(1.15, abs=0.01)
    assert narrow.release_margin == pytest.approx(1.15, abs=0.01)
    # The whole board alone: 0.291 mT, release margin 0.96; 0.77 under the uniform model.
    whole = envelope.check(old.changed(**NOMINAL))
    gap, uniform = whole.models
    assert gap.board == pytest.approx(0.291, abs=0.001)
    assert gap.release_margin == pytest.approx(0.96, abs=0.005)
    assert uniform.release_margin == pytest.approx(0.776, abs=0.005)
    full = envelope.check(old)
    assert not full.sound and full.release_margin < 0.45


# --- the model obeys what it must --------------------------------------------------------

def test_the_conversion_is_amperes_law_for_a_long_switch():
    # A switch much longer than the coil picks up all of the coil's N I between its ends:
    # the uniform mean is mu0 N I over its length, the gap's weight doubles it.
    assert field.mt_per_at("uniform", 1000.0) == pytest.approx(MU0 / 1.0 * 1e3, rel=0.01)
    assert field.mt_per_at("gap", 1000.0) == pytest.approx(MU0 / 0.5 * 1e3, rel=0.01)
    # The CT10's reeds in the standard coil: about 0.1 mT per AT, as makers' rules of thumb say.
    assert 0.085 < field.mt_per_at("gap", 15.12) < 0.1
    assert 0.07 < field.mt_per_at("uniform", 15.12) < 0.085
    with pytest.raises(ValueError, match="reed model"):
        field.mt_per_at("triangle", 15.12)


@pytest.mark.parametrize("model", field.MODELS)
def test_a_switch_centred_under_the_magnet_reads_nothing(design, model):
    # The flat switch's dead spot: the field along it is odd about its middle.
    centred = design.changed(parts_reed={"x": 0.0, "y": 0.0})
    reading = field.readings(field.Reed(centred, model), [(0, 0, 6.5)], (6.0, 1.0))
    assert abs(reading[0, 0]) < 1e-9
    assert abs(field.readings(field.Reed(design, model), [(0, 0, 6.5)], (6.0, 1.0))[0, 0]) > 1


@pytest.mark.parametrize("model", field.MODELS)
def test_each_model_is_a_drop_of_magnetic_potential(design, model):
    # Outside a magnet B = -mu0 grad(phi). The uniform mean of the field along a switch is the
    # potential's drop from end to end over its length; the gap model's triangle is the drop
    # from the mean over the inner reed to the mean over the outer one, over half the length.
    # A magnet far away is a dipole, phi = m.r / (4 pi r^3): both must agree with that.
    far = np.array([80.0, -50.0, 40.0])
    moment = np.array([0.0, 0.0, math.pi * 3.0 ** 2 * 1.0 * 1e-9 / MU0])   # 1 T, 6 x 1 mm
    (x0, y0), (x1, y1) = design.part_points(design.reed, [(-7.56, 0), (7.56, 0)])
    t = np.linspace(0, 1, 2001)
    line = np.stack([x0 + t * (x1 - x0), y0 + t * (y1 - y0), np.full_like(t, 1.25)], axis=1)
    r = (line - far) * 1e-3
    phi = r @ moment / (4 * math.pi * np.linalg.norm(r, axis=1) ** 3)
    if model == "uniform":
        expected = MU0 * (phi[0] - phi[-1]) / 15.12e-3 * 1e3
    else:
        expected = MU0 * (phi[:1001].mean() - phi[1000:].mean()) / 7.56e-3 * 1e3
    got = field.readings(field.Reed(design, model), [far], (6.0, 1.0))[0, 0]
    assert got == pytest.approx(expected, rel=0.005)


def tilted(reed, centre, body, axis, body_turn, axis_turn):
    """|reading| of a 6 x 1 mm magnet whose body leans `body` toward `body_turn` and whose
    magnetisation leans `axis` more toward `axis_turn`, by magpylib directly."""
    import magpylib
    from scipy.spatial.transform import Rotation

    polarisation = (math.sin(axis) * math.cos(axis_turn), math.sin(axis) * math.sin(axis_turn),
                    math.cos(axis))
    rotation = Rotation.from_rotvec((-math.sin(body_turn) * body, math.cos(body_turn) * body, 0))
    magnet = magpylib.magnet.Cylinder(polarization=polarisation, dimension=(6e-3, 1e-3),
                                      position=np.array(centre) * 1e-3, orientation=rotation)
    got = np.asarray(magpylib.getB(magnet, reed.points * 1e-3))
    return abs(float((got @ reed.axis) @ reed.weights * 1e3))


def test_a_leaning_magnet_near_the_switch_reads_within_its_bounds(design):
    reed = field.Reed(design, "uniform")
    centre = (0.7, 0.7, 7.6)
    body, axis = math.atan(0.3 / 6), math.radians(5)
    strongest, weakest = field.leaning_near(reed, [centre], (6.0, 1.0), body, axis)
    turns = np.linspace(0, 2 * math.pi, 37)[:-1] + 0.05
    seen = [tilted(reed, centre, body, axis, b, a) for b in turns for a in turns]
    assert weakest[0] <= min(seen) <= weakest[0] * 1.003
    assert strongest[0] * 0.997 <= max(seen) <= strongest[0]


def test_a_leaning_magnet_far_from_the_switch_reads_within_its_bounds(design):
    # Far away the body's tilt hardly matters: the three parts' bound holds within 0.2 %.
    reed = field.Reed(design, "uniform")
    centre = (34.6, 20.0, 7.6)
    lean = math.atan(0.3 / 6) + math.radians(5)
    strongest, _ = field.leaning(field.readings(reed, [centre], (6.0, 1.0)), lean)
    turns = np.linspace(0, 2 * math.pi, 73)[:-1]
    seen = [tilted(reed, centre, lean, 0.0, b, 0.0) for b in turns]
    assert max(seen) == pytest.approx(strongest[0], rel=2e-3)


def test_a_far_disk_is_sampled_enough_over_its_reach_and_height(design):
    # Against 96 spots on each of three circles over its reach and five heights, the check's
    # 16 spots on the edge at the lowest and highest magnet (with its allowance) read no less.
    env = envelope.Envelope(design)
    offsets, _ = envelope.board_offsets(design)
    near = {k: v for k, v in offsets.items() if np.hypot(*v) < 85}       # two rings
    reed = field.Reed(design, "uniform")
    quick = envelope.strongest_others(reed, env, near)
    where = envelope.spots(env.reach, 3, 96)
    for z in np.linspace(env.heights[0], env.heights[-1], 5):
        centres = [(d[0] + x, d[1] + y, z) for d in near.values() for x, y in where]
        most, _ = field.leaning(field.readings(reed, centres, env.magnet), env.lean)
        dense = most.reshape(len(near), -1).max(axis=1)
        assert all(dense <= [quick[k] for k in near]), z


# --- designs that each part of the envelope must fail -------------------------------------

def grade(name, low, high):
    return {"disk": {"magnet_grade": name, "magnet_remanence": [low, high]}}


def thicker(mm):
    return {"disk": {"thickness": mm, "magnet_depth": (mm - 1.0) / 2}}


BAD = [
    # (the part of the envelope, a design it fails, the same check without that part)
    ("the whole board", grade("N45", 1.32, 1.38), {}, {"neighbours_only": True}),
    ("the board against the own disk", grade("N35", 1.17, 1.22), {}, {"subtract": False}),
    ("the uniform model", {"board": {"pitch": 41.0}}, {}, {"models": ("gap",)}),
    ("the sheets' tolerance", {"stack": {"top_plate": 2.5}},
     {"tolerances": {"sheet": 0.0}}, {}),
    ("the magnet's slack", grade("N42", 1.28, 1.32), {"tolerances": {"magnet_slack": 0.0}}, {}),
    ("the printed disk's tolerance", thicker(3.4), {"tolerances": {"disk": 0.0}}, {}),
    ("the switch's placement", thicker(3.2), {"tolerances": {"reed_placement": 0.0}}, {}),
    ("the magnet's axis tolerance", grade("N40", 1.25, 1.28),
     {"disk": {"magnet_axis_tolerance": 0.0}}, {}),
    ("the grade's range", grade("N35 to N42", 1.17, 1.32),
     {"disk": {"magnet_remanence": [1.245, 1.245]}}, {}),
]


@pytest.mark.parametrize("part, bad, without, narrower", BAD, ids=[b[0] for b in BAD])
def test_each_part_of_the_envelope_fails_a_design_a_narrower_check_passes(design, part, bad,
                                                                         without, narrower):
    flawed = design.changed(**bad)
    assert not sensing.check(flawed).ok, part
    lenient = flawed.changed(**without) if without else flawed
    assert sensing.check(lenient, **narrower).ok, part


# --- light -----------------------------------------------------------------------------

def test_the_default_design_leaves_a_ring_of_light_from_above_and_from_the_side(design):
    result = light.check(design)
    assert result.ok
    assert result.flats_worst == pytest.approx(20.0 - 15.05)
    assert result.seen_worst == pytest.approx(20.0 - 15.05 - 1.5)
    assert result.proud == pytest.approx(1.0) and result.proud_least == pytest.approx(0.5)
    assert result.corners_worst > result.flats_worst
    assert 0.3 < result.share < 0.6


@pytest.mark.parametrize("change, failing", [
    ({"board": {"pitch": 36.0}}, "flats_worst"),             # a 29 mm disk on 36 mm hexes
    ({"stack": {"pocket_diameter": 34.0}}, "flats_worst"),   # a loose pocket lets it drift
    # The old 30 x 4 mm disk in its 31 mm pocket: 4.45 mm from above, but standing 2 mm proud
    # it hides all but 1.95 mm of the far side from a seated player.
    ({"disk": {"diameter": 30.0, "thickness": 4.0, "magnet_thickness": 2.0},
      "stack": {"pocket_diameter": 31.0}}, "seen_worst"),
    # A disk as thick as its pocket plate cannot be lifted.
    ({"disk": {"thickness": 2.2, "magnet_depth": 0.6}}, "proud_least"),
])
def test_bad_designs_fail_the_light_check(design, change, failing):
    result = light.check(design.changed(**change))
    assert not result.ok
    limit = light.MIN_GRIP_MM if failing == "proud_least" else light.MIN_RING_MM
    assert getattr(result, failing) < limit


# --- the jig ---------------------------------------------------------------------------

def test_the_jig_holds_the_switch_to_the_envelope_at_both_heights(design, found):
    made = jig.Jig(design, found)
    assert (made.near, made.far) == (pytest.approx(9.36, abs=0.01),
                                     pytest.approx(19.68, abs=0.01))
    low, high = design.disk.magnet_remanence
    for r, reed in made.models:
        # Its strongest reading near cannot close a switch the board would not close; its
        # weakest reading far cannot hold open one the full board would hold closed.
        assert made._reading(reed, made.near, high, True) <= r.own_less_board * (1 + 1e-6)
        assert made._reading(reed, made.far, low, False) >= r.board * (1 - 1e-6)
        # As drawn it sits between the datasheet's extremes: a useful screen.
        assert 10 < made.nominal(reed, made.near) / r.mt_per_at < 30
        assert 3 < made.nominal(reed, made.far) / r.mt_per_at < 10
    assert made.cup_bottom(made.near) > made.bore_floor()
    assert jig.SAMPLE == math.ceil(math.log(0.05) / math.log(0.9))


def test_a_design_with_no_jig_is_refused(design):
    # A switch centred under the magnet, in its dead spot: the own disk reads less than the
    # full board, so no height closes a good switch.
    with pytest.raises(jig.JigError, match="cannot close a switch"):
        jig.Jig(design.changed(parts_reed={"y": 0.0}))


# --- a builder's measurement -------------------------------------------------------------

def test_a_measurement_tells_its_switch_and_no_more(design, found):
    lines = sensing.measure(design, closes_at=7.0, opens_at=11.0, result=found)
    text = "\n".join(lines)
    assert "SAFE" not in text and "magnet" not in text.lower().replace("magnet grade", "")
    assert "gap model: operates at" in text and "uniform model: operates at" in text
    assert "What it cannot: the other switches" in text and "3:1" in text
    # A switch closing 7 mm above the PCB operates in the range its heights +-0.5 mm give.
    uniform = field.Reed(design, "uniform")
    low, high = design.disk.magnet_remanence
    lo = sensing.centred(design, uniform, 7.5, low)
    hi = sensing.centred(design, uniform, 6.5, high)
    assert "operates at %.2f-%.2f mT" % (lo, hi) in text


def test_a_measurement_refuses_impossible_heights(design, found):
    with pytest.raises(ValueError, match="above 0 mm"):
        sensing.measure(design, 0.0, 3.0, found)
    with pytest.raises(ValueError, match="opens farther away"):
        sensing.measure(design, 8.0, 6.0, found)


def test_bounds_leaves_out_one_part_at_a_time(design, monkeypatch):
    monkeypatch.setattr(bounds, "PARTS", bounds.PARTS[:2])
    rows = bounds.bounds(design)
    assert [r[0] for r in rows] == ["nothing: the whole envelope", "the magnet's axis tolerance"]
    (_, own, release, best), (_, _, _, better) = rows
    assert best == pytest.approx(math.sqrt(own * release))
    assert better > best * 1.15                   # the axis tolerance costs over 15 %
    assert "+" in bounds.report(rows).splitlines()[-1]


# --- the command line and the design file -------------------------------------------------

def test_the_command_line_checks_and_measures():
    run = [sys.executable, "-m", "hardware.generate.stack"]
    checked = subprocess.run(run + ["check"], cwd=ROOT, capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr
    out = checked.stdout
    assert "gap model" in out and "uniform model" in out and "Light" in out
    assert "PASS: both at least 1.25 with any switch of the datasheet" in out
    assert "Go/no-go jig" in out and "29 of a reel" in out
    measured = subprocess.run(run + ["measure", "--closes-at", "7", "--opens-at", "11"],
                              cwd=ROOT, capture_output=True, text=True)
    assert measured.returncode == 0 and "What it cannot" in measured.stdout
    wrong = subprocess.run(run + ["measure", "--closes-at", "7"], cwd=ROOT,
                           capture_output=True, text=True)
    assert wrong.returncode == 2 and "--opens-at" in wrong.stderr


@pytest.mark.parametrize("change, words", [
    ({"board": {"pitch": -40}}, "[board] pitch must be above 0 mm"),
    ({"disk": {"magnet_remanence": [1.3, 1.2]}}, "[disk] magnet_remanence must be two numbers"),
    ({"parts_reed": {"x": "middle"}}, "[parts.reed] x must be a number"),
    ({"stack": {"pocket_diameter": 40.0}}, "does not fit the hex's light-box window"),
    ({"stack": {"pocket_diameter": 28.0}}, "does not fit its 28 mm pocket"),
    ({"disk": {"magnet_thickness": 2.0}}, "needs a disk 4 mm thick"),
    ({"tolerances": {"sheet": -0.3}}, "[tolerances] sheet must be 0 mm or more"),
])
def test_bad_values_are_refused_naming_them(design, change, words):
    with pytest.raises(DesignError) as info:
        design.changed(**change)
    assert words in str(info.value)


def test_a_missing_value_is_named(tmp_path):
    text = (ROOT / "hardware" / "design.toml").read_text().replace("light_box = 3.0", "")
    path = tmp_path / "design.toml"
    path.write_text(text)
    with pytest.raises(DesignError, match=r"\[stack\] lacks light_box"):
        Design.load(path)
