"""Move-count (perft) tables: the number of move sequences of a given depth.

A finished game counts as one leaf where it ends; a forced pass (Othello's) is a ply, as in
the published counts. Every literal number below was computed with
tests/reference_iago.py (the plain second implementation) before the package was asked; the
reference re-checks them here up to the depth it can afford (the depth-4 counts from the empty
board took it 30-50 s each, so they stay literal and only the package runs them).

Mid-game positions come from fixed seeded random games played by the reference
(`reference_iago.random_game(seed, rules)` and the position after `plies` entries); a test
replays them so the table cannot drift away from reachable positions.
"""

import pytest

import iago
import reference_iago as ref
from iago import othello
from iago.searchcore import Lcg
from positions import board

EMPTY = "5/6/7/8/9/8/7/6/5 D"

# perft(empty board, depth) for depth 0..4.
EMPTY_BOARD_PERFT = {
    "standard": [1, 36, 1260, 37296, 1069152],
    "loose": [1, 36, 1260, 42888, 1418616],
    "simple": [1, 36, 1260, 37296, 1069152],
    "loose+simple": [1, 36, 1260, 42888, 1418616],
    # The penalty option accepts whatever Loose accepts (a miss is only remembered), and
    # perft makes no claims, so its counts are Loose's.
    "standard+penalty": [1, 36, 1260, 42888, 1418616],
}

# (rules, seed, plies, position text, perft depth 3)
MIDGAME_PERFT_3 = [
    ("standard", 1, 12, "3L1/3Dd1/2L2L1/6d1/3D1D1L1/1L6/1L3D1/6/5 D", 538),
    ("standard", 2, 22, "5/4D1/LddL1l1/3LdlDD/5L1l1/4d1D1/3Ldl1/2LddL/5 D", 2570),
    ("standard", 2, 32, "2LdL/4D1/LddLLL1/3LdlDD/3dDlDl1/2L1dDD1/2LLdl1/2LddL/5 D", 643),
    ("loose", 1, 12, "5/2D1D1/2L4/6D1/1L1D1D1L1/1L6/1L2LD1/6/5 D", 15007),
    ("loose", 1, 22, "5/2DLD1/1LLD3/D1L3D1/1lLD1D1L1/1l2L3/1l2LD1/1DD1D1/5 D", 7857),
    ("loose", 1, 32, "5/2DLdL/1LLD1L1/D1L1L1D1/1lLdLD1l1/1lD1L2D/1LD1LD1/DdDDD1/1L3 D", 3449),
    ("loose", 1, 42, "1L1L1/2dLDL/1LLdLL1/D1LDLddL/1lLdLdDl1/DLD1Ll1D/1LD1lD1/DDDDD1/DL3 D",
     555),
    ("simple", 1, 12, "3L1/3Dd1/2L2L1/6d1/3D1D1L1/1L6/1L3D1/6/5 D", 526),
    ("simple", 5, 22, "L4/1d2D1/1ld2D1/LddLL3/2D2d3/3LLL2/3d3/LdLdL1/5 D", 872),
    ("simple", 41, 32, "D2L1/1lDld1/D1D2L1/1lllddLD/2D1D1ll1/2l1DlD1/DlDlD2/2lL2/2D2 D", 503),
    ("loose+simple", 1, 12, "5/2D1D1/2L4/6D1/1L1D1D1L1/1L6/1L2LD1/6/5 D", 15001),
    ("loose+simple", 1, 22, "4L/2D1d1/1DL1L2/D1l3D1/1lLD1D1L1/1l3L2/1l2LD1/1DD1D1/5 D", 5601),
    ("loose+simple", 1, 32,
     "4L/1LD1d1/1DL1LL1/D1l2DD1/1lLD1Dll1/1lD2l1D/1lDLlD1/1DdDD1/1L3 D", 1125),
    ("standard+penalty", 1, 22,
     "5/2L1D1/2L4/3L2D1/1L1DLDDL1/1L2lD2/1L1D1D1/1L2D1/1D3 D miss", 7227),
    ("standard+penalty", 1, 42,
     "5/1LLLD1/2LLDD1/D2L1DDD/1lDdLDDl1/1llLlDlL/1lDd1D1/1lDLD1/1D3 D free", 3071),
]

