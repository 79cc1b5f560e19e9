"""The number-line game (../shared/rules/number-line-iago.txt), as read by docs/rules.md.

Ten marks, 20 to 29 (cells 0-9, named by their numbers; linegrid). Player 1's pennies are
dark and place first, player 2's dimes are light. Any empty mark may take a coin. A coin
captures every opponent coin lying exactly halfway between it and a coin of its own already on
the line; captured coins are replaced by the mover's and capture nothing in turn. The game ends
when every mark holds a coin; most coins wins, equal counts tie.

Options, joined with '+' like Iago's rules: `ties-to-2` (a tie goes to player 2) and
`holes=22,26` (black-hole marks where no one may place; a black hole is never halfway to
anything, as it never holds a coin). `standard` is neither. Black holes show as `X` in the
position text, which is the ten marks from 20 to 29 and the side to move: `10 D` at the start.
"""

import iago
from iago import countgame, linegrid
from iago.errors import InvalidPositionError, InvalidRulesError
from iago.rules import DARK, EMPTY, LIGHT

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

GAME = "numberline"
TITLE = "Number line"
SIDE_NAMES = {DARK: "pennies", LIGHT: "dimes"}
HOLE = const(8)
STARTING_TEXT = "10 D"
LINE = linegrid.LINE
perft = iago.perft


class Rules:
    penalty = False

    def __init__(self, ties_to_second=False, holes=()):
        self.ties_to_second = ties_to_second
        self.holes = tuple(sorted(holes))

    @classmethod
    def parse(cls, name):
        """'standard', 'ties-to-2', 'holes=22,26' or a '+' combination."""
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
                        raise InvalidRulesError("black hole %s" % exc)
                    if cell in holes:
                        raise InvalidRulesError("black hole %s given twice" % mark)
                    holes.append(cell)
                if len(holes) > LINE.CELLS - 2:
                    raise InvalidRulesError("%r leaves fewer than two marks to play on" % part)
            else:
                raise InvalidRulesError("unknown or repeated option %r in %r (options: standard, "
                                        "ties-to-2, holes=<marks>)" % (part, name))
        return cls(ties, holes or ())

    def name(self):
        parts = []
        if self.ties_to_second:
            parts.append("ties-to-2")
        if self.holes:
            parts.append("holes=" + ",".join(LINE.cell_name(c) for c in self.holes))
        return "+".join(parts) or "standard"

    def __eq__(self, other):
        return isinstance(other, Rules) and other.name() == self.name()

    def __ne__(self, other):
        return not self == other

    def __repr__(self):
        return "Rules(%r)" % self.name()


class Board(countgame.CountBoard):
    GAME = GAME
    SIDE_NAMES = SIDE_NAMES
    EXTRA_CHARS = {HOLE: "X"}

    @classmethod
    def default_rules(cls):
        return Rules()

    @classmethod
    def grid_for(cls, rules):
        return LINE

    def starting_text(self):
        row = ""
        empty = 0
        for c in range(LINE.CELLS):
            if c in self.rules.holes:
                row += (str(empty) if empty else "") + "X"
                empty = 0
            else:
                empty += 1
        return row + (str(empty) if empty else "") + " D"

    def _rows(self):
        return [range(LINE.CELLS)]

    def _generate(self):
        cells = self._cells
        return [c for c in range(LINE.CELLS) if cells[c] == EMPTY]

    def _flips(self, cell):
        cells = self._cells
        me = self.turn
        opp = me ^ 3
        out = []
        for own in range(LINE.CELLS):
            if cells[own] == me and (own + cell) % 2 == 0:
                mid = (own + cell) // 2
                if cells[mid] == opp:
                    out.append(mid)
        out.sort()
        return out

    def _after_setup(self):
        for c in range(LINE.CELLS):
            if (self._cells[c] == HOLE) != (c in self.rules.holes):
                raise InvalidPositionError("mark %s: the position and the rules (%s) disagree "
                                           "about black holes" % (LINE.cell_name(c), self.rules.name()))

    def _tie_winner(self):
        return LIGHT if self.rules.ties_to_second else EMPTY


def new_board(rules=None):
    return Board(None, rules)
