"""The number-line game (../shared/rules/number-line-iago.txt) as docs/rules.md reads it.

Each rules test quotes the sentence of number-line-iago.txt it pins; tests of points the
rule text leaves open say "Decided:". A plain reference implementation below (coins as a
string, captures found by reflecting the new coin through each opponent coin) cross-checks
the module's board move by move and in perft."""

import random
import re

import pytest
from hypothesis import given, settings, strategies as st

from gamecheck import check_push_pop
from test_games_micropython import PROGRAM as GAMES_PROGRAM
from test_rules_micropython import run_cpython

import mpvm
from iago import InvalidCellError, InvalidPositionError, InvalidRulesError, IllegalMoveError
from iago import games, linegrid, numberline
from iago.rules import DARK, EMPTY, LIGHT

LINE = numberline.LINE
# The rule text's example, player 2 (dimes, light) to move: dimes on 21 and 27, pennies on
# 25 and 28. A dime on 23 pairs with 27 around 25; a dime on 29 pairs with 21 around 25 and
# with 27 around 28.
EXAMPLE = "1L3D1LD1 L"


def marks(cells):
    return sorted(LINE.cell_name(c) for c in cells)


def cell(name):
    return LINE.parse_cell(name)


# --- the rules ------------------------------------------------------------------------------

def test_ten_marks_and_player_one_starts():
    # "The game is played on a number line with ten numbered marks."
    # "Player 1 can use pennies, and Player 2 can use dimes."  (Decided: player 1 places first.)
    board = numberline.new_board()
    assert board.text() == numberline.STARTING_TEXT == "10 D" and board.turn == DARK
    assert marks(board.legal_moves) == [str(n) for n in range(20, 30)]
    assert numberline.SIDE_NAMES == {DARK: "pennies", LIGHT: "dimes"}
    assert (numberline.GAME, numberline.TITLE) == ("numberline", "Number line")
    assert games.module("numberline") is numberline


def test_a_dime_on_23_captures_the_penny_on_25():
    # "By placing a dime on 23, Player 2 can capture the penny on 25 and replace it with a dime."
    board = numberline.Board(EXAMPLE)
    assert board.flips(cell("23")) == [cell("25")]
    board.play("23")
    assert marks(board.last_flips()) == ["25"]
    assert board.text() == "1L1L1L1LD1 D"


def test_a_dime_on_29_captures_the_pennies_on_25_and_28():
    # "By placing a dime on 29, Player 2 can capture the pennies on 25 and 28! Both are
    # replaced with dimes."  From the same position as the dime on 23.
    board = numberline.Board(EXAMPLE)
    board.play("29")
    assert marks(board.last_flips()) == ["25", "28"]
    assert board.text() == "1L3L1LLL D"
    assert board.scores() == (0, 5)


def test_a_replaced_coin_does_not_capture_in_turn():
    # "When a coin is replaced, the new coin is not used to create extra captures on the
    # same turn."  Dime on 20 captures the penny on 22 (dime on 24); the new dime on 22 would
    # enclose the penny on 21 with 20 if it counted.
    board = numberline.Board("1DD1L5 L")
    board.play("20")
    assert marks(board.last_flips()) == ["22"]
    assert board.cell(cell("21")) == DARK


def test_only_exactly_halfway_captures():
    # "To capture a dime, Player 1 must place a penny so that a dime is halfway between the new
    # penny and a penny that was already on the number line."
    board = numberline.Board("D1L7 D")          # penny 20, dime 22
    assert board.flips(cell("23")) == []        # 22 is not halfway between 20 and 23
    assert board.flips(cell("21")) == []        # 21 is not halfway either
    assert marks(board.flips(cell("24"))) == ["22"]


def test_halfway_at_any_distance_and_coins_between_do_not_matter():
    # "a penny is halfway between the new dime and a dime that was already on the number line"
    # Decided: halfway is arithmetic, at any distance, whatever lies between. Pennies on 20
    # and 22, dimes on 21 and 24: a penny on 28 captures 24 (halfway to 20) and nothing else;
    # the coins between 20 and 28 neither shield 24 nor get captured themselves.
    board = numberline.Board("DLD1L5 D")
    assert marks(board.flips(cell("28"))) == ["24"]
    board = numberline.Board("D2L6 D")          # penny 20, dime 23: 23 is halfway to 26
    assert marks(board.flips(cell("26"))) == ["23"]


def test_only_the_new_coin_captures():
    # "...halfway between the new penny and a penny that was already on the number line."
    # A dime already halfway between two pennies stays: only pairs with the new coin count.
    board = numberline.Board("DLD7 D")
    assert board.flips(cell("29")) == []
    board.play("29")
    assert board.cell(cell("21")) == LIGHT


