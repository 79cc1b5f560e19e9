"""The number-line game (../shared/rules/number-line-iago.txt), as read by docs/rules.md.

Ten marks, 20 to 29 (cells 0-9, named by their numbers; linegrid). Player 1's pennies are
dark and place first, player 2's dimes are light. Any empty mark may take a coin. A coin
captures every opponent coin lying exactly halfway between it and a coin of its own already on
the line; captured coins are replaced by the mover's and capture nothing in turn. The game ends
when every mark holds a coin; most coins wins, equal counts tie.

Options, joined with '+' like Iago's rules: `ties-to-2` (a tie goes to player 2) and
`holes=22,26` (black-hole marks where no one may place). `standard` is neither. Halfway is
arithmetic: a black hole between two coins does not stop a capture, and a black hole is never
captured, as it never holds a coin. A black hole is the cell value HOLE (8) in `cell_states` and
`X` in the position text, which is the ten marks from 20 to 29 and the side to move: `10 D`
at the start, `2X3X3 D` with holes on 22 and 26.
"""

from iago import countgame, linegrid
from iago.core import DARK, EMPTY, LIGHT, perft  # noqa: F401  (perft re-exported: numberline.perft)
from iago.core import InvalidPositionError, InvalidRulesError

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

GAME = "numberline"
TITLE = "Number line"
SIDE_NAMES = {DARK: "pennies", LIGHT: "dimes"}
HOLE = const(8)         # a black hole's value in Board.cell_states
HOLE_CHAR = "X"         # and its character in the position text
STARTING_TEXT = "10 D"
LINE = linegrid.LINE
_MARKS = const(10)
_MIDPOINTS = LINE.MIDPOINTS
_NONE = const(255)      # linegrid.NONE: no midpoint


class Rules:
    """`ties_to_second` (a tie goes to player 2) and `holes` (black-hole cells, sorted)."""

    penalty = False

    def __init__(self, ties_to_second=False, holes=()):
        holes = tuple(sorted(holes))
        for i in range(len(holes)):
            if not isinstance(holes[i], int) or not 0 <= holes[i] < LINE.CELLS:
                raise InvalidRulesError("black hole %r is not a mark index 0-%d"
                                        % (holes[i], LINE.CELLS - 1))
            if i and holes[i] == holes[i - 1]:
                raise InvalidRulesError("black hole %s given twice" % LINE.cell_name(holes[i]))
        if LINE.CELLS - len(holes) < 2:
            raise InvalidRulesError("black holes %s leave %d mark(s) to play on; each player "
                                    "needs at least one" % (
                                        ",".join(LINE.cell_name(c) for c in holes),
                                        LINE.CELLS - len(holes)))
        self.ties_to_second = bool(ties_to_second)
        self.holes = holes

    @classmethod
    def parse(cls, name):
        """'standard', 'ties-to-2', 'holes=22,26' or a '+' combination of them."""
        if not isinstance(name, str) or not name.strip():
            raise InvalidRulesError("rules name must be a non-empty string, not %r" % (name,))
        ties = False
        holes = None
        for part in name.strip().lower().split("+"):
            if part == "standard":
                continue
            if part == "ties-to-2" and not ties:
                ties = True
            elif part.startswith("holes=") and holes is None:
                holes = []
                for mark in part[6:].split(","):
                    try:
                        cell = LINE.parse_cell(mark)
                    except ValueError as exc:
                        raise InvalidRulesError("black hole %s in %r" % (exc, name))
                    if cell in holes:
                        raise InvalidRulesError("black hole %s given twice in %r" % (mark, name))
                    holes.append(cell)
            else:
                raise InvalidRulesError("unknown or repeated option %r in %r (options: standard, "
                                        "ties-to-2, holes=<marks>)" % (part, name))
        return cls(ties, holes or ())

    def name(self):
        """The canonical name, which `parse` reads back to equal rules."""
        parts = []
        if self.ties_to_second:
            parts.append("ties-to-2")
        if self.holes:
            parts.append("holes=" + ",".join(LINE.cell_name(c) for c in self.holes))
        return "+".join(parts) or "standard"

    def __eq__(self, other):
        return isinstance(other, Rules) and other.name() == self.name()

    def __repr__(self):
        return "Rules(%r)" % self.name()


class Board(countgame.CountBoard):
    GAME = GAME
    SIDE_NAMES = SIDE_NAMES
    EXTRA_CHARS = {HOLE: HOLE_CHAR}
    KIND = "line"

    @classmethod
    def default_rules(cls):
        return Rules()

    @classmethod
    def grid_for(cls, rules):
        return LINE

    def starting_text(self):
        """Every mark empty but the black holes, pennies to place."""
        self.cell_states[:] = bytes(_MARKS)
        for c in self.rules.holes:
            self.cell_states[c] = HOLE
        self.turn = DARK
        return self.text()

    def _rows(self):
        return [range(_MARKS)]

    def _generate(self):
        cells = self.cell_states
        return [c for c in range(_MARKS) if cells[c] == EMPTY]

    def _flips(self, cell):
        """The opponent coins halfway between `cell` and a coin of the mover, in mark order."""
        cells = self.cell_states
        me = self.turn
        opp = me ^ 3
        base = cell * _MARKS
        out = []
        for own in range(_MARKS):
            mid = _MIDPOINTS[base + own]
            if mid != _NONE and cells[own] == me and cells[mid] == opp:
                out.append(mid)     # in mark order, as mid grows with own
        return out

    def _after_setup(self):
        for c in range(_MARKS):
            if (self.cell_states[c] == HOLE) != (c in self.rules.holes):
                raise InvalidPositionError("mark %s: the position and the rules (%s) disagree "
                                           "about black holes"
                                           % (LINE.cell_name(c), self.rules.name()))

    def _tie_winner(self):
        return LIGHT if self.rules.ties_to_second else EMPTY


def new_board(rules=None):
    return Board(None, rules)
