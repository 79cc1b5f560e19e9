"""Othello, Io and the number-line game run unchanged under real MicroPython VMs and agree
with CPython move for move (the choice by a small LCG, not either interpreter's `random`)."""

import pytest

import mpvm
from test_rules_micropython import LCG, run_cpython

pytestmark = pytest.mark.micropython

PROGRAM = LCG + """
from iago import games

for game, rules_name, seed in RUNS:
    module = games.module(game)
    board = module.new_board(module.Rules.parse(rules_name))
    pick = lcg(seed)
    while not board.is_game_over():
        moves = list(board.legal_moves)
        cell = moves[pick(len(moves))]
        flips = board.flips(cell)
        board.push(cell)
        print(board.grid.cell_name(cell), len(moves), len(flips), board.text())
    outcome = board.outcome()
    print("end", game, outcome.winner, outcome.dark_score, outcome.light_score, outcome.result())
    while board.move_stack:
        board.pop()
    print("popped", board.text())
"""

RUNS = [("othello", "standard", 1), ("othello", "standard", 2), ("io", "7x7", 3),
        ("io", "9x9", 4), ("numberline", "standard", 5), ("numberline", "ties-to-2+holes=22,26", 6)]


@pytest.mark.parametrize("vm", ["unix", "wasm"])
def test_random_games_match_cpython_move_for_move(vm):
    source = "RUNS = %r\n" % RUNS + PROGRAM
    expected = run_cpython(source)
    assert expected.count("end ") == len(RUNS)
    run = mpvm.run_unix if vm == "unix" else mpvm.run_wasm
    assert run(source) == expected
