"""Io (../shared/rules/io-rules.txt) on a 7x7 or 9x9 board, as read by docs/rules.md ("Io").

Black is dark, White is light; cells are named a1-g7 / a1-i9 (squaregrid). Each placement is
one push and `turn` names who places next, so in the opening the same side places twice.
`phase` says what the next placement is:
- FIRST: White places one stone anywhere on the empty board (a corner included);
- BOUND: a stone on an empty cell next to (straight or diagonally) `anchor`, the opponent's
  last stone (White's first stone or the opponent's last free stone);
- FREE: the same player's second stone, on a non-corner cell whose neighbours on the board are
  all empty. After every bound stone the board looks for a free cell: if none is left the
  bound player's turn ends there and the opponent begins the single-placement phase;
- SINGLE: one stone on any empty cell, corners included, until the board is full.
Enclosed opponent lines in the 8 directions are turned over, as in Othello, but a placement
that encloses nothing is legal too (a free stone never encloses: its neighbours are empty).
Most stones wins; both boards have an odd number of cells, so there are no draws.

The position text ends with one phase field: `first`, `bound=<cell>` (the stone the bound
placement must touch), `free` or `single`; the 9x9 start is `9/9/9/9/9/9/9/9/9 L first`.
A text is refused when no game reaches its phase: `first` on a board that is not empty or
with Black to move, `bound=` on a cell that is not the opponent's stone or that has a stone
next to it (the first or a free stone has none, and the bound stone comes next), `free` with
no free cell left. So a bound placement is always possible, and it never encloses the stone it
touches.
"""

from iago import countgame, squaregrid
from iago.core import DARK, EMPTY, LIGHT, perft  # noqa: F401  (perft re-exported: iogame.perft)
from iago.core import InvalidCellError, InvalidPositionError, InvalidRulesError

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

GAME = "io"
TITLE = "Io"
SIDE_NAMES = {DARK: "black", LIGHT: "white"}
NONE = const(255)       # no anchor (outside the bound phase)
# Phases, as kept in undo records.
FIRST = const(0)
BOUND = const(1)
FREE = const(2)
SINGLE = const(3)
PHASE_NAMES = ("first", "bound", "free", "single")
STARTING_TEXT = "9/9/9/9/9/9/9/9/9 L first"
# perft(board, depth), from core, counts move sequences; Io has no passes, so every
# placement, bound or free, is one ply.

_SIZES = {"9x9": 9, "7x7": 7}
_NON_CORNERS = {}       # size -> bytes of the cells a free stone may take


def _non_corners(grid):
    cells = _NON_CORNERS.get(grid.size)
    if cells is None:
        corners = grid.CORNERS
        cells = _NON_CORNERS[grid.size] = bytes(
            c for c in range(grid.CELLS) if c != corners[0] and c != corners[1] and
            c != corners[2] and c != corners[3])
    return cells


class Rules:
    """The board size: '9x9' (the rule text's diagram, the default) or '7x7' (for beginners)."""

    VARIANTS = ("9x9", "7x7")
    penalty = False

    def __init__(self, variant="9x9"):
        if not isinstance(variant, str) or variant not in _SIZES:
            raise InvalidRulesError("unknown rules %r (known: 9x9, 7x7)" % (variant,))
        self.variant = variant
        self.size = _SIZES[variant]

    @classmethod
    def parse(cls, name):
        """'9x9' or '7x7', any case; raises InvalidRulesError naming anything else."""
        key = name.strip().lower() if isinstance(name, str) else ""
        if key not in _SIZES:
            raise InvalidRulesError("unknown rules %r (known: 9x9, 7x7)" % (name,))
        return cls(key)

    def name(self):
        return self.variant

    def __eq__(self, other):
        return isinstance(other, Rules) and other.variant == self.variant

    def __repr__(self):
        return "Rules(%r)" % self.variant


