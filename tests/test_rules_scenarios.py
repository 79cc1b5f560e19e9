"""Scenario positions for the captions of the rulebook's figures, and a few end-game stories.

The printed figures are lost; only their captions survive in the rulebook text, so each
position here is built to show what its caption says. Expected positions after a move are
worked out by hand (see the drawings); reference_iago checks the same expectations a second
way. Drawings: row I on top, A at the bottom; E1 far left, E5 the centre.
"""

import pytest

import iago
import reference_iago as ref
from positions import board, legal, names


def ref_after(text, move, rules="standard"):
    rr = ref.RefRules(rules)
    return ref.to_text(ref.apply_move(ref.from_text(text), move, rr))


def ref_legal(text, rules="standard"):
    return ref.legal_moves(ref.from_text(text), ref.RefRules(rules))


# --- Fig. 2-3: capture in several directions ------------------------------------------------

# Dark places D4:
#   G   . D . . . . .       (1,0):  E4 F4 light, closed by G4 -> captured
#   F  . . L . . . . .
#   E . . . L . . . . .
#   D  . . . * L L L D      row:    D5 D6 D7 light, closed by D8 (outer) -> captured
#   C   . . L L . . .       (-1,0): C4 B4 light, closed by A4 (outer) -> captured
#   B    . . D L . .        (-1,-1): C3 light, then B2 empty -> nothing
#   A     . . . D .
FIG_2 = "5/6/1D5/2L5/3L5/4LLLD/2LL3/2DL2/3D1 D"
FIG_3 = "5/6/1D5/2l5/3l5/3DlllD/2Ll3/2Dl2/3D1 L"


def test_fig2_3_dark_captures_in_three_directions():
    """Fig. 2-3: when the dark disk is placed, the light disks in between are flipped over by
    capture, in every direction at once; disks in the inner and outer area alike."""
    b = board(FIG_2)
    assert legal(b) == ["D4"]
    assert b.capture_count(iago.parse_cell("D4")) == 7
    b.play("D4")
    assert b.text() == FIG_3
    assert ref_after(FIG_2, "D4") == FIG_3
    assert b.cell(iago.parse_cell("C3")) == iago.LIGHT   # no closing disk on that line


# Dark places A3 (outer area) and captures outer and inner disks:
#   D  . . D . . . . .      (1,0):  B3 C3 light, closed by D3
#   C   . . L . D . .       (1,1):  B4 light, closed by C5
#   B    . . L L . .        (0,-1): A2 light (outer), closed by A1 (outer)
#   A     D L * . .
FIG_2_OUTER = "5/6/7/8/9/2D5/2L1D2/2LL2/DL3 D"


def test_fig2_3_capture_from_and_in_the_outer_area():
    """Fig. 2-3 caption and text: disks in the inner area and outer area can be flipped in the
    same way (a capture may also be placed in the outer area)."""
    b = board(FIG_2_OUTER)
    assert legal(b) == ["A3"]
    b.play("A3")
    assert b.text() == "5/6/7/8/9/2D5/2l1D2/2ll2/DlD2 L"
    assert ref_after(FIG_2_OUTER, "A3") == b.text()


# --- Fig. 4: the forced maximum capture -----------------------------------------------------

# Light to move:
#   G   . . . L . . .
#   F  . . . D . . . .      E4 (dot) captures F5 (G6 light)            -> 1
#   E . . . o * D L . .     E5 (arrow) captures E6 (E7) and D4 (C3)    -> 2
#   D  . . . D . o . .      D6 (dot) captures C6 (B6 light)            -> 1
#   C   . . L . . D .
#   B    . . . . . L
FIG_4 = "5/6/3L3/3D4/5DL2/3D4/2L2D1/5L/5 L"


def test_fig4_light_must_take_the_two_capture_cell():
    """Fig. 4: light must place the disk at the arrow that can capture two disks, not at one of
    the yellow dots that can capture one disk."""
    b = board(FIG_4)
    counts = {n: b.capture_count(iago.parse_cell(n)) for n in ("E5", "E4", "D6")}
    assert counts == {"E5": 2, "E4": 1, "D6": 1}
    assert legal(b) == ["E5"] == ref_legal(FIG_4)
    for dot in ("E4", "D6"):
        with pytest.raises(iago.IllegalMoveError) as error:
            b.play(dot)
        assert dot in str(error.value) and "legal: E5" in str(error.value)
    assert b.text() == FIG_4   # refused moves change nothing
    b.play("E5")
    assert b.text() == "5/6/3L3/3D4/4LdL2/3d4/2L2D1/5L/5 D"


