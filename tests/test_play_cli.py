"""`iago match`, `iago analyse` and `iago versus`, run as a user runs them (the installed
console script), plus the pieces of host_sim/play.py they are made of."""

import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import iago
from host_sim import play
from iago import engine

IAGO = str(Path(sys.executable).parent / "iago")
MIDGAME = "2LdL/4D1/LddLLL1/3LdlDD/3dDlDl1/2L1d1D1/3Ldl1/2LddL/5 D"
ALL_CELLS = [iago.cell_name(c) for c in range(61)]


def run(*args, stdin=None):
    env = dict(os.environ, NO_COLOR="1")
    return subprocess.run([IAGO] + list(args), input=stdin, capture_output=True, text=True,
                          env=env, timeout=300)


def assert_bad_input(proc, *fragments):
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert lines[-1].startswith("iago: ")
    assert "Traceback" not in proc.stderr
    for fragment in fragments:
        assert fragment in lines[-1]


# --- match --------------------------------------------------------------------------------

def match_figures(stdout):
    won, lost = map(int, re.search(r"won (\d+), lost (\d+)", stdout).groups())
    low, high = map(float, re.search(r"interval ([\d.]+)% to ([\d.]+)%", stdout).groups())
    return won, lost, low, high


def test_match_reports_wins_losses_and_a_confidence_interval():
    proc = run("match", "2", "random", "--games", "6", "--seed", "3", "--jobs", "2")
    assert proc.returncode == 0, proc.stderr
    won, lost, low, high = match_figures(proc.stdout)
    assert won + lost == 6
    assert 0 <= low <= 100 * won / 6 <= high <= 100
    assert "level 2 against random: 6 games, rules standard, seed 3" in proc.stdout
    assert "as dark" in proc.stdout and "as light" in proc.stdout
    # Not a terminal: progress as plain lines on stderr, the last one complete.
    progress = proc.stderr.strip().splitlines()
    assert progress[-1] == "level 2 vs random: 6/6 games, %d-%d" % (won, lost)
    assert "\r" not in proc.stderr


def test_match_is_reproducible_whatever_the_number_of_processes():
    one = run("match", "greedy", "1", "--games", "4", "--seed", "9", "--jobs", "1")
    two = run("match", "greedy", "1", "--games", "4", "--seed", "9", "--jobs", "2")
    assert one.returncode == two.returncode == 0
    # Everything but the elapsed time on the last line.
    assert one.stdout.splitlines()[:3] == two.stdout.splitlines()[:3]


def test_match_under_other_rules():
    proc = run("match", "1", "greedy", "--games", "2", "--rules", "simple+penalty", "--jobs", "1")
    assert proc.returncode == 0, proc.stderr
    assert "rules simple+penalty" in proc.stdout


def test_match_with_a_boards_node_cap():
    """--nodes plays both levels at a board's cap (Othello's level 5 on a Pico searches 180
    positions a move, gameboard/squares.py): the same games as run_match with that cap."""
    proc = run("--game", "othello", "match", "5", "greedy", "--games", "2", "--jobs", "1",
               "--nodes", "30")
    assert proc.returncode == 0, proc.stderr
    from iago import othello
    capped = play.run_match(5, "greedy", 2, othello.Rules.parse("standard"), nodes=30,
                            game="othello")
    full = play.run_match(5, "greedy", 2, othello.Rules.parse("standard"), game="othello")
    assert proc.stdout.splitlines()[:4][-1].startswith("average score")
    assert proc.stdout.splitlines()[:3] == capped.lines()[:3]
    assert capped.lines()[3].split(",")[0] != full.lines()[3].split(",")[0]


@pytest.mark.parametrize("args,fragment", [
    (["match", "3", "random", "--nodes", "0"], "expected 1 or more"),
    (["match", "6", "random"], "unknown player '6'"),
    (["match", "3", "smart"], "unknown player 'smart'"),
    (["match", "3", "random", "--games", "0"], "expected 1 or more"),
    (["match", "3", "random", "--games", "many"], "expected a whole number"),
    (["match", "3", "random", "--jobs", "-1"], "expected 1 or more"),
    (["match", "3", "random", "--seed", "x"], "seed must be a whole number"),
    (["match", "3", "random", "--rules", "chess"], "unknown rules"),
    (["match", "3"], "required"),
])
def test_match_bad_input(args, fragment):
    assert_bad_input(run(*args), fragment)


def test_wilson_interval():
    assert play.wilson(0, 0) == (0.0, 1.0)
    low, high = play.wilson(50, 100)
    assert round(low, 3) == 0.404 and round(high, 3) == 0.596
    low, high = play.wilson(200, 200)
    assert round(low, 3) == 0.981 and high == 1.0
    low, high = play.wilson(0, 10)
    assert low == 0.0 and round(high, 3) == 0.278


