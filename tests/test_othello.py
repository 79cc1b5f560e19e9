"""Othello as the DOS program "IAGO" plays it (../shared/rules/iago-othello-dos.txt).

Each rules test quotes the sentence of the rule text it pins; docs/rules.md ("Othello")
restates the decisions."""

import pytest
from hypothesis import given, settings, strategies as st

import mpvm
from gamecheck import check_push_pop
from test_rules_micropython import LCG, run_cpython

from iago import IagoError, IllegalMoveError, InvalidPositionError, InvalidRulesError, othello
from iago.rules import DARK, EMPTY, LIGHT

G = othello.GRID
name = G.cell_name
cell = G.parse_cell


def names(cells):
    return sorted(name(c) for c in cells)


def row(text, side="D"):
    """A position whose rank 1 is `text` (8 chars of D, L, .) and nothing else."""
    return "8/8/8/8/8/8/8/%s %s" % (text, side)


def test_start_has_two_disks_of_each_colour_in_the_middle():
    # "two squares of each color placed in the middle of the 8 x 8 game board"
    board = othello.new_board()
    assert [name(c) for c in range(64) if board.cell(c) == DARK] == ["e4", "d5"]
    assert [name(c) for c in range(64) if board.cell(c) == LIGHT] == ["d4", "e5"]
    assert board.text() == othello.STARTING_TEXT
    assert names(board.legal_moves) == ["c4", "d3", "e6", "f5"]


def test_a_row_of_opponent_disks_between_two_of_yours_flips():
    # "yRRRY you would capture all the Red squares between your two Yellow ones ... YYYYY"
    board = othello.Board(row(".LLLD..D"))
    assert names(board.flips(cell("a1"))) == ["b1", "c1", "d1"]
    board.push(cell("a1"))
    assert board.text().split()[0].endswith("/DDDDD2D")


def test_own_disks_are_not_skipped_over():
    # "yRRRYRRY flips to YYYYRRY": the line ends at the first own disk.
    board = othello.Board(row(".LLLDLLD"))
    board.push(cell("a1"))
    assert board.text().split()[0].endswith("/DDDDDLLD")


def test_a_line_cannot_start_by_skipping_an_own_disk():
    # "You many not skip over your own color square to outflank an opposing square."
    board = othello.Board("DL6/8/8/8/8/8/8/.DLD4 D")
    assert board.turn == DARK and board.flips(cell("a1")) == []
    assert names(board.legal_moves) == ["c8"]


def test_flipped_disks_do_not_outflank_in_turn():
    # "Square(s) may only be outflanked as a direct result of a move and must fall in the
    # direct line of the square placed down": b1 turns, but b2, now between b1 and b3, stays.
    board = othello.Board("8/8/8/8/8/1D6/1L6/.LD5 D")
    board.play("a1")
    assert board.text() == "8/8/8/8/8/1D6/1L6/DDD5 L"
    assert board.cell(cell("b1")) == DARK and board.cell(cell("b2")) == LIGHT


def test_every_outflanked_line_flips_at_once_diagonals_included():
    # "A square may outflank any number of squares in one or more row in any number of
    # directions at the same time, horizontally, vertically or diagonally."
    board = othello.Board("8/8/8/D1D1D3/1LLL4/DL1LD3/1LLL4/D1D1D3 D")
    flipped = board.flips(cell("c3"))
    assert names(flipped) == ["b2", "b3", "b4", "c2", "c4", "d2", "d3", "d4"]


def test_a_line_must_end_in_own_disk_not_an_empty_cell_or_the_edge():
    # "must fall in the direct line of the square placed down"; an empty cell or the edge
    # before an own disk encloses nothing.
    board = othello.Board(row(".LL.D...") )
    assert board.flips(cell("a1")) == []
    assert cell("a1") not in board.legal_moves
    board = othello.Board(row(".LLL....") )
    assert list(board.legal_moves) == []


def test_a_placement_must_flip_something():
    # "If on your turn you cannot flip at least one opponents color, your turn is forfeited"
    board = othello.new_board()
    with pytest.raises(IllegalMoveError, match="a1 is not a legal move for black"):
        board.play("a1")


def test_a_player_without_a_move_passes_and_the_other_moves_again():
    # "If on your turn you cannot flip at least one opponents color, your turn is forfeited
    # and your opponent moves again."
    board = othello.Board("DL6/8/8/8/8/8/8/DL6 D")
    assert names(board.legal_moves) == ["c1", "c8"]
    board.play("c1")
    # Light's only disk, b8, cannot enclose a8 against the edge: light passes.
    assert board.turn == DARK and names(board.legal_moves) == ["c8"]
    assert not board.is_game_over()
    board.pop()
    assert board.turn == DARK and board.text() == "DL6/8/8/8/8/8/8/DL6 D"
    # A position given with a side that cannot move passes at once, as in play.
    assert othello.Board("DL6/8/8/8/8/8/8/DDD5 L").turn == DARK


def test_you_may_not_forfeit_while_a_move_is_available():
    # "if a move is available to you, you may not forfeit your turn": no pass move exists;
    # the side to move always has a placement unless the game is over.
    board = othello.new_board()
    while not board.is_game_over():
        assert len(board.legal_moves) > 0
        board.push(min(board.legal_moves))