# The first standard and the first simple entry are the same position (the two seeded games
# coincide so far): the counts differ (538 vs 526) because releases matter.


def midgame_id(entry):
    return "%s-seed%d-ply%d" % entry[:3]


@pytest.mark.parametrize("rules", sorted(EMPTY_BOARD_PERFT))
@pytest.mark.parametrize("depth", [0, 1, 2, 3, 4])
def test_perft_from_the_empty_board(rules, depth):
    b = iago.Board(rules=iago.Rules.parse(rules))
    assert iago.perft(b, depth) == EMPTY_BOARD_PERFT[rules][depth]
    assert b.text() == EMPTY and b.move_stack == []   # perft leaves the board as it found it


@pytest.mark.slow
@pytest.mark.parametrize("rules, depth", [
    ("standard", 3), ("loose", 3), ("simple", 3), ("loose+simple", 3), ("standard+penalty", 2)])
def test_reference_perft_from_the_empty_board(rules, depth):
    """The reference recomputes the table (about 1.5 s for depth 3)."""
    assert ref.perft(ref.empty_position(), ref.RefRules(rules), depth) == \
        EMPTY_BOARD_PERFT[rules][depth]


def test_perft_depth_1_is_the_legal_move_count():
    b = iago.Board()
    assert iago.perft(b, 1) == b.count_moves() == len(b.legal_moves) == 36


@pytest.mark.parametrize("entry", MIDGAME_PERFT_3, ids=midgame_id)
def test_midgame_position_is_reachable(entry):
    rules, seed, plies, text, _ = entry
    positions, _moves = ref.random_game(seed, ref.RefRules(rules))
    assert ref.to_text(positions[plies]) == text


@pytest.mark.parametrize("entry", MIDGAME_PERFT_3, ids=midgame_id)
def test_perft_3_from_midgame_positions(entry):
    rules, _seed, _plies, text, expected = entry
    b = board(text, rules)
    assert iago.perft(b, 3) == expected
    assert b.text() == text


@pytest.mark.slow
@pytest.mark.parametrize("entry", MIDGAME_PERFT_3, ids=midgame_id)
def test_midgame_divide_agrees_with_the_reference(entry):
    """Per first move (a 'divide'), so a mismatch names the move where the two disagree."""
    rules, _seed, _plies, text, expected = entry
    rr = ref.RefRules(rules)
    position = ref.from_text(text)
    ref_divide = {move: ref.perft(ref.apply_move(position, move, rr), rr, 2)
                  for move in ref.legal_moves(position, rr)}
    b = board(text, rules)
    divide = {}
    for cell in list(b.legal_moves):
        b.push(cell)
        divide[iago.cell_name(cell)] = iago.perft(b, 2)
        b.pop()
    assert divide == ref_divide
    assert sum(ref_divide.values()) == expected


def test_finished_game_is_one_leaf():
    # Light's only move E5 ends the game (the last-hex rule): perft stops there.
    text = "1L2D/1LDdL1/LLdDdlD/DdLLLDDD/LLDL1LldD/1lDDlDlL/1LlDDD1/1LDllD/L1L2 L"
    b = board(text)
    assert [iago.perft(b, d) for d in range(5)] == [1, 1, 1, 1, 1]
    b.play("E5")
    assert b.is_game_over()
    assert iago.perft(b, 3) == 1
    assert ref.perft(ref.from_text(text), ref.RefRules("standard"), 3) == 1


# Dark to move; the inner area is full but C3 and the centre holds a light disk.
#   C   . D * D D D .      C3 ends the game at once: one leaf at any depth
#   B    * d D D D .       B1 releases B2 (closed by B3); then light has five 3-captures
#   A     L d d . .        (E9 E1 I5 A5 I9, each through a dark run from E5)
# So perft(2) = 1 (C3) + 5 (B1, then light) = 6.
ONE_CELL_LEFT = "5/1DDDD1/1DDDDD1/1DDDDDD1/1DDDLDDD1/1DDDDDD1/1D1DDD1/1dDDD1/Ldd2 D"


@pytest.mark.parametrize("rules, counts", [("standard", [1, 2, 6, 16, 46]),
                                           ("loose", [1, 2, 9, 20, 92])])
