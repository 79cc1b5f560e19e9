"""One test per point of INTERPRETATIONS.md (restated in docs/rules.md).

Each test is named after its point and quotes it in the docstring. Positions are written as
position text: rows I..A joined by '/', each row from its lowest number, then the side to move.
Expected values are worked out by hand from the rule text (the drawings show how); where a
whole list is needed it is built from the literal tables below, never from the package.

Drawings put row I on top and row A at the bottom; in a row the number grows to the right,
A1 is bottom left, E1 the far left, E5 the centre:

    I     . . . . .        I5-I9
    H    . . . . . .       H4-H9
    G   . . . . . . .      G3-G9
    F  . . . . . . . .     F2-F9
    E . . . . . . . . .    E1-E9
    D  . . . . . . . .     D1-D8
    C   . . . . . . .      C1-C7
    B    . . . . . .       B1-B6
    A     . . . . .        A1-A5
"""

import random

import pytest

import iago
from positions import board, legal, names, state_map

# --- literal tables from INTERPRETATIONS: Board and names ----------------------------------

ROW_RANGES = [("A", 1, 5), ("B", 1, 6), ("C", 1, 7), ("D", 1, 8), ("E", 1, 9),
              ("F", 2, 9), ("G", 3, 9), ("H", 4, 9), ("I", 5, 9)]
ALL_NAMES = [row + str(n) for row, low, high in ROW_RANGES for n in range(low, high + 1)]
OUTER_NAMES = ("A1 A2 A3 A4 A5 I5 I6 I7 I8 I9 "
               "B1 B6 C1 C7 D1 D8 E1 E9 F2 F9 G3 G9 H4 H9").split()
INNER_NAMES = [n for n in ALL_NAMES if n not in OUTER_NAMES]
EMPTY_TEXT = "5/6/7/8/9/8/7/6/5 D"

# The position of the forced-capture tests (used again by the penalty tests):
#   I     . . . . .
#   H    . . . . . .
#   G   . . . . . . .
#   F  . . . . . . . .
#   E . . . . * L L D .     * E5 (centre) captures E6 E7
#   D  . . . . . . . .
#   C   . . . o L D .       o C4 captures C5 only
#   B    . . . . . .
#   A     * L L D .         * A1 (outer) captures A2 A3
FORCED = "5/6/7/8/5LLD1/8/4LD1/6/1LLD1 D"


def in_cell_order(cell_names):
    return sorted(cell_names, key=ALL_NAMES.index)


def empties(b):
    return [n for n, s in state_map(b).items() if s == "."]


# === Board and names ========================================================================

def test_board_61_cells_named_in_row_order():
    """INTERPRETATIONS: Board and names: 61 hexes; cells named as on an Abalone board, rows A
    to I and numbers 1-9 (cell order A1..A5, B1..B6, ..., I5..I9)."""
    assert len(ALL_NAMES) == 61
    assert [iago.cell_name(c) for c in range(61)] == ALL_NAMES
    assert [iago.parse_cell(n) for n in ALL_NAMES] == list(range(61))
    with pytest.raises(iago.InvalidCellError):
        iago.cell_name(61)


def test_row_ranges_A1_A5_to_I5_I9():
    """INTERPRETATIONS: Board and names: row A holds A1-A5, B1-B6, C1-C7, D1-D8, E1-E9, F2-F9,
    G3-G9, H4-H9, I5-I9."""
    for row, low, high in ROW_RANGES:
        for number in range(1, 10):
            name = row + str(number)
            if low <= number <= high:
                assert iago.cell_name(iago.parse_cell(name)) == name
            else:
                with pytest.raises(iago.InvalidCellError):
                    iago.parse_cell(name)


def test_centre_is_E5():
    """INTERPRETATIONS: Board and names: the centre is E5."""
    assert iago.cell_name(iago.CENTRE) == "E5"
    assert iago.parse_cell("E5") == 30
    # Behaviour: on the empty board every inner cell but E5 is a legal placement.
    assert "E5" not in legal(iago.Board())
    assert "E4" in legal(iago.Board()) and "E6" in legal(iago.Board())


def test_neighbours_of_E5_and_every_cell():
    """INTERPRETATIONS: Board and names: the six neighbours of Xn are X(n-1), X(n+1), the row
    below at n-1 and n, and the row above at n and n+1 (E5 touches E4, E6, D4, D5, F5, F6)."""
    # Light on the six neighbours of E5, dark two steps out on each line:
    #   G   . . D . D . .       G5 G7
    #   F  . . . L L . . .      F5 F6
    #   E . . D L * L D . .     E3 E4 [E5] E6 E7
    #   D  . . . L L . . .      D4 D5
    #   C   . . D . D . .       C3 C5
    b = board("5/6/2D1D2/3LL3/2DL1LD2/3LL3/2D1D2/6/5 D")
    captured, released = b.flips(iago.parse_cell("E5"))
    assert sorted(names(captured)) == ["D4", "D5", "E4", "E6", "F5", "F6"]
    assert released == ()
    assert legal(b) == ["E5"]
    # The package's neighbour table agrees with the rule for every cell.
    for cell in range(61):
        mine = sorted(names(n for n in (iago.hexgrid.neighbour(cell, d) for d in range(6))
                            if n is not None))
        name = iago.cell_name(cell)
        row, number = name[0], int(name[1])
        up, down = chr(ord(row) + 1), chr(ord(row) - 1)
        expected = [row + str(number - 1), row + str(number + 1), down + str(number - 1),
                    down + str(number), up + str(number), up + str(number + 1)]
        assert mine == sorted(n for n in expected if n in ALL_NAMES), name