def test_every_own_coin_pairs_with_the_new_one():
    # "By placing a dime on 29, Player 2 can capture the pennies on 25 and 28!"
    # Decided: every own coin already on the line makes its own pair, so a placement captures
    # every opponent coin halfway to any of them (here three at once: 21-25-29, 23-26-29,
    # 27-28-29).
    board = numberline.Board("1L1L1DDLD1 L")    # dimes 21, 23, 27; pennies 25, 26, 28
    board.play("29")
    assert marks(board.last_flips()) == ["25", "26", "28"] and board.text() == "1L1L1LLLLL D"
    board = numberline.Board("1L1LDDD3 L")      # dimes 21, 23; pennies 24, 25, 26
    assert marks(board.flips(cell("27"))) == ["24", "25"]


def test_any_empty_mark_may_take_a_coin():
    # "Players take turns placing one of their own coins on the number line until the board is
    # full."  Every empty mark is legal, capture or not; an occupied one is not.
    board = numberline.Board(EXAMPLE)
    assert marks(board.legal_moves) == ["20", "22", "23", "24", "26", "29"]
    assert board.count_moves() == len(board.legal_moves) == 6
    assert cell("20") in board.legal_moves and cell("21") not in board.legal_moves
    with pytest.raises(IllegalMoveError, match="21 is taken, by dimes; legal: 20 22"):
        board.play("21")
    with pytest.raises(IllegalMoveError, match="25"):
        board.flips(cell("25"))


def test_players_take_turns():
    # "Players take turns placing one of their own coins on the number line"
    board = numberline.new_board()
    sides = []
    for name in ("24", "26", "28", "20"):
        sides.append(board.turn)
        board.play(name)
    assert sides == [DARK, LIGHT, DARK, LIGHT]
    assert board.move_stack == [cell(n) for n in ("24", "26", "28", "20")]
    assert board.peek() == cell("20") and board.ply() == 4


def test_most_coins_win_and_equal_counts_tie():
    # "Play continues until there is a coin on each number. The player with the most coins on
    # the number line wins. If players have the same number of coins, the game ends in a tie."
    assert numberline.Board(EXAMPLE).outcome() is None
    board = numberline.Board("DDDDDLLLLL D")
    outcome = board.outcome()
    assert board.is_game_over() and not board.legal_moves
    assert outcome.winner == EMPTY and outcome.result() == "1/2-1/2"
    assert (outcome.dark_score, outcome.light_score, outcome.scoring) == (5, 5, "count")
    assert numberline.Board("DDDDDDLLLL L").outcome().winner == DARK
    assert numberline.Board("DDDLLLLLLL L").outcome().result() == "0-1"


def test_play_on_the_full_board_is_refused():
    # "Play continues until there is a coin on each number."
    board = numberline.Board("DDDDDLLLLL D")
    with pytest.raises(IllegalMoveError, match="20: the game is over"):
        board.play("20")


# --- options --------------------------------------------------------------------------------

def test_ties_go_to_player_two_as_an_option():
    # "Variation: If both players end the game with the same number of coins, Player 2 wins!"
    rules = numberline.Rules.parse("ties-to-2")
    outcome = numberline.Board("DDDDDLLLLL D", rules).outcome()
    assert outcome.winner == LIGHT and outcome.result() == "0-1" and outcome.tie_break == "tie"
    assert numberline.Board("DDDDDDLLLL D", rules).outcome().winner == DARK


def test_black_holes_take_no_coin():
    # "Variation: The dark circles below are "black holes." Neither player can place a piece
    # on a black hole!"
    rules = numberline.Rules.parse("holes=22,26")
    board = numberline.new_board(rules)
    assert board.text() == "2X3X3 D"
    assert board.cell(cell("22")) == numberline.HOLE == 8
    assert marks(board.legal_moves) == ["20", "21", "23", "24", "25", "27", "28", "29"]
    with pytest.raises(IllegalMoveError, match="22"):
        board.play("22")
    # Decided: the game ends when every mark but the black holes holds a coin.
    for c in list(board.legal_moves):
        board.push(c)
    outcome = board.outcome()
    assert board.is_game_over() and (outcome.dark_score, outcome.light_score) == (3, 5)
    assert board.text() == "DLXDDLXLLL D"


def test_a_coin_may_capture_across_a_black_hole():
    # Decided: the halfway rule is arithmetic; a black hole between the coins changes nothing.
    rules = numberline.Rules.parse("holes=21")
    board = numberline.Board("DX1L6 D", rules)     # penny 20, hole 21, dime 23
    assert marks(board.flips(cell("26"))) == ["23"]


def test_a_black_hole_is_never_captured():
    # Decided: a black hole halfway between two coins is no coin to capture; it stays a hole.
    rules = numberline.Rules.parse("holes=22")
    board = numberline.Board("D1X7 D", rules)      # penny 20, hole 22
    assert board.flips(cell("24")) == []
    board.play("24")
    assert board.cell(cell("22")) == numberline.HOLE