def test_game_ending_moves_count_as_one_leaf(rules, counts):
    b = board(ONE_CELL_LEFT, rules)
    assert [iago.perft(b, d) for d in range(5)] == counts
    assert [ref.perft(ref.from_text(ONE_CELL_LEFT), ref.RefRules(rules), d)
            for d in range(5)] == counts
    b.play("C3")
    assert b.is_game_over() and iago.perft(b, 4) == 1



# --- Othello: a forced pass is a ply ------------------------------------------------------

_DIRECTIONS = [(df, dr) for df in (-1, 0, 1) for dr in (-1, 0, 1) if df or dr]


def _disks(text):
    """{(file, rank): "D" or "L"} and the side to move, from Othello position text."""
    rows, side = text.split()
    disks = {}
    for r, line in enumerate(rows.split("/")):
        f = 0
        for ch in line:
            if ch.isdigit():
                f += int(ch)
                continue
            if ch in "DL":
                disks[(f, 7 - r)] = ch
            f += 1
    return disks, side


def _turned(disks, side, square):
    out = []
    for df, dr in _DIRECTIONS:
        line = []
        f, r = square[0] + df, square[1] + dr
        while disks.get((f, r)) not in (None, side):
            line.append((f, r))
            f, r = f + df, r + dr
        if line and disks.get((f, r)) == side:
            out += line
    return out


def othello_reference_perft(disks, side, depth):
    """Published-convention perft, plainly: a side with no placement passes, and that pass is
    a move of its own; a game where neither side can place is one leaf."""
    if depth == 0:
        return 1
    other = "L" if side == "D" else "D"
    moves = [(f, r) for f in range(8) for r in range(8)
             if (f, r) not in disks and _turned(disks, side, (f, r))]
    if not moves:
        if not any((f, r) not in disks and _turned(disks, other, (f, r))
                   for f in range(8) for r in range(8)):
            return 1
        return othello_reference_perft(disks, other, depth - 1)
    total = 0
    for square in moves:
        after = dict(disks)
        for s in _turned(disks, side, square) + [square]:
            after[s] = side
        total += othello_reference_perft(after, other, depth - 1)
    return total


# Positions whose trees hold passes, with perft from depth 0 (counting each pass as a ply).
# The first two are 6 placements from the start, where a placement can leave the opponent
# without one at ply 8: the reason perft(9) from the start is 3,005,288, not 3,005,320. The
# last two are endgames with passes and games ending before the depth.
OTHELLO_PASSES = [
    ("8/8/8/3DDD2/3LD3/LLLD4/1L6/8 D", [1, 2, 7, 30, 193, 1479]),
    ("8/8/8/3DDD2/3DD3/2LD4/3L4/3DL3 D", [1, 3, 9, 41, 247, 1706]),
    ("DDDDDDD1/DDDDDDD1/DDLDDDDD/DDLDD1D1/DDDDLDL1/DDDDDDL1/DDDDDDLD/DDDDDDL1 L",
     [1, 1, 4, 16, 43, 117, 188, 205, 205]),
    ("1D1DDDDD/1DDDDDDD/LD1DDDDD/DLLDDD1D/1DLLLLLL/LDLDDLDD/LLDDDDDD/LDDDDDD1 L",
     [1, 6, 16, 69, 134, 367, 443, 530, 531]),
]


@pytest.mark.parametrize("text, counts", OTHELLO_PASSES, ids=range(len(OTHELLO_PASSES)))
def test_othello_perft_counts_a_forced_pass_as_a_ply(text, counts):
    b = othello.Board(text)
    assert [othello.perft(b, d) for d in range(len(counts))] == counts
    assert b.text() == text and b.move_stack == []
    disks, side = _disks(text)
    assert [othello_reference_perft(disks, side, d) for d in range(len(counts))] == counts


def test_othello_perft_matches_the_reference_in_random_endgames():
    checked = 0
    for seed in range(40):
        b = othello.new_board()
        rng = Lcg(seed)
        while not b.is_game_over() and sum(1 for v in b.cells() if v == othello.EMPTY) > 6:
            moves = list(b.legal_moves)
            b.push(moves[rng.below(len(moves))])
        if b.is_game_over():
            continue
        disks, side = _disks(b.text())
        for depth in range(1, 9):
            assert othello.perft(b, depth) == othello_reference_perft(disks, side, depth), \
                (b.text(), depth)
        checked += 1
    assert checked >= 30
