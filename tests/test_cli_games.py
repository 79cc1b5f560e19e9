"""`iago --game othello|io|numberline` for every subcommand, run as a user runs it."""

import io as stringio

import pytest

from iago import othello
from host_sim import play
from test_cli import assert_bad_input, run

OTHELLO_START = othello.STARTING_TEXT
NUMBERLINE_EXAMPLE = "1L3D1LD1 L"   # the rule text's example, dimes to move


def test_othello_perft_prints_the_published_counts():
    counts = [run("--game", "othello", "perft", str(d)).stdout.strip() for d in range(1, 7)]
    assert counts == ["4", "12", "56", "244", "1396", "8200"]


@pytest.mark.parametrize("args,expected", [
    (["--game", "othello", "moves", OTHELLO_START], "d3 c4 f5 e6"),
    (["--game", "io", "--rules", "7x7", "moves", "7/7/7/3L3/7/7/7 D bound=d4"],
     "c3 d3 e3 c4 e4 c5 d5 e5"),
    (["--game", "numberline", "moves", NUMBERLINE_EXAMPLE], "20 22 23 24 26 29"),
])
def test_moves(args, expected):
    proc = run(*args)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == expected


def test_play_prints_each_position():
    proc = run("--game", "othello", "play", OTHELLO_START, "d3", "c5")
    assert proc.stdout.split("\n")[:2] == ["8/8/8/3DL3/3DD3/3D4/8/8 L",
                                           "8/8/8/2LLL3/3DD3/3D4/8/8 D"]
    proc = run("--game", "numberline", "play", NUMBERLINE_EXAMPLE, "29")
    assert proc.stdout.strip() == "1L3L1LLL D"


def test_show_and_score_draw_each_board():
    proc = run("--game", "othello", "show")
    assert "   a  b  c  d  e  f  g  h" in proc.stdout and "dark  2 (black)" in proc.stdout
    proc = run("--game", "io", "show", "--rules", "7x7")
    assert "white to move" not in proc.stdout and "light to move (first placement)" in proc.stdout
    assert proc.stdout.count("\n") >= 7
    proc = run("--game", "numberline", "--rules", "holes=22", "show")
    assert "  20   21   22" in proc.stdout and " # " in proc.stdout
    proc = run("--game", "numberline", "score", "DDDDDLLLLL D")
    assert "game over: a draw, 5 to 5" in proc.stdout
    proc = run("--game", "numberline", "--rules", "ties-to-2", "score", "DDDDDLLLLL D")
    assert "light wins the tie" in proc.stdout


def test_analyse_and_match_for_every_game():
    proc = run("--game", "othello", "analyse", OTHELLO_START, "--level", "2")
    assert proc.returncode == 0 and "best move " in proc.stdout
    proc = run("--game", "numberline", "analyse", NUMBERLINE_EXAMPLE)
    # A dime on 29 captures two pennies: the search sees it wins outright.
    assert "best move 29" in proc.stdout
    for game, rules in (("othello", "standard"), ("io", "7x7"), ("numberline", "standard")):
        proc = run("--game", game, "match", "2", "random", "--games", "2", "--rules", rules,
                   "--jobs", "1")
        assert proc.returncode == 0, proc.stderr
        assert "2 games, rules %s" % rules in proc.stdout


def test_othello_versus_starts_with_the_coin_toss():
    out = stringio.StringIO()
    stdin = stringio.StringIO("edge\ntails\nquit\n")
    play.versus(1, 1, othello.Rules(), stdin, out, game="othello", coin="heads")
    text = out.getvalue()
    assert "'edge' is neither heads nor tails" in text
    assert "The coin shows heads: the computer places first." in text
    assert text.index("The computer plays") < text.index("Game stopped.")


def test_versus_plays_io_to_the_end():
    from iago import iogame
    cells = [iogame.Board(None, iogame.Rules("7x7")).grid.cell_name(c) for c in range(49)]
    out = stringio.StringIO()
    outcome = play.versus(1, 2, iogame.Rules("7x7"), stringio.StringIO("\n".join(cells * 60)),
                          out, game="io")
    assert outcome is not None and outcome.dark_score + outcome.light_score == 49
    assert out.getvalue().rstrip().endswith(("You win.", "You lose."))


@pytest.mark.parametrize("args,fragments", [
    (["--game", "chess", "moves", "x"], ["unknown game 'chess'"]),
    (["--game", "io", "--rules", "8x8", "show"], ["--rules", "'8x8'"]),
    (["--game", "othello", "play", OTHELLO_START, "E5"], ["e5 is not a legal move"]),
    (["--game", "othello", "play", OTHELLO_START, "z9"], ["z9"]),
    (["--game", "othello", "play", OTHELLO_START, "a1"], ["a1 is not a legal move for black"]),
    (["--game", "numberline", "moves", "10 X"], ["'X'"]),
    (["--game", "numberline", "--rules", "holes=30", "show"], ["'30'"]),
])
def test_bad_input_is_one_line_and_status_2(args, fragments):
    assert_bad_input(run(*args), *fragments)
