"""Property tests (hypothesis): invariants of the rules package, and agreement with
tests/reference_iago.py (a second, plain implementation) along random games in every rule set.

Example counts are bounded so the whole file runs in well under a minute.
"""

import random

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

import iago
import reference_iago as ref
from positions import RULE_SETS, board, legal, random_board, state_map

SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow])
NO_SHRINK = (Phase.explicit, Phase.reuse, Phase.generate)

rule_sets = st.sampled_from(RULE_SETS)
seeds = st.integers(min_value=0, max_value=2 ** 32 - 1)
plies = st.integers(min_value=0, max_value=60)


def snapshot(b):
    """Everything observable about a board's present position."""
    return (b.cells(), b.turn, b.text(), legal(b), b.count_moves(), b.can_claim(),
            b.has_free_placement(), b.is_game_over(), b.scores(), b.move_stack)


def ref_position(b):
    return ref.from_text(b.text())


# --- push / pop ---------------------------------------------------------------------------

@settings(max_examples=300, **SETTINGS)
@given(rules=rule_sets, seed=seeds, ply=plies, claim=st.booleans())
def test_push_then_pop_restores_exactly(rules, seed, ply, claim):
    b = random_board(seed, rules, ply)
    if claim:
        b.claim_penalty()   # granted only under the penalty option after a miss
    before = snapshot(b)
    for cell in list(b.legal_moves):
        b.push(cell)
        assert b.pop() == cell
        assert snapshot(b) == before, iago.cell_name(cell)


@settings(max_examples=150, **SETTINGS)
@given(rules=rule_sets, seed=seeds, ply=plies)
def test_legal_moves_view_is_consistent(rules, seed, ply):
    """The view iterates in cell order; len, count(), bool, `in` and count_moves agree."""
    b = random_board(seed, rules, ply)
    moves = list(b.legal_moves)
    assert moves == sorted(set(moves))
    assert len(b.legal_moves) == b.legal_moves.count() == b.count_moves() == len(moves)
    assert bool(b.legal_moves) == bool(moves) == (not b.is_game_over())
    assert [c for c in range(61) if c in b.legal_moves] == moves
    assert all(b.cell(c) == iago.EMPTY for c in moves)
    fresh = board(b.text(), rules)          # count_moves without a cached list first
    assert fresh.count_moves() == len(moves)


@settings(max_examples=80, **SETTINGS)
@given(rules=rule_sets, seed=seeds, ply=plies, extra=st.integers(1, 20))
def test_a_run_of_pushes_pops_back_to_the_start(rules, seed, ply, extra):
    """A claim is not a placement: popping back over the placements returns to the position
    as it was after any claim made before the first of them."""
    b = random_board(seed, rules, ply)
    rng = random.Random(seed ^ 0x5A5A)
    if b.can_claim() and rng.random() < 0.5:
        b.claim_penalty()
    before = snapshot(b)
    made = []
    while len(made) < extra and not b.is_game_over():
        if made and b.can_claim() and rng.random() < 0.5:
            b.claim_penalty()
        cell = rng.choice(list(b.legal_moves))
        b.push(cell)
        made.append(cell)
    assert b.move_stack[len(b.move_stack) - len(made):] == made
    for cell in reversed(made):
        assert b.pop() == cell
    assert snapshot(b) == before


@settings(max_examples=150, **SETTINGS)
@given(rules=rule_sets, seed=seeds, ply=plies, claim=st.booleans())
def test_copy_is_equal_and_independent(rules, seed, ply, claim):
    b = random_board(seed, rules, ply)
    if claim:
        b.claim_penalty()
    before = snapshot(b)
    c = b.copy()
    assert c.rules == b.rules
    assert snapshot(c) == before
    if not c.is_game_over():
        c.push(list(c.legal_moves)[-1])
        assert snapshot(b) == before          # the original does not see the copy's move
        c.pop()
        assert snapshot(c) == before
        b.push(list(b.legal_moves)[0])
        assert snapshot(c) == before          # nor the copy the original's
        b.pop()
    if b.move_stack:                          # the copy keeps the history to take back
        assert c.pop() == b.pop()
        assert snapshot(c) == snapshot(b)


# --- position text ------------------------------------------------------------------------

@settings(max_examples=100, **SETTINGS)
@given(rules=rule_sets, seed=seeds, ply=plies)
def test_text_round_trips_for_reachable_positions(rules, seed, ply):
    b = random_board(seed, rules, ply)
    text = b.text()
    again = board(text, rules)
    assert again.text() == text
    assert again.cells() == b.cells() and again.turn == b.turn
    assert legal(again) == legal(b)
    assert (again.can_claim(), again.has_free_placement()) == (b.can_claim(),
                                                                b.has_free_placement())
    fresh = iago.Board(rules=iago.Rules.parse(rules))
    fresh.set_text(text)
    assert fresh.text() == text and fresh.move_stack == []
    # The reference reads the same text to the same cells.
    assert state_map(b) == ref.from_text(text).cells


cell_states = st.sampled_from(".DLdl")


@settings(max_examples=300, **SETTINGS)
@given(states=st.lists(cell_states, min_size=61, max_size=61), side=st.sampled_from("DL"),
       field=st.sampled_from([None, "miss", "free"]))
def test_text_round_trips_for_any_cells(states, side, field):
    position = ref.RefPosition(dict(zip(ref.NAMES, states)), side, field)
    text = ref.to_text(position)
    b = board(text, "standard+penalty")
    assert b.text() == text
    assert state_map(b) == position.cells
    assert b.turn == (iago.DARK if side == "D" else iago.LIGHT)
    # One '.' per empty cell reads the same as the digits.
    dotted = "/".join("".join(position.cells[row + str(n)]
                              for n in range(ref.ROW_RANGES[row][0], ref.ROW_RANGES[row][1] + 1))
                      for row in "IHGFEDCBA") + " " + side + (" " + field if field else "")
    assert board(dotted, "standard+penalty").text() == text


