"""The penalty state in position text and at the end of a game."""

import pytest

import iago


def test_penalty_fields_need_the_penalty_option():
    """docs/rules.md, Position text: `miss` and `free` exist only under the penalty option."""
    with pytest.raises(iago.InvalidPositionError) as info:
        iago.Board("5/6/7/8/9/8/7/6/5 D free")
    assert "'free'" in str(info.value) and "penalty" in str(info.value)
    with pytest.raises(iago.InvalidPositionError):
        iago.Board("5/6/7/8/9/8/7/6/5 D miss", iago.Rules.parse("loose"))
    board = iago.Board("5/6/7/8/9/8/7/6/5 D free", iago.Rules.parse("standard+penalty"))
    assert board.has_free_placement()


def test_a_miss_that_ends_the_game_cannot_be_claimed():
    """docs/rules.md, Claim: the game is over, no placement is left to free."""
    rules = iago.Rules.parse("standard+penalty")
    for seed in range(200):
        board = iago.Board(rules=rules)
        pick = seed
        while not board.is_game_over():
            moves = list(board.legal_moves)
            pick = (pick * 1103515245 + 12345) & 0x7FFFFFFF
            board.push(moves[pick % len(moves)])
        last = board.move_stack[-1]
        board.pop()
        if board.is_miss(last):
            board.push(last)
            assert not board.can_claim() and not board.claim_penalty()
            assert not board.text().endswith("miss")
            return
    pytest.fail("no game among 200 ended on a miss")
