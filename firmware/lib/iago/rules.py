"""The rules of Iago (Kanare Kato) as read by docs/rules.md.

A `Board` holds the disks, the side to move and a stack of small undo records. Cells are ints
0-60 (see hexgrid); a cell's state is one byte: EMPTY, DARK or LIGHT face up, or a captive
(CAPTIVE bit set) whose low bits keep its hidden colour. Capture and release both toggle the
CAPTIVE bit, so an undo record is just the placed cell and the flipped cells.
"""

from iago import hexgrid
from iago.core import (COUNT, DARK, EMPTY, LIGHT, BoardBase, LegalMoves, Outcome,  # noqa: F401
                       row_text, side_name)
from iago.core import IllegalMoveError, InvalidPositionError, InvalidRulesError

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

CAPTIVE = const(4)
DARK_CAPTIVE = const(5)
LIGHT_CAPTIVE = const(6)

GAME = "iago"
TITLE = "Iago"

PRODUCT = "product"

# How the centre decided a tie (Outcome.tie_break).
CENTRE_DISK = "centre disk"
CENTRE_CAPTIVE = "centre captive"

# Private consts are inlined: no global and no interned name on a Pico. hexgrid's tables are
# read through the module (a global alias would cost a name); tests check the numbers.
_CELLS = const(61)
_CENTRE = const(30)     # hexgrid.CENTRE, E5
_NO_CELL = const(255)   # hexgrid.NO_CELL
# The contract of the move generators (iago.movegen and iago.engine keep the same values).
_MOVES = const(122)
_SCRATCH_SIZE = const(183)
_RELEASE_ON = const(4)
_FORCED_CAPTURE = const(8)

try:
    # On MicroPython with a native emitter the viper kernel is chosen (about 20x faster on a
    # Pico); the plain code in movegen stays the reference and the tests cross-check the two.
    from iago._kernel import generate
except (ImportError, SyntaxError):
    from iago.movegen import generate

_DISK_CHARS = {DARK: "D", LIGHT: "L", DARK_CAPTIVE: "d", LIGHT_CAPTIVE: "l"}
_CHAR_DISKS = {"D": DARK, "L": LIGHT, "d": DARK_CAPTIVE, "l": LIGHT_CAPTIVE, ".": EMPTY}

# Penalty state kept between placements (position text's optional third field).
_MISS = const(1)   # the previous placement missed a forced capture; claimable now
_FREE = const(2)   # a claim was granted: the side to move may place on any empty cell
_PENALTY_FIELDS = {"miss": _MISS, "free": _FREE}


def _walk(cell, stop, d, out):
    """Append the cells from `cell` up to `stop` (excluded) in direction d."""
    while cell != stop:
        out.append(cell)
        cell = hexgrid.NEIGHBOURS[cell * 6 + d]


def new_board(rules=None):
    """The starting position of `rules` (the games registry's common constructor)."""
    return Board(None, rules)


class Rules:
    """The rule flags: forced capture, release, scoring, and the penalty option."""

    def __init__(self, forced_capture=True, release=True, scoring=PRODUCT, penalty=False):
        if scoring not in (PRODUCT, COUNT):
            raise InvalidRulesError("unknown scoring: %r" % (scoring,))
        if penalty and not forced_capture:
            raise InvalidRulesError("the penalty option needs forced capture (not with loose)")
        self.forced_capture = bool(forced_capture)
        self.release = bool(release)
        self.scoring = scoring
        self.penalty = bool(penalty)

    @classmethod
    def parse(cls, name):
        """'standard', 'loose', 'simple', combined with '+', optionally '+penalty'."""
        flags = {"forced_capture": True, "release": True, "scoring": PRODUCT, "penalty": False}
        words = name.strip().lower().split("+") if isinstance(name, str) else [""]
        for word in words:
            if word == "standard":
                pass
            elif word == "loose":
                flags["forced_capture"] = False
            elif word == "simple":
                flags["release"] = False
                flags["scoring"] = COUNT
            elif word == "penalty":
                flags["penalty"] = True
            else:
                raise InvalidRulesError(
                    "unknown rules %r in %r (use standard, loose, simple, penalty joined by +)"
                    % (word, name))
        return cls(**flags)

    def name(self):
        """The canonical name, which `parse` reads back to equal rules."""
        words = []
        if not self.forced_capture:
            words.append("loose")
        if not self.release and self.scoring == COUNT:
            words.append("simple")
        elif not self.release or self.scoring == COUNT:
            raise InvalidRulesError("these flags have no name: release=%s scoring=%s"
                                    % (self.release, self.scoring))
        if not words:
            words.append("standard")
        if self.penalty:
            words.append("penalty")
        return "+".join(words)

    def __eq__(self, other):
        return (isinstance(other, Rules) and self.forced_capture == other.forced_capture and
                self.release == other.release and self.scoring == other.scoring and
                self.penalty == other.penalty)

    def __repr__(self):
        return "Rules.parse(%r)" % self.name()