# --- what a move changes -------------------------------------------------------------------

@settings(max_examples=300, **SETTINGS)
@given(rules=rule_sets, seed=seeds, ply=plies)
def test_a_move_changes_only_the_placed_cell_and_what_it_brackets(rules, seed, ply):
    b = random_board(seed, rules, ply)
    rr = ref.RefRules(rules)
    position = ref_position(b)
    for cell in list(b.legal_moves):
        name = iago.cell_name(cell)
        captured, released = ref.flips(position, name, rr)
        got_captured, got_released = b.flips(cell)
        assert sorted(iago.cell_name(c) for c in got_captured) == sorted(captured), name
        assert sorted(iago.cell_name(c) for c in got_released) == sorted(released), name
        assert b.capture_count(cell) == len(captured)
        before = state_map(b)
        b.push(cell)
        after = state_map(b)
        changed = sorted(n for n in before if before[n] != after[n])
        assert changed == sorted([name] + captured + released), name
        assert after[name] == ("D" if position.turn == "D" else "L")
        for n in captured:
            assert after[n] == before[n].lower() and before[n].isupper()
        for n in released:
            assert after[n] == before[n].upper() and before[n].islower()
        assert sorted(b.last_flips()) == sorted(got_captured + got_released)
        b.pop()


@settings(max_examples=200, **SETTINGS)
@given(rules=rule_sets, seed=seeds)
def test_disks_are_conserved(rules, seed):
    """Every placed disk stays on the board; captives keep their hidden colour, so the dark
    disks (face up or captive) are exactly dark's placements, and the same for light."""
    rng = random.Random(seed)
    b = iago.Board(rules=iago.Rules.parse(rules))
    placed = {"D": [], "L": []}
    while not b.is_game_over():
        if b.can_claim() and rng.random() < 0.5:
            b.claim_penalty()
        side = "D" if b.turn == iago.DARK else "L"
        cell = rng.choice(list(b.legal_moves))
        b.push(cell)
        placed[side].append(iago.cell_name(cell))
        now = state_map(b)
        for s in "DL":
            assert all(now[n] in (s, s.lower()) for n in placed[s])
            assert sum(1 for v in now.values() if v in (s, s.lower())) == len(placed[s])
        assert sum(1 for v in now.values() if v != ".") == len(b.move_stack)
    assert len(placed["D"]) <= 31 and len(placed["L"]) <= 30


# --- whole games ---------------------------------------------------------------------------

@settings(max_examples=300, **SETTINGS)
@given(rules=rule_sets, seed=seeds)
def test_every_game_ends_with_a_full_inner_area_and_a_winner(rules, seed):
    b = random_board(seed, rules)
    assert b.is_game_over()
    assert all(b.cell(c) != iago.EMPTY for c in iago.INNER_AREA)
    assert list(b.legal_moves) == [] and b.count_moves() == 0
    outcome = b.outcome()
    assert outcome is not None and outcome.winner in (iago.DARK, iago.LIGHT)
    assert outcome.scoring == b.rules.scoring
    rr = ref.RefRules(rules)
    position = ref_position(b)
    assert (outcome.dark_score, outcome.light_score) == ref.scores(position, rr)
    winner, how = ref.winner(position, rr)
    assert outcome.winner == (iago.DARK if winner == "D" else iago.LIGHT)
    assert outcome.tie_break == {"score": None, "centre disk": iago.CENTRE_DISK,
                                 "centre captive": iago.CENTRE_CAPTIVE}[how]


@pytest.mark.parametrize("rules", RULE_SETS + ("simple+penalty",))
@settings(max_examples=80, phases=NO_SHRINK, **SETTINGS)
@given(rng=st.randoms(use_true_random=False))
def test_legal_moves_agree_with_the_reference_along_random_games(rules, rng):
    """The package and the reference play the same random game side by side (claims included
    under the penalty option); at every step the legal moves, the position text and the
    penalty state agree. (Not shrunk: a failure names the position and the move itself.)"""
    rr = ref.RefRules(rules)
    b = iago.Board(rules=iago.Rules.parse(rules))
    position = ref.empty_position()
    history = []
    while True:
        where = "after %s" % " ".join(history)
        assert b.text() == ref.to_text(position), where
        moves = legal(b)
        assert moves == ref.legal_moves(position, rr), b.text()
        assert b.count_moves() == len(moves), b.text()
        if not moves:
            break
        assert b.can_claim() == (position.pending == "miss"), b.text()
        if position.pending == "miss" and rng.random() < 0.6:
            assert b.claim_penalty() is True, b.text()
            position = ref.claim(position, rr)
            history.append("claim")
            assert b.text() == ref.to_text(position)
            moves = legal(b)
            assert moves == ref.legal_moves(position, rr), b.text()
        elif position.pending != "miss" and rng.random() < 0.2:
            before = b.text()
            assert b.claim_penalty() is False, before     # refused: nothing changes
            assert b.text() == before and legal(b) == moves
        name = rng.choice(moves)
        if rr.penalty:
            assert b.is_miss(iago.parse_cell(name)) == ref.is_miss(position, name, rr), (
                b.text(), name)
        text = b.text()
        b.play(name)
        position = ref.apply_move(position, name, rr)
        history.append(name)
        assert b.text() == ref.to_text(position), (text, name)
    assert b.is_game_over() and ref.game_over(position)