def test_fig4_equal_counts_leave_the_choice():
    """Fig. 4 text: if there is an equal number of disks available for capture, the active
    player can choose where to place them."""
    # Fig. 4 without C3: E5 captures only E6 now, so E4, E5 and D6 all capture one.
    text = "5/6/3L3/3D4/5DL2/3D4/5D1/5L/5 L"
    assert legal(board(text)) == ["D6", "E4", "E5"] == ref_legal(text)


# --- Fig. 5-6: capture and release in three directions at once ------------------------------

# Light places E5 (the centre):
#   G   . . D . L . .       (1,1):  F6 l, closed by G7 L          -> release (placed on centre)
#   F  . . . d l . . .      (1,0):  F5 d, then G5 D (dark)        -> nothing
#   E . L l d * D D L .     (0,1):  E6 E7 dark, closed by E8 L    -> capture
#                           (0,-1): E4 d, E3 l, closed by E2 L    -> release of both colours
FIG_5 = "5/6/2D1L2/3dl3/1Lld1DDL1/8/7/6/5 L"
FIG_6 = "5/6/2D1L2/3dL3/1LLDLddL1/8/7/6/5 D"


def test_fig5_6_light_captures_and_releases_in_three_directions():
    """Fig. 5-6: when the light disk is placed, capture and release occur simultaneously in
    three directions."""
    b = board(FIG_5)
    captured, released = b.flips(iago.parse_cell("E5"))
    assert sorted(names(captured)) == ["E6", "E7"]
    assert sorted(names(released)) == ["E3", "E4", "F6"]
    assert legal(b) == ["E5"]
    b.play("E5")
    assert b.text() == FIG_6
    assert ref_after(FIG_5, "E5") == FIG_6
    # The released dark captive E4 is a dark disk again; the captive F5 stays red.
    assert b.cell(iago.parse_cell("E4")) == iago.DARK
    assert b.cell(iago.parse_cell("F5")) == iago.DARK_CAPTIVE


def test_fig5_6_in_simple_only_the_capture_happens():
    """Variant 2 (Simple): there is no release; once a disk is flipped over it is not put back
    again during the game."""
    b = board(FIG_5, "simple")
    b.play("E5")
    assert b.text() == "5/6/2D1L2/3dl3/1LldLddL1/8/7/6/5 D"


# --- Fig. 7: the 72-72 tie won on the centre ------------------------------------------------

# Light to move, every inner cell filled but the centre; 12 outer cells empty.
#   I     . L . . D
#   H    . L D d L .
#   G   L L d D d l D
#   F  D d L L L D D D
#   E L L D L * L l d D
#   D  . l D D l D l L
#   C   . L l D D D .
#   B    . L D l l D
#   A     L . L . .
# Inner: dark 12, light 11 face up; outer: dark 6, light 6. Light cannot capture or release
# anywhere (no outer cell is legal), so the last-hex rule lets it take the centre.
FIG_7_BEFORE = "1L2D/1LDdL1/LLdDdlD/DdLLLDDD/LLDL1LldD/1lDDlDlL/1LlDDD1/1LDllD/L1L2 L"
FIG_7 = "1L2D/1LDdL1/LLdDdlD/DdLLLDDD/LLDLLLldD/1lDDlDlL/1LlDDD1/1LDllD/L1L2 D"


def test_fig7_tie_at_72_light_wins_with_its_disk_on_the_centre():
    """Fig. 7: the score is tied at 72 (12 x 6) vs. 72 (12 x 6), but light wins because the
    light disk is placed face up in the center hex."""
    b = board(FIG_7)
    assert b.is_game_over()
    assert b.area_counts(iago.DARK) == (12, 6)
    assert b.area_counts(iago.LIGHT) == (12, 6)
    outcome = b.outcome()
    assert outcome == iago.Outcome(iago.LIGHT, 72, 72, iago.PRODUCT, iago.CENTRE_DISK)
    assert outcome.result() == "0-1"
    assert ref.winner(ref.from_text(FIG_7), ref.RefRules("standard")) == ("L", "centre disk")


def test_fig7_reached_by_the_last_hex_rule():
    """Game end note: if the last available hex in the inner area is the center hex, and the
    active player cannot place a disk anywhere in the outer area, the player can ignore the
    restriction and place the disk in the center hex."""
    b = board(FIG_7_BEFORE)
    assert b.area_counts(iago.DARK) == (12, 6) and b.area_counts(iago.LIGHT) == (11, 6)
    assert b.flips(iago.parse_cell("E5")) == ((), ())
    assert legal(b) == ["E5"] == ref_legal(FIG_7_BEFORE)
    b.play("E5")
    assert b.text() == FIG_7
    assert b.outcome().winner == iago.LIGHT and b.outcome().tie_break == iago.CENTRE_DISK


