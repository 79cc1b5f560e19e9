"""Geometry of a square board (7x7, 8x8, 9x9), precomputed into flat byte tables.

Cells are ints 0..size*size-1, row by row from rank 1 (the near side) and file a upwards:
a1, b1, ..., then a2, ... Names are as in Othello notation: a file letter and a rank number.
Nothing here knows the rules of a game; one Grid object per size is built once and shared.
"""

from iago.core import InvalidCellError

NO_CELL = 255
FILES = "abcdefghi"
# Directions as (file step, rank step); direction d and (d + 4) % 8 are opposite.
DIRECTIONS = ((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1))


class Grid:
    """A size x size board: NEIGHBOURS[cell * 8 + d] is the cell next to `cell` in direction
    d, or NO_CELL at the edge."""

    DIRECTIONS = 8

    def __init__(self, size):
        if not 3 <= size <= 9:
            raise ValueError("square boards are 3x3 to 9x9, not %dx%d" % (size, size))
        self.size = size
        self.CELLS = size * size
        self.NEIGHBOURS = bytes(self.cell_at(c % size + df, c // size + dr)
                                for c in range(self.CELLS) for df, dr in DIRECTIONS)
        last = size - 1
        self.CORNERS = (0, last, last * size, last * size + last)

    def cell_at(self, file, rank):
        """The cell at file 0..size-1 and rank 0..size-1, or NO_CELL off the board."""
        if 0 <= file < self.size and 0 <= rank < self.size:
            return rank * self.size + file
        return NO_CELL

    def parse_cell(self, name):
        """'d3' -> 19 on 8x8. Upper case is accepted; raises InvalidCellError."""
        text = name.strip().lower() if isinstance(name, str) else ""
        if len(text) == 2 and text[0] in FILES and "1" <= text[1] <= "9":
            cell = self.cell_at(FILES.index(text[0]), int(text[1]) - 1)
            if cell != NO_CELL:
                return cell
        raise InvalidCellError("not a cell of the %dx%d board: %r (cells are a1-%s%d)" % (
            self.size, self.size, name, FILES[self.size - 1], self.size))

    def cell_name(self, cell):
        """19 -> 'd3' on 8x8; raises InvalidCellError for anything but a cell index."""
        if isinstance(cell, int) and 0 <= cell < self.CELLS:
            return FILES[cell % self.size] + str(cell // self.size + 1)
        raise InvalidCellError("not a cell index: %r (cells are 0-%d)" % (cell, self.CELLS - 1))

    def neighbour(self, cell, direction):
        """The adjacent cell in `direction` (0-7), or None at the edge."""
        nxt = self.NEIGHBOURS[cell * 8 + direction]
        return None if nxt == NO_CELL else nxt


_GRIDS = {}


def grid(size):
    """The shared Grid of `size` (built on first use)."""
    g = _GRIDS.get(size)
    if g is None:
        g = _GRIDS[size] = Grid(size)
    return g