def test_ties_to_two_and_holes_combine():
    rules = numberline.Rules.parse("ties-to-2+holes=22,26")
    board = numberline.Board("DDXDLLXLLD L", rules)
    assert board.outcome().winner == LIGHT      # 4 coins each on the eight marks


# --- rules names, position text, errors ------------------------------------------------------

def test_rules_names_round_trip():
    for name, canonical in [("standard", "standard"), ("Standard", "standard"),
                            ("ties-to-2", "ties-to-2"), ("holes=26,22", "holes=22,26"),
                            ("holes=26,22+ties-to-2", "ties-to-2+holes=22,26"),
                            ("standard+ties-to-2", "ties-to-2"), (" holes=29 ", "holes=29")]:
        rules = numberline.Rules.parse(name)
        assert rules.name() == canonical
        assert numberline.Rules.parse(canonical) == rules
    assert numberline.Rules.parse("ties-to-2") != numberline.Rules()
    assert numberline.Rules().penalty is False
    assert numberline.Rules(True, (6, 2)).name() == "ties-to-2+holes=22,26"


@pytest.mark.parametrize("bad, token", [
    ("holes=19", "'19'"), ("holes=30", "'30'"), ("holes=22,x", "'x'"), ("holes=", "''"),
    ("holes=022", "'022'"), ("holes=22,22", "22 given twice"),
    ("ties", "'ties'"), ("ties-to-2+ties-to-2", "'ties-to-2'"),
    ("holes=22+holes=26", "'holes=26'"), ("standard+", "''"),
    ("holes=20,21,22,23,24,25,26,27,28", "leave 1 mark"),
    ("holes=20,21,22,23,24,25,26,27,28,29", "leave 0 mark"),
    ("", "''"),
])
def test_rules_errors_name_the_bad_token(bad, token):
    with pytest.raises(InvalidRulesError, match=token):
        numberline.Rules.parse(bad)


def test_rules_built_directly_are_checked():
    with pytest.raises(InvalidRulesError, match="10"):
        numberline.Rules(holes=(10,))
    with pytest.raises(InvalidRulesError, match="22 given twice"):
        numberline.Rules(holes=(2, 2))


@pytest.mark.parametrize("text", ["10 D", "10 L", EXAMPLE, "1L1L1L1LD1 D", "DDDDDLLLLL D",
                                  "L9 L", "9D D"])
def test_position_text_round_trips(text):
    board = numberline.Board(text)
    assert board.text() == str(board) == text == board.start_text
    assert numberline.Board.from_text(board.text()).cells() == board.cells()


def test_position_text_with_holes_round_trips():
    rules = numberline.Rules.parse("holes=20,29")
    for text in ("X8X D", "XD1L5X L", "XDLDLDLDLX D"):
        assert numberline.Board(text, rules).text() == text
    # "." is read as one empty mark; text() writes digits.
    assert numberline.Board(".......... D").text() == "10 D"
    assert numberline.Board("X.D......X L", rules).text() == "X1D6X L"


@pytest.mark.parametrize("text, rules, token", [
    ("11 D", None, "11"), ("9 D", None, "9"), ("1L3D1LD2 L", None, "11"),
    ("10 W", None, "'W'"), ("10", None, "'10'"), ("5Q4 D", None, "'Q'"),
    ("5/5 D", None, "2"), ("10 D extra", None, "'extra'"),
    ("2X7 D", None, "22"), ("10 D", "holes=22", "22"), ("1X8 D", "holes=22", "21"),
])
def test_position_errors_name_the_bad_token(text, rules, token):
    with pytest.raises(InvalidPositionError, match=token):
        numberline.Board(text, numberline.Rules.parse(rules) if rules else None)


def test_cell_names_are_the_mark_numbers():
    assert [LINE.cell_name(c) for c in range(10)] == [str(n) for n in range(20, 30)]
    for name, index in (("20", 0), ("29", 9), (" 23 ", 3)):
        assert LINE.parse_cell(name) == index
    for bad in ("19", "30", "2", "022", "+23", "-1", "", "²³", "23.0", "twenty", None):
        with pytest.raises(InvalidCellError, match=re.escape(repr(bad))):
            LINE.parse_cell(bad)
    with pytest.raises(InvalidCellError, match="'30'"):
        numberline.new_board().play("30")


def test_midpoint_table():
    line = linegrid.Line()
    for a in range(10):
        for b in range(10):
            expected = (a + b) // 2 if (a + b) % 2 == 0 and abs(a - b) >= 2 else None
            assert line.midpoint(a, b) == expected
    assert linegrid.Line(0, 3).midpoint(0, 2) == 1


# --- a plain reference, perft, push/pop, MicroPython -------------------------------------------