def test_progress_bar_on_a_terminal_redraws_one_line():
    stream = io.StringIO()
    progress = play.Progress(4, 5, "greedy", stream=stream, tty=True)
    result = play.MatchResult(5, "greedy", iago.STANDARD, 4, 0)
    for won in (True, False, True, True):
        result.add(won, True, 10, 5)
        progress.update(result)
    text = stream.getvalue()
    assert text.count("\r") == 4 and text.endswith("\n") and text.count("\n") == 1
    assert "4/4 games  3-1" in text and "[" + "#" * 30 + "]" in text


def test_play_game_is_determined_by_its_arguments():
    a = play.play_game(1, "greedy", iago.STANDARD, seed=5)
    b = play.play_game(1, "greedy", iago.STANDARD, seed=5)
    assert a[0] == b[0] and a[1] == b[1] >= 37


# --- analyse ------------------------------------------------------------------------------

def test_analyse_prints_best_move_expected_score_and_line():
    proc = run("analyse", "--level", "3", MIDGAME)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0].startswith("best move ")
    best = lines[0].split()[-1]
    assert iago.parse_cell(best) in iago.Board(MIDGAME).legal_moves
    assert lines[1].startswith("expected score ") and "for dark" in lines[1]
    pv = lines[2].split()[2:]
    assert lines[2].startswith("principal variation ") and pv[0] == best
    board = iago.Board(MIDGAME)
    for name in pv:
        board.play(name)   # a legal line
    assert board.text() in lines[3]
    assert lines[4].startswith("level 3, depth ")
    assert proc.stdout == run("analyse", "--level", "3", MIDGAME).stdout   # deterministic


def test_analyse_sees_a_forced_win_to_the_end():
    text = "LDDDD/LdDDLl/1DDlDdD/1DLdLdd1/DldDdLlL1/1L1LLlL1/1LLLdL1/1d1dL1/L2L1 D"
    proc = run("analyse", text)
    assert proc.returncode == 0, proc.stderr
    assert "best move A3" in proc.stdout
    assert "dark wins by force" in proc.stdout
    assert "game over" not in proc.stdout


def test_analyse_of_a_finished_game_says_who_won():
    board = iago.Board()
    while not board.is_game_over():
        board.push(list(board.legal_moves)[0])
    proc = run("analyse", board.text())
    assert proc.returncode == 0
    assert proc.stdout.startswith("game over: ")


@pytest.mark.parametrize("args,fragment", [
    (["analyse", "5/6/7 D"], "9 rows"),
    (["analyse", "--level", "9", MIDGAME], "unknown player '9'"),
    (["analyse"], "required"),
])
def test_analyse_bad_input(args, fragment):
    assert_bad_input(run(*args), fragment)


# --- versus -------------------------------------------------------------------------------

def test_versus_plays_a_whole_game_and_reprompts_on_bad_input():
    # Every cell name, again and again: most are illegal at any moment, each legal one is
    # played, so the game runs to its end through many refusals.
    stdin = "nonsense\nmoves\nhint\n" + "\n".join(ALL_CELLS * 40) + "\n"
    proc = run("versus", "--level", "1", "--colour", "dark", stdin=stdin)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "not a cell of the board: 'nonsense'" in out
    assert "legal moves: " in out and "hint: " in out
    assert "is not a legal move for dark" in out and "try again" in out
    assert "The computer plays " in out
    assert "game over: " in out
    assert out.rstrip().endswith(("You win.", "You lose."))
    assert "Traceback" not in proc.stderr


def test_versus_as_light_the_computer_opens_and_quit_stops():
    proc = run("versus", "--colour", "light", "--level", "2", stdin="quit\n")
    assert proc.returncode == 0
    assert proc.stdout.index("The computer plays") < proc.stdout.index("light> ")
    assert "Game stopped." in proc.stdout


def test_versus_end_of_input_ends_cleanly():
    proc = run("versus", stdin="E4\n")
    assert proc.returncode == 0
    assert "End of input" in proc.stdout
    assert proc.stderr == ""


def test_versus_penalty_claims_both_ways():
    rules = iago.Rules.parse("standard+penalty")
    out = io.StringIO()
    # A refused claim is only a message; the game goes on.
    stdin = io.StringIO("claim\nquit\n")
    assert play.versus(1, iago.DARK, rules, stdin, out) is None
    assert "Claim refused" in out.getvalue()


@pytest.mark.parametrize("args,fragment", [
    (["versus", "--colour", "red"], "invalid choice: 'red'"),
    (["versus", "--level", "0"], "unknown player '0'"),
    (["versus", "--rules", "loose+penalty"], "penalty option needs forced capture"),
])
def test_versus_bad_input(args, fragment):
    assert_bad_input(run(*args, stdin=""), fragment)