def test_outer_area_is_the_ring_of_24():
    """INTERPRETATIONS: Board and names: the outer area is every cell of rows A and I plus the
    first and last cell of rows B-H (B1 B6 C1 C7 D1 D8 E1 E9 F2 F9 G3 G9 H4 H9)."""
    assert len(OUTER_NAMES) == 24
    assert names(iago.OUTER_RING) == in_cell_order(OUTER_NAMES)
    # Behaviour: a face-up disk on an outer cell scores as outer area, one on an inner cell
    # as inner area.
    for name in ALL_NAMES:
        b = board(EMPTY_TEXT)
        b.push(iago.parse_cell(name))
        assert b.area_counts(iago.DARK) == ((0, 1) if name in OUTER_NAMES else (1, 0)), name


def test_inner_area_is_the_other_37_with_the_centre():
    """INTERPRETATIONS: Board and names: the inner area is the other 37, the centre hex
    included."""
    assert len(INNER_NAMES) == 37 and "E5" in INNER_NAMES
    assert names(iago.INNER_AREA) == INNER_NAMES
    # The empty board's legal moves are the inner cells without the centre.
    assert legal(iago.Board()) == [n for n in INNER_NAMES if n != "E5"]


@pytest.mark.parametrize("axis, text, move, captured, legal_moves", [
    # Along a row: D C2, L C3; C4 closes C2-C3-C4.
    ("row", "5/6/7/8/9/8/1DL4/6/5 D", "C4", ["C3"], ["C4"]),
    # Along a number: D B2, L C2; D2 closes B2-C2-D2.
    ("number", "5/6/7/8/9/8/1L5/1D4/5 D", "D2", ["C2"], ["D2"]),
    # Along the third axis: D B2, L C3; D4 closes B2-C3-D4 (A1 B2 C3 D4 E5 ...).
    ("third axis", "5/6/7/8/9/8/2L4/1D4/5 D", "D4", ["C3"], ["D4"]),
    # Not a line: D B3, L C3, D4 bends (B3-C3 is along number 3, C3-D4 along the third axis);
    # the only capture is D3, along number 3.
    ("bent", "5/6/7/8/9/8/2L4/2D3/5 D", "D4", [], ["D3"]),
])
def test_lines_run_along_three_axes(axis, text, move, captured, legal_moves):
    """INTERPRETATIONS: Board and names: a line runs along a row, along a number (A1 B1 C1 ...),
    or along the third axis (A1 B2 C3 D4 E5 ...)."""
    b = board(text)
    assert names(b.flips(iago.parse_cell(move))[0]) == captured
    assert legal(b) == legal_moves


# === Position text ===========================================================================

def test_text_of_the_empty_board():
    """INTERPRETATIONS: Position text: the empty board with dark to move is
    `5/6/7/8/9/8/7/6/5 D`."""
    assert iago.Board().text() == EMPTY_TEXT
    assert iago.STARTING_TEXT == EMPTY_TEXT
    assert board(EMPTY_TEXT).cells() == bytes(61)


def test_text_rows_from_I_to_A_lowest_number_first():
    """INTERPRETATIONS: Position text: the nine rows from I down to A joined by `/`, each row
    written from its lowest number to its highest; then the side to move, `D` or `L`."""
    b = board("4L/6/7/8/9/8/7/6/D4 L")
    assert b.cell(iago.parse_cell("I9")) == iago.LIGHT
    assert b.cell(iago.parse_cell("A1")) == iago.DARK
    assert sum(1 for c in range(61) if b.cell(c) != iago.EMPTY) == 2
    assert b.turn == iago.LIGHT
    b = board("L4/6/7/8/9/8/7/6/4D D")
    assert b.cell(iago.parse_cell("I5")) == iago.LIGHT
    assert b.cell(iago.parse_cell("A5")) == iago.DARK
    assert b.turn == iago.DARK
    # And the writer: dark on A1, light on I9, light to move.
    b = iago.Board()
    b.push(iago.parse_cell("A1"))
    b.push(iago.parse_cell("I9"))
    b.pop()
    assert b.text() == "5/6/7/8/9/8/7/6/D4 L"


def test_text_letters_for_disks_and_captives():
    """INTERPRETATIONS: Position text: `D` / `L` a dark / light disk face up; `d` / `l` a
    captive whose hidden colour is dark / light."""
    b = board("4L/1l4/7/8/1d7/8/7/6/D4 L")
    assert b.cell(iago.parse_cell("I9")) == iago.LIGHT
    assert b.cell(iago.parse_cell("H5")) == iago.LIGHT_CAPTIVE
    assert b.cell(iago.parse_cell("E2")) == iago.DARK_CAPTIVE
    assert b.cell(iago.parse_cell("A1")) == iago.DARK
    assert b.text() == "4L/1l4/7/8/1d7/8/7/6/D4 L"


def test_text_writer_compresses_empty_runs():
    """INTERPRETATIONS: Position text: writers always compress empty runs into digits."""
    b = board("..L../....../......./......../..D..l..d/......../......./....../..... D")
    assert b.text() == "2L2/6/7/8/2D2l2d/8/7/6/5 D"
    assert "." not in b.text()
    assert board("5/6/7/8/9/8/7/6/5 L").text() == "5/6/7/8/9/8/7/6/5 L"


