"""The PCB as the fab builds it (hardware/generated/pcb): every part it places has its part number,
checked against the stored copies of its listing (fab-parts.toml); the placement file turns
every part so that its pin 1 lands on pad 1 given the fab library's orientation of its
package (jlc.py), and a family missing from that table fails; the power input is protected
(fuse, reverse-polarity P-MOSFET, TVS) and USB stays off the LEDs; every net a maker probes
has a test point; the GND pours are tied; the worst LED's voltage from the DC solve. Read
from the committed board file and fab files; no KiCad needed here but for the silkscreen
check (it fails naming what to install when KiCad is missing)."""

import csv
import io
import math
import re
import tomllib
from pathlib import Path

import pytest

from hardware.generate.pcb import jlc, powerflow
from hardware.generate.pcb.kicad_file import Board

ROOT = Path(__file__).resolve().parent.parent
PCB = ROOT / "hardware" / "generated" / "pcb"
INPUTS = ROOT / "hardware" / "pcb"

BOARD_TEXT = (PCB / "iago-board.kicad_pcb").read_text()
BOARD = Board(BOARD_TEXT)
FAB_PARTS = tomllib.loads((INPUTS / "fab-parts.toml").read_text())
PCB_TOML = tomllib.loads((INPUTS / "pcb.toml").read_text())


def _csv(name):
    return list(csv.DictReader(io.StringIO((PCB / "fab" / name).read_text())))


BOM = _csv("iago-board-bom.csv")
CPL = {row["Designator"]: row for row in _csv("iago-board-cpl.csv")}
CPL_KICAD = {row["Designator"]: row for row in _csv("iago-board-cpl-kicad.csv")}


# --- part numbers -----------------------------------------------------------------------------

def part_number_problems(bom, fab_parts):
    """Every BOM line whose part the fab cannot be ordered as the listing says."""
    out = []
    for row in bom:
        name = row["Footprint"]
        lcsc, mpn = row["LCSC"], row["Manufacturer Part"]
        if lcsc:
            listed = fab_parts.get("lcsc", {}).get(lcsc)
            if listed is None:
                out.append("%s: %s is not in fab-parts.toml" % (row["Designator"], lcsc))
            elif listed["mpn"] != mpn or listed["footprint"] not in name:
                out.append("%s: %s is listed as %s on %s, not %s on %s" % (
                    row["Designator"], lcsc, listed["mpn"], listed["footprint"], mpn, name))
        else:
            listed = fab_parts.get("global", {}).get(mpn)
            if not mpn or listed is None:
                out.append("%s: no fab part number and no globally sourced part (%r)"
                           % (row["Designator"], mpn))
            elif listed["footprint"] not in name or listed["manufacturer"] != \
                    row["Manufacturer"]:
                out.append("%s: %s is %s's on %s, not on %s" % (
                    row["Designator"], mpn, listed["manufacturer"], listed["footprint"], name))
    return out


def test_every_part_the_fab_places_has_its_number_as_the_listing_names_it():
    assert part_number_problems(BOM, FAB_PARTS) == []
    placed = sum(int(row["Quantity"]) for row in BOM)
    assert placed == len(CPL) == 61 * 4 + 17       # each hex's four, and the edges' parts
    with_lcsc = sum(int(row["Quantity"]) for row in BOM if row["LCSC"])
    # The reed switches, the FRAM, the bulk capacitor, the fuse and the three buttons are
    # bought by their makers' numbers (global sourcing): no LCSC number was found for them.
    assert placed - with_lcsc == 61 + 1 + 1 + 1 + 3
    assert {"J1", "U3"} <= set(CPL)
    led = next(row for row in BOM if row["LCSC"] == "C2761795")
    assert led["Manufacturer Part"] == "WS2812B-B/T" and led["Quantity"] == "61"