STANDARD = Rules()
STARTING_TEXT = "5/6/7/8/9/8/7/6/5 D"


class Board(BoardBase):
    """An Iago position with its history. Dark moves first on an empty board."""

    GAME = GAME
    grid = hexgrid
    PASSES = False     # a side always has a placement (docs/rules.md, "No pass")
    FLIP = CAPTIVE     # a turned disk's state XORs with this: it shows its red side
    COIN_TOSS = False  # dark places first
    KIND = "hex"       # the board's shape

    def __init__(self, text=None, rules=None):
        self.rules = rules if rules is not None else STANDARD
        # Public, to read only (as python-chess's bitboards): each cell's state byte, for code
        # that walks the board without a call a cell. Moves change it through push/pop.
        self.cell_states = bytearray(_CELLS)
        self._scratch = bytearray(_SCRATCH_SIZE)
        self.turn = DARK
        self._penalty = 0
        self._empty_inner = 37
        # The undo records back to back, each the placed cell, the penalty state before, the
        # flipped cells and the record's length (last, so pop finds its start): about 5 bytes
        # a placement, where a bytes object each took 32 and a list slot (1.8 KB late in a
        # game on a Pico).
        self._stack = bytearray()
        self._plies = 0
        # Plies before which a penalty claim was granted (for game records).
        self.claims = []
        self.start_text = STARTING_TEXT
        self._legal_cache = None
        if text is not None:
            self.set_text(text)

    @classmethod
    def from_text(cls, text, rules=None):
        return cls(text, rules)

    @classmethod
    def default_rules(cls):
        return STANDARD

    def copy(self):
        board = Board(None, self.rules)
        board.cell_states[:] = self.cell_states
        board.turn = self.turn
        board._penalty = self._penalty
        board._empty_inner = self._empty_inner
        board._stack = bytearray(self._stack)
        board._plies = self._plies
        board.claims = list(self.claims)
        board.start_text = self.start_text
        return board

    # --- disks -------------------------------------------------------------------------

    def cell(self, cell):
        """The state of a cell: EMPTY, DARK, LIGHT, DARK_CAPTIVE or LIGHT_CAPTIVE."""
        return self.cell_states[cell]

    def cells(self):
        """A copy of all 61 cell states."""
        return bytes(self.cell_states)

    def _recount(self):
        self._empty_inner = sum(1 for c in hexgrid.INNER_AREA if self.cell_states[c] == EMPTY)

    # --- legal moves -------------------------------------------------------------------

    @property
    def legal_moves(self):
        return LegalMoves(self)

    def _mode(self, forced):
        mode = self.turn
        if self.rules.release:
            mode |= _RELEASE_ON
        if forced:
            mode |= _FORCED_CAPTURE
        return mode

    def _legal(self):
        if self._legal_cache is None:
            self._legal_cache = self._generate()
        return self._legal_cache

    def _generate(self):
        cells = self.cell_states
        if self._empty_inner == 0:
            return []
        if self._penalty & _FREE:
            return [c for c in range(_CELLS) if cells[c] == EMPTY]
        # Under the penalty option every placement Loose rules allow is accepted.
        scratch = self._scratch
        forced = self.rules.forced_capture and not self.rules.penalty
        n = generate(cells, scratch, self._mode(forced))
        return list(scratch[_MOVES:_MOVES + n])

    def count_moves(self):
        """How many placements are legal, without building a list (perft's bulk count)."""
        if self._legal_cache is not None:
            return len(self._legal_cache)
        if self._penalty & _FREE or self._empty_inner == 0:
            return len(self._legal())
        return generate(self.cell_states, self._scratch,
                        self._mode(self.rules.forced_capture and not self.rules.penalty))

    def capture_count(self, cell):
        """How many opponent disks a placement on the empty `cell` would capture."""
        return len(self.flips(cell)[0])

    def flips(self, cell):
        """(captured cells, released cells) of a placement on the empty `cell`."""
        self._check_empty(cell)
        captured = []
        released = []
        self._collect(cell, captured, released)
        return tuple(captured), tuple(released)

    def _check_empty(self, cell):
        name = hexgrid.cell_name(cell)  # InvalidCellError for anything but a cell
        if self.cell_states[cell] != EMPTY:
            raise IllegalMoveError("%s is not empty" % name)

    def _collect(self, cell, captured, released):
        cells = self.cell_states
        nb = hexgrid.NEIGHBOURS
        outer_or_centre = hexgrid.OUTER_OR_CENTRE
        side = self.turn
        opp = side ^ 3
        release = self.rules.release
        for d in range(6):
            x = first = nb[cell * 6 + d]
            if x == _NO_CELL:
                continue
            v = cells[x]
            if v == opp:
                while x != _NO_CELL and cells[x] == opp:
                    x = nb[x * 6 + d]
                if x != _NO_CELL and cells[x] == side:
                    _walk(first, x, d, captured)
            elif v & CAPTIVE and release:
                while x != _NO_CELL and cells[x] & CAPTIVE:
                    x = nb[x * 6 + d]
                if (x != _NO_CELL and cells[x] == side and
                        (outer_or_centre[cell] or outer_or_centre[x])):
                    _walk(first, x, d, released)

    # --- making moves ------------------------------------------------------------------

    def is_miss(self, cell):
        """Whether placing on `cell` would miss a forced capture (the penalty option)."""
        if not self.rules.forced_capture or self._penalty & _FREE or self._empty_inner == 0:
            return False
        scratch = self._scratch
        n = generate(self.cell_states, scratch, self._mode(True))
        for i in range(_MOVES, _MOVES + n):
            if scratch[i] == cell:
                return False
        return True

    def push(self, cell):
        """Place a disk of the side to move on `cell`, which must be a legal move.

        Unchecked for speed (search and perft); use `play` for input from outside.
        """
        penalty = 0
        if self.rules.penalty and not self._penalty & _FREE and self.is_miss(cell):
            penalty = _MISS
        undo = [cell, self._penalty]
        self._collect(cell, undo, undo)
        cells = self.cell_states
        for i in range(2, len(undo)):
            cells[undo[i]] ^= CAPTIVE
        cells[cell] = self.turn
        if not hexgrid.IS_OUTER[cell]:
            self._empty_inner -= 1
        undo.append(len(undo) + 1)
        self._stack.extend(bytes(undo))
        self._plies += 1
        # A miss by the placement that ends the game can no longer be claimed.
        self._penalty = penalty if self._empty_inner else 0
        self.turn ^= 3
        self._legal_cache = None

    def pop(self):
        """Take back the last placement; returns its cell."""
        undo = self._stack
        end = len(undo) - 1
        start = end + 1 - undo[end]
        cell = undo[start]
        cells = self.cell_states
        for i in range(start + 2, end):
            cells[undo[i]] ^= CAPTIVE
        cells[cell] = 0       # EMPTY, folded: pop is on the search's hot path
        if not hexgrid.IS_OUTER[cell]:
            self._empty_inner += 1
        self._penalty = undo[start + 1]
        undo[start:] = b""   # (MicroPython's bytearray has no item deletion)
        self._plies -= 1
        self.turn ^= 3
        self._legal_cache = None
        while self.claims and self.claims[-1] > self._plies:
            self.claims.pop()
        return cell

    @property
    def move_stack(self):
        """The cells placed on so far, in order."""
        undo = self._stack
        cells = []
        end = len(undo)
        while end:
            end -= undo[end - 1]
            cells.append(undo[end])
        cells.reverse()
        return cells

    def ply(self):
        """How many placements have been made."""
        return self._plies

    def peek(self):
        """The last placement's cell, or None."""
        undo = self._stack
        return undo[len(undo) - undo[-1]] if undo else None

    def last_flips(self):
        """The cells flipped by the last placement."""
        undo = self._stack
        if not undo:
            return ()
        end = len(undo) - 1
        return tuple(undo[end + 3 - undo[end]:end])

    # --- penalty option ----------------------------------------------------------------

    def can_claim(self):
        """Whether the previous placement missed a forced capture and may be pointed out."""
        return bool(self._penalty & _MISS)

    def claim_penalty(self):
        """The side to move points out a miss: True if granted (free next placement)."""
        if not self.rules.penalty or not self._penalty & _MISS:
            return False
        self._penalty = _FREE
        self._legal_cache = None
        self.claims.append(self._plies)
        return True

    def has_free_placement(self):
        return bool(self._penalty & _FREE)

    # --- end and score -----------------------------------------------------------------

    def is_game_over(self):
        return self._empty_inner == 0

    def area_counts(self, side):
        """(face-up disks of `side` in the inner area, in the outer area)."""
        inner = outer = 0
        cells = self.cell_states
        is_outer = hexgrid.IS_OUTER
        for c in range(_CELLS):
            if cells[c] == side:
                if is_outer[c]:
                    outer += 1
                else:
                    inner += 1
        return inner, outer

    def score(self, side, scoring=None):
        """The score of `side` under `scoring` (PRODUCT or COUNT; default: the rules')."""
        inner, outer = self.area_counts(side)
        if (scoring or self.rules.scoring) == COUNT:
            return inner + outer
        return (inner or 1) * (outer or 1)

    def scores(self, scoring=None):
        """(dark score, light score)."""
        return self.score(DARK, scoring), self.score(LIGHT, scoring)

    def outcome(self):
        """The Outcome of a finished game, or None while it goes on."""
        if not self.is_game_over():
            return None
        dark, light = self.scores()
        tie_break = None
        if dark > light:
            winner = DARK
        elif light > dark:
            winner = LIGHT
        else:
            centre = self.cell_states[_CENTRE]
            if centre & CAPTIVE:
                winner = (centre & 3) ^ 3
                tie_break = CENTRE_CAPTIVE
            else:
                winner = centre
                tie_break = CENTRE_DISK
        return Outcome(winner, dark, light, self.rules.scoring, tie_break)

    # --- position text -----------------------------------------------------------------

    def text(self):
        """The position text of docs/rules.md, e.g. '5/6/7/8/9/8/7/6/5 D'."""
        cells = self.cell_states
        text = "/".join([row_text(cells, hexgrid.row_cells(row), _DISK_CHARS)
                         for row in range(8, -1, -1)]) + (" D" if self.turn == DARK else " L")
        for word in _PENALTY_FIELDS:
            if self._penalty & _PENALTY_FIELDS[word]:
                text += " " + word
        return text

    def set_text(self, text):
        """Set up the position from text; the move history is cleared."""
        fields, rows = self._split_text(text)
        if len(rows) != 9:
            raise InvalidPositionError("position needs 9 rows separated by '/', got %d in %r"
                                       % (len(rows), text))
        cells = bytearray(_CELLS)
        for k in range(9):
            row = 8 - k
            first = hexgrid.ROW_START[row]
            width = hexgrid.ROW_START[row + 1] - first
            placed = 0
            for ch in rows[k]:
                if "1" <= ch <= "9":
                    placed += int(ch)
                elif ch in _CHAR_DISKS:
                    if placed < width:
                        cells[first + placed] = _CHAR_DISKS[ch]
                    placed += 1
                else:
                    raise InvalidPositionError("unknown character %r in row %s: %r"
                                               % (ch, hexgrid.ROWS[row], rows[k]))
            if placed != width:
                raise InvalidPositionError("row %s has %d cells, not %d: %r"
                                           % (hexgrid.ROWS[row], placed, width, rows[k]))
        if fields[1] not in ("D", "L"):
            raise InvalidPositionError("side to move must be D or L, not %r" % (fields[1],))
        penalty = 0
        for word in fields[2:]:
            if word not in _PENALTY_FIELDS:
                raise InvalidPositionError("unknown field %r (known: miss, free)" % (word,))
            penalty |= _PENALTY_FIELDS[word]
        if penalty == _MISS | _FREE:
            raise InvalidPositionError("fields 'miss' and 'free' exclude each other")
        if penalty and not self.rules.penalty:
            raise InvalidPositionError("field %r needs the penalty option (rules %s+penalty)"
                                       % (fields[2], self.rules.name()))
        self.cell_states[:] = cells
        self.turn = DARK if fields[1] == "D" else LIGHT
        self._penalty = penalty
        self._stack = bytearray()
        self._plies = 0
        self.claims = []
        self._legal_cache = None
        self._recount()
        self.start_text = self.text()

    def __str__(self):
        return self.text()

    def __repr__(self):
        return "Board(%r, Rules.parse(%r))" % (self.text(), self.rules.name())
