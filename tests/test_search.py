"""The generic engine (iago.search) that plays Othello, Io and the number line."""

import pytest

import mpvm
from iago import games, iogame, numberline, othello, search
from test_rules_micropython import run_cpython


def test_slices_give_the_same_move_as_one_step():
    board = othello.new_board()
    for move in ("d3", "c5", "f6"):
        board.play(move)
    whole = search.Search(board, 4, seed=3)
    assert whole.step(10 ** 6)
    sliced = search.Search(board, 4, seed=3)
    steps = 0
    while not sliced.step(32):
        steps += 1
    assert steps > 10
    assert (sliced.best(), sliced.result().score) == (whole.best(), whole.result().score)
    assert sliced.result().nodes == whole.result().nodes


def test_the_search_leaves_the_board_alone_and_plays_legal_moves():
    for module, rules in ((othello, None), (iogame, iogame.Rules("7x7")), (numberline, None)):
        board = module.new_board(rules)
        for level in search.PLAYERS:
            before = board.text()
            move = games.search(board, level, seed=1).run().move
            assert move in board.legal_moves and board.text() == before


def test_the_number_line_example_is_solved():
    # A dime on 29 takes the pennies on 25 and 28 (number-line-iago.txt): the search proves
    # the win it leads to.
    board = numberline.Board("1L3D1LD1 L")
    result = search.analyse(board, 5)
    assert result.proven and result.score > search.WIN
    assert board.grid.cell_name(result.move) == "29"


def test_othello_finds_a_forced_wipe_out():
    # d1 flips d2 and leaves light one disk that falls next move: the search proves the win,
    # where a1 (a corner, one disk) only looks good to a shallow search.
    board = othello.Board("8/8/8/8/3L4/2DDD3/1L1L4/8 D")
    result = search.analyse(board, 5)
    assert board.grid.cell_name(result.move) == "d1"
    assert result.proven and result.score > search.WIN
    assert board.grid.cell_name(search.analyse(board, 1).move) == "a1"


def test_greedy_takes_the_most_disks():
    board = numberline.Board("1L3D1LD1 L")
    assert board.grid.cell_name(search.choose_move(board, search.GREEDY)) == "29"


def test_same_choices_under_micropython():
    source = """
from iago import games, search
for game, rules, level in (("othello", "standard", 3), ("io", "7x7", 2), ("numberline", "standard", 5)):
    module = games.module(game)
    board = module.new_board(module.Rules.parse(rules))
    for ply in range(8):
        if board.is_game_over():
            break
        s = games.search(board, level, seed=ply)
        while not s.step(50):
            pass
        r = s.result()
        print(game, board.grid.cell_name(r.move), r.score, r.depth, r.nodes)
        board.push(r.move)
"""
    expected = run_cpython(source)
    assert expected.count("othello") == 8
    assert mpvm.run_unix(source) == expected
