"""Game records for every game: the Game header chooses the rules module."""

import random

import pytest

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
