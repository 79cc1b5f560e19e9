"""The connections around the Pico and at the board's edges, routed after the hexes: the power
input, the corner's parts (level shifter, FRAM, diodes, buttons), the headers and the test
points; and how a test point is labelled. Each takes the board.Builder. Needs KiCad 6's
pcbnew.
"""

import pcbnew

from .frame import F


def route_power_input(builder):
    """Terminal, fuse, P-MOSFET at the trunk's width; the TVS and the bulk capacitor
    beside the rail."""
    builder.log("routing the power input")
    # The P-MOSFET's drain pins (5-8) and source pins (1-3) joined along their rows.
    for first, last in (("5", "8"), ("1", "3")):
        pad = builder.pads[("Q1", first)][0]
        builder.fixed_copper(pad.GetNetname(), F, builder.pad_centre("Q1", first),
                             builder.pad_centre("Q1", last), builder.p.rules["power_track"],
                             "power", "Q1's pins %s-%s" % (first, last))
    for number in "1235678":
        builder.root("Q1", number)
    builder.connect("J1", "1", "trunk", target=("F1", "2"))
    builder.connect("F1", "1", "trunk", target=("Q1", "7"))
    builder.ground("Q1", "4")
    builder.connect("C103", "1", "trunk")
    builder.connect("D103", "1", "bus")
    builder.ground("D103", "2")


def route_corner(builder, pico_pin):
    builder.log("routing the corner")
    bmap = builder.p.map
    # Ground first (each pad to a via of the pours right beside it), then 5 V and 3.3 V,
    # then the signals: a pad hemmed in by the others' tracks would find no way out.
    for ref, numbers in (("U2", "1 5 7 9 12"), ("U3", "1 2 3 4 7"), ("C101", "2"),
                         ("C102", "2"), ("C103", "2")):
        for number in numbers.split():
            builder.ground(ref, number)
    for number in ("14", "4", "10", "13"):
        builder.connect("U2", number, "power")
    builder.connect("C101", "1", "power")
    builder.connect("D101", "2", "power")
    builder.connect("D101", "1", "power", target=("U1", "39"))
    builder.root("U1", "36")
    for ref, number in (("U3", "8"), ("C102", "1"), ("R2", "1"), ("R3", "1")):
        builder.connect(ref, number, "power")
    builder.connect("U1", pico_pin["LED_DATA"], target=("U2", "2"))
    builder.connect("R4", "1")
    builder.ground("R4", "2")
    builder.connect("U2", "3", target=("R1", "1"))
    builder.connect("R1", "2", target=("LED%d" % (bmap.cell_of_led[0] + 1), "4"))
    for name in sorted(bmap.buttons):
        ref = "SW101" if name == "select" else "SW102"
        builder.connect("U1", pico_pin["BTN_" + name.upper()], target=(ref, "1"))
    builder.connect("U1", pico_pin["I2C_SDA"], target=("U3", "5"))
    builder.connect("U1", pico_pin["I2C_SCL"], target=("U3", "6"))
    builder.connect("R2", "2")
    builder.connect("R3", "2")
    builder.connect("U1", pico_pin["RUN"], target=("SW103", "1"))
    builder.ground("SW103", "2")


def route_headers(builder, pico_pin):
    """The expansion header beside the Pico, the chain's header beside the last LED."""
    builder.log("routing the headers")
    for number in ("1", "3", "4", "5"):
        builder.connect("J2", number, "power" if number in "13" else "signal")
    for k, gpio in enumerate(builder.p.expansion_gpios):
        builder.connect("U1", pico_pin["GP%d" % gpio], target=("J2", str(6 + k)))
    last = builder.p.map.cell_of_led[builder.p.map.cells - 1] + 1
    builder.connect("J3", "2", target=("LED%d" % last, "2"))
    builder.connect("J3", "1", "power")


def route_test_points(builder):
    builder.log("routing the test points")
    for comp in builder.components:
        if comp.part.key != "test_point":
            continue
        if comp.nets["1"] == "GND":
            builder.ground(comp.ref, "1")
        else:
            builder.connect(comp.ref, "1", "power" if comp.nets["1"] in (
                "+5V", "VSYS", "+3V3") else "signal")


# What a test point's silkscreen says: its net, short, written upward beside the pad.
TEST_POINT_LABELS = {"+5V": "5V", "+3V3": "3V3", "LED_DATA": "DATA", "LED_DATA_5V": "DATA 5V",
                     "LED_CHAIN_OUT": "CHAIN END"}


def label_test_point(fp, net):
    label = TEST_POINT_LABELS.get(net, net.replace("ROW", "ROW ").replace("COL", "COL "))
    fp.Reference().SetVisible(False)
    value = fp.Value()
    value.SetText(label)
    value.SetLayer(pcbnew.F_SilkS)
    value.SetVisible(True)
    value.SetTextSize(pcbnew.wxSizeMM(0.8, 0.8))
    value.SetTextThickness(pcbnew.FromMM(0.12))
    value.SetHorizJustify(pcbnew.GR_TEXT_HJUSTIFY_LEFT)
    value.SetTextAngle(900)
    value.SetPos0(pcbnew.wxPointMM(0.0, -1.3))
    value.SetDrawCoord()
