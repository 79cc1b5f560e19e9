"""What Othello, Io and the number-line game share: placements that turn enclosed disks over,
and the most disks win.

`CountBoard` holds the cells (one byte each: EMPTY, DARK, LIGHT), the side to place next and
an undo stack of small `bytes` records [cell, game state before..., turned cells...], and
gives every game the board API of Iago's `rules.Board`. A game subclass supplies its geometry
(`grid`), its legal-move generator (`_generate`), what a placement turns over (`_flips`), how
the turn passes (`_advance`) and any state the cells cannot show (`_state`/`_set_state`,
`_fields`/`_parse_fields` for the position text).
"""

from iago.core import COUNT, DARK, EMPTY, LIGHT, BoardBase, LegalMoves, Outcome, row_text
from iago.core import IllegalMoveError, InvalidPositionError, InvalidRulesError

_CHARS = {DARK: "D", LIGHT: "L"}


class SimpleRules:
    """Rules of a game with a fixed set of named variants (no options to combine)."""

    VARIANTS = ("standard",)  # type: tuple[str, ...]
    penalty = False

    def __init__(self, variant=None):
        self.variant = variant or self.VARIANTS[0]

    @classmethod
    def parse(cls, name):
        key = name.strip().lower() if isinstance(name, str) else ""
        if key in cls.VARIANTS:
            return cls(key)
        raise InvalidRulesError("unknown rules %r (known: %s)" % (name, ", ".join(cls.VARIANTS)))

    def name(self):
        return self.variant

    def __eq__(self, other):
        return type(other) is type(self) and other.name() == self.name()

    def __repr__(self):
        return "Rules(%r)" % self.name()


