"""Iago rules shared by the board firmware and the host tools.

    >>> import iago
    >>> board = iago.Board()
    >>> len(board.legal_moves)
    36
"""

from iago.errors import (IagoError, IllegalMoveError, InvalidCellError, InvalidPositionError,
                         InvalidRecordError, InvalidRulesError)
from iago.hexgrid import CELLS, CENTRE, INNER_AREA, OUTER_RING, cell_name, parse_cell
from iago.rules import (CAPTIVE, CENTRE_CAPTIVE, CENTRE_DISK, COUNT, DARK, DARK_CAPTIVE, EMPTY,
                        LIGHT, LIGHT_CAPTIVE, PRODUCT, STANDARD, STARTING_TEXT, Board, LegalMoves,
                        Outcome, Rules, side_name)


def perft(board, depth):
    """The number of move sequences of `depth` placements from `board` (games that end early
    count as one leaf where they end)."""
    if depth == 0 or board.is_game_over():
        return 1
    if depth == 1:
        return board.count_moves()
    total = 0
    for cell in board._legal():
        board.push(cell)
        total += perft(board, depth - 1)
        board.pop()
    return total
