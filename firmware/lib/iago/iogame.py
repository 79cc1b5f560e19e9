"""Io (../shared/rules/io-rules.txt) on a 7x7 or 9x9 board, as read by docs/rules.md.

Black is dark, White is light; cells are named a1-g7 / a1-i9 (squaregrid). Each placement is
one push and `turn` names who places next, so in the opening the same side places twice:
- first: White places one stone anywhere on the empty board;
- then, turn by turn, a bound stone on a cell next to (straight or diagonally) the opponent's
  last stone, then a free stone on a non-corner cell whose neighbours are all empty;
- when, after the bound stone, no free placement is possible, the turn ends and the opponent
  begins the single-placement phase: one stone on any empty cell, corners included.
Enclosed opponent lines in the 8 directions are turned over, as in Othello, but a placement
that encloses nothing is legal too. The game ends when the board is full; most stones wins
(both boards have an odd number of cells, so there are no draws).

The position text ends with the phase: `first`, `bound=<cell>` (the opponent's last stone,
which the bound stone must touch), `free`, or `single`.
"""

import iago
from iago import countgame, squaregrid
from iago.errors import InvalidCellError, InvalidPositionError
from iago.rules import DARK, EMPTY, LIGHT

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

GAME = "io"
TITLE = "Io"
SIDE_NAMES = {DARK: "black", LIGHT: "white"}
NONE = const(255)
# Phases, as stored in undo records.
FIRST = const(0)
BOUND = const(1)
FREE = const(2)
SINGLE = const(3)
PHASE_NAMES = ("first", "bound", "free", "single")
perft = iago.perft


class Rules(countgame.SimpleRules):
    VARIANTS = ("9x9", "7x7")

    def size(self):
        return int(self.variant[0])


STARTING_TEXT = "9/9/9/9/9/9/9/9/9 L first"


def _is_free(cells, nb, cell):
    """A free placement: an empty cell whose neighbours on the board are all empty."""
    if cells[cell] != EMPTY:
        return False
    base = cell * 8
    for d in range(8):
        x = nb[base + d]
        if x != 255 and cells[x] != EMPTY:
            return False
    return True


class Board(countgame.CountBoard):
    GAME = GAME
    SIDE_NAMES = SIDE_NAMES
    STATE_BYTES = 3   # turn, phase, the stone a bound placement must touch

    def __init__(self, text=None, rules=None):
        self.phase = FIRST
        self.anchor = NONE
        countgame.CountBoard.__init__(self, text, rules)

    @classmethod
    def default_rules(cls):
        return Rules()

    @classmethod
    def grid_for(cls, rules):
        return squaregrid.grid(rules.size())

    def starting_text(self):
        n = self.grid.size
        return "/".join([str(n)] * n) + " L first"

    # --- moves ---------------------------------------------------------------------------

    def _generate(self):
        cells = self._cells
        grid = self.grid
        nb = grid.NEIGHBOURS
        phase = self.phase
        if phase == BOUND:
            out = []
            base = self.anchor * 8
            for d in range(8):
                x = nb[base + d]
                if x != 255 and cells[x] == EMPTY:
                    out.append(x)
            out.sort()
            return out
        if phase == FREE:
            corners = grid.CORNERS
            return [c for c in range(grid.CELLS) if c not in corners and _is_free(cells, nb, c)]
        return [c for c in range(grid.CELLS) if cells[c] == EMPTY]

    def _flips(self, cell):
        return countgame.enclosed(self._cells, self.grid.NEIGHBOURS, 8, cell, self.turn)

    def free_cells(self):
        """The cells a free placement could take now (corners excluded)."""
        cells = self._cells
        grid = self.grid
        return [c for c in range(grid.CELLS)
                if c not in grid.CORNERS and _is_free(cells, grid.NEIGHBOURS, c)]

    def _advance(self, cell):
        phase = self.phase
        if phase == FIRST or phase == FREE:
            self.phase = BOUND
            self.anchor = cell
            self.turn ^= 3
        elif phase == BOUND:
            self.anchor = NONE
            if self.free_cells():
                self.phase = FREE
            else:
                # No free placement left: the turn ends, the opponent begins the last phase.
                self.phase = SINGLE
                self.turn ^= 3
        else:
            self.turn ^= 3

    def _state(self):
        return (self.turn, self.phase, self.anchor)

    def _set_state(self, state):
        self.turn = state[0]
        self.phase = state[1]
        self.anchor = state[2]

    # --- position text ---------------------------------------------------------------------

    def _fields(self):
        if self.phase == BOUND:
            return " bound=" + self.grid.cell_name(self.anchor)
        return " " + PHASE_NAMES[self.phase]

    def _parse_fields(self, fields):
        if len(fields) != 1:
            raise InvalidPositionError("an Io position ends with one phase field (first, "
                                       "bound=<cell>, free or single), not %r" % " ".join(fields))
        word = fields[0]
        self.anchor = NONE
        if word.startswith("bound="):
            try:
                self.anchor = self.grid.parse_cell(word[6:])
            except InvalidCellError as exc:
                raise InvalidPositionError("%s: %s" % (word, exc))
            if self._cells[self.anchor] != self.turn ^ 3:
                raise InvalidPositionError("%s: the bound stone must touch a stone of the "
                                           "opponent's, and %s holds none" % (word, word[6:]))
            self.phase = BOUND
        elif word in ("first", "free", "single"):
            self.phase = PHASE_NAMES.index(word)
        else:
            raise InvalidPositionError("unknown phase %r (first, bound=<cell>, free, single)"
                                       % (word,))
        if self.phase == FIRST and any(self._cells):
            raise InvalidPositionError("phase 'first' needs the empty board")


def new_board(rules=None):
    return Board(None, rules)
