"""Othello as played by the DOS program "IAGO" (../shared/rules/iago-othello-dos.txt).

8x8 board (cells a1-h8, squaregrid), two disks of each colour in the centre: d4 and e5 light
(white), d5 and e4 dark (black). A placement must outflank at least one opponent disk in a
straight line in any of the 8 directions; every outflanked line turns over. A player with no
placement passes: the board does it by itself, so `turn` always names who places next. The
game ends when neither side can place (the board full included); most disks wins, equal
counts are a draw.

Who starts is decided by a coin toss, as in the DOS program: the player calls heads or tails,
`coin_toss(call, coin)` says whether the call won, and `new_board(first=...)` starts with the
side that begins (dark by default, as in tournament Othello).

    >>> board = new_board()
    >>> [board.grid.cell_name(c) for c in board.legal_moves]
    ['d3', 'c4', 'f5', 'e6']
"""

from iago import countgame, squaregrid
from iago.core import DARK, EMPTY, LIGHT, perft  # noqa: F401  (perft re-exported: othello.perft)
from iago.core import IagoError

GAME = "othello"
TITLE = "Othello"
SIDE_NAMES = {DARK: "black", LIGHT: "white"}
COIN = ("heads", "tails")
STARTING_TEXT = "8/8/8/3DL3/3LD3/8/8/8 D"
GRID = squaregrid.grid(8)
_NB = GRID.NEIGHBOURS
_enclosed = countgame.enclosed
_encloses = countgame.encloses


class Rules(countgame.SimpleRules):
    VARIANTS = ("standard",)


def coin_toss(call, coin):
    """Whether the call ('heads' or 'tails', any case, as the DOS program's "Heads or Tails")
    matches how the coin fell; raises IagoError for anything else, naming it."""
    words = []
    for word in (call, coin):
        key = word.strip().lower() if isinstance(word, str) else word
        if key not in COIN:
            raise IagoError("a coin shows heads or tails, not %r" % (word,))
        words.append(key)
    return words[0] == words[1]


class Board(countgame.CountBoard):
    GAME = GAME
    SIDE_NAMES = SIDE_NAMES
    PASSES = True
    COIN_TOSS = True

    @classmethod
    def default_rules(cls):
        return Rules()

    @classmethod
    def grid_for(cls, rules):
        return GRID

    def starting_text(self):
        return STARTING_TEXT

    def _generate(self):
        cells = self.cell_states
        me = self.turn
        out = []
        for c in range(64):
            if cells[c] == EMPTY and _encloses(cells, _NB, 8, c, me):
                out.append(c)
        return out

    def _flips(self, cell):
        return _enclosed(self.cell_states, _NB, 8, cell, self.turn)

    def _advance(self, cell):
        # The opponent places next if they can; else the mover again; if neither can, the
        # game is over (and the turn stays with the opponent, who cannot place).
        mover = self.turn
        self.turn = mover ^ 3
        if not self._legal():
            self.turn = mover
            self._legal_cache = None
            if not self._legal():
                self.turn = mover ^ 3
                self._legal_cache = []

    def _after_setup(self):
        # A side to move without a placement passes at once, as in play.
        if not self._legal():
            self.turn ^= 3
            self._legal_cache = None
            if not self._legal():
                self.turn ^= 3
                self._legal_cache = []


def starting_text(first=DARK):
    """The start position with `first` (DARK or LIGHT) to place first."""
    if first != DARK and first != LIGHT:
        raise IagoError("the first side is DARK (1) or LIGHT (2), not %r" % (first,))
    return STARTING_TEXT if first == DARK else STARTING_TEXT[:-1] + "L"


def new_board(rules=None, first=DARK):
    return Board(starting_text(first), rules)