def test_game_ends_when_neither_side_can_flip():
    # "The game is over when either all 64 squares have been filled or when it is no longer
    # possible for either player to flip any opponents squares."
    board = othello.Board("8/8/8/8/8/8/8/DD6 L")
    assert board.is_game_over()
    outcome = board.outcome()
    assert (outcome.winner, outcome.dark_score, outcome.light_score) == (DARK, 2, 0)
    assert outcome.result() == "1-0"


def test_the_most_squares_win_and_equal_counts_draw():
    # "the one with the most squares of his color will be the winner"; a draw when equal.
    board = othello.Board("8/8/8/8/8/8/8/D6L D")
    assert board.is_game_over()
    outcome = board.outcome()
    assert (outcome.dark_score, outcome.light_score) == (1, 1)
    assert outcome.winner == EMPTY and outcome.result() == "1/2-1/2"


def test_a_placement_that_leaves_neither_side_a_move_ends_the_game():
    # "or when it is no longer possible for either player to flip any opponents squares":
    # the board need not be full, and neither side is asked to pass.
    board = othello.Board(row("DL6"))
    board.play("c1")
    assert board.text() == "8/8/8/8/8/8/8/DDD5 L"
    assert board.is_game_over() and list(board.legal_moves) == []
    assert board.outcome().result() == "1-0" and board.outcome().dark_score == 3
    with pytest.raises(IllegalMoveError, match="d1: the game is over"):
        board.play("d1")
    assert board.pop() == cell("c1") and board.text() == row("DL6")


def test_a_full_board_ends_the_game():
    # "when ... all 64 squares have been filled"
    board = othello.Board("/".join(["DDDDLLLL"] * 8) + " D")
    assert board.is_game_over() and board.outcome().dark_score == 32


def test_who_starts_is_a_coin_toss():
    # "you will be asked to call Heads or Tails. This will decide who goes first."
    assert othello.coin_toss("heads", "heads") is True
    assert othello.coin_toss("tails", "heads") is False
    assert othello.coin_toss("Heads", "heads") is True and othello.coin_toss(" TAILS", "tails")
    with pytest.raises(IagoError, match="'edge'"):
        othello.coin_toss("edge", "heads")
    with pytest.raises(IagoError, match="'Edge'"):
        othello.coin_toss("heads", "Edge")
    assert othello.starting_text(LIGHT) == "8/8/8/3DL3/3LD3/8/8/8 L"
    with pytest.raises(IagoError, match="not 3"):
        othello.starting_text(3)
    # Board() itself is the start with black (dark) to move, as in tournament Othello.
    assert othello.Board().text() == othello.STARTING_TEXT and othello.Board().turn == DARK
    board = othello.new_board(first=LIGHT)
    assert board.turn == LIGHT and board.text().endswith(" L")
    assert names(board.legal_moves) == ["c5", "d6", "e3", "f4"]


@pytest.mark.parametrize("depth,count", [(1, 4), (2, 12), (3, 56), (4, 244), (5, 1396),
                                         (6, 8200), (7, 55092), (8, 390216)])
def test_perft_from_the_start_matches_the_published_counts(depth, count):
    assert othello.perft(othello.new_board(), depth) == count


def test_position_text_round_trips_and_errors_name_the_token():
    board = othello.new_board()
    for move in ("d3", "c5", "f6"):
        board.play(move)
    assert othello.Board(board.text()).text() == board.text()
    for bad, token in [("8/8/8 D", "8 rows"), ("8/8/8/3DL3/3LQ3/8/8/8 D", "'Q'"),
                       ("8/8/8/3DL3/3LD4/8/8/8 D", "9 cells"), ("8/8/8/3DL3/3LD3/8/8/8 X", "'X'")]:
        with pytest.raises(InvalidPositionError, match=token):
            othello.Board(bad)
    with pytest.raises(InvalidRulesError, match="'loose'"):
        othello.Rules.parse("loose")
    with pytest.raises(IagoError, match="'z9'"):
        board.play("z9")


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 1000), min_size=1, max_size=70))
def test_push_and_pop_are_exact_inverses(picks):
    board = othello.new_board()
    check_push_pop(board, picks)


MICROPYTHON_GAME = LCG + """
from iago import othello
from iago.rules import DARK, LIGHT

print(othello.perft(othello.new_board(), 4), othello.coin_toss("Tails", "tails"))
for seed, first in RUNS:
    board = othello.new_board(first=first)
    pick = lcg(seed)
    passes = 0
    while not board.is_game_over():
        moves = list(board.legal_moves)
        cell = moves[pick(len(moves))]
        mover = board.turn
        flips = board.flips(cell)
        board.push(cell)
        if board.turn == mover and not board.is_game_over():
            passes += 1
        print(board.grid.cell_name(cell), len(moves), sorted(flips) == sorted(board.last_flips()),
              board.text())
    outcome = board.outcome()
    print("end", outcome.winner, outcome.dark_score, outcome.light_score, outcome.result(), passes)
    while board.move_stack:
        board.pop()
    print("popped", board.text())
"""


@pytest.mark.micropython
def test_a_random_game_is_identical_under_micropython():
    source = "RUNS = %r\n" % ([(1, DARK), (40, LIGHT), (116, DARK)],) + MICROPYTHON_GAME
    expected = run_cpython(source)
    assert expected.startswith("244 True\n") and expected.count("end ") == 3
    assert expected.count("popped 8/8/8/3DL3/3LD3/8/8/8 ") == 3
    assert mpvm.run_unix(source) == expected
