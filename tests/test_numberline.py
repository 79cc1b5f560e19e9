"""The number-line game (../shared/rules/number-line-iago.txt) as docs/rules.md reads it.

Each rules test quotes the sentence of the rule text it pins."""

import random

import pytest
from hypothesis import given, settings, strategies as st

from gamecheck import check_push_pop

from iago import InvalidPositionError, InvalidRulesError, IllegalMoveError, numberline
from iago.rules import DARK, EMPTY, LIGHT

LINE = numberline.LINE
# The rule text's example, player 2 (dimes, light) to move: dimes on 21 and 27, pennies on
# 25 and 28.
EXAMPLE = "1L3D1LD1 L"


def marks(cells):
    return sorted(LINE.cell_name(c) for c in cells)


def test_ten_marks_and_player_one_starts():
    # "The game is played on a number line with ten numbered marks."
    board = numberline.new_board()
    assert board.text() == "10 D" and board.turn == DARK
    assert marks(board.legal_moves) == [str(n) for n in range(20, 30)]


def test_a_dime_on_23_captures_the_penny_on_25():
    # "By placing a dime on 23, Player 2 can capture the penny on 25 and replace it with a dime."
    board = numberline.Board(EXAMPLE)
    board.play("23")
    assert marks(board.last_flips()) == ["25"]
    assert board.text() == "1L1L1L1LD1 D"


def test_a_dime_on_29_captures_the_pennies_on_25_and_28():
    # "By placing a dime on 29, Player 2 can capture the pennies on 25 and 28! Both are
    # replaced with dimes."
    board = numberline.Board(EXAMPLE)
    board.play("29")
    assert marks(board.last_flips()) == ["25", "28"]
    assert board.score(LIGHT) == 5 and board.score(DARK) == 0


def test_a_replaced_coin_does_not_capture_in_turn():
    # "When a coin is replaced, the new coin is not used to create extra captures on the
    # same turn."  Dime on 20 captures the penny on 22 (dime on 24); the new dime on 22 would
    # enclose the penny on 21 with 20 if it counted.
    board = numberline.Board("1DD1L5 L")
    board.play("20")
    assert marks(board.last_flips()) == ["22"]
    assert board.cell(LINE.parse_cell("21")) == DARK


def test_only_exactly_halfway_captures():
    # "a dime is halfway between the new penny and a penny that was already on the number line"
    board = numberline.Board("D1L7 D")          # penny 20, dime 22
    assert board.flips(LINE.parse_cell("23")) == []   # 22 is not halfway between 20 and 23
    assert marks(board.flips(LINE.parse_cell("24"))) == ["22"]


def test_any_empty_mark_may_take_a_coin():
    # "Players take turns placing one of their own coins on the number line"
    board = numberline.Board(EXAMPLE)
    assert marks(board.legal_moves) == ["20", "22", "23", "24", "26", "29"]
    with pytest.raises(IllegalMoveError, match="21"):
        board.play("21")


def test_most_coins_win_and_equal_counts_tie():
    # "The player with the most coins on the number line wins. If players have the same
    # number of coins, the game ends in a tie."
    board = numberline.Board("DDDDDLLLLL D")
    outcome = board.outcome()
    assert board.is_game_over() and outcome.winner == EMPTY and outcome.result() == "1/2-1/2"
    assert numberline.Board("DDDDDDLLLL L").outcome().winner == DARK


def test_ties_go_to_player_two_as_an_option():
    # "Variation: If both players end the game with the same number of coins, Player 2 wins!"
    rules = numberline.Rules.parse("ties-to-2")
    assert numberline.Board("DDDDDLLLLL D", rules).outcome().winner == LIGHT


def test_black_holes_take_no_coin():
    # "Variation: The dark circles below are "black holes." Neither player can place a piece
    # on a black hole!"
    rules = numberline.Rules.parse("holes=22,26")
    board = numberline.new_board(rules)
    assert board.text() == "2X3X3 D"
    assert marks(board.legal_moves) == ["20", "21", "23", "24", "25", "27", "28", "29"]
    with pytest.raises(IllegalMoveError, match="22"):
        board.play("22")
    # The game ends when every other mark holds a coin.
    for c in list(board.legal_moves):
        board.push(c)
    outcome = board.outcome()
    assert board.is_game_over() and outcome.dark_score + outcome.light_score == 8
    assert board.text() == "DLXDDLXLLL D"


def test_a_coin_may_capture_across_a_black_hole():
    # Decided: the halfway rule is arithmetic; a black hole between the coins changes nothing.
    rules = numberline.Rules.parse("holes=21")
    board = numberline.Board("DX1L6 D", rules)     # penny 20, hole 21, dime 23
    assert marks(board.flips(LINE.parse_cell("26"))) == ["23"]


def test_rules_names_and_errors():
    rules = numberline.Rules.parse("holes=26,22+ties-to-2")
    assert rules.name() == "ties-to-2+holes=22,26"
    assert numberline.Rules.parse(rules.name()) == rules
    for bad, token in [("holes=19", "'19'"), ("holes=22,22", "22 given twice"),
                       ("ties", "'ties'"), ("ties-to-2+ties-to-2", "'ties-to-2'"),
                       ("holes=20,21,22,23,24,25,26,27,28", "fewer than two")]:
        with pytest.raises(InvalidRulesError, match=token):
            numberline.Rules.parse(bad)
    with pytest.raises(InvalidPositionError, match="black holes"):
        numberline.Board("2X7 D")


def test_perft_matches_a_brute_force_count():
    board = numberline.new_board()
    assert [numberline.perft(board, d) for d in (1, 2, 3, 4)] == [10, 90, 720, 5040]


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10 ** 6), st.sampled_from(["standard", "holes=22,26", "ties-to-2+holes=25"]))
def test_push_pop_inverse(seed, rules_name):
    rnd = random.Random(seed)
    check_push_pop(numberline.new_board(numberline.Rules.parse(rules_name)),
                   [rnd.randrange(10) for _ in range(10)])