@pytest.mark.parametrize("change, words", [
    (lambda rows: rows[0].update(LCSC="C99999999"), ["C99999999", "not in fab-parts.toml"]),
    (lambda rows: next(r for r in rows if r["LCSC"] == "C2761795").update(
        **{"Manufacturer Part": "WS2812B-B/W"}), ["listed as WS2812B-B/T", "not WS2812B-B/W"]),
    (lambda rows: next(r for r in rows if r["LCSC"] == "C155176").update(
        Footprint="SOIC-8_3.9x4.9mm_P1.27mm"), ["SOIC-14", "SOIC-8_3.9x4.9mm"]),
    (lambda rows: next(r for r in rows if not r["LCSC"]).update(
        **{"Manufacturer Part": ""}), ["no fab part number"]),
])
def test_a_wrong_or_missing_part_number_is_found(change, words):
    rows = [dict(row) for row in BOM]
    change(rows)
    found = "\n".join(part_number_problems(rows, FAB_PARTS))
    for word in words:
        assert word in found, found


def test_only_the_pico_is_soldered_by_hand():
    """Joints a maker solders: the Pico's 40 (its sockets'); the headers are not ordered (J2,
    J3: for a maker who extends the board)."""
    placed = set(CPL)
    by_hand = {}
    for ref, fp in BOARD.footprints.items():
        kind = re.sub(r"\d+$", "", ref)
        if ref in placed or kind in ("TP", "H", "FID") or fp.properties.get("fitted") == "no":
            continue
        by_hand[ref] = len({p.number for p in fp.pads})
    assert by_hand == {"U1": 40}
    readme = (ROOT / "hardware" / "README.md").read_text()
    assert "| **always** | **40** |" in readme


# --- placement: the fab's rotations -------------------------------------------------------------

def pin1_problems(board, cpl):
    """Every placed part whose pin 1, turned by the CPL's rotation from where the fab's library
    has it, is not on the footprint's pad 1 (read from the board), or whose Mid X/Y is not
    the middle of its pads."""
    aux = re.search(r"\(aux_axis_origin (\S+) (\S+)\)", BOARD_TEXT)
    ax, ay = float(aux.group(1)), float(aux.group(2))
    out = []
    for ref, row in sorted(cpl.items()):
        fp = board.footprints[ref]
        name = fp.library.split(":")[-1]
        try:
            fam = jlc.family(name)
        except jlc.MissingFamily as exc:
            out.append("%s: %s" % (ref, exc))
            continue
        xs = [p.x for p in fp.pads]
        ys = [p.y for p in fp.pads]
        mid = ((min(xs) + max(xs)) / 2.0, (min(ys) + max(ys)) / 2.0)
        ones = [p for p in fp.pads if p.number == "1"]
        px = sum(p.x for p in ones) / len(ones) - mid[0]
        py = mid[1] - sum(p.y for p in ones) / len(ones)       # y toward row I
        actual = jlc.compass(math.degrees(math.atan2(py, px)))
        placed = jlc.compass(jlc.degrees(fam.pin1) + float(row["Rotation"]))
        if actual != placed:
            out.append("%s (%s): the fab puts pin 1 %s, pad 1 is %s" % (ref, name, placed,
                                                                       actual))
        if abs(float(row["Mid X"]) - (mid[0] - ax)) > 0.01 or \
                abs(float(row["Mid Y"]) - (ay - mid[1])) > 0.01:
            out.append("%s: Mid X/Y %s, %s is not the middle of its pads" % (
                ref, row["Mid X"], row["Mid Y"]))
    return out


def test_every_part_is_turned_so_its_pin_1_lands_on_pad_1():
    assert pin1_problems(BOARD, CPL) == []


def test_kicads_own_rotations_would_mount_the_corrected_families_wrong():
    """The placement file as KiCad writes it (what the board shipped with before): every LED
    turned half round, the level shifter, the FET and the FRAM a quarter off, the bulk
    capacitor reversed, the buttons and the terminal off their middle."""
    found = pin1_problems(BOARD, CPL_KICAD)
    wrong = sorted({re.sub(r"\d+$", "", line.split(" ")[0].rstrip(":")) for line in found})
    assert wrong == ["C", "J", "LED", "Q", "SW", "U"]
    assert sum("LED" in line and "pin 1" in line for line in found) == 61
    assert any(line.startswith("C103 ") for line in found)
    assert not any(line.startswith("C1 ") for line in found)        # 0603: no correction


