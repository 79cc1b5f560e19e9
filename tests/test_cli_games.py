"""`iago --game othello|io|numberline` for every subcommand, run as a user runs it."""

import io as stringio
import sys

import pytest

import iago
from iago import games, numberline, othello, record
from host_sim import cli, play
from test_cli import assert_bad_input, run

OTHELLO_START = othello.STARTING_TEXT
NUMBERLINE_EXAMPLE = "1L3D1LD1 L"   # the rule text's example, dimes to move


def test_othello_perft_prints_the_published_counts():
    counts = [run("--game", "othello", "perft", str(d)).stdout.strip() for d in range(1, 7)]
    assert counts == ["4", "12", "56", "244", "1396", "8200"]


@pytest.mark.slow
def test_othello_perft_9_counts_forced_passes_as_the_published_count_does():
    # The first depth where a pass can fall within the count (at ply 8): 3,005,320 leaves if
    # passes were not plies.
    # Three million leaves: about 40 s alone, minutes on a loaded 2-core machine.
    assert run("--game", "othello", "perft", "9", timeout=900).stdout.strip() == "3005288"


@pytest.mark.parametrize("game, rows", [("othello", ["8"] * 7), ("io", ["9"] * 8),
                                        ("numberline", [])])
def test_a_run_of_thousands_of_digits_is_one_line_of_error(game, rows):
    text = "/".join(["9" * 4301] + rows) + " D"
    proc = run("--game", game, "moves", text)
    assert_bad_input(proc, "more than")
    assert len(proc.stderr) < 200


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
    (["--game", "othello", "play", OTHELLO_START, "E5"], ["e5 is taken, by white"]),
    (["--game", "othello", "play", OTHELLO_START, "c3"], ["c3 is not a legal move"]),
    (["--game", "othello", "play", OTHELLO_START, "z9"], ["z9"]),
    (["--game", "othello", "play", OTHELLO_START, "a1"], ["a1 is not a legal move for black"]),
    (["--game", "numberline", "moves", "10 X"], ["'X'"]),
    (["--game", "numberline", "--rules", "holes=30", "show"], ["'30'"]),
])
def test_bad_input_is_one_line_and_status_2(args, fragments):
    assert_bad_input(run(*args), *fragments)


# --- every subcommand with every game, in one process ----------------------------------

GAMES = {
    # game: (rules, a position to look at, a legal placement in it)
    "iago": ("standard", iago.STARTING_TEXT, "E4"),
    "othello": ("standard", OTHELLO_START, "d3"),
    "io": ("7x7", "7/7/7/7/7/7/7 L first", "d4"),
    "numberline": ("holes=22", "2X7 D", "25"),
}


def main(capsys, *args, stdin=""):
    """`iago ARGS` in this process: (exit status, stdout, stderr)."""
    old = sys.stdin
    sys.stdin = stringio.StringIO(stdin)
    try:
        status = cli.main(list(args))
    except SystemExit as exc:
        status = exc.code
    finally:
        sys.stdin = old
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_subcommand_works_for_every_game(capsys, game):
    rules, position, move = GAMES[game]
    module = games.module(game)
    board = module.Board(position, module.Rules.parse(rules))
    base = ["--game", game, "--rules", rules]

    status, out, _ = main(capsys, *base, "moves", position)
    assert status == 0 and out.split() == [board.grid.cell_name(c) for c in board.legal_moves]
    status, out, _ = main(capsys, *base, "play", position, move)
    board.play(move)
    assert status == 0 and out.strip() == board.text()
    status, out, _ = main(capsys, *base, "perft", "2", position)
    assert status == 0 and int(out) == iago.perft(module.Board(position, board.rules), 2)
    status, out, _ = main(capsys, *base, "show", board.text())
    assert status == 0 and board.text() in out and "to move" in out
    status, out, _ = main(capsys, *base, "score", board.text())
    assert status == 0 and out.startswith("dark ") and "to move" in out
    status, out, _ = main(capsys, *base, "analyse", "--level", "2", position)
    assert status == 0 and "best move " in out and "level 2, depth " in out
    status, out, _ = main(capsys, *base, "match", "greedy", "1", "--games", "2", "--jobs", "1")
    assert status == 0 and "greedy against level 1: 2 games, rules %s" % rules in out
    status, out, _ = main(capsys, *base, "versus", "--level", "1",
                          stdin="heads\nmoves\nzz9\nquit\n")
    assert status == 0 and "legal moves: " in out and "Game stopped." in out
    assert "zz9" in out and "try again" in out


