"""The games of the family, by name. Each is a module with the same board API as Iago's
`iago.rules`: GAME, TITLE, Board, Rules, STARTING_TEXT (the default rules' start) and
`new_board(rules)`; a Board has `grid` (its geometry: CELLS, cell_name, parse_cell).

Modules are imported on first use, so a board running Iago never pays for Othello's code.
"""

from iago.core import InvalidRulesError

GAMES = ("iago", "othello", "io", "numberline")
DEFAULT = "iago"
_MODULES = {"iago": "rules", "othello": "othello", "io": "iogame", "numberline": "numberline"}


def module(name):
    """The rules module of game `name`; raises InvalidRulesError for an unknown game."""
    key = name.strip().lower() if isinstance(name, str) else ""
    if key not in _MODULES:
        raise InvalidRulesError("unknown game %r (games: %s)" % (name, ", ".join(GAMES)))
    leaf = _MODULES[key]
    package = __import__("iago." + leaf)
    return getattr(package, leaf)


def search(board, level=5, seed=0, nodes=None):
    """A computer-opponent search for `board`'s game, with the interface of
    `iago.engine.Search` (step(max_nodes) -> done, best(), result()). Iago has its own tuned
    engine; the other games share the generic one in `iago.search`."""
    if board.GAME == "iago":
        from iago import engine
        return engine.Search(board, level, seed=seed, nodes=nodes)
    from iago import search as generic
    return generic.Search(board, level, seed=seed, nodes=nodes)
