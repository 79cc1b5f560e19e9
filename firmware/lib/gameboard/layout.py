"""What the board firmware needs to know of a board's shape and the game it referees.

The hex board plays Iago; a square board (an 8x8 or 7x7 reed matrix, as DIY chessboards are
built) plays Othello (8x8) or Io (7x7, the board's size). The board map's "geometry" entry
chooses (docs/board.md, hardware/board-map.md).
"""

from gameboard.settings import NAMES as SETTING_NAMES

HEX = "hex"
SQUARE = "square"
# The game a square board of each size referees, and its rules.
SQUARE_GAMES = {8: ("othello", "standard"), 7: ("io", "7x7")}


class Layout:
    """cells (count), game (name), module (its rules), grid (cell names), settings cells
    (cell -> setting name, pregame only), corners (turn shown on them while empty), the cell
    a held disk starts the demo from, and `flip` (what a turned disk's state XORs with: a
    captive bit in Iago, the other colour in the count games)."""

    def __init__(self, kind=HEX, size=9):
        self.kind = kind
        if kind == HEX:
            from iago import hexgrid
            self.game = "iago"
            self.rules_name = None
            self.grid = hexgrid
            self.cells = hexgrid.CELLS
            self.size = 9
            names = ("A1", "A2", "A3", "A4", "A5", "B1", "B6")
            self.corners = tuple(hexgrid.parse_cell(n) for n in
                                 ("A1", "A5", "E1", "E9", "I5", "I9"))
            self.demo_cell = hexgrid.CENTRE
            self.flip = 4
            self.setting_cells = tuple(hexgrid.parse_cell(n) for n in names)
        elif kind == SQUARE and size in SQUARE_GAMES:
            from iago import squaregrid
            self.game, self.rules_name = SQUARE_GAMES[size]
            self.grid = squaregrid.grid(size)
            self.cells = size * size
            self.size = size
            # Rank 1 holds the settings (empty at the start of both games); no rules or
            # penalty cell, as neither game has variants on its board.
            self.setting_cells = (255, 255, 0, 1, 2, 3, 4)
            self.corners = ()
            self.demo_cell = size - 1    # h1 / g1
            self.flip = 3
        else:
            raise ValueError("no game for a %s board of size %r (square boards: %s)" % (
                kind, size, ", ".join("%dx%d" % (n, n) for n in sorted(SQUARE_GAMES))))
        # The rules module, imported directly (iago.games would cost the board heap).
        leaf = "rules" if self.game == "iago" else "othello" if self.game == "othello" else "iogame"
        self.module = getattr(__import__("iago." + leaf), leaf)
        self.cell_name = self.grid.cell_name
        self.parse_cell = self.grid.parse_cell

    def setting_at(self, cell):
        """The name of the setting `cell` steps, or None."""
        cells = self.setting_cells
        for i in range(len(cells)):
            if cells[i] == cell:
                return SETTING_NAMES[i]
        return None

    def new_board(self, settings):
        """The game's start under `settings` (Iago's rules come from the settings)."""
        if self.game == "iago":
            return self.module.Board(rules=settings.rules_object())
        return self.module.new_board(self.module.Rules.parse(self.rules_name))

    def board(self, text, settings):
        if self.game == "iago":
            return self.module.Board(text, settings.rules_object())
        return self.module.Board(text, self.module.Rules.parse(self.rules_name))


HEX_LAYOUT = None


def hex_layout():
    """The shared Layout of the hex board (built on first use)."""
    global HEX_LAYOUT
    if HEX_LAYOUT is None:
        HEX_LAYOUT = Layout()
    return HEX_LAYOUT
