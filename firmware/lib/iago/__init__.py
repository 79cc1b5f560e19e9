"""IAGO, the family of games the board plays: Iago (Kanare Kato's game on 61 hexes, the board's
own) and, beside it, Othello, Io and the number-line game. The package is named for the family,
as python-chess's `chess` holds `chess.variant`.

    >>> import iago
    >>> board = iago.Board()
    >>> len(board.legal_moves)
    36

What every game uses comes with the package (`iago.core`: the sides, `Outcome`, `LegalMoves`,
`perft`, `side_name`, `IagoError` and its kinds). Iago's own names (`Board`, `Rules`, `parse_cell`,
`CELLS`, ...) load `iago.rules` and `iago.hexgrid` on first use, so a board that plays another
game never holds Iago's rules. The other games are the modules `othello`, `iogame` and
`numberline`, found by name through `iago.games`.
"""

from iago.core import (COUNT, DARK, EMPTY, LIGHT, IagoError, IllegalMoveError,  # noqa: F401
                       InvalidCellError, InvalidPositionError, InvalidRecordError,
                       InvalidRulesError, LegalMoves, Outcome, perft, side_name)

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

# A private const: MicroPython's compiler drops the block below, so none of it reaches a
# Pico; mypy reads it as true (pyproject.toml: always_true).
_TYPE_CHECKING = const(0)
if _TYPE_CHECKING:  # type checkers read the lazy names' types here; never run
    from iago.hexgrid import CELLS, CENTRE, INNER_AREA, OUTER_RING, cell_name, parse_cell  # noqa
    from iago.rules import (CAPTIVE, CENTRE_CAPTIVE, CENTRE_DISK, DARK_CAPTIVE,  # noqa
                            LIGHT_CAPTIVE, PRODUCT, STANDARD, STARTING_TEXT, Board, Rules)



def __getattr__(name):
    """A name the package does not hold yet (PEP 562, which MicroPython and CircuitPython
    follow too).

    One of Iago's names binds them all and removes this function and its tables: from then
    on the package is a plain one. Until then (a board playing another game), MicroPython
    asks here for the module in `from iago import games` before it looks for its file, so a
    module's name imports it; `hasattr(iago, "games")` and MicroPython's `dir(iago)`, which
    probe names this way, import modules too: ask sys.modules instead."""
    g = globals()
    # Iago's names, loaded with Iago's rules on first use of any of them (local tables: as
    # globals, their names would stay interned on a Pico).
    rules = ("Board", "Rules", "STANDARD", "STARTING_TEXT", "PRODUCT", "CAPTIVE", "DARK_CAPTIVE",
             "LIGHT_CAPTIVE", "CENTRE_DISK", "CENTRE_CAPTIVE")
    grid = ("CELLS", "CENTRE", "INNER_AREA", "OUTER_RING", "cell_name", "parse_cell")
    if name in rules or name in grid:
        for leaf, names in (("rules", rules), ("hexgrid", grid)):
            module = __import__("iago." + leaf, None, None, (leaf,))
            for key in names:
                g[key] = getattr(module, key)
        del g["__getattr__"]
        return g[name]
    if name[:2] == "__":
        raise AttributeError(name)
    try:
        return __import__("iago." + name, None, None, (name,))
    except ImportError:
        raise AttributeError("module 'iago' has no attribute %r" % (name,))