def test_text_reader_accepts_dot_for_one_empty_cell():
    """INTERPRETATIONS: Position text: readers accept `.` for one empty cell too."""
    dots = "...../....../......./......../........./......../......./....../..... D"
    assert board(dots).text() == EMPTY_TEXT
    mixed = board("2.L1/.5/7/8/4D4/8/7/6/5 L")
    assert state_map(mixed)["I8"] == "L" and state_map(mixed)["E5"] == "D"
    assert mixed.text() == "3L1/6/7/8/4D4/8/7/6/5 L"
    # docs/rules.md: digits may follow each other (`45` is nine empty cells).
    assert board("5/6/7/8/45/8/7/6/5 D").text() == EMPTY_TEXT
    assert board("5/6/7/8/4D13/8/7/6/5 D").text() == "5/6/7/8/4D4/8/7/6/5 D"


def test_text_optional_trailing_fields():
    """INTERPRETATIONS: Position text: optional trailing fields (for example a pending penalty)
    may follow after another space."""
    for field in ("miss", "free"):
        b = board(FORCED.replace(" D", " L") + " " + field, "standard+penalty")
        assert b.text() == FORCED.replace(" D", " L") + " " + field
    assert board(FORCED + " miss", "standard+penalty").can_claim()
    assert board(FORCED + " free", "standard+penalty").has_free_placement()
    with pytest.raises(iago.InvalidPositionError):
        board(EMPTY_TEXT + " extra")


def test_text_penalty_fields_need_the_penalty_option():
    """docs/rules.md, Position text (decided here): `miss` and `free` exist only under the
    penalty option: the board never writes them otherwise, and a position text that carries
    them under rules without `+penalty` is rejected, naming the field."""
    for rules in ("standard", "loose", "simple"):
        for field in ("miss", "free"):
            with pytest.raises(iago.InvalidPositionError) as caught:
                board(FORCED + " " + field, rules)
            assert repr(field) in str(caught.value)
    b = board(FORCED, "loose")
    b.play("D3")                      # a miss by the standard rules, legal in Loose
    assert b.text() == "5/6/7/8/5LLD1/2D5/4LD1/6/1LLD1 L"
    assert board(FORCED + " miss", "simple+penalty").can_claim()


# === Moves ====================================================================================

def test_capture_unbroken_line_of_opponent_disks_closed_by_own_disk():
    """INTERPRETATIONS: Moves / Capture: one or more adjacent opponent disks face up, in an
    unbroken line, then a disk of the mover face up. Empty cells, captives or the edge in
    between stop it."""
    # Dark plays D4:
    #   G   . D . . . . .      G4 D   (1,0): E4 L, F4 l (captive), G4 D -> stopped by captive
    #   F  . . l . . . . .
    #   E . . . L . . . . .
    #   D  D . L * L L D .     row:   D5 L, D6 L, D7 D  -> captures D5 D6
    #                                 D3 L, D2 empty, D1 D -> stopped by the gap
    #   C   . . . L . . .      C4 L, B4 L, A4 L, then the edge -> nothing
    #   B    . . . L . .
    #   A     . . . L .
    b = board("5/6/1D5/2l5/3L5/D1L1LLD1/3L3/3L2/3L1 D")
    assert legal(b) == ["D4"]
    b.play("D4")
    assert b.text() == "5/6/1D5/2l5/3L5/D1LDllD1/3L3/3L2/3L1 L"


def test_captured_disks_become_captives_keeping_hidden_colour():
    """INTERPRETATIONS: Moves / Capture: captured disks turn red (become captives) and keep
    their hidden colour."""
    b = board("5/6/7/8/9/4DDL1/7/6/5 L")   # D D5 D6, L D7; light plays D4
    b.play("D4")
    assert b.cell(iago.parse_cell("D5")) == iago.DARK_CAPTIVE
    assert b.cell(iago.parse_cell("D6")) == iago.DARK_CAPTIVE
    b = board("5/6/7/8/9/4LLD1/7/6/5 D")   # dark captures light disks
    b.play("D4")
    assert b.cell(iago.parse_cell("D5")) == iago.LIGHT_CAPTIVE
    assert b.cell(iago.parse_cell("D6")) == iago.LIGHT_CAPTIVE
    assert b.text() == "5/6/7/8/9/3DllD1/7/6/5 L"


@pytest.mark.parametrize("case, text, move, released", [
    # D3 D, D4 l, D5 placed: both bracketing disks inner -> no release.
    ("both inner", "5/6/7/8/9/2Dl4/7/6/5 D", "D5", []),
    # D5 D, D6 D7 l, D8 placed (outer).
    ("placed disk outer", "5/6/7/8/9/4Dll1/7/6/5 D", "D8", ["D6", "D7"]),
    # D1 D (outer), D2 D3 l, D4 placed.
    ("far disk outer", "5/6/7/8/9/Dll5/7/6/5 D", "D4", ["D2", "D3"]),
    # E5 D (centre), E4 l, E3 placed.
    ("far disk on centre", "5/6/7/8/3lD4/8/7/6/5 D", "E3", ["E4"]),
    # E7 D, E6 l, E5 placed (centre).
    ("placed disk on centre", "5/6/7/8/5lD2/8/7/6/5 D", "E5", ["E6"]),
])
def test_release_needs_a_bracketing_disk_in_outer_area_or_centre(case, text, move, released):
    """INTERPRETATIONS: Moves / Release: adjacent captives in an unbroken line, then a disk of
    the mover face up, where the placed disk or that far disk (at least one) stands in the
    outer area or on the centre."""
    b = board(text)
    assert move in legal(b)
    assert sorted(names(b.flips(iago.parse_cell(move))[1])) == released
    before = state_map(b)
    b.play(move)
    after = state_map(b)
    for name in released:
        assert (before[name], after[name]) == ("l", "L")
    assert sorted(n for n in ALL_NAMES if before[n] != after[n]) == sorted(released + [move])