class CountBoard(BoardBase):
    GAME = ""
    STATE_BYTES = 1        # bytes of game state in an undo record (the turn, at least)
    PASSES = False         # a side with no placement passes (then perft counts the pass)
    FLIP = 3               # a turned disk's state XORs with this: it shows the other colour
    COIN_TOSS = False      # a coin toss decides who places first: new_board(first=...)
    KIND = "square"        # the board's shape: "square" or "line"
    EXTRA_CHARS = {}       # more cell characters of the position text (number-line holes)

    def __init__(self, text=None, rules=None):
        self.rules = rules if rules is not None else self.default_rules()
        self.grid = self.grid_for(self.rules)
        # Public, to read only: each cell's state byte (as rules.Board's).
        self.cell_states = bytearray(self.grid.CELLS)
        self.turn = DARK
        self._stack = []
        self.claims = []
        self._legal_cache = None
        self.set_text(text if text is not None else self.starting_text())

    @classmethod
    def from_text(cls, text, rules=None):
        return cls(text, rules)

    def copy(self):
        board = self.__class__(self.text(), self.rules)
        board._stack = list(self._stack)
        board.start_text = self.start_text
        return board

    # --- to be supplied by a game ------------------------------------------------------

    @classmethod
    def default_rules(cls):
        raise NotImplementedError

    @classmethod
    def grid_for(cls, rules):
        raise NotImplementedError

    def starting_text(self):
        raise NotImplementedError

    def _generate(self):
        """The legal placements now, in cell order."""
        raise NotImplementedError

    def _flips(self, cell):
        """The cells a placement of the side to move on `cell` turns over."""
        raise NotImplementedError

    def _advance(self, cell):
        """After a placement on `cell`: set the side to place next (and the game's state)."""
        self.turn ^= 3

    def _state(self):
        """The game state before a placement, as STATE_BYTES ints 0-255."""
        return (self.turn,)

    def _set_state(self, state):
        self.turn = state[0]

    def _fields(self):
        """Trailing fields of the position text (state the cells cannot show)."""
        return ""

    def _parse_fields(self, fields):
        if fields:
            raise InvalidPositionError("unknown field %r after the side to move" % (fields[0],))

    def _after_setup(self):
        """Check or complete a position just read from text."""

    def _tie_winner(self):
        return EMPTY

    # --- disks -------------------------------------------------------------------------

    def cell(self, cell):
        return self.cell_states[cell]

    def cells(self):
        return bytes(self.cell_states)

    # --- legal moves -------------------------------------------------------------------

    @property
    def legal_moves(self):
        return LegalMoves(self)

    def _legal(self):
        if self._legal_cache is None:
            self._legal_cache = self._generate()
        return self._legal_cache

    def count_moves(self):
        return len(self._legal())

    def flips(self, cell):
        """The cells a placement on empty `cell` would turn over (not checked for legality)."""
        if self.cell_states[cell] != EMPTY:
            raise IllegalMoveError("%s is not empty" % self.grid.cell_name(cell))
        return self._flips(cell)

    def capture_count(self, cell):
        return len(self.flips(cell))

    def is_miss(self, cell):
        return False

    # --- making moves ------------------------------------------------------------------

    def push(self, cell):
        """Place a disk of the side to move on `cell`, which must be a legal move.

        Unchecked for speed (search and perft); use `play` for input from outside."""
        flips = self._flips(cell)
        record = [cell]
        record.extend(self._state())
        record.extend(flips)
        cells = self.cell_states
        for c in flips:
            cells[c] ^= 3
        cells[cell] = self.turn
        self._stack.append(bytes(record))
        self._legal_cache = None
        self._advance(cell)

    def pop(self):
        """Take back the last placement; returns its cell."""
        record = self._stack.pop()
        cell = record[0]
        cells = self.cell_states
        n = self.STATE_BYTES + 1
        for i in range(n, len(record)):
            cells[record[i]] ^= 3
        cells[cell] = EMPTY
        self._set_state(record[1:n])
        self._legal_cache = None
        return cell

    def last_flips(self):
        return tuple(self._stack[-1][self.STATE_BYTES + 1:]) if self._stack else ()

    # No penalty option outside Iago.
    def can_claim(self):
        return False

    def claim_penalty(self):
        return False

    def has_free_placement(self):
        return False

    # --- end and score -----------------------------------------------------------------

    def is_game_over(self):
        return not self._legal()

    def score(self, side, scoring=None):
        n = 0
        for v in self.cell_states:
            if v == side:
                n += 1
        return n

    def scores(self, scoring=None):
        return self.score(DARK), self.score(LIGHT)

    def outcome(self):
        """The Outcome of a finished game (most disks win), or None while it goes on."""
        if not self.is_game_over():
            return None
        dark, light = self.scores()
        if dark == light:
            return Outcome(self._tie_winner(), dark, light, COUNT, "tie")
        return Outcome(DARK if dark > light else LIGHT, dark, light, COUNT)

    # --- position text -----------------------------------------------------------------

    def _rows(self):
        """The cells of each row of the text, far row first, each from its lowest cell."""
        size = self.grid.size
        top = self.grid.CELLS // size - 1
        return [range(r * size, r * size + size) for r in range(top, -1, -1)]

    def text(self):
        chars = dict(_CHARS)
        for value in self.EXTRA_CHARS:
            chars[value] = self.EXTRA_CHARS[value]
        cells = self.cell_states
        rows = "/".join([row_text(cells, row, chars) for row in self._rows()])
        return rows + (" D" if self.turn == DARK else " L") + self._fields()

    def set_text(self, text):
        """Set up the position from text; the move history is cleared."""
        fields, rows = self._split_text(text)
        layout = self._rows()
        if len(rows) != len(layout):
            raise InvalidPositionError("position needs %d rows separated by '/', got %d in %r"
                                       % (len(layout), len(rows), text))
        decode = {".": EMPTY, "D": DARK, "L": LIGHT}
        for value in self.EXTRA_CHARS:
            decode[self.EXTRA_CHARS[value]] = value
        cells = bytearray(self.grid.CELLS)
        for k in range(len(rows)):
            row = layout[k]
            placed = 0
            number = 0
            for ch in rows[k] + " ":
                if "0" <= ch <= "9":
                    number = number * 10 + int(ch)
                    if number > len(row):
                        # Too long whatever digits follow; stop before the number grows
                        # too big to print (CPython refuses ints of over 4,300 digits).
                        raise InvalidPositionError("row %s has more than %d cells"
                                                   % (_clip(rows[k]), len(row)))
                    continue
                placed += number
                number = 0
                if ch == " ":
                    break
                if ch not in decode:
                    raise InvalidPositionError("unknown character %r in row %r" % (ch, rows[k]))
                if placed < len(row):
                    cells[row[placed]] = decode[ch]
                placed += 1
            if placed != len(row):
                raise InvalidPositionError("row %r has %d cells, not %d"
                                           % (rows[k], placed, len(row)))
        if fields[1] not in ("D", "L"):
            raise InvalidPositionError("side to move must be D or L, not %r" % (fields[1],))
        self.cell_states[:] = cells
        self.turn = DARK if fields[1] == "D" else LIGHT
        self._stack = []
        self.claims = []
        self._legal_cache = None
        self._parse_fields(fields[2:])
        self._after_setup()
        self.start_text = self.text()

    def __str__(self):
        return self.text()

    def __repr__(self):
        return "%s.Board(%r)" % (self.GAME, self.text())


def _clip(text):
    """`text` quoted, cut short when long: an error message stays readable."""
    return repr(text) if len(text) <= 40 else repr(text[:40]) + "..."


def enclosed(cells, nb, directions, cell, me):
    """The opponent disks enclosed by a disk of `me` on `cell`, in every direction of the
    neighbour table `nb` (nb[cell * directions + d], 255 off the board): Othello's capture."""
    opp = me ^ 3
    out = []
    base = cell * directions
    for d in range(directions):
        x = nb[base + d]
        if x == 255 or cells[x] != opp:
            continue
        run = [x]
        x = nb[x * directions + d]
        while x != 255 and cells[x] == opp:
            run.append(x)
            x = nb[x * directions + d]
        if x != 255 and cells[x] == me:
            out.extend(run)
    return out


def encloses(cells, nb, directions, cell, me):
    """Whether a disk of `me` on `cell` would enclose at least one opponent disk."""
    opp = me ^ 3
    base = cell * directions
    for d in range(directions):
        x = nb[base + d]
        if x == 255 or cells[x] != opp:
            continue
        x = nb[x * directions + d]
        while x != 255 and cells[x] == opp:
            x = nb[x * directions + d]
        if x != 255 and cells[x] == me:
            return True
    return False