def test_parse_player():
    assert play.parse_player("Greedy") == engine.GREEDY
    assert play.parse_player(" 5 ") == 5
    with pytest.raises(ValueError):
        play.parse_player("0")


def versus_says(stdin, rules=iago.STANDARD, human=iago.DARK, **kw):
    out = io.StringIO()
    play.versus(1, human, rules, io.StringIO(stdin), out, **kw)
    return out.getvalue()


def test_versus_answers_help_with_its_commands_not_as_a_cell():
    text = versus_says("help\n?\nquit\n")
    assert "not a cell of the board" not in text
    assert text.count("undo      take back your last placement") == 2
    for word in ("moves", "hint", "claim", "quit"):
        assert "\n  %s " % word in text
    assert "'help' lists the commands" in text


def test_versus_undo_takes_back_your_placement_and_the_computers_reply():
    text = versus_says("undo\nE4\nundo\nmoves\nquit\n")
    assert "not a cell of the board" not in text
    assert "Nothing to undo: you have made no placement yet." in text
    reply = re.search(r"The computer plays ([A-I][1-9])\.", text).group(1)
    assert "Taken back: E4, %s." % reply in text
    # Back at the start: dark's every empty hex but the outer ring and the centre.
    after = text.split("Taken back")[1]
    legal = re.search(r"legal moves: (.*)", after).group(1).split()
    assert "E4" in legal and reply in legal and len(legal) == 36


def test_versus_undo_as_light_keeps_the_computers_opening():
    text = versus_says("undo\nquit\n", human=iago.LIGHT)
    assert "Nothing to undo: you have made no placement yet." in text


def test_versus_undo_in_io_takes_back_one_stone():
    from iago import iogame
    board = iogame.new_board(iogame.Rules("7x7"))
    first = board.grid.cell_name(min(board.legal_moves))
    text = versus_says("%s\nundo\nquit\n" % first, rules=iogame.Rules("7x7"), human=iago.LIGHT,
                       game="io")
    assert "Taken back: %s" % first in text


@pytest.mark.parametrize("rules, words", [
    ("standard", "the penalty option is off (play with --rules standard+penalty"),
    ("simple", "the penalty option is off (play with --rules simple+penalty"),
    ("loose", "the penalty option is off; loose rules force no capture"),
])
def test_versus_claim_without_the_penalty_option_says_it_is_off(rules, words):
    text = versus_says("claim\nquit\n", rules=iago.Rules.parse(rules))
    assert words in text
    assert "not a miss" not in text


def test_versus_claim_in_othello_says_it_has_no_penalty_option():
    from iago import othello
    text = versus_says("heads\nclaim\nquit\n", rules=othello.Rules(), game="othello",
                       coin="heads")
    assert "No claim: Othello has no penalty option." in text


@pytest.mark.parametrize("call", ["H", "h", "head", "Heads", " HEADS "])
def test_versus_othello_coin_call_takes_h_and_any_beginning_of_the_word(call):
    from iago import othello
    text = versus_says("%s\nquit\n" % call, rules=othello.Rules(), game="othello",
                       coin="heads")
    assert "neither heads nor tails" not in text
    assert "The coin shows heads: you place first." in text


def test_versus_othello_coin_call_refuses_what_calls_no_face():
    from iago import othello
    text = versus_says("x\n\nedge\nT\nquit\n", rules=othello.Rules(), game="othello",
                       coin="heads")
    assert "'x' is neither heads nor tails" in text
    assert "'' is neither heads nor tails" in text
    assert "The coin shows heads: the computer places first." in text


def test_versus_seed_fixes_the_othello_coin_toss(monkeypatch, capsys):
    # `--seed` fixes the coin toss as it fixes the computer's choices; without it the coin
    # falls at random. The system's random bytes alternate here, so a coin taken from them
    # shows both faces in two runs.
    from host_sim import cli
    falls = iter([b"\x00", b"\x01"] * 8)
    monkeypatch.setattr(play.os, "urandom", lambda n: next(falls))

    def coin(*seed):
        monkeypatch.setattr(sys, "stdin", io.StringIO("heads\nquit\n"))
        cli.main(["--game", "othello", "versus"] + ["--seed", *seed][:2 * len(seed)])
        return re.search(r"The coin shows (\w+)", capsys.readouterr().out).group(1)

    assert coin("0") == coin("0") == coin("0")
    assert {coin(str(seed)) for seed in range(8)} == {"heads", "tails"}
    assert {coin(), coin()} == {"heads", "tails"}     # no seed: the system's random bytes