def test_release_frees_captives_of_either_colour_to_their_own_colour():
    """INTERPRETATIONS: Moves / Release: captives of either colour; released captives turn back
    to their own colour: a light captive released by dark becomes a light disk again."""
    # A1 D (outer), B2 l, C3 d; dark plays D4 along the third axis.
    b = board("5/6/7/8/9/8/2d4/1l4/D4 D")
    b.play("D4")
    assert b.cell(iago.parse_cell("B2")) == iago.LIGHT
    assert b.cell(iago.parse_cell("C3")) == iago.DARK
    assert b.text() == "5/6/7/8/9/3D4/2D4/1L4/D4 L"


@pytest.mark.parametrize("case, text, after", [
    # A1 D (outer), B2 L, C3 l; D4: the captive run ends at a light disk.
    ("opponent face-up disk", "5/6/7/8/9/8/2l4/1L4/D4 D", "5/6/7/8/9/3D4/2l4/1L4/D4 L"),
    # A1 D, B2 D, C3 l: the far disk is B2 (inner), D4 inner; A1 beyond does not count.
    ("own inner disk first", "5/6/7/8/9/8/2l4/1D4/D4 D", "5/6/7/8/9/3D4/2l4/1D4/D4 L"),
    # A1 D, B2 empty, C3 l: the run is broken by an empty cell.
    ("empty cell", "5/6/7/8/9/8/2l4/6/D4 D", "5/6/7/8/9/3D4/2l4/6/D4 L"),
])
def test_release_stopped_by_face_up_disks_and_gaps(case, text, after):
    """INTERPRETATIONS: Moves / Release: one or more adjacent captives in an unbroken line, then
    a disk of the mover face up (a face-up disk or a gap in between stops the release)."""
    b = board(text)
    assert b.flips(iago.parse_cell("D4")) == ((), ())
    b.play("D4")
    assert b.text() == after


def test_one_placement_flips_in_every_direction():
    """INTERPRETATIONS: Moves: one placement flips in every direction at once."""
    # Dark plays D4: row D5 D6 (closed by D7), up E4 F4 (closed by G4), down-left C3 (B2).
    #   G   . D . . . . .
    #   F  . . L . . . . .
    #   E . . . L . . . . .
    #   D  . . . * L L D .
    #   C   . . L . . . .
    #   B    . D . . . .
    #   A     D . . . .
    b = board("5/6/1D5/2L5/3L5/4LLD1/2L4/1D4/D4 D")
    assert b.capture_count(iago.parse_cell("D4")) == 5
    b.play("D4")
    assert b.text() == "5/6/1D5/2l5/3l5/3DllD1/2l4/1D4/D4 L"


def test_capture_and_release_together():
    """INTERPRETATIONS: Moves: capture in one direction and release in another can happen
    together."""
    # Dark plays E9 (outer): E8 L closed by E7 D -> capture; D8 d closed by C7 D -> release.
    #   E . . . . . . D L *
    #   D  . . . . . . . d
    #   C   . . . . . . D
    b = board("5/6/7/8/6DL1/7d/6D/6/5 D")
    assert sorted(names(b.flips(iago.parse_cell("E9"))[0])) == ["E8"]
    assert sorted(names(b.flips(iago.parse_cell("E9"))[1])) == ["D8"]
    b.play("E9")
    assert b.text() == "5/6/7/8/6DlD/7D/6D/6/5 L"


@pytest.mark.parametrize("rules", ["standard", "simple"])
def test_direction_whose_first_disk_is_a_captive_never_captures(rules):
    """INTERPRETATIONS: Moves: a direction whose first disk is a captive can never capture."""
    # Dark plays D4: C3 l (captive), B2 L, A1 D. Skipping the captive would capture B2.
    b = board("5/6/7/8/9/8/2l4/1L4/D4 D", rules)
    assert b.capture_count(iago.parse_cell("D4")) == 0
    assert b.flips(iago.parse_cell("D4")) == ((), ())
    b.play("D4")
    assert b.cell(iago.parse_cell("B2")) == iago.LIGHT
    assert b.cell(iago.parse_cell("C3")) == iago.LIGHT_CAPTIVE


def test_capture_count_excludes_released_disks():
    """INTERPRETATIONS: Moves: the capture count of a placement is the number of opponent disks
    it captures, all directions together. Released disks do not count."""
    #   G   . . . L L D .      G5 captures G6 G7: count 2
    #   D  . . D . . . . .
    #   C   . . l . . . .      A3 captures A4 (count 1) and releases B3 C3 (closed by D3)
    #   B    . . l . . .
    #   A     . . * L D
    b = board("5/6/3LLD1/8/9/2D5/2l4/2l3/3LD D")
    a3 = iago.parse_cell("A3")
    assert b.capture_count(a3) == 1
    assert sorted(names(b.flips(a3)[1])) == ["B3", "C3"]
    assert b.capture_count(iago.parse_cell("G5")) == 2
    # Forced capture compares capture counts only: 1 capture + 2 releases loses to 2.
    assert legal(b) == ["G5"]