def test_a_footprint_family_missing_from_the_table_fails():
    with pytest.raises(jlc.MissingFamily, match="QFN-56"):
        jlc.family("QFN-56-1EP_7x7mm_P0.4mm")
    board = Board(BOARD_TEXT.replace(
        '(footprint "Package_SO:SOIC-14_3.9x8.7mm_P1.27mm"',
        '(footprint "Package_SO:TSSOP-14_4.4x5mm_P0.65mm"'))
    assert any("U2: TSSOP-14" in line and "no family" in line
               for line in pin1_problems(board, CPL))


def test_every_family_cites_its_source_and_the_fab_pin_1():
    for fam in jlc.FAMILIES:
        assert fam.pin1 in jlc.COMPASS and fam.mark and fam.source
        assert fam.source.startswith("KiBot") if fam.rotation else \
            fam.source == jlc.NONE_LISTED, fam


# --- the circuit: power input, test points, FRAM --------------------------------------------

def net_of(ref, number):
    return BOARD.footprints[ref].net(number)


def test_the_supply_passes_the_fuse_and_the_reverse_polarity_fet_and_usb_stays_off_the_leds():
    assert (net_of("J1", "1"), net_of("J1", "2")) == ("VIN", "GND")
    assert {net_of("F1", "1"), net_of("F1", "2")} == {"VIN", "VIN_FUSED"}
    assert [net_of("Q1", n) for n in "12345678"] == ["+5V"] * 3 + ["GND"] + ["VIN_FUSED"] * 4
    assert (net_of("D103", "1"), net_of("D103", "2")) == ("+5V", "GND")   # cathode to 5 V
    assert (net_of("R4", "1"), net_of("R4", "2")) == ("LED_DATA", "GND")
    assert net_of("U1", "40") is None                                   # VBUS: the Pico's own
    assert "VBUS" not in BOARD.nets
    assert (net_of("SW103", "1"), net_of("SW103", "2")) == ("RUN", "GND")
    assert net_of("U1", "30") == "RUN"


def test_the_fram_is_fitted_on_i2c1_with_its_pull_ups():
    assert "U3" in CPL and "R2" in CPL and "R3" in CPL and "C102" in CPL
    assert (net_of("U1", "24"), net_of("U1", "25")) == ("I2C_SDA", "I2C_SCL")   # GP18, GP19
    assert (net_of("U3", "5"), net_of("U3", "6"), net_of("U3", "8")) == (
        "I2C_SDA", "I2C_SCL", "+3V3")
    assert {net_of("R2", "1"), net_of("R3", "1")} == {"+3V3"}
    assert {net_of("R2", "2"), net_of("R3", "2")} == {"I2C_SDA", "I2C_SCL"}


def test_every_net_a_maker_probes_has_a_test_point():
    probed = {fp.net("1") for ref, fp in BOARD.footprints.items() if ref.startswith("TP")}
    wanted = {"+5V", "VSYS", "+3V3", "GND", "LED_DATA", "LED_DATA_5V", "LED_CHAIN_OUT"}
    wanted |= {"ROW%d" % r for r in range(9)} | {"COL%d" % c for c in range(8)}
    assert probed == wanted


def test_the_expansion_header_carries_i2c_the_spare_gpios_5v_and_gnd():
    header = [net_of("J2", str(n)) for n in range(1, 10)]
    assert header == ["+5V", "GND", "+3V3", "I2C_SDA", "I2C_SCL", "GP17", "GP26", "GP27",
                      "GP28"]
    assert [net_of("J3", str(n)) for n in (1, 2, 3)] == ["+5V", "LED_CHAIN_OUT", "GND"]


# --- ground and power --------------------------------------------------------------------------

def test_every_gnd_island_is_tied_at_two_places_but_slivers_too_small_for_a_via():
    lines = (PCB / "ground.txt").read_text().splitlines()
    islands = [line.split() for line in lines if re.match(r"[FB]\.Cu ", line)]
    assert len(islands) == int(re.search(r"(\d+) islands", lines[2]).group(1))
    loose = [i for i in islands if int(i[2]) < 2]
    assert all(float(i[1]) < 5.0 for i in loose), loose
    assert sum(1 for i in islands if i[0] == "B.Cu") == 1


def test_the_worst_led_gets_at_least_4_6_v_at_the_supplys_budget():
    text = (PCB / "power.txt").read_text()
    budget = re.search(r"the budget of a 5 V 4 A supply: 3100 mA.*?worst LED \S+ \(\S+\): "
                       r"([\d.]+) V", text, re.S)
    assert float(budget.group(1)) >= 4.6
    assert "no LED takes current from USB" in text


