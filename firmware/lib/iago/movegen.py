"""Legal-move generation in plain Python: the reference for the viper kernel in _kernel.py.

`generate(cells, scratch, mode)` writes the legal moves of the side to move into
scratch[MOVES:] in cell order and returns how many; scratch[0:61] collects, per empty cell,
2 x its capture count plus 1 if it releases, and is zero again on return. `mode` is the side
to move | RELEASE_ON | FORCED_CAPTURE. The caller handles a finished game and a free
(penalty) placement. rules.py keeps its own copy of these constants.
"""

from iago.hexgrid import CENTRE, NEIGHBOURS, NO_CELL, OUTER_OR_CENTRE

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

_CELLS = const(61)
_TOUCHED = const(61)
MOVES = const(122)
SCRATCH_SIZE = const(183)
RELEASE_ON = const(4)
FORCED_CAPTURE = const(8)

# Empty inner cells other than the centre are legal whenever no capture is forced.
_FREE_INNER = bytes(0 if OUTER_OR_CENTRE[c] else 1 for c in range(_CELLS))


def generate(cells, scratch, mode):
    side = mode & 3
    opp = side ^ 3
    release = mode & RELEASE_ON
    nb = NEIGHBOURS
    n = 0
    # Walk out from each of the mover's face-up disks: the work grows with the disks on the
    # board, and most directions stop at the first neighbour (empty, own or the edge).
    for anchor in range(_CELLS):
        if cells[anchor] != side:
            continue
        base = anchor * 6
        for d in range(6):
            x = nb[base + d]
            if x == NO_CELL:
                continue
            v = cells[x]
            if v == opp:
                k = 0
                while x != NO_CELL and cells[x] == opp:
                    k += 2
                    x = nb[x * 6 + d]
                if x == NO_CELL or cells[x]:
                    continue
                if not scratch[x]:
                    scratch[_TOUCHED + n] = x
                    n += 1
                scratch[x] += k
            elif v & 4 and release:
                while x != NO_CELL and cells[x] & 4:
                    x = nb[x * 6 + d]
                if x == NO_CELL or cells[x] or not (OUTER_OR_CENTRE[anchor] or OUTER_OR_CENTRE[x]):
                    continue
                if not scratch[x]:
                    scratch[_TOUCHED + n] = x
                    n += 1
                scratch[x] |= 1
    best = 0
    if mode & FORCED_CAPTURE:
        for i in range(_TOUCHED, _TOUCHED + n):
            if scratch[scratch[i]] > best:
                best = scratch[scratch[i]]
        best >>= 1
    count = 0
    if best:
        # Few cells capture: take them from the touched list, insertion-sorted into cell order.
        for i in range(_TOUCHED, _TOUCHED + n):
            cell = scratch[i]
            if scratch[cell] >> 1 == best:
                j = MOVES + count
                while j > MOVES and scratch[j - 1] > cell:
                    scratch[j] = scratch[j - 1]
                    j -= 1
                scratch[j] = cell
                count += 1
    else:
        for cell in range(_CELLS):
            if not cells[cell] and (_FREE_INNER[cell] or scratch[cell]):
                scratch[MOVES + count] = cell
                count += 1
        if not count and not cells[CENTRE]:
            scratch[MOVES] = CENTRE  # last-hex rule
            count = 1
    for i in range(_TOUCHED, _TOUCHED + n):
        scratch[scratch[i]] = 0
    return count