def _is_free(cells, nb, cell):
    """A free placement's cell: empty, and its neighbours on the board are all empty."""
    if cells[cell] != EMPTY:
        return False
    base = cell * 8
    for d in range(8):
        x = nb[base + d]
        if x != NONE and cells[x] != EMPTY:
            return False
    return True


class Board(countgame.CountBoard):
    GAME = GAME
    SIDE_NAMES = SIDE_NAMES
    STATE_BYTES = 3   # an undo record keeps the turn, the phase and the anchor before

    def __init__(self, text=None, rules=None):
        self.phase = FIRST
        self.anchor = NONE
        countgame.CountBoard.__init__(self, text, rules)

    @classmethod
    def default_rules(cls):
        return Rules()

    @classmethod
    def grid_for(cls, rules):
        return squaregrid.grid(rules.size)

    def starting_text(self):
        n = self.grid.size
        return "/".join([str(n)] * n) + " L first"

    # --- moves ---------------------------------------------------------------------------

    def _generate(self):
        cells = self.cell_states
        phase = self.phase
        if phase == BOUND:
            nb = self.grid.NEIGHBOURS
            base = self.anchor * 8
            out = []
            for d in range(8):
                x = nb[base + d]
                if x != NONE and cells[x] == EMPTY:
                    out.append(x)
            out.sort()
            return out
        if phase == FREE:
            return self.free_cells()
        return [c for c in range(len(cells)) if cells[c] == EMPTY]

    def _flips(self, cell):
        return countgame.enclosed(self.cell_states, self.grid.NEIGHBOURS, 8, cell, self.turn)

    def free_cells(self):
        """The cells a free placement could take now (never a corner), in cell order."""
        cells = self.cell_states
        nb = self.grid.NEIGHBOURS
        return [c for c in _non_corners(self.grid) if _is_free(cells, nb, c)]

    def _any_free(self):
        cells = self.cell_states
        nb = self.grid.NEIGHBOURS
        for c in _non_corners(self.grid):
            if _is_free(cells, nb, c):
                return True
        return False

    def _advance(self, cell):
        phase = self.phase
        if phase == FIRST or phase == FREE:
            # The opponent's bound stone must touch this one.
            self.phase = BOUND
            self.anchor = cell
            self.turn ^= 3
        elif phase == BOUND:
            self.anchor = NONE
            if self._any_free():
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

    def is_game_over(self):
        """The game ends when the board is full (only the single-placement phase can fill it)."""
        return self.phase == SINGLE and not self._legal()

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
            self.phase = BOUND
        elif word in ("first", "free", "single"):
            self.phase = PHASE_NAMES.index(word)
        else:
            raise InvalidPositionError("unknown phase %r (first, bound=<cell>, free, single)"
                                       % (word,))

    def _after_setup(self):
        """Refuse a phase that could not be played (none of these arises in a game)."""
        phase = self.phase
        word = self._fields()[1:]
        if phase == FIRST:
            if any(self.cell_states):
                raise InvalidPositionError("%s: the first stone goes on the empty board" % word)
            if self.turn != LIGHT:
                raise InvalidPositionError("%s: White places the first stone (side L)" % word)
        elif phase == BOUND:
            if self.cell_states[self.anchor] != self.turn ^ 3:
                raise InvalidPositionError("%s: the bound stone must touch the opponent's last "
                                           "stone, and %s holds none" % (word, word[6:]))
            # The opponent's last stone was the first or a free one, placed with all its
            # neighbours empty, and nothing has been placed since.
            nb = self.grid.NEIGHBOURS
            for d in range(8):
                x = nb[self.anchor * 8 + d]
                if x != NONE and self.cell_states[x] != EMPTY:
                    raise InvalidPositionError(
                        "%s: the opponent's last stone was placed first or free, so its "
                        "neighbours are empty, but %s is not" % (word, self.grid.cell_name(x)))
        elif phase == FREE and not self._any_free():
            raise InvalidPositionError("free: no cell is free (every empty cell touches a "
                                       "stone or is a corner)")


def new_board(rules=None):
    return Board(None, rules)
