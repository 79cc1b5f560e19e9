"""What the board firmware needs to know of a board's shape and the game it referees.

The hex board plays Iago. A square board (a 7x7, 8x8 or 9x9 reed matrix, as DIY chessboards
are built) plays Othello on 8x8 and Io on 7x7 and 9x9: gameboard/squares.py, imported only
for a square map, so the hex board never holds its code. The board map's "geometry" entry
chooses (docs/board.md, hardware/board-map.md).
"""

from gameboard import NO_CELL
from gameboard.settings import NAMES

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

# A cell's flags (Layout.flags): a settings hex (or a square board's demo square: before the
# first placement neither is a placement), a corner (it shows whose turn it is).
SETTINGS_HEX = const(1)
CORNER = const(2)

_SETTING_CELLS = b"\x00\x01\x02\x03\x04\x05\x0a"
_CORNERS = b"\x00\x04\x1a\x22\x38\x3c"


class Layout:
    """cells (count), size, game (its name), module (its rules module, imported directly: the
    registry iago.games would cost the board heap), rules_name (None: Iago's rules come from
    the settings), grid (cell names: cell_name, parse_cell), setting_cells (the cell of each
    setting of settings.NAMES, 255 for none; before the first placement only), demo_cell (a
    disk held there on the empty board starts the demo), reserved (the demo cell is no
    placement before the first one either), corners (they show whose turn it is while empty)
    and flip (what a turned disk's state XORs with: the game's Board.FLIP); flags (a byte a
    cell: SETTINGS_HEX, CORNER);
    board_nodes (the computer's search positions for levels 1-5) and think_nodes (positions
    searched between two scans): the engines' speeds differ by game, and on a Pico a level-5
    move must take at most 2 s and a slice about 30 ms."""

    def __init__(self, kind="hex", size=9):
        self.kind = kind
        if kind != "hex":
            from gameboard.squares import square
            square(self, size)
        else:
            from iago import hexgrid, rules
            self.game = "iago"
            self.rules_name = None
            self.module = rules
            self.grid = hexgrid
            self.cells = hexgrid.CELLS
            self.size = 9
            # As numbers, not parsed names: each name, and each letter or digit parsing it
            # takes apart, would stay interned on a Pico (tests/test_board_maps.py checks them).
            self.setting_cells = _SETTING_CELLS    # A1-A5, B1, B6
            self.corners = _CORNERS                # A1, A5, E1, E9, I5, I9
            self.demo_cell = hexgrid.CENTRE
            self.reserved = False    # E5 is never a legal first placement anyway
            # Iago's engine on a Pico: level 5's 1,800 positions take 1,881 ms at worst, 32
            # about 30-40 ms (tests/bench/pico_computer.py; docs/engine.md).
            self.board_nodes = (40, 80, 250, 700, 1800)
            self.think_nodes = 32
        self.flip = self.module.Board.FLIP
        self.cell_name = self.grid.cell_name
        self.parse_cell = self.grid.parse_cell
        # Every hex's name made once: the events of a placement name its disk and each flip,
        # and a name made on demand costs a Pico about 0.2 ms (two strings allocated).
        self.names = tuple(self.cell_name(c) for c in range(self.cells))
        flags = bytearray(self.cells)
        for c in self.setting_cells:
            if c != NO_CELL:
                flags[c] |= SETTINGS_HEX
        if self.reserved:
            flags[self.demo_cell] |= SETTINGS_HEX
        for c in self.corners:
            flags[c] |= CORNER
        self.flags = bytes(flags)
        # The hexes that step a setting before the first placement, for loops that need
        # only them (the referee's reading of a placement runs over 61 hexes otherwise).
        self.settings_hexes = bytes(c for c in range(self.cells) if flags[c] & SETTINGS_HEX)

    def share_search(self, share):
        """An interpreter without viper searches slower: the top level's budget and the
        nodes a tick shrink to `share` percent, so a move still takes at most 2 s and a loop
        step stays short (gameboard/cphw.py's SEARCH_SHARE)."""
        if share >= 100:
            return
        cap = self.board_nodes[-1] * share // 100
        self.board_nodes = tuple(min(n, cap) for n in self.board_nodes)
        self.think_nodes = max(1, self.think_nodes * share // 100)

    def setting_at(self, cell):
        """The name of the setting `cell` steps, or None."""
        cells = self.setting_cells
        for i in range(len(cells)):
            if cells[i] == cell:
                return NAMES[i]
        return None

    def new_board(self, settings):
        """The game's start under `settings` (Iago's rules come from the settings)."""
        if self.rules_name is None:
            return self.module.Board(rules=settings.rules_object())
        return self.module.new_board(self.module.Rules.parse(self.rules_name))

    def board(self, text, settings):
        if self.rules_name is None:
            return self.module.Board(text, settings.rules_object())
        return self.module.Board(text, self.module.Rules.parse(self.rules_name))


HEX_LAYOUT = None


def hex_layout():
    """The shared Layout of the hex board (built on first use)."""
    global HEX_LAYOUT
    if HEX_LAYOUT is None:
        HEX_LAYOUT = Layout()
    return HEX_LAYOUT
