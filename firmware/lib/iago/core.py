"""What every game of the family uses: the sides and a cell's empty, dark or light byte, the
result as data (`Outcome`), the legal-move view (`LegalMoves`), `perft`, `side_name`, and the
errors raised for bad input (`IagoError` and its kinds; each message names the offending
token).

Iago's `rules.Board` and the other games' `countgame.CountBoard` both use them, so a board
playing another game never loads Iago's rules.
"""

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

EMPTY = const(0)
DARK = const(1)
LIGHT = const(2)
_TYPE_CHECKING = const(0)   # see iago/__init__.py
if _TYPE_CHECKING:
    from typing import Any

class IagoError(ValueError):
    """Base class of every error raised for bad input."""


class InvalidCellError(IagoError):
    """A cell name or index that is not on the board."""


class InvalidPositionError(IagoError):
    """Position text that cannot be read."""


class InvalidRulesError(IagoError):
    """A rules name that is unknown or combines flags that do not go together."""


class IllegalMoveError(IagoError):
    """A placement the rules do not allow in this position."""


class InvalidRecordError(IagoError):
    """A game record that cannot be read or replayed."""


# Outcome.scoring of a game won by the most disks (Iago's simple rules and the other games).
COUNT = "count"

_SIDE_NAMES = {EMPTY: "draw", DARK: "dark", LIGHT: "light"}


def side_name(side):
    """'dark' or 'light'; 'draw' for an Outcome's winner 0 (games that can be drawn)."""
    return _SIDE_NAMES[side]


def row_text(cells, row, chars):
    """One row of position text: the character of each cell in `row` (`chars` maps a cell
    state to it), and a run of empty cells as its count."""
    out = ""
    empty = 0
    for c in row:
        v = cells[c]
        if v == EMPTY:
            empty += 1
            continue
        if empty:
            out += str(empty)
            empty = 0
        out += chars[v]
    if empty:
        out += str(empty)
    return out


class BoardBase:
    """What the boards of every game share: views of the move stack and checked placements.
    A board holds `_stack` (undo records, each starting with the placed cell), `grid` (its
    geometry: parse_cell, cell_name), `turn`, and `_legal()`, `is_game_over()`, `push()`."""

    SIDE_NAMES = {DARK: "dark", LIGHT: "light"}   # the sides as this game's messages name them

    if _TYPE_CHECKING:   # a board's own parts, for type checkers; a Pico never runs this
        _stack: Any      # a list of records, or rules.Board's records back to back
        turn: int

        def _legal(self): ...

        def is_game_over(self): ...

        def push(self, cell): ...

    @property
    def move_stack(self):
        """The cells placed on so far, in order."""
        return [record[0] for record in self._stack]

    def ply(self):
        """How many placements have been made."""
        return len(self._stack)

    def peek(self):
        """The last placement's cell, or None."""
        return self._stack[-1][0] if self._stack else None

    def _split_text(self, text):
        """(fields, rows) of position text: its words, and its first word's rows; raises
        InvalidPositionError for text without rows and a side to move."""
        if not isinstance(text, str):
            raise InvalidPositionError("position text must be a string, not %r" % (text,))
        fields = text.split()
        if len(fields) < 2:
            raise InvalidPositionError("position needs rows and side to move: %r" % (text,))
        return fields, fields[0].split("/")

    def parse_move(self, move):
        """A cell index or name -> the cell, if legal; raises IllegalMoveError naming it."""
        grid = self.grid  # type: ignore[attr-defined]  # each board's geometry module
        cell = grid.parse_cell(move) if isinstance(move, str) else move
        name = grid.cell_name(cell)
        if cell not in self._legal():
            if self.is_game_over():
                raise IllegalMoveError("%s: the game is over" % name)
            legal = " ".join(grid.cell_name(c) for c in self._legal())
            held = self.cell_states[cell]  # type: ignore[attr-defined]  # each board's
            side = self.SIDE_NAMES.get(held & 3)
            if side:
                # A disk is there: say so, not merely that the rules refuse it (bit 2: Iago's
                # captive, whose low bits are its hidden colour).
                raise IllegalMoveError("%s is taken, by %s; legal: %s" % (
                    name, "a captive" if held & 4 else side, legal))
            raise IllegalMoveError("%s is not a legal move for %s; legal: %s" % (
                name, self.SIDE_NAMES[self.turn], legal))
        return cell

    def play(self, move):
        """Check and push a move given as a cell or a name; returns the placed cell."""
        cell = self.parse_move(move)
        self.push(cell)
        return cell


class Outcome:
    """The result of a finished game, as data."""

    def __init__(self, winner, dark_score, light_score, scoring, tie_break=None):
        self.winner = winner
        self.dark_score = dark_score
        self.light_score = light_score
        self.scoring = scoring
        self.tie_break = tie_break

    def result(self):
        """'1-0' when dark wins, '0-1' when light wins, '1/2-1/2' for a draw (other games)."""
        if self.winner == EMPTY:
            return "1/2-1/2"
        return "1-0" if self.winner == DARK else "0-1"

    def __eq__(self, other):
        return (isinstance(other, Outcome) and self.winner == other.winner and
                self.dark_score == other.dark_score and self.light_score == other.light_score and
                self.scoring == other.scoring and self.tie_break == other.tie_break)

    def __repr__(self):
        return "Outcome(winner=%s, dark=%d, light=%d, scoring=%s, tie_break=%r)" % (
            _SIDE_NAMES[self.winner], self.dark_score, self.light_score, self.scoring,
            self.tie_break)


class LegalMoves:
    """A cheap view of the placements the board accepts now, in cell order."""

    def __init__(self, board):
        self.board = board

    def __iter__(self):
        return iter(self.board._legal())

    def __len__(self):
        return len(self.board._legal())

    count = __len__

    def __contains__(self, cell):
        return cell in self.board._legal()

    def __bool__(self):
        return bool(self.board._legal())

    def __repr__(self):
        return "<LegalMoves %s>" % " ".join(self.board.grid.cell_name(c) for c in self)


def perft(board, depth):
    """The number of leaves `depth` plies ahead of `board`: move sequences of that length.

    A ply is a placement or a forced pass, as in the published Othello counts (perft(9) from
    the start is 3,005,288); a board passes by itself, so after a placement that made the
    opponent pass (`board.turn` is the mover's again, on a board whose game has passes:
    `PASSES`) the pass takes one ply of its own. A game that ends early is one leaf where it
    ends. Iago, Io and the number line have no passes: there every ply is a placement (Io's
    second placement of a turn included)."""
    if depth == 0 or board.is_game_over():
        return 1
    if depth == 1:
        return board.count_moves()
    total = 0
    if board.PASSES:
        mover = board.turn
        for cell in board._legal():
            board.push(cell)
            # The opponent passed: that is a ply, and the leaf when it is the last one.
            total += perft(board, depth - 2 if board.turn == mover else depth - 1)
            board.pop()
        return total
    for cell in board._legal():
        board.push(cell)
        total += perft(board, depth - 1)
        board.pop()
    return total
