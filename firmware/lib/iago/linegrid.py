"""Geometry of a number line: `marks` marks numbered from `first` (20-29 by default).

Cells are ints 0..marks-1 from the lowest number; names are the mark numbers ("20").
Nothing here knows the rules of a game.
"""

from iago.errors import InvalidCellError

FIRST = 20
MARKS = 10


class Line:
    def __init__(self, first=FIRST, marks=MARKS):
        if not 2 <= marks <= 30 or first < 0:
            raise ValueError("a number line has 2-30 marks from 0 up")
        self.first = first
        self.size = marks
        self.CELLS = marks

    def parse_cell(self, name):
        """'23' -> 3 on the line 20-29; raises InvalidCellError."""
        text = name.strip() if isinstance(name, str) else ""
        if text.isdigit():
            cell = int(text) - self.first
            if 0 <= cell < self.CELLS:
                return cell
        raise InvalidCellError("not a mark of the number line: %r (marks are %d-%d)" % (
            name, self.first, self.first + self.CELLS - 1))

    def cell_name(self, cell):
        if isinstance(cell, int) and 0 <= cell < self.CELLS:
            return str(self.first + cell)
        raise InvalidCellError("not a mark index: %r (marks are 0-%d)" % (cell, self.CELLS - 1))

    def midpoint(self, a, b):
        """The cell exactly halfway between cells a and b, or None when there is none."""
        if (a + b) % 2 or abs(a - b) < 2:
            return None
        return (a + b) // 2


LINE = Line()
