"""Geometry of the 61-hex board, precomputed at import.

Cells are ints 0-60 in name order (A1..A5, B1..B6, ..., I5..I9); names appear only at the
edges through `parse_cell` and `cell_name`. Nothing here knows the rules of a game.
"""

from iago.errors import InvalidCellError

CELLS = 61
ROWS = "ABCDEFGHI"
NO_CELL = 255

# Directions as (row step, number step); direction d and (d + 3) % 6 are opposite.
DIRECTIONS = ((0, 1), (1, 1), (1, 0), (0, -1), (-1, -1), (-1, 0))


def _first(row):
    return 1 if row < 4 else row - 3


def _last(row):
    return 9 if row > 4 else row + 5


def _build():
    names = []
    index = {}
    coords = []
    for row in range(9):
        for number in range(_first(row), _last(row) + 1):
            index[(row, number)] = len(names)
            names.append(ROWS[row] + str(number))
            coords.append((row, number))
    neighbours = bytearray(CELLS * 6)
    for cell in range(CELLS):
        row, number = coords[cell]
        for d in range(6):
            step = DIRECTIONS[d]
            neighbours[cell * 6 + d] = index.get((row + step[0], number + step[1]), NO_CELL)
    # Rays: every cell's six lines to the board edge, concatenated; the ray of (cell, d)
    # is RAY_CELLS[RAY_START[cell*6+d] : RAY_START[cell*6+d+1]].
    ray_cells = bytearray()
    ray_start = []
    for cell in range(CELLS):
        for d in range(6):
            ray_start.append(len(ray_cells))
            nxt = neighbours[cell * 6 + d]
            while nxt != NO_CELL:
                ray_cells.append(nxt)
                nxt = neighbours[nxt * 6 + d]
    ray_start.append(len(ray_cells))
    return tuple(names), index, tuple(coords), bytes(neighbours), bytes(ray_cells), tuple(ray_start)


CELL_NAMES, _INDEX, COORDS, NEIGHBOURS, RAY_CELLS, RAY_START = _build()
del _build

CENTRE = _INDEX[(4, 5)]
OUTER_RING = tuple(c for c in range(CELLS) if COORDS[c][0] in (0, 8) or
                   COORDS[c][1] in (_first(COORDS[c][0]), _last(COORDS[c][0])))
INNER_AREA = tuple(c for c in range(CELLS) if c not in OUTER_RING)
# 1 where a disk lets captives be released (outer area or centre), else 0.
OUTER_OR_CENTRE = bytes(1 if c in OUTER_RING or c == CENTRE else 0 for c in range(CELLS))
IS_OUTER = bytes(1 if c in OUTER_RING else 0 for c in range(CELLS))


def parse_cell(name):
    """'E5' -> 30. Lower case is accepted; raises InvalidCellError."""
    text = name.strip().upper() if isinstance(name, str) else ""
    if len(text) == 2 and text[0] in ROWS and "1" <= text[1] <= "9":
        cell = _INDEX.get((ROWS.index(text[0]), int(text[1])))
        if cell is not None:
            return cell
    raise InvalidCellError("not a cell of the board: %r (cells are A1-A5 ... I5-I9)" % (name,))


def cell_name(cell):
    """30 -> 'E5'; raises InvalidCellError for anything but an int 0-60."""
    if isinstance(cell, int) and 0 <= cell < CELLS:
        return CELL_NAMES[cell]
    raise InvalidCellError("not a cell index: %r (cells are 0-60)" % (cell,))


def neighbour(cell, direction):
    """The adjacent cell in `direction` (0-5), or None at the edge."""
    nxt = NEIGHBOURS[cell * 6 + direction]
    return None if nxt == NO_CELL else nxt


def ray(cell, direction):
    """The cells from `cell` (excluded) to the edge in `direction`, nearest first."""
    k = cell * 6 + direction
    return RAY_CELLS[RAY_START[k]:RAY_START[k + 1]]