@pytest.mark.parametrize("rules", ["standard", "loose", "loose+simple"])
def test_last_hex_rule_ends_a_game(rules):
    """Game end note (last-hex rule), played out: dark fills E4, then light, with no disk that
    could flip anything, may still place on the centre and the game ends."""
    # All inner cells dark except E4 and E5, light has no disk on the board.
    text = "5/1DDDD1/1DDDDD1/1DDDDDD1/1DD2DDD1/1DDDDDD1/1DDDDD1/1DDDD1/5 D"
    b = board(text, rules)
    assert legal(b) == ["E4"]          # the centre needs a flip while E4 is empty
    b.play("E4")
    assert not b.is_game_over()
    assert legal(b) == ["E5"]
    b.play("E5")
    assert b.is_game_over()
    outcome = b.outcome()
    assert outcome.winner == iago.DARK
    # 36 dark disks inside and none outside: 36 x 1 by product, 36 by count; light 1 either way.
    assert (outcome.dark_score, outcome.light_score) == (36, 1)


# --- releases that help the opponent --------------------------------------------------------

# Dark to move; the only capture is A3 (takes A4, closed by A5), and A3 in the outer area also
# closes the light captives B3 C3 against D3, so they are released to light.
#   D  . . D . . . . .
#   C   . . l . . . .
#   B    . . l . . .
#   A     . . * L D
HELPS_LIGHT = "5/6/7/8/9/2D5/2l4/2l3/3LD D"


def test_forced_capture_that_releases_opponent_captives():
    """Release text: if the location where the disk is placed meets the conditions for a
    release, you must perform the release, even if it is disadvantageous for you."""
    b = board(HELPS_LIGHT)
    assert legal(b) == ["A3"]
    assert b.area_counts(iago.LIGHT) == (0, 1)
    b.play("A3")
    assert b.text() == "5/6/7/8/9/2D5/2L4/2L3/2DlD L"
    assert ref_after(HELPS_LIGHT, "A3") == b.text()
    assert b.area_counts(iago.LIGHT) == (2, 0)
    assert b.scores() == (2, 2)


# Light to move, only the centre empty in the inner area. E5 is light's only capture (D5,
# closed by C5), and from the centre it also releases the dark captive E4 (closed by E3 D):
#   E . L L d * D d L D
#   D  . l D L D l D .
#   C   L D l L L D L
# The last placement does all its flips before the game ends: dark loses D5 and regains E4,
# still 12 x 6 each, and light wins on the centre.
LAST_MOVE_HELPS_DARK = "DD2D/LLLlDL/1dlLLd1/1llDLdD1/1LLd1DdLD/1lDLDlD1/LDlLLDL/1DDlDD/1L1LD L"


def test_last_placement_captures_and_releases_before_the_end():
    """Game end: if the placement of the last disk involved a capture or a release, it will
    perform all of them before the game end; a release that frees opponent captives too."""
    b = board(LAST_MOVE_HELPS_DARK)
    assert legal(b) == ["E5"] == ref_legal(LAST_MOVE_HELPS_DARK)
    captured, released = b.flips(iago.parse_cell("E5"))
    assert names(captured) == ["D5"] and names(released) == ["E4"]
    b.play("E5")
    assert b.cell(iago.parse_cell("E4")) == iago.DARK
    assert b.cell(iago.parse_cell("D5")) == iago.DARK_CAPTIVE
    assert b.area_counts(iago.DARK) == (12, 6) and b.area_counts(iago.LIGHT) == (12, 6)
    assert b.outcome() == iago.Outcome(iago.LIGHT, 72, 72, iago.PRODUCT, iago.CENTRE_DISK)
    assert ref_after(LAST_MOVE_HELPS_DARK, "E5") == b.text()


def test_release_is_not_mandatory():
    """Release text: unlike capture, release is not mandatory; even if a release is possible,
    you can place your disk in another position."""
    # D1 would release D2 (outer placement, closed by D3); dark may play anywhere inside.
    text = "5/6/7/8/9/1lD5/7/6/5 D"
    moves = legal(board(text))
    assert "D1" in moves and "E4" in moves and "B2" in moves
    b = board(text)
    b.play("E4")
    assert b.cell(iago.parse_cell("D2")) == iago.LIGHT_CAPTIVE


def test_a_whole_game_cross_checked_with_the_reference():
    """Gameplay: start with dark and alternate turns until the inner area is full; every
    position of a fixed game agrees with the reference rules."""
    rr = ref.RefRules("standard")
    positions, moves = ref.random_game(2024, rr)
    b = board("5/6/7/8/9/8/7/6/5 D")
    for position, move in zip(positions, moves):
        assert b.text() == ref.to_text(position)
        assert legal(b) == ref.legal_moves(position, rr)
        b.play(move)
    assert b.text() == ref.to_text(positions[-1])
    assert b.is_game_over() and len(moves) >= 37
    winner = ref.winner(positions[-1], rr)
    assert b.outcome().winner == (iago.DARK if winner[0] == "D" else iago.LIGHT)