# === Which placements are legal ==============================================================

def test_step1_forced_capture_of_the_largest_count_anywhere():
    """INTERPRETATIONS: Legal placements 1: if any placement would capture, the legal moves are
    exactly the placements with the largest capture count, wherever they stand (outer area and
    centre included)."""
    b = board(FORCED)
    assert legal(b) == ["A1", "E5"]
    assert b.capture_count(iago.parse_cell("C4")) == 1
    with pytest.raises(iago.IllegalMoveError):
        b.play("C4")
    with pytest.raises(iago.IllegalMoveError):
        b.play("D3")
    assert b.count_moves() == 2 and len(b.legal_moves) == 2
    b.play("A1")
    assert b.text() == "5/6/7/8/5LLD1/8/4LD1/6/DllD1 L"


def test_step2_no_capture_inner_cells_and_flipping_outer_cells_and_centre():
    """INTERPRETATIONS: Legal placements 2: otherwise every empty inner cell except the centre;
    plus every empty outer cell and the centre where the placement would capture or release."""
    # No light disk face up, so nothing can be captured.
    #   E . . . . * d D . .     E5 releases E6 (placed on the centre)
    #   D  * l D . . . . .      D1 releases D2 (placed in the outer area)
    b = board("5/6/7/8/5dD2/1lD5/7/6/5 D")
    occupied = {"D2", "D3", "E6", "E7"}
    expected = [n for n in INNER_NAMES if n not in occupied and n != "E5"] + ["D1", "E5"]
    assert legal(b) == in_cell_order(expected)
    assert b.count_moves() == len(expected)


def test_step3_loose_skips_forced_capture():
    """INTERPRETATIONS: Legal placements 3: Loose rules skip step 1: legal moves are always
    those of step 2."""
    b = board(FORCED, "loose")
    occupied = {"A2", "A3", "A4", "C5", "C6", "E6", "E7", "E8"}
    expected = [n for n in INNER_NAMES if n not in occupied and n != "E5"] + ["A1", "E5"]
    assert legal(b) == in_cell_order(expected)
    b.play("D3")   # a placement that captures nothing is fine in Loose
    assert b.text() == "5/6/7/8/5LLD1/2D5/4LD1/6/1LLD1 L"


ALL_INNER_DARK_BUT_CENTRE = "5/1DDDD1/1DDDDD1/1DDDDDD1/1DDD1DDD1/1DDDDDD1/1DDDDD1/1DDDD1/5 L"


@pytest.mark.parametrize("rules", ["standard", "loose", "simple"])
def test_step4_last_hex_rule(rules):
    """INTERPRETATIONS: Legal placements 4: when the centre is the only empty inner cell and no
    outer cell is a legal move, the centre is legal even without a flip."""
    # Every inner cell but E5 dark face up; light has no disk, so it can flip nothing.
    b = board(ALL_INNER_DARK_BUT_CENTRE, rules)
    assert b.flips(iago.parse_cell("E5")) == ((), ())
    assert legal(b) == ["E5"]
    assert b.count_moves() == 1
    b.play("E5")
    assert b.is_game_over()
    # Same but light can release on A4 (A3 A2 d, closed by A1 L; B2 d blocks A1's diagonal):
    # an outer cell is legal, so the centre (no flip) is not.
    #   B    . d D D D .
    #   A     L d d * .
    b = board("5/1DDDD1/1DDDDD1/1DDDDDD1/1DDD1DDD1/1DDDDDD1/1DDDDD1/1dDDD1/Ldd2 L", "standard")
    assert b.flips(iago.parse_cell("E5")) == ((), ())
    assert legal(b) == ["A4"]


def test_step5_unfavourable_release_is_performed():
    """INTERPRETATIONS: Legal placements 5: a placement always performs every capture and
    release it makes, even an unfavourable release."""
    # D1 D (outer), D2 D3 light captives; dark plays D4 (legal anyway: an inner cell) and
    # must hand D2 and D3 back to light.
    b = board("5/6/7/8/9/Dll5/7/6/5 D")
    assert b.area_counts(iago.LIGHT) == (0, 0)
    b.play("D4")
    assert b.text() == "5/6/7/8/9/DLLD4/7/6/5 L"
    assert b.area_counts(iago.LIGHT) == (2, 0)


# === End and score ===========================================================================

def test_game_ends_after_the_placement_that_fills_the_inner_area():
    """INTERPRETATIONS: End and score: the game ends after a placement (with its flips) that
    leaves no empty inner cell."""
    # Inner area full but C3; outer area empty. Dark must take C4 from C3 (C5 D).
    #   C   . D * L D D .
    b = board("5/1DDDD1/1DDLDD1/1DDDlDD1/1DDDLDDD1/1DDDDDD1/1D1LDD1/1DDDD1/5 D")
    assert not b.is_game_over() and b.outcome() is None
    assert legal(b) == ["C3"]
    b.play("C3")
    assert b.is_game_over()
    assert b.cell(iago.parse_cell("C4")) == iago.LIGHT_CAPTIVE   # the flip came first
    assert list(b.legal_moves) == [] and not b.legal_moves and b.count_moves() == 0
    assert all(b.cell(iago.parse_cell(n)) == iago.EMPTY for n in OUTER_NAMES)
    # Dark: 33 inner x 1 (no outer disk); light: E5 and G6 -> 2 x 1.
    outcome = b.outcome()
    assert (outcome.winner, outcome.dark_score, outcome.light_score) == (iago.DARK, 33, 2)
    assert outcome.tie_break is None
    with pytest.raises(iago.IllegalMoveError):
        b.play("A1")


