"""Geometry of the 61-hex board, precomputed at import into flat byte tables.

Cells are ints 0-60 in name order (A1..A5, B1..B6, ..., I5..I9); names appear only at the
edges through `parse_cell` and `cell_name`. Nothing here knows the rules of a game. The tables
are bytes, not tuples or dicts, because on a Pico every object costs heap (about 1 KB here
against 10 KB for the same tables as tuples of tuples).
"""

from iago.core import InvalidCellError

CELLS = 61
ROWS = "ABCDEFGHI"
NO_CELL = 255

# Directions as (row step, number step); direction d and (d + 3) % 6 are opposite.
DIRECTIONS = ((0, 1), (1, 1), (1, 0), (0, -1), (-1, -1), (-1, 0))


def first_number(row):
    """The lowest number in row 0-8 (A-I)."""
    return 1 if row < 4 else row - 3


def last_number(row):
    return 9 if row > 4 else row + 5


# ROW_START[row] is the first cell of row 0-8; ROW_START[9] == CELLS.
ROW_START = bytes([0, 5, 11, 18, 26, 35, 43, 50, 56, 61])
ROW_OF = bytes(r for r in range(9) for _ in range(ROW_START[r + 1] - ROW_START[r]))
NUMBER_OF = bytes(first_number(ROW_OF[c]) + c - ROW_START[ROW_OF[c]] for c in range(CELLS))


def cell_at(row, number):
    """The cell at row 0-8 and number 1-9, or NO_CELL off the board."""
    if 0 <= row < 9 and first_number(row) <= number <= last_number(row):
        return ROW_START[row] + number - first_number(row)
    return NO_CELL


# NEIGHBOURS[cell * 6 + d]: the adjacent cell in direction d, or NO_CELL at the edge.
NEIGHBOURS = bytes(cell_at(ROW_OF[c] + DIRECTIONS[d][0], NUMBER_OF[c] + DIRECTIONS[d][1])
                   for c in range(CELLS) for d in range(6))

CENTRE = cell_at(4, 5)
# 1 for the outer ring: rows A and I and both ends of every row.
IS_OUTER = bytes(1 if ROW_OF[c] in (0, 8) or NUMBER_OF[c] == first_number(ROW_OF[c]) or
                 NUMBER_OF[c] == last_number(ROW_OF[c]) else 0 for c in range(CELLS))
# 1 where a disk lets captives be released (outer area or centre), else 0.
OUTER_OR_CENTRE = bytes(1 if IS_OUTER[c] or c == CENTRE else 0 for c in range(CELLS))
OUTER_RING = bytes(c for c in range(CELLS) if IS_OUTER[c])
INNER_AREA = bytes(c for c in range(CELLS) if not IS_OUTER[c])


def parse_cell(name):
    """'E5' -> 30. Lower case is accepted; raises InvalidCellError."""
    text = name.strip().upper() if isinstance(name, str) else ""
    if len(text) == 2 and text[:1] in ROWS and "1" <= text[1:] <= "9":
        cell = cell_at(ROWS.index(text[:1]), int(text[1:]))
        if cell != NO_CELL:
            return cell
    raise InvalidCellError("not a cell of the board: %r (cells are A1-A5 ... I5-I9)" % (name,))


def cell_name(cell):
    """30 -> 'E5'; raises InvalidCellError for anything but an int 0-60."""
    if isinstance(cell, int) and 0 <= cell < CELLS:
        row = ROW_OF[cell]
        # A slice, not ROWS[row]: MicroPython interns a one-character string got by index.
        return ROWS[row:row + 1] + str(NUMBER_OF[cell])
    raise InvalidCellError("not a cell index: %r (cells are 0-60)" % (cell,))


def row_cells(row):
    """The cells of row 0-8 (A-I), lowest number first."""
    return range(ROW_START[row], ROW_START[row + 1])


def neighbour(cell, direction):
    """The adjacent cell in `direction` (0-5), or None at the edge."""
    nxt = NEIGHBOURS[cell * 6 + direction]
    return None if nxt == NO_CELL else nxt
