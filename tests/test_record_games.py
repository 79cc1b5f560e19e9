"""Game records for every game: the Game header chooses the rules module."""

import random

import pytest

import mpvm

from iago import InvalidRecordError, iogame, numberline, othello, record


def finished(module, rules, seed):
    board = module.new_board(rules)
    rnd = random.Random(seed)
    while not board.is_game_over():
        board.push(rnd.choice(list(board.legal_moves)))
    return board


@pytest.mark.parametrize("module,rules_name", [(othello, "standard"), (iogame, "7x7"),
                                               (iogame, "9x9"), (numberline, "ties-to-2+holes=22")])
def test_a_finished_game_round_trips(module, rules_name):
    board = finished(module, module.Rules.parse(rules_name), 7)
    text = record.write(board, [("Dark", "Ann")])
    assert text.startswith('[Game "%s"]' % module.TITLE)
    game = record.parse(text)
    replayed = game.board()
    assert replayed.text() == board.text() and replayed.GAME == module.GAME
    assert game.rules() == board.rules
    assert record.parse(text).text() == text


def test_othello_record_with_a_draw_and_a_start_by_light():
    board = othello.new_board(first=2)
    assert record.write(board).splitlines()[:3] == [
        '[Game "Othello"]', '[Rules "standard"]', '[Position "8/8/8/3DL3/3LD3/8/8/8 L"]']
    drawn = othello.Board("8/8/8/8/8/8/8/D6L D")
    text = record.write(drawn)
    assert "1/2-1/2" in text and record.parse(text).result == "1/2-1/2"


def test_errors_name_the_game_and_the_move():
    with pytest.raises(InvalidRecordError, match="unknown game 'Chess'"):
        record.parse('[Game "Chess"]\n\n1. e4 *\n')
    with pytest.raises(InvalidRecordError, match="'E5'"):
        record.parse('[Game "Number line"]\n\n1. E5 *\n')
    with pytest.raises(InvalidRecordError, match="move 1.: a1 is not a legal move"):
        record.parse('[Game "Othello"]\n\n1. a1 *\n')
    with pytest.raises(InvalidRecordError, match="Rules header"):
        record.parse('[Game "Io"]\n[Rules "8x8"]\n\n*\n')


def othello_game(seed):
    board = othello.new_board()
    rnd = random.Random(seed)
    while not board.is_game_over():
        board.push(rnd.choice(list(board.legal_moves)))
    return board


def test_an_othello_draw_with_a_pass_reads_and_writes():
    # Seed 40: dark's h7 leaves light without a placement, dark places again (b8) and the
    # game ends 32-32 on a full board.
    board = othello_game(40)
    text = record.write(board)
    assert text.splitlines()[:5] == ['[Game "Othello"]', '[Rules "standard"]',
                                     '[Result "1/2-1/2"]', '[Score "32-32"]', '']
    assert text.endswith(" 30. h7 b8 1/2-1/2\n")
    game = record.parse(text)
    assert game.result == "1/2-1/2" and game.moves == board.move_stack
    assert game.board().text() == board.text() and game.text() == text
    with pytest.raises(InvalidRecordError, match="it ended 1/2-1/2"):
        record.parse(text.replace("1/2-1/2", "1-0"))


def test_an_othello_game_ending_before_the_board_is_full():
    board = othello_game(116)
    assert board.ply() == 59 and board.outcome().result() == "0-1"
    text = record.write(board)
    assert '[Score "25-38"]' in text and text.endswith(" 30. c1 0-1\n")
    assert record.parse(text).board().text() == board.text()


@pytest.mark.parametrize("header,module", [("Othello", othello), ("othello", othello),
                                           ("OTHELLO", othello), ("Io", iogame),
                                           ("Number line", numberline),
                                           ("number line", numberline),
                                           ("numberline", numberline)])
def test_the_game_header_is_the_title_or_the_name_in_any_case(header, module):
    game = record.parse('[Game "%s"]\n\n*\n' % header)
    assert game.module() is module and game.board().GAME == module.GAME


def test_othello_cells_are_read_in_any_case_and_written_as_the_grid_names_them():
    text = '[Game "Othello"]\n\n1. D3 C5 2.F6 *\n'
    game = record.parse(text)
    assert game.text().endswith("1. d3 c5 2. f6 *\n")
    with pytest.raises(InvalidRecordError, match="Rules header: unknown rules 'loose'"):
        record.parse('[Game "Othello"]\n[Rules "loose"]\n\n*\n')
    with pytest.raises(InvalidRecordError, match="unknown token 'i9'"):
        record.parse('[Game "Othello"]\n\n1. i9 *\n')


RECORD_PROGRAM = """
from iago import othello, record
board = othello.new_board(first=2)
step = 0
while not board.is_game_over():
    moves = list(board.legal_moves)
    board.push(moves[(step * 7) % len(moves)])
    step += 1
text = record.write(board, [("Dark", "Ann")])
print(text)
print(record.parse(text.replace('"Othello"', '"othello"')).board().text())
"""


@pytest.mark.micropython
def test_othello_records_read_and_write_the_same_under_micropython():
    expected = {}
    exec(compile(RECORD_PROGRAM.replace("print(", "out.append("), "<record>", "exec"),
         {"out": expected.setdefault("out", [])})
    got = mpvm.run_unix(RECORD_PROGRAM)
    assert got == "\n".join(expected["out"]) + "\n"
    assert got.startswith('[Game "Othello"]\n[Dark "Ann"]\n[Rules "standard"]\n'
                          '[Position "8/8/8/3DL3/3LD3/8/8/8 L"]\n')