def test_product_score_with_1_for_an_empty_area():
    """INTERPRETATIONS: End and score: Standard and Loose: score = (own face-up disks in the
    inner area, or 1 if none) x (own face-up disks in the outer area, or 1 if none)."""
    # Dark face up: E4 E6 C3 inner, A1 I9 outer -> 3 x 2 = 6.
    # Light face up: D4 D5 F5 F6 inner, none outer -> 4 x 1 = 4.
    b = board("4D/d5/7/3LL3/3DdD3/3LL3/2Dl3/d5/D3l D")
    assert b.area_counts(iago.DARK) == (3, 2)
    assert b.area_counts(iago.LIGHT) == (4, 0)
    assert b.scores() == (6, 4)
    assert b.score(iago.DARK, iago.PRODUCT) == 6
    assert board("4L/6/7/8/9/8/7/6/5 D").scores() == (1, 1)   # no disk at all: 1 x 1
    assert board("4L/6/7/8/9/8/7/6/L4 D").scores() == (1, 2)   # outer only: 1 x 2
    assert board("5/6/7/8/4L4/3LL3/7/6/5 D").scores() == (1, 3)   # inner only: 3 x 1


def test_captives_score_for_nobody():
    """INTERPRETATIONS: End and score: captives score for nobody."""
    # Same position: captives d on B1 H4 E5 and l on A5 C4 add nothing to either side.
    text = "4D/d5/7/3LL3/3DdD3/3LL3/2Dl3/d5/D3l D"
    assert board(text).scores() == (6, 4)
    assert board(text, "simple").scores() == (5, 4)
    assert board(text.replace("d", "1").replace("l", "1")).scores() == (6, 4)


def test_simple_no_release_and_count_score():
    """INTERPRETATIONS: End and score: Simple: no release ever happens, and the score is the
    count of own face-up disks anywhere."""
    # The release positions of the release test do nothing under Simple.
    b = board("5/6/7/8/9/4Dll1/7/6/5 D", "simple")   # D8 would release D6 D7
    assert b.flips(iago.parse_cell("D8")) == ((), ())
    assert "D8" not in legal(b)                         # outer cell without a flip
    b = board("5/6/7/8/9/Dll5/7/6/5 D", "simple")
    b.play("D4")
    assert b.text() == "5/6/7/8/9/DllD4/7/6/5 L"
    assert "E5" not in legal(board("5/6/7/8/5lD2/8/7/6/5 D", "simple"))
    # Count score: dark 3 inner + 2 outer = 5, light 4 + 0 = 4.
    assert board("4D/d5/7/3LL3/3DdD3/3LL3/2Dl3/d5/D3l D", "simple").scores() == (5, 4)
    assert board("4D/d5/7/3LL3/3DdD3/3LL3/2Dl3/d5/D3l D").scores(iago.COUNT) == (5, 4)
    # docs/rules.md (decided here): the count score has no 1-for-zero rule.
    assert board("4L/6/7/8/9/8/7/6/5 D", "simple").scores() == (0, 1)


# Full inner area, 9 face-up disks of each colour inside and 2 outside: 18-18 by product,
# 11-11 by count; only the centre differs.
TIES = {
    "D": "D3L/1llld1/1lLDlL1/1LDlLlLD/1lDdDddl1/1DLDLDd1/1LDlll1/1dDlLL/5 D",
    "L": "D3L/1llld1/1lLDlL1/1LDlLllD/1lDdLddl1/1DLDLDD1/1LDlll1/1dDlLL/5 D",
    "d": "D3L/1llld1/1lLDlL1/1LDlLlLD/1lDddddl1/1DLDLDD1/1LDlll1/1dDlLL/5 D",
    "l": "D3L/1llld1/1lLDlL1/1LDlLlLD/1lDdlddl1/1DLDLDD1/1LDlll1/1dDlLL/5 D",
}


@pytest.mark.parametrize("rules, scores", [("standard", (18, 18)), ("simple", (11, 11)),
                                           ("loose", (18, 18))])
def test_tie_face_up_centre_disk_wins_for_its_owner(rules, scores):
    """INTERPRETATIONS: End and score: ties, in every rule set: a face-up disk on the centre
    wins for its owner."""
    for centre, winner in (("D", iago.DARK), ("L", iago.LIGHT)):
        b = board(TIES[centre], rules)
        assert b.area_counts(iago.DARK) == (9, 2) and b.area_counts(iago.LIGHT) == (9, 2)
        assert b.is_game_over()
        assert b.outcome() == iago.Outcome(winner, scores[0], scores[1], b.rules.scoring,
                                           iago.CENTRE_DISK)


@pytest.mark.parametrize("rules, scores", [("standard", (18, 18)), ("simple", (11, 11)),
                                           ("loose+simple", (11, 11))])
