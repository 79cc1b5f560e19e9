"""The stack's sensing and light checks (hardware/stack): the default design passes them with
its stated margins, and designs that would fail on a table fail them."""

import math
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from hardware.stack import light, sensing  # noqa: E402
from hardware.stack.design import Design, DesignError  # noqa: E402


@pytest.fixture(scope="module")
def design():
    return Design.load()


@pytest.fixture(scope="module")
def found(design):
    return sensing.check(design)


def test_the_default_design_senses_its_own_hex_and_ignores_its_neighbours(found):
    assert found.ok
    assert found.own_margin >= sensing.REQUIRED_MARGIN
    assert found.release_margin >= sensing.REQUIRED_MARGIN
    # The neighbours nearest the reed's far end (60 and 120 degrees) pull hardest, equally.
    pulls = [b for b, _ in found.neighbours]
    assert max(pulls) == pytest.approx(pulls[1]) == pytest.approx(pulls[2], rel=1e-6)
    assert found.neighbour_sum == pytest.approx(sum(pulls))


def test_the_conversion_is_amperes_law_for_a_long_switch():
    # A switch much longer than the coil picks up all of the coil's N I as the potential across
    # its gap: the equivalent field is mu0 N I over half its length.
    assert sensing.coil_mt_per_at(1000.0) == pytest.approx(4e-7 * math.pi / 0.5 * 1e3, rel=0.01)
    # The CT10's reeds in the standard coil: about 0.1 mT per AT, as makers' rules of thumb say.
    assert 0.085 < sensing.coil_mt_per_at(15.12) < 0.1


def test_a_switch_centred_under_the_magnet_reads_nothing(design):
    # The flat switch's dead spot: the field along it changes sign at its middle.
    centred = design.changed(parts_reed={"x": 0.0, "y": 0.0})
    assert abs(sensing.readings(centred, [(0, 0, 8)], 1.2)[0]) < 1e-6
    assert abs(sensing.readings(design, [(0, 0, 8)], 1.2)[0]) > 1.0


@pytest.mark.parametrize("change, failing", [
    # The hand-wired README's stack: 36 mm hexes, 8 mm light boxes, 3 mm plate: the neighbours
    # hold the switch closed once its own disk is lifted.
    ({"board": {"pitch": 36.0}, "stack": {"light_box": 8.0, "top_plate": 3.0,
                                          "pocket_diameter": 31.0}}, "release_margin"),
    # A weak magnet does not close the switch from everywhere on its hex.
    ({"disk": {"magnet_diameter": 4.0, "magnet_thickness": 1.0, "magnet_depth": 1.5}},
     "own_margin"),
    # The switch centred under the disk sits in its dead spot.
    ({"parts_reed": {"x": 0.0, "y": 0.0}}, "own_margin"),
    # A switch pointing at a neighbour (0 degrees) feels it too much.
    ({"parts_reed": {"x": 11.76, "y": 0.0, "rotation": 0.0}}, "release_margin"),
])
def test_bad_designs_fail_the_sensing_check(design, change, failing):
    result = sensing.check(design.changed(**change))
    assert not result.ok
    assert getattr(result, failing) < sensing.REQUIRED_MARGIN


def test_the_default_design_leaves_a_ring_of_light(design):
    result = light.check(design)
    assert result.ok
    assert result.flats_worst >= light.MIN_RING_MM
    assert result.corners_worst > result.flats_worst
    assert 0.3 < result.share < 0.5


@pytest.mark.parametrize("change", [
    {"board": {"pitch": 36.0}},                          # a 30 mm disk on 36 mm hexes
    {"stack": {"pocket_diameter": 33.0}},               # a loose pocket lets it drift
    {"disk": {"diameter": 33.0}, "stack": {"pocket_diameter": 33.5}},
])
def test_bad_designs_fail_the_light_check(design, change):
    result = light.check(design.changed(**change))
    assert not result.ok and result.flats_worst < light.MIN_RING_MM


def test_calibration_says_safe_for_a_switch_like_the_design(design):
    ok, lines = sensing.calibrate(design, closes_at=9.0, opens_at=12.0)
    assert ok and lines[-1].startswith("SAFE")


def test_calibration_of_a_dull_switch_says_what_to_change(design):
    ok, lines = sensing.calibrate(design, closes_at=5.0)
    text = "\n".join(lines)
    assert not ok and "NOT SAFE: a disk may not close its own switch" in text
    assert "Magnets that would make both margins hold" in text
    suggested = [line for line in lines if line.startswith("  ")]
    assert suggested and all("margins" in line for line in suggested)


def test_calibration_of_a_keen_switch_warns_of_neighbours(design):
    ok, lines = sensing.calibrate(design, closes_at=30.0, opens_at=40.0)
    assert not ok and "neighbours may hold a switch closed" in "\n".join(lines)


def test_calibration_refuses_impossible_heights(design):
    with pytest.raises(ValueError, match="above 0 mm"):
        sensing.calibrate(design, closes_at=0.0)
    with pytest.raises(ValueError, match="opens farther away"):
        sensing.calibrate(design, closes_at=8.0, opens_at=6.0)


def test_the_command_line_checks_and_calibrates():
    run = [sys.executable, "-m", "hardware.stack"]
    checked = subprocess.run(run + ["check"], cwd=ROOT, capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr
    assert "Sensing" in checked.stdout and "Light" in checked.stdout
    assert checked.stdout.count("PASS") == 2
    dull = subprocess.run(run + ["calibrate", "--closes-at", "5"], cwd=ROOT, capture_output=True,
                          text=True)
    assert dull.returncode == 1 and "NOT SAFE" in dull.stdout


@pytest.mark.parametrize("change, words", [
    ({"board": {"pitch": -40}}, "[board] pitch must be above 0 mm"),
    ({"disk": {"magnet_remanence": [1.3, 1.2]}}, "[disk] magnet_remanence must be two numbers"),
    ({"parts_reed": {"x": "middle"}}, "[parts.reed] x must be a number"),
    ({"stack": {"pocket_diameter": 39.0}}, "does not fit the hex's light-box window"),
    ({"stack": {"pocket_diameter": 29.0}}, "does not fit its 29 mm pocket"),
    ({"disk": {"magnet_thickness": 3.0}}, "needs a disk 5 mm thick"),
])
def test_bad_values_are_refused_naming_them(design, change, words):
    with pytest.raises(DesignError) as info:
        design.changed(**change)
    assert words in str(info.value)


def test_a_missing_value_is_named(tmp_path):
    text = (ROOT / "hardware" / "design.toml").read_text().replace("light_box = 4.0", "")
    path = tmp_path / "design.toml"
    path.write_text(text)
    with pytest.raises(DesignError, match=r"\[stack\] lacks light_box"):
        Design.load(path)
