"""KiCad's frame: mm, y down, with E5 at (ORIGIN_X, ORIGIN_Y); board coordinates (y toward
row I) map to (ORIGIN_X + x, ORIGIN_Y - y), and a rotation counter-clockwise seen from the
top is KiCad's orientation. Layer F (front) and B (back) index KLAYER. Needs KiCad 6's pcbnew.
"""

import pcbnew

ORIGIN_X, ORIGIN_Y = 200.0, 200.0
F, B = 0, 1
KLAYER = (pcbnew.F_Cu, pcbnew.B_Cu)


def kpos(x, y):
    return ORIGIN_X + x, ORIGIN_Y - y


def wxmm(p):
    return pcbnew.wxPointMM(float(p[0]), float(p[1]))


def mm(nm):
    return pcbnew.ToMM(nm)

