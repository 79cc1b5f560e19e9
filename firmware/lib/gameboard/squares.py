"""Square boards: which game each size referees, and where its settings and corners are.

Imported by gameboard/layout.py only for a square board map. A board referees the game of
its own size (docs/board.md, "Square boards"): 8x8 Othello, 7x7 and 9x9 Io. Io 7x7 is not
offered on a 9x9 board: its edges and corners, which the rules treat apart, would lie inside
the board's squares, where the players could not see them.

Rank 1 holds the settings on every size, a1-e1: they are empty when Othello and Io begin (and
a placement there before the first one steps a setting, so White's first stone in Io goes on
any other square). The square before the last of rank 1 (g1 on 8x8) is the demo square; the
four corners show whose turn it is, as the hex board's corners do.
"""

from gameboard import NO_CELL
from iago import squaregrid

# size: (the game's rules module in iago, its rules)
GAMES = {7: ("iogame", "7x7"), 8: ("othello", "standard"), 9: ("iogame", "9x9")}
# The computer on a Pico (the generic engine, iago/search.py): positions for levels 1-5, with
# level 5 within 2 s, and positions a slice between two scans (about 30 ms), from
# tests/bench/pico_computer.py (docs/engine.md, "On the board").
NODES = {7: ((30, 60, 150, 300, 520), 8), 8: ((12, 25, 50, 100, 180), 3),
         9: ((20, 40, 100, 200, 340), 6)}


def square(layout, size):
    """Fill in `layout` (gameboard.layout.Layout) for a square board of `size` squares a side;
    raises ValueError for a size no game is played on."""
    if size not in GAMES:
        raise ValueError("no game for a square board of size %r (square boards: %s)" % (
            size, ", ".join("%dx%d" % (n, n) for n in sorted(GAMES))))
    leaf, rules_name = GAMES[size]
    module = layout.module = getattr(__import__("iago." + leaf), leaf)
    layout.game = module.GAME
    layout.rules_name = rules_name
    layout.grid = squaregrid.grid(size)
    layout.cells = size * size
    layout.size = size
    # No rules or penalty cell: neither game has variants on the board.
    layout.setting_cells = (NO_CELL, NO_CELL, 0, 1, 2, 3, 4)
    layout.corners = (0, size - 1, size * (size - 1), size * size - 1)
    layout.demo_cell = size - 2
    layout.reserved = True    # in Io every empty square takes the first stone
    layout.board_nodes, layout.think_nodes = NODES[size]
