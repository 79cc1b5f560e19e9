"""Io (../shared/rules/io-rules.txt) as docs/rules.md ("Io") reads it.

Each rules test quotes the sentence of the rule text it pins."""

import pytest
from hypothesis import given, settings, strategies as st

from gamecheck import check_push_pop

from iago import InvalidPositionError, InvalidRulesError, IllegalMoveError, iogame
from iago.rules import DARK, EMPTY, LIGHT

SEVEN = iogame.Rules.parse("7x7")
NINE = iogame.Rules.parse("9x9")


def names(board, cells=None):
    return sorted(board.grid.cell_name(c) for c in (board.legal_moves if cells is None else cells))


def square(board, centre):
    """The names of the cells around `centre` (straight and diagonal) that are empty."""
    g = board.grid
    c = g.parse_cell(centre)
    return sorted(g.cell_name(n) for n in (g.neighbour(c, d) for d in range(8))
                  if n is not None and board.cell(n) == EMPTY)


def test_white_places_the_first_stone_anywhere_on_the_empty_board():
    # "White starts by placing one stone on the empty board."
    board = iogame.new_board(SEVEN)
    assert board.turn == LIGHT and board.phase == iogame.FIRST
    assert len(board.legal_moves) == 49          # corners included
    assert board.text() == "7/7/7/7/7/7/7 L first"


def test_opening_phase_move_by_move_on_7x7():
    # "Place a stone on a cell straight or diagonally adjacent to the last stone placed by the
    # opponent, and ... place a stone on a cell that has only vacant cells ... as neighbors."
    board = iogame.new_board(SEVEN)
    board.play("d4")                                   # white's first stone
    assert board.turn == DARK and names(board) == square(board, "d4")
    board.play("e5")                                   # black, bound to d4
    assert board.turn == DARK and board.phase == iogame.FREE
    free = names(board)
    assert "a1" not in free and "g7" not in free       # corners: never a free placement
    assert "c3" not in free and "f6" not in free       # next to a stone
    assert "b2" in free and "g2" in free
    board.play("b2")                                   # black's free stone
    assert board.turn == LIGHT and board.text() == "7/7/4D2/3L3/7/1D5/7 L bound=b2"
    assert names(board) == ["a1", "a2", "a3", "b1", "b3", "c1", "c2", "c3"]
    board.play("a1")                                   # a corner, by a bound placement
    assert board.turn == LIGHT and board.phase == iogame.FREE
    board.play("f2")                                   # white's free stone
    assert board.turn == DARK and names(board) == square(board, "f2")
    board.play("g1")                                   # black bound to f2 (a corner)
    board.play("b6")
    board.play("a7")                                   # white bound to b6 (a corner)
    assert board.turn == LIGHT and board.phase == iogame.FREE
    assert names(board) == ["a4", "b4", "d1", "d2", "d7", "e7", "f7", "g4", "g5", "g6"]
    texts = []
    while board.phase != iogame.SINGLE:
        texts.append((board.text(), board.turn))
        board.push(min(board.legal_moves))
    # The phase ended right after a bound stone left no free cell: the bound player's turn
    # ends and the opponent starts the single-placement phase.
    assert board.free_cells() == []
    last_player = board.cell(board.peek())
    assert board.turn == last_player ^ 3
    assert names(board) == sorted(board.grid.cell_name(c) for c in range(49)
                                  if board.cell(c) == EMPTY)


def test_a_bound_move_that_leaves_no_free_cell_ends_the_turn():
    # "When the player to move can no longer make the second placement, then his turn ends
    # and his opponent may start the single placement phase." (the diagram: White's bound
    # F2 leaves no free cell, "leave the first move in the next phase to Black")
    board = iogame.Board("7/7/7/7/7/7/7 L first", SEVEN)
    board.set_text("7/1L5/3D3/7/3D3/1L5/7 L bound=d3")
    assert board.free_cells() != []
    before = set(board.free_cells())
    # fill cells until exactly one bound choice kills the last free cell
    for c in board.legal_moves:
        board.push(c)
        if board.phase == iogame.SINGLE:
            assert board.turn == DARK                 # the opponent starts the next phase
            assert board.free_cells() == []
        else:
            assert board.phase == iogame.FREE and board.turn == LIGHT
        board.pop()
    assert set(board.free_cells()) == before