def test_tie_centre_captive_loses_for_its_hidden_colour(rules, scores):
    """INTERPRETATIONS: End and score: a captive on the centre loses for its hidden colour's
    owner."""
    for centre, winner in (("d", iago.LIGHT), ("l", iago.DARK)):
        b = board(TIES[centre], rules)
        assert b.outcome() == iago.Outcome(winner, scores[0], scores[1], b.rules.scoring,
                                           iago.CENTRE_CAPTIVE)


def test_dark_moves_first():
    """INTERPRETATIONS: End and score: dark always moves first."""
    b = iago.Board()
    assert b.turn == iago.DARK
    b.play("E4")
    assert b.turn == iago.LIGHT and b.cell(iago.parse_cell("E4")) == iago.DARK
    assert b.text().endswith(" L")


@pytest.mark.parametrize("rules", ["standard", "loose", "simple", "loose+simple",
                                   "standard+penalty"])
def test_no_pass_there_is_always_a_legal_move(rules):
    """INTERPRETATIONS: End and score: a player never runs out of disks (31 dark, 30 light,
    61 hexes), and the rules always leave at least one legal move, so there is no pass."""
    for seed in range(12):
        rng = random.Random(seed)
        b = board(EMPTY_TEXT, rules)
        placed = {iago.DARK: 0, iago.LIGHT: 0}
        while not b.is_game_over():
            moves = list(b.legal_moves)
            assert moves, b.text()
            assert len(moves) == b.count_moves()
            side = b.turn
            b.play(rng.choice(moves))
            placed[side] += 1
            assert b.turn != side
        assert placed[iago.DARK] <= 31 and placed[iago.LIGHT] <= 30
        assert placed[iago.DARK] - placed[iago.LIGHT] in (0, 1)


# === Penalty option ==========================================================================

def test_penalty_miss_is_accepted_and_remembered():
    """INTERPRETATIONS: Penalty option: the board does not stop a placement that misses the
    forced capture (any placement that Loose rules allow is accepted), but remembers that it
    was a miss."""
    b = board(FORCED, "standard+penalty")
    assert legal(b) == legal(board(FORCED, "loose"))
    assert [b.is_miss(iago.parse_cell(n)) for n in ("D3", "C4", "A1", "E5")] == [
        True, True, False, False]
    with pytest.raises(iago.IllegalMoveError):
        b.play("A5")   # outer, no flip: Loose does not allow it either
    b.play("D3")
    assert b.can_claim()
    assert b.text() == "5/6/7/8/5LLD1/2D5/4LD1/6/1LLD1 L miss"
    b.pop()
    b.play("C4")       # captures 1 where 2 were possible: a miss too
    assert b.can_claim()
    b.pop()
    b.play("A1")
    assert not b.can_claim()
    assert not b.text().endswith("miss")


def test_penalty_claim_grants_a_free_placement_anywhere():
    """INTERPRETATIONS: Penalty option: if the previous placement really was a miss, that
    player's next placement may go on any empty cell, centre and outer area included, ignoring
    rules 1-4."""
    b = board(FORCED, "standard+penalty")
    b.play("D3")
    assert b.claim_penalty() is True
    assert b.has_free_placement()
    assert b.text() == "5/6/7/8/5LLD1/2D5/4LD1/6/1LLD1 L free"
    assert legal(b) == in_cell_order(empties(b))
    assert len(b.legal_moves) == 52
    # I5: outer, no flip, and a miss of light's captures (A5, C7, E9) - yet accepted.
    b.play("I5")
    assert b.text() == "L4/6/7/8/5LLD1/2D5/4LD1/6/1LLD1 D"
    assert not b.has_free_placement() and not b.can_claim()
    # Subsequent turns are governed by the normal rules again.
    assert "I6" not in legal(b)


def test_penalty_free_placement_still_flips_as_usual():
    """INTERPRETATIONS: Penalty option: the (free) placement still flips as usual."""
    b = board(FORCED, "standard+penalty")
    b.play("D3")
    b.claim_penalty()
    b.play("E9")       # E8 D closed by E7 L
    assert b.text() == "5/6/7/8/5LLdL/2D5/4LD1/6/1LLD1 D"
    # A free placement on the centre beside its own disks flips nothing.
    b = board(FORCED, "standard+penalty")
    b.play("D3")
    b.claim_penalty()
    b.play("E5")
    assert b.text() == "5/6/7/8/4LLLD1/2D5/4LD1/6/1LLD1 D"


def test_penalty_claim_for_a_non_miss_is_refused_and_changes_nothing():
    """INTERPRETATIONS: Penalty option: a claim for a move that was not a miss is refused and
    changes nothing."""
    b = board(FORCED, "standard+penalty")
    b.play("A1")
    text, moves = b.text(), legal(b)
    assert b.claim_penalty() is False
    assert b.text() == text and legal(b) == moves
    assert not b.has_free_placement() and not b.can_claim()
    # Also refused on the empty board, where nothing was played.
    b = board(EMPTY_TEXT, "standard+penalty")
    assert b.claim_penalty() is False and b.text() == EMPTY_TEXT


def test_penalty_unclaimed_miss_is_forgotten_after_the_next_placement():
    """INTERPRETATIONS: Penalty option: a miss that nobody points out is forgotten once the
    next placement is made."""
    b = board(FORCED, "standard+penalty")
    b.play("D3")
    assert b.can_claim()
    b.play("E9")       # light does not claim; E9 takes one of light's 1-captures: no miss
    assert not b.can_claim()
    assert b.claim_penalty() is False
    assert b.text() == "5/6/7/8/5LLdL/2D5/4LD1/6/1LLD1 D"