def test_iago_stays_the_default(capsys):
    assert main(capsys, "perft", "1")[:2] == (0, "36\n")
    status, out, _ = main(capsys, "--game", "iago", "moves", iago.STARTING_TEXT)
    assert status == 0 and len(out.split()) == 36


def test_othello_perft_from_the_start_to_depth_7():
    proc = run("--game", "othello", "perft", "7")
    assert proc.returncode == 0 and proc.stdout == "55092\n"


def test_show_draws_a_square_board_and_a_number_line(capsys):
    status, out, _ = main(capsys, "--game", "othello", "show")
    lines = out.splitlines()
    assert lines[:9] == ["8  .  .  .  .  .  .  .  . ", "7  .  .  .  .  .  .  .  . ",
                         "6  .  .  .  .  .  .  .  . ", "5  .  .  .  D  L  .  .  . ",
                         "4  .  .  .  L  D  .  .  . ", "3  .  .  .  .  .  .  .  . ",
                         "2  .  .  .  .  .  .  .  . ", "1  .  .  .  .  .  .  .  . ",
                         "   a  b  c  d  e  f  g  h "]
    status, out, _ = main(capsys, "--game", "io", "show")        # 9x9 by default
    assert out.splitlines()[0].startswith("9  . ") and "   a  b  c  d  e  f  g  h  i " in out
    status, out, _ = main(capsys, "--game", "numberline", "show", NUMBERLINE_EXAMPLE)
    assert out.splitlines()[:2] == [
        "  .    L    .    .    .    D    .    L    D    .  ",
        "  20   21   22   23   24   25   26   27   28   29 "]
    assert "dark  2 (pennies)" in out and "light 2 (dimes)" in out


def test_show_takes_the_game_of_a_record_file(tmp_path, capsys):
    board = othello.new_board()
    for move in ("d3", "c5"):
        board.play(move)
    path = tmp_path / "game.txt"
    path.write_text(record.write(board))
    status, out, _ = main(capsys, "show", str(path))
    assert status == 0 and board.text() in out and "   a  b  c " in out
    status, out, _ = main(capsys, "--game", "othello", "show", str(path))
    assert status == 0 and board.text() in out
    status, _, err = main(capsys, "--game", "io", "show", str(path))
    assert status == 2 and "is a game of Othello, not Io" in err


def test_analyse_says_when_a_draw_is_forced(capsys):
    status, out, _ = main(capsys, "--game", "numberline", "analyse", "DLDLDLDL2 L")
    assert "expected score a draw by force" in out
    status, out, _ = main(capsys, "--game", "numberline", "--rules", "ties-to-2", "analyse",
                          "DLDLDLDL2 L")
    assert "expected score light wins by force, on a tie" in out


def test_versus_names_the_side_as_the_game_does(capsys):
    out = stringio.StringIO()
    play.versus(1, iago.LIGHT, numberline.Rules(), stringio.StringIO("quit\n"), out,
                game="numberline")
    assert out.getvalue().startswith("You play light (dimes) against level 1.")


@pytest.mark.parametrize("args,fragments", [
    # a cell of another game
    (["--game", "othello", "play", OTHELLO_START, "i9"], ["'i9'", "a1-h8"]),
    (["--game", "othello", "play", OTHELLO_START, "25"], ["'25'", "a1-h8"]),
    (["--game", "io", "--rules", "7x7", "play", "7/7/7/7/7/7/7 L first", "h8"], ["'h8'"]),
    (["--game", "numberline", "play", NUMBERLINE_EXAMPLE, "e4"], ["'e4'", "20-29"]),
    (["play", iago.STARTING_TEXT, "25"], ["'25'"]),
    # a position of another game
    (["--game", "othello", "moves", iago.STARTING_TEXT], ["8 rows"]),
    (["--game", "numberline", "score", OTHELLO_START], ["8/8/8"]),
    (["--game", "io", "analyse", OTHELLO_START], ["9 rows"]),
    (["moves", OTHELLO_START], ["8/8/8"]),
    # rules of another game, players, depths, games
    (["--game", "othello", "--rules", "loose", "moves", OTHELLO_START], ["'loose'"]),
    (["--game", "numberline", "--rules", "7x7", "show"], ["'7x7'"]),
    (["--game", "othello", "match", "6", "greedy"], ["'6'"]),
    (["--game", "io", "analyse", "--level", "best", "9/9/9/9/9/9/9/9/9 L first"], ["'best'"]),
    (["--game", "numberline", "perft", "-1"], ["-1"]),
    (["--game"], ["--game"]),
    (["--game", "go", "perft", "1"], ["unknown game 'go'", "iago, othello, io, numberline"]),
])
def test_more_bad_input_is_one_line_and_status_2(args, fragments):
    assert_bad_input(run(*args), *fragments)