def reference_play(coins, side, mark):
    """`coins`: one char per mark ('.', 'D', 'L', 'X'); a coin of `side` on empty `mark`.
    Each opponent coin captured is the reflection point of the new coin and an older own coin:
    the own coin sits at 2 * m - mark."""
    assert coins[mark] == "."
    opp = "L" if side == "D" else "D"
    captured = [m for m in range(len(coins)) if coins[m] == opp
                and 0 <= 2 * m - mark < len(coins) and coins[2 * m - mark] == side]
    out = list(coins)
    out[mark] = side
    for m in captured:
        out[m] = side
    return "".join(out), ("L" if side == "D" else "D"), captured


def reference_perft(coins, side, depth):
    empty = [m for m in range(len(coins)) if coins[m] == "."]
    if depth == 0 or not empty:
        return 1
    return sum(reference_perft(*reference_play(coins, side, m)[:2], depth - 1) for m in empty)


def coins_of(board):
    chars = {EMPTY: ".", DARK: "D", LIGHT: "L", numberline.HOLE: "X"}
    return "".join(chars[v] for v in board.cells()), "D" if board.turn == DARK else "L"


def walk(board, depth):
    """Every node below `board` to `depth`: the board's placement and flips must match the
    reference's at each; returns the leaves."""
    coins, side = coins_of(board)
    if depth == 0 or board.is_game_over():
        return 1
    assert list(board.legal_moves) == [m for m in range(10) if coins[m] == "."]
    leaves = 0
    for mark in list(board.legal_moves):
        after, next_side, captured = reference_play(coins, side, mark)
        assert board.flips(mark) == captured
        board.push(mark)
        assert coins_of(board) == (after, next_side)
        leaves += walk(board, depth - 1)
        assert board.pop() == mark
    assert coins_of(board) == (coins, side)
    return leaves


@pytest.mark.parametrize("text, rules_name, depth", [
    ("10 D", "standard", 4), (EXAMPLE, "standard", 6), ("2X3X3 D", "holes=22,26", 4),
    ("DL1X3LD1 L", "holes=23", 6),
])
def test_perft_matches_a_brute_force_reference(text, rules_name, depth):
    board = numberline.Board(text, numberline.Rules.parse(rules_name))
    coins, side = coins_of(board)
    expected = [reference_perft(coins, side, d) for d in range(1, depth + 1)]
    assert [numberline.perft(board, d) for d in range(1, depth + 1)] == expected
    assert walk(board, depth) == expected[-1]
    assert board.text() == text


def test_perft_from_the_start():
    # Every empty mark is legal, so perft(d) from the start is 10!/(10-d)!.
    board = numberline.new_board()
    assert [numberline.perft(board, d) for d in range(5)] == [1, 10, 90, 720, 5040]


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10 ** 6),
       st.sampled_from(["standard", "holes=22,26", "ties-to-2+holes=25", "holes=20,29"]))
def test_push_pop_inverse(seed, rules_name):
    rnd = random.Random(seed)
    check_push_pop(numberline.new_board(numberline.Rules.parse(rules_name)),
                   [rnd.randrange(10) for _ in range(10)])


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 9), min_size=10, max_size=10),
       st.sets(st.integers(0, 9), max_size=4))
def test_random_games_follow_the_reference(picks, holes):
    board = numberline.new_board(numberline.Rules(False, holes))
    while not board.is_game_over():
        coins, side = coins_of(board)
        moves = list(board.legal_moves)
        mark = moves[picks[board.ply()] % len(moves)]
        after, next_side, captured = reference_play(coins, side, mark)
        board.push(mark)
        assert coins_of(board) == (after, next_side) and list(board.last_flips()) == captured
    dark, light = board.scores()
    assert dark + light == 10 - len(holes)
    assert board.outcome().winner == (DARK if dark > light else LIGHT if light > dark else EMPTY)
    copy = board.copy()
    assert copy.text() == board.text() and copy.move_stack == board.move_stack


# The same program as tests/test_games_micropython.py, on number-line games only, and a perft.
MP_PROGRAM = GAMES_PROGRAM + """
print("perft", [module.perft(module.Board(EXAMPLE), d) for d in range(1, 5)])
"""
MP_RUNS = [("numberline", "standard", 11), ("numberline", "standard", 12),
           ("numberline", "ties-to-2+holes=22,26", 13), ("numberline", "holes=25", 14)]


@pytest.mark.micropython
def test_random_games_identical_under_unix_micropython():
    source = "RUNS = %r\nEXAMPLE = %r\n" % (MP_RUNS, EXAMPLE) + MP_PROGRAM
    expected = run_cpython(source)
    assert expected.count("end ") == len(MP_RUNS) and "perft [6, 30, 120, 360]" in expected
    assert mpvm.run_unix(source) == expected