def test_penalty_needs_forced_capture_not_loose():
    """INTERPRETATIONS: Penalty option (with standard or Simple rules); the penalty option can
    be switched on with any rule set that has forced capture."""
    with pytest.raises(iago.InvalidRulesError):
        iago.Rules.parse("loose+penalty")
    with pytest.raises(iago.InvalidRulesError):
        iago.Rules(forced_capture=False, penalty=True)
    for name in ("standard+penalty", "simple+penalty"):
        rules = iago.Rules.parse(name)
        assert rules.penalty and rules.forced_capture
    # Simple with the penalty: a miss is remembered too.
    b = board(FORCED, "simple+penalty")
    b.play("D3")
    assert b.can_claim()


# docs/rules.md "decided here" details of the penalty option.

def test_penalty_free_placement_is_never_itself_a_miss():
    """docs/rules.md, Penalty option / Claim (decided here): a free placement granted by a
    claim is never itself a miss, even if it ignores an available capture."""
    b = board(FORCED, "standard+penalty")
    b.play("D3")
    b.claim_penalty()
    i5 = iago.parse_cell("I5")
    assert b.capture_count(iago.parse_cell("E9")) == 1 and b.capture_count(i5) == 0
    assert b.is_miss(i5) is False
    b.play("I5")
    assert not b.can_claim() and b.claim_penalty() is False


# Dark to move; B4 is the last empty inner cell. A1 (B1 C1 D1, closed by E1) and B6 capture
# three each, so B4 is a miss - and the placement that ends the game.
LAST_PLACEMENT_MISS = "DDLDD/lDLdLl/DlLDDDD/1DdLDLll/DlDLLLLDD/LdLLDDdL/LDLlDLL/LDD1d1/3L1 D"


def test_penalty_miss_by_the_final_placement_cannot_be_claimed():
    """docs/rules.md, Penalty option / Claim (decided here): a miss by the placement that ends
    the game cannot be claimed: the game is over, so there is no placement left to free."""
    b = board(LAST_PLACEMENT_MISS, "standard+penalty")
    b4 = iago.parse_cell("B4")
    assert b.capture_count(iago.parse_cell("A1")) == 3 and b.capture_count(b4) == 0
    assert b.is_miss(b4)
    b.play("B4")
    assert b.is_game_over()
    assert not b.can_claim() and b.claim_penalty() is False
    assert b.text() == "DDLDD/lDLdLl/DlLDDDD/1DdLDLll/DlDLLLLDD/LdLLDDdL/LDLlDLL/LDDDd1/3L1 L"
    assert b.outcome() is not None


# === Variants are flags ======================================================================

@pytest.mark.parametrize("name, forced, release, scoring, penalty", [
    ("standard", True, True, "product", False),
    ("loose", False, True, "product", False),
    ("simple", True, False, "count", False),
    ("loose+simple", False, False, "count", False),
    ("simple+loose", False, False, "count", False),
    ("standard+penalty", True, True, "product", True),
    ("simple+penalty", True, False, "count", True),
])
def test_variants_are_flags(name, forced, release, scoring, penalty):
    """INTERPRETATIONS: Variants are flags: Standard = forced capture on, release on, product
    score. Loose = forced capture off. Simple = release off, count score. The flags combine
    (Loose Simple is allowed)."""
    rules = iago.Rules.parse(name)
    assert (rules.forced_capture, rules.release, rules.scoring, rules.penalty) == (
        forced, release, scoring, penalty)
    assert iago.Rules.parse(rules.name()) == rules
    with pytest.raises(iago.InvalidRulesError):
        iago.Rules.parse(name + "+turbo")


def test_rules_names_combine_in_any_order_and_case():
    """docs/rules.md, Rules names (decided here): words joined by `+` in any order and any
    letter case; `standard` adds nothing; the board writes the names of the table;
    `loose+penalty` and `loose+simple+penalty` are rejected."""
    parse = iago.Rules.parse
    assert parse("LOOSE") == parse("loose") and parse("Simple+Loose") == parse("loose+simple")
    assert parse("standard+loose") == parse("loose")
    assert parse("penalty+SIMPLE") == parse("simple+penalty")
    assert [parse(n).name() for n in ("standard", "loose", "simple", "simple+loose",
                                      "penalty+standard", "penalty+simple")] == [
        "standard", "loose", "simple", "loose+simple", "standard+penalty", "simple+penalty"]
    for name in ("loose+penalty", "loose+simple+penalty", "", "standard loose"):
        with pytest.raises(iago.InvalidRulesError):
            parse(name)


def test_loose_simple_has_neither_forced_capture_nor_release():
    """INTERPRETATIONS: Variants are flags: the flags combine (Loose Simple is allowed)."""
    # FORCED under loose+simple: the captures of A1 and E5 are legal, but so is D3.
    b = board(FORCED, "loose+simple")
    assert "D3" in legal(b) and "A1" in legal(b) and "E5" in legal(b)
    # No release: D8 would release D6 D7 under Loose.
    b = board("5/6/7/8/9/4Dll1/7/6/5 D", "loose+simple")
    assert "D8" not in legal(b)
    assert "D8" in legal(board("5/6/7/8/9/4Dll1/7/6/5 D", "loose"))
    assert b.outcome() is None and b.scores() == (1, 0)
