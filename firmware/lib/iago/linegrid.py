"""Geometry of a number line: `marks` marks numbered from `first` (20-29 by default).

Cells are ints 0..marks-1 from the lowest number; names are the mark numbers ("20"), written
in ASCII digits without a sign or leading zero. Nothing here knows the rules of a game.
"""

from iago.core import InvalidCellError

FIRST = 20
MARKS = 10
NONE = 255          # no midpoint in MIDPOINTS

_DIGITS = "0123456789"


class Line:
    def __init__(self, first=FIRST, marks=MARKS):
        if not 2 <= marks <= 30 or first < 0:
            raise ValueError("a number line has 2-30 marks from 0 up")
        self.first = first
        self.size = marks
        self.CELLS = marks
        # MIDPOINTS[a * marks + b]: the cell exactly halfway between cells a and b, or NONE
        # (a and b an odd distance apart, or less than two apart).
        table = bytearray(marks * marks)
        for a in range(marks):
            for b in range(marks):
                table[a * marks + b] = NONE if (a + b) % 2 or abs(a - b) < 2 else (a + b) // 2
        self.MIDPOINTS = bytes(table)

    def parse_cell(self, name):
        """'23' -> 3 on the line 20-29; raises InvalidCellError naming `name`."""
        text = name.strip() if isinstance(name, str) else ""
        ok = text != "" and len(text) <= 4 and not (text[0] == "0" and len(text) > 1)
        for ch in text:
            if ch not in _DIGITS:
                ok = False
        if ok:
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
        mid = self.MIDPOINTS[a * self.CELLS + b]
        return None if mid == NONE else mid


LINE = Line()