def test_a_corner_is_taken_only_by_the_first_or_a_bound_placement():
    # "In this phase a corner may only be occupied with the first or bound placement."
    board = iogame.new_board(SEVEN)
    board.play("a1")                                   # first placement in a corner
    board.play("b2")                                   # bound
    assert "g7" not in names(board) and "a7" not in names(board)
    with pytest.raises(IllegalMoveError, match="g7"):
        board.play("g7")


def test_a_free_stone_never_captures_and_a_bound_stone_can():
    # "By the nature of the protocol, capture with a free move is not possible. Capture with
    # a bound move follows the normal othelloanian protocol."
    board = iogame.Board("7/7/7/2LD3/7/7/7 L bound=d4", SEVEN)
    assert names(board) == square(board, "d4")
    assert board.grid.cell_name(board.flips(board.grid.parse_cell("e4"))[0]) == "d4"
    board.play("e4")                                   # white bound: encloses d4
    assert board.text().startswith("7/7/7/2LLL2/")
    for c in board.legal_moves:                        # every free placement
        assert board.flips(c) == []


def test_single_phase_places_anywhere_with_capture_and_the_board_fills():
    # "Now players take turns to compulsory place one of their stones on any vacant square.
    # Corners are no longer excluded." "The game ends when the board is full."
    board = iogame.Board("7/7/7/2LD3/7/7/7 L single", SEVEN)
    assert len(board.legal_moves) == 47
    board.play("e4")
    assert board.text() == "7/7/7/2LLL2/7/7/7 D single"
    assert not board.is_game_over()


def test_most_stones_win_and_there_are_no_draws():
    # "Winner is the player with the most stones. Draws are not possible."
    import random
    for rules in (SEVEN, NINE):
        for seed in range(10):
            board = iogame.new_board(rules)
            rnd = random.Random(seed)
            while not board.is_game_over():
                board.push(rnd.choice(list(board.legal_moves)))
            outcome = board.outcome()
            assert outcome.dark_score + outcome.light_score == board.grid.CELLS
            assert outcome.winner == (DARK if outcome.dark_score > outcome.light_score else LIGHT)


def test_both_sides_make_the_same_number_of_opening_placements():
    # "the number of placements of both sides will always be the same" (at the phase's end)
    import random
    for seed in range(30):
        board = iogame.new_board(NINE)
        rnd = random.Random(seed)
        placed = {DARK: 0, LIGHT: 0}
        while board.phase != iogame.SINGLE:
            placed[board.turn] += 1
            board.push(rnd.choice(list(board.legal_moves)))
        # White's first stone, then bound-free pairs; the phase ends on a bound stone.
        assert placed[LIGHT] == placed[DARK]


def test_perft_matches_a_brute_force_count():
    def brute(board, depth):
        if depth == 0 or board.is_game_over():
            return 1
        total = 0
        for c in range(board.grid.CELLS):
            if c in board.legal_moves:
                board.push(c)
                total += brute(board, depth - 1)
                board.pop()
        return total
    board = iogame.new_board(SEVEN)
    assert [iogame.perft(board, d) for d in (1, 2, 3)] == [49, 312, 10752]
    assert [brute(board, d) for d in (1, 2)] == [49, 312]


def test_position_text_and_errors():
    board = iogame.new_board(NINE)
    assert board.text() == iogame.STARTING_TEXT
    for bad, token in [("7/7/7/7/7/7/7 L", "one phase field"), ("7/7/7/7/7/7/7 L second", "'second'"),
                       ("7/7/7/3D3/7/7/7 L bound=z9", "bound=z9"),
                       ("7/7/7/3D3/7/7/7 L bound=a1", "a1 holds none"),
                       ("7/7/7/3D3/7/7/7 L first", "empty board")]:
        with pytest.raises(InvalidPositionError, match=token):
            iogame.Board(bad, SEVEN)
    with pytest.raises(InvalidRulesError, match="'8x8'"):
        iogame.Rules.parse("8x8")


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(0, 10000), min_size=1, max_size=60), st.sampled_from([SEVEN, NINE]))
def test_push_pop_inverse_and_text_round_trip(picks, rules):
    board = iogame.new_board(rules)
    check_push_pop(board, picks)