def test_the_committed_power_report_is_the_solve_of_the_committed_board():
    text, worst = powerflow.report(BOARD_TEXT)
    assert text == (PCB / "power.txt").read_text(), "run make hardware"
    assert worst >= powerflow.MIN_LED_V


# --- the DC solve against hand calculation --------------------------------------------------

def _board(items, pads=()):
    """A board file of `items` (segment and zone text) with through-hole pads (ref, number,
    net, x, y) on nets +5V (1) and GND (2)."""
    text = ['(kicad_pcb (version 20211014) (generator pcbnew)', '  (net 0 "")',
            '  (net 1 "+5V")', '  (net 2 "GND")',
            '  (gr_line (start 0 0) (end 100 0) (layer "Edge.Cuts") (width 0.1))']
    for ref, number, net, x, y in pads:
        text += ['  (footprint "T:P" (layer "F.Cu")', '    (tedit 0) (tstamp 0)',
                 '    (at %g %g)' % (x, y), '    (fp_text reference "%s" (at 0 0) '
                 '(layer "F.SilkS"))' % ref,
                 '    (pad "%s" thru_hole circle (at 0 0) (size 2 2) (drill 1) (layers *.Cu)'
                 % number, '      (net %d "%s") (tstamp 0))' % (
                     1 if net == "+5V" else 2, net), '  )']
    return "\n".join(text + list(items) + [")"]) + "\n"


def _ohms_between(count, resistors, a, b):
    v = powerflow._solve(count, resistors, {b: 1.0}, {a: 0.0})
    return v[b] - v[a]


def test_a_track_is_rho_length_over_width_and_thickness_and_a_tee_splits_it():
    text = _board(['  (segment (start 10 10) (end 90 10) (width 1) (layer "F.Cu") (net 1))',
                   '  (segment (start 50 10) (end 50 30) (width 0.5) (layer "F.Cu") (net 1))'],
                  [("A", "1", "+5V", 10, 10), ("B", "1", "+5V", 90, 10),
                   ("C", "1", "+5V", 50, 30)])
    net, nodes = powerflow.supply_side(text, names=("+5V",))
    rho, t = powerflow.RHO, powerflow.THICKNESS
    ab = _ohms_between(net.count, net.resistors, nodes[("A", "1")], nodes[("B", "1")])
    assert ab == pytest.approx(rho * 0.080 / (1e-3 * t), rel=1e-3)
    ac = _ohms_between(net.count, net.resistors, nodes[("A", "1")], nodes[("C", "1")])
    assert ac == pytest.approx(rho * 0.040 / (1e-3 * t) + rho * 0.020 / (0.5e-3 * t),
                               rel=1e-3)


def test_a_pour_is_its_sheet_resistance_times_its_squares():
    """A 60 x 10 mm pour with a pad at each end, 50 mm apart: about 5 squares (each pad's tie
    reaches 1 mm past its copper, its thermal spokes, which takes a little off; the spreading
    from it adds a little), and the other layer's pour in parallel halves it."""
    pour = ('  (zone (net 2) (net_name "GND") (layer "%s.Cu")\n    (filled_polygon\n'
            '      (layer "%s.Cu")\n      (pts\n        (xy 20 20) (xy 80 20) (xy 80 30) '
            '(xy 20 30)\n      )\n    )\n  )')
    pads = [("A", "1", "GND", 25, 25), ("B", "1", "GND", 75, 25)]
    sheet = powerflow.GroundSheet(_board([pour % ("F", "F")], pads))
    one = _ohms_between(sheet.count, sheet.resistors(), sheet.pad_node[("A", "1")][0],
                        sheet.pad_node[("B", "1")][0])
    squares = one / (powerflow.RHO / powerflow.THICKNESS)
    assert 4.5 < squares < 5.5, squares
    both = powerflow.GroundSheet(_board([pour % ("F", "F"), pour % ("B", "B")], pads))
    two = _ohms_between(both.count, both.resistors(), both.pad_node[("A", "1")][0],
                        both.pad_node[("B", "1")][0])
    assert two == pytest.approx(one / 2.0, rel=0.05)
