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
