"""The `iago` command, run as a user runs it (the installed console script)."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

import iago
from iago import record

EMPTY = iago.STARTING_TEXT
IAGO = str(Path(sys.executable).parent / "iago")
# Dark's first disk on E4, light's on E6: dark then captures nothing yet.
AFTER_E4 = "5/6/7/8/3D5/8/7/6/5 L"
AFTER_E4_E6 = "5/6/7/8/3D1L3/8/7/6/5 D"


def run(*args, stdin=None, timeout=120):
    # The timeout only stops a hang: it is no timing target (those are make bench's).
    env = dict(os.environ, NO_COLOR="1")
    return subprocess.run([IAGO] + list(args), input=stdin, capture_output=True, text=True,
                          env=env, timeout=timeout)


def assert_bad_input(proc, *fragments):
    """Exit status 2 and one line on stderr (README: "ends with one line on stderr")."""
    assert proc.returncode == 2
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("iago: "), proc.stderr
    for fragment in fragments:
        assert fragment in lines[0]


def test_moves_lists_legal_moves_in_cell_order():
    proc = run("moves", EMPTY)
    assert proc.returncode == 0
    names = proc.stdout.split()
    # INTERPRETATIONS, legal placements step 2: every inner cell but the centre, nothing else.
    assert names == [iago.cell_name(c) for c in iago.INNER_AREA if c != iago.CENTRE]
    assert len(names) == 36


def test_moves_one_line_per_position_and_empty_line_for_finished_game():
    board = iago.Board()
    while not board.is_game_over():
        board.push(list(board.legal_moves)[0])
    proc = run("moves", EMPTY, board.text(), AFTER_E4)
    assert proc.returncode == 0
    lines = proc.stdout.split("\n")
    assert lines[1] == ""
    assert len(lines) == 4 and lines[3] == ""
    assert lines[2].split() == [iago.cell_name(c) for c in iago.Board(AFTER_E4).legal_moves]


def test_moves_reads_positions_from_stdin():
    proc = run("moves", "-", stdin=EMPTY + "\n" + AFTER_E4 + "\n")
    assert proc.returncode == 0
    assert len(proc.stdout.splitlines()) == 2


def test_moves_rules_option_changes_the_answer():
    # Dark D4 and a light disk on D5: dark on D6 captures (forced under standard rules).
    position = "5/6/7/8/9/3DL3/7/6/5 D"
    standard = run("moves", position).stdout.split()
    loose = run("moves", "--rules", "loose", position).stdout.split()
    assert standard == ["D6"]
    assert "D6" in loose and len(loose) > 30


def test_play_prints_position_after_each_move():
    proc = run("play", EMPTY, "E4", "e6")
    assert proc.returncode == 0
    assert proc.stdout.splitlines() == [AFTER_E4, AFTER_E4_E6]


def test_illegal_move_names_it_and_lists_legal_ones_and_keeps_printed_lines():
    proc = run("play", EMPTY, "E4", "E5")
    assert proc.stdout.splitlines() == [AFTER_E4]
    assert_bad_input(proc, "E5", "not a legal move", "legal: B2")


def test_a_move_on_a_taken_hex_says_it_is_taken():
    # Not "not a legal move": the hex holds a disk already (issue: E4 E4).
    proc = run("play", EMPTY, "E4", "E4")
    assert proc.stdout.splitlines() == [AFTER_E4]
    assert_bad_input(proc, "E4 is taken, by dark", "legal: B2")
    assert "not a legal move" not in proc.stderr


def test_unknown_cell_is_named():
    assert_bad_input(run("play", EMPTY, "Z9"), "Z9")
    assert_bad_input(run("play", EMPTY, "A6"), "A6")


def test_malformed_positions_are_named():
    assert_bad_input(run("moves", "5/6/7/8/9/8/7/6/5 X"), "'X'")
    assert_bad_input(run("moves", "5/6/7/8/9/8/7/6 D"), "9 rows")
    assert_bad_input(run("moves", "5/6/7/8/9/8/7/6/Q D"), "'Q'")
    assert_bad_input(run("moves", "nonsense"), "nonsense")


def test_moves_stops_at_the_first_bad_position_keeping_earlier_lines():
    proc = run("moves", EMPTY, "bad position", AFTER_E4)
    assert proc.stdout.count("\n") == 1
    assert_bad_input(proc, "bad position")


def test_perft_counts_leaves_and_times_on_stderr():
    proc = run("perft", "3")
    assert proc.returncode == 0
    assert proc.stdout.strip() == str(iago.perft(iago.Board(), 3))
    assert "perft(3)" in proc.stderr
    proc = run("perft", "--rules", "loose", "2", AFTER_E4)
    expected = iago.perft(iago.Board(AFTER_E4, iago.Rules.parse("loose")), 2)
    assert proc.stdout.strip() == str(expected)


@pytest.mark.parametrize("depth", ["-1", "two", "1.5", "9" * 4301])
def test_bad_depth(depth):
    proc = run("perft", depth)
    assert_bad_input(proc, "depth")
    assert len(proc.stderr) < 200   # a huge depth is not echoed


def test_bad_rules_are_named():
    assert_bad_input(run("moves", "--rules", "strict", EMPTY), "strict")
    assert_bad_input(run("moves", "--rules", "loose+penalty", EMPTY), "penalty")
    assert_bad_input(run("--rules", "strict", "moves", EMPTY), "strict")


def test_unknown_game_is_named():
    assert_bad_input(run("--game", "chess", "perft", "1"), "chess", "othello")


def test_penalty_claim_in_play():
    # Light can capture on D6 but plays elsewhere: a miss that dark may claim.
    position = "5/6/7/8/9/3LD3/7/6/5 L"
    proc = run("play", "--rules", "standard+penalty", position, "B2", "claim", "A1")
    assert proc.returncode == 0
    lines = proc.stdout.splitlines()
    assert lines[0].endswith(" D miss")
    assert lines[1].split()[0].split("/")[-1] == "D4"  # row A, the last row of the text
    refused = run("play", "--rules", "standard+penalty", EMPTY, "E4", "claim")
    assert_bad_input(refused, "claim refused")


def test_show_draws_the_hexes_with_scores():
    proc = run("show", "5/6/7/8/3D1L3/8/7/6/5 D")
    assert proc.returncode == 0
    lines = proc.stdout.splitlines()
    rows = [line for line in lines if line[:1] in "ABCDEFGHI" and line[1:2] == " "]
    assert [r[0] for r in rows] == list("IHGFEDCBA")
    e_row = rows[4].split()
    assert e_row[1:10] == ["-", ".", ".", "D", "*", "L", ".", ".", "-"]
    assert any(line.startswith("dark ") and "1 inner x 0 outer" in line for line in lines)
    assert "\x1b[" not in proc.stdout  # no colour when stdout is not a terminal


def test_show_reads_a_record_file(tmp_path):
    board = iago.Board()
    for name in ("E4", "E6", "D4"):
        board.play(name)
    path = tmp_path / "game.iago"
    path.write_text(record.write(board, [("Dark", "Ann"), ("Light", "Ben")]))
    proc = run("show", str(path))
    assert proc.returncode == 0
    assert "Dark: Ann" in proc.stdout and "3 placements" in proc.stdout
    assert proc.stdout.strip().splitlines()[-1] == board.text()


def test_show_reports_a_bad_record_file(tmp_path):
    path = tmp_path / "bad.iago"
    path.write_text('[Rules "standard"]\n\n1. E4 E5 *\n')
    assert_bad_input(run("show", str(path)), "bad.iago", "E5")
    assert_bad_input(run("show", str(tmp_path / "missing.iago")), "missing.iago")


def test_show_of_a_missing_file_says_there_is_no_such_file(tmp_path):
    # Something that looks like a file name and names none: no such file, not "neither a
    # record file nor a position text".
    proc = run("show", str(tmp_path / "nosuchfile.iago"))
    assert_bad_input(proc, "no such file", "nosuchfile.iago")
    assert "neither" not in proc.stderr
    assert_bad_input(run("show", "nosuchfile"), "nosuchfile", "neither a record file")


def test_show_counts_one_placement_in_the_singular(tmp_path):
    board = iago.Board()
    board.play("E4")
    path = tmp_path / "one.iago"
    path.write_text(record.write(board))
    proc = run("show", str(path))
    assert proc.returncode == 0
    assert "1 placement\n" in proc.stdout and "1 placements" not in proc.stdout


def test_score_gives_both_scores_and_the_winner_with_the_reason():
    # Fig. 7 of the rulebook: 72-72, light wins with its disk face up on the centre.
    board = iago.Board()
    while not board.is_game_over():
        board.push(list(board.legal_moves)[-1])
    proc = run("score", board.text())
    assert proc.returncode == 0
    outcome = board.outcome()
    lines = proc.stdout.splitlines()
    assert lines[0].startswith("dark  %d " % outcome.dark_score)
    assert lines[1].startswith("light %d " % outcome.light_score)
    assert lines[2].startswith("game over: %s wins" % iago.side_name(outcome.winner))


def test_score_of_a_running_game_says_who_moves():
    proc = run("score", AFTER_E4)
    assert proc.stdout.splitlines()[-1] == "light to move"


def test_no_command_is_a_usage_error():
    assert_bad_input(run(), "COMMAND")


def test_show_uses_colour_on_a_terminal():
    import pty
    master, slave = pty.openpty()
    env = dict(os.environ)
    env.pop("NO_COLOR", None)
    proc = subprocess.run([IAGO, "show", "5/6/7/8/3D1L3/8/7/6/5 D"], stdout=slave,
                          stderr=subprocess.PIPE, env=env, timeout=60)
    os.close(slave)
    out = b""
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:
            break
        if not chunk:
            break
        out += chunk
    os.close(master)
    assert proc.returncode == 0
    assert b"\x1b[1;97;40mD\x1b[0m" in out        # the dark disk, white on black
    assert b"\x1b[1;30;47mL\x1b[0m" in out        # the light disk, black on white
