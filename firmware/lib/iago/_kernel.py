"""Viper kernel of rules.generate_plain for MicroPython; the plain code is the reference.

Same contract: the legal moves of the side to move go to scratch[122:] in cell order, the count
is returned, and scratch[0:61] is zero again on return. It walks the flat neighbour table
instead of the rays and sweeps all 61 cells at the end, which viper does in microseconds.
"""

import micropython

from iago.hexgrid import CENTRE, NEIGHBOURS, OUTER_OR_CENTRE, IS_OUTER

_CENTRE_CELL = CENTRE


@micropython.viper
def generate(cells, scratch, mode: int) -> int:
    cell = ptr8(cells)
    count = ptr8(scratch)
    nb = ptr8(NEIGHBOURS)
    edge = ptr8(OUTER_OR_CENTRE)
    outer = ptr8(IS_OUTER)
    centre = int(_CENTRE_CELL)
    side = mode & 3
    opp = side ^ 3
    release = mode & 4
    anchor = 0
    while anchor < 61:
        if cell[anchor] == side:
            d = 0
            while d < 6:
                x = nb[anchor * 6 + d]
                if x != 255:
                    v = cell[x]
                    if v == opp:
                        k = 0
                        while x != 255 and cell[x] == opp:
                            k += 1
                            x = nb[x * 6 + d]
                        if x != 255 and cell[x] == 0:
                            count[x] = count[x] + (k << 1)
                    elif (v & 4) and release:
                        while x != 255 and (cell[x] & 4):
                            x = nb[x * 6 + d]
                        if x != 255 and cell[x] == 0 and (edge[anchor] or edge[x]):
                            count[x] = count[x] | 1
                d += 1
        anchor += 1
    best = 0
    if mode & 8:
        c = 0
        while c < 61:
            if count[c] > best:
                best = count[c]
            c += 1
        best = best >> 1
    n = 0
    c = 0
    while c < 61:
        if cell[c] == 0:
            if best:
                if (count[c] >> 1) == best:
                    count[122 + n] = c
                    n += 1
            elif count[c] or not (outer[c] or c == centre):
                count[122 + n] = c
                n += 1
        count[c] = 0
        c += 1
    if n == 0 and cell[centre] == 0:
        count[122] = centre
        n = 1
    return n
