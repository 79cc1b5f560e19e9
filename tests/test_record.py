"""Game records: write, parse, replay; errors name the offending token."""

import random

import pytest
from hypothesis import given, settings, strategies as st

import iago
from iago import record

RULE_SETS = ["standard", "loose", "simple", "loose+simple", "standard+penalty", "simple+penalty"]


def random_game(rules_name, seed, claim_rate=0.5, stop=None):
    rng = random.Random(seed)
    board = iago.Board(rules=iago.Rules.parse(rules_name))
    positions = [board.text()]
    while not board.is_game_over() and (stop is None or len(board.move_stack) < stop):
        if board.can_claim() and rng.random() < claim_rate:
            assert board.claim_penalty()
            positions[-1] = board.text()
        board.push(rng.choice(list(board.legal_moves)))
        positions.append(board.text())
    return board, positions


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(RULE_SETS), st.integers(0, 10**6), st.none() | st.integers(0, 40))
def test_replaying_a_record_reproduces_every_position(rules_name, seed, stop):
    board, positions = random_game(rules_name, seed, stop=stop)
    text = record.write(board, [("Dark", "Ann"), ("Light", "Ben")])
    game = record.parse(text)
    assert game.moves == board.move_stack
    assert game.claims == board.claims
    for ply in range(len(positions) - 1):
        replayed = game.board(ply)
        # positions[ply] was taken after any claim before the next placement
        if ply in game.claims:
            replayed.claim_penalty()
        assert replayed.text() == positions[ply]
    assert game.board().text() == board.text()
    assert record.parse(game.text()).text() == game.text()


def test_written_record_has_headers_result_and_score():
    board, _ = random_game("standard", 3)
    text = record.write(board, [("Dark", "Ann"), ("Light", 'Ben "the Bold"'),
                                ("Date", "2026.11.22")])
    lines = text.splitlines()
    assert lines[0] == '[Game "Iago"]'
    assert '[Light "Ben \\"the Bold\\""]' in lines
    assert '[Rules "standard"]' in lines
    outcome = board.outcome()
    assert '[Result "%s"]' % outcome.result() in lines
    assert '[Score "%d-%d"]' % (outcome.dark_score, outcome.light_score) in lines
    assert text.rstrip().endswith(outcome.result())
    assert all(len(line) <= 79 for line in lines)
    game = record.parse(text)
    assert game.header("Light") == 'Ben "the Bold"'
    assert game.header("Date") == "2026.11.22"


def test_unfinished_game_has_result_star():
    board, _ = random_game("standard", 4, stop=6)
    text = record.write(board)
    assert text.rstrip().endswith("*")
    assert '[Result "*"]' in text
    assert record.parse(text).result == "*"


def test_claims_are_written_before_the_placement_they_free():
    # Light misses the capture on D6 by playing B2; dark claims and places on the centre.
    board = iago.Board("5/6/7/8/9/3LD3/7/6/5 L", iago.Rules.parse("standard+penalty"))
    board.play("B2")
    assert board.claim_penalty()
    board.play("E5")
    text = record.write(board)
    assert '[Position "5/6/7/8/9/3LD3/7/6/5 L"]' in text
    assert "1... B2 2. claim E5 *" in text
    assert record.parse(text).board().text() == board.text()


def test_start_position_header_and_light_to_move_numbering():
    board = iago.Board("5/6/7/8/3D5/8/7/6/5 L")
    board.play("E6")
    board.play("D4")
    text = record.write(board)
    assert "1... E6 2. D4 *" in text


def test_move_text_accepts_comments_and_numbers_without_spaces():
    game = record.parse('[Rules "loose"]\n\n1.E4 {a quiet start} E6\n2. D4 *\n')
    assert [iago.cell_name(c) for c in game.moves] == ["E4", "E6", "D4"]
    assert game.rules() == iago.Rules.parse("loose")


@pytest.mark.parametrize("text, fragment", [
    ('[Rules "standard"]\n\n1. E4 Z9 *\n', "'Z9'"),
    ('[Rules "standard"]\n\n1. E4 E5 *\n', "move 1...: E5 is not a legal move"),
    ('[Rules "chess"]\n\n1. E4 *\n', "chess"),
    ('[Rules "standard"\n\n1. E4 *\n', "line 1"),
    ('[Position "5/6/7 D"]\n\n1. E4 *\n', "Position header"),
    ('\n1. E4 * E6\n', "'E6' after the result"),
    ('\n1. E4 {open comment\n', "never closed"),
    ('\n1. E4 E6 1-0\n', "the game is not over"),
    ('[Result "0-1"]\n\n1. E4 *\n', "Result header"),
    ('[Rules "standard+penalty"]\n\n1. E4 claim E6 *\n', "claim refused"),
])
def test_invalid_records_name_the_problem(text, fragment):
    with pytest.raises(iago.InvalidRecordError) as info:
        record.parse(text)
    assert fragment in str(info.value)


def test_wrong_result_for_a_finished_game_is_refused():
    board, _ = random_game("standard", 5)
    text = record.write(board)
    wrong = "0-1" if board.outcome().result() == "1-0" else "1-0"
    tampered = text.replace('[Result "%s"]' % board.outcome().result(), "")
    tampered = tampered.rstrip()[:-3] + wrong + "\n"
    with pytest.raises(iago.InvalidRecordError) as info:
        record.parse(tampered)
    assert "does not match" in str(info.value)
