"""Position text and cell names at the edges: what is accepted, and errors that name the
offending token (INTERPRETATIONS: Position text; Board and names)."""

import pytest

import iago

EMPTY = "5/6/7/8/9/8/7/6/5 D"
ROWS = [("A", 1, 5), ("B", 1, 6), ("C", 1, 7), ("D", 1, 8), ("E", 1, 9),
        ("F", 2, 9), ("G", 3, 9), ("H", 4, 9), ("I", 5, 9)]
NAMES = [row + str(n) for row, low, high in ROWS for n in range(low, high + 1)]


def error_of(text):
    with pytest.raises(iago.InvalidPositionError) as caught:
        iago.Board(text)
    return str(caught.value)


# --- errors name the offending token --------------------------------------------------------

@pytest.mark.parametrize("text, token", [
    ("5/6/7/8/4X4/8/7/6/5 D", "'X'"),       # unknown letter
    ("5/6/7/8/4x4/8/7/6/5 D", "'x'"),
    ("5/6/7/8/9/8/7/6/05 D", "'0'"),        # 0 is not a run length
    ("5/6/7/8/4-4/8/7/6/5 D", "'-'"),
    ("5/6/7/8/4E4/8/7/6/5 D", "'E'"),       # a cell name is not a disk
])
def test_bad_character_is_named(text, token):
    message = error_of(text)
    assert token in message
    assert "row E" in message or "row A" in message


@pytest.mark.parametrize("text, row, count", [
    ("5/6/7/8/8/8/7/6/5 D", "E", "8"),      # one short
    ("5/6/7/8/9/9/7/6/5 D", "D", "9"),      # one too many
    ("DDDDDD/6/7/8/9/8/7/6/5 D", "I", "6"),  # disks past the end of row I
    ("5/6/7/8/9/8/7/6/ D", "A", "0"),       # an empty row
    ("5/6/7/8/5D4/8/7/6/5 D", "E", "10"),
])
def test_wrong_row_length_names_the_row(text, row, count):
    message = error_of(text)
    assert "row %s" % row in message
    assert count in message


@pytest.mark.parametrize("text, got", [
    ("5/6/7/8/9/8/7/6 D", "8"),
    ("5/6/7/8/9/8/7/6/5/5 D", "10"),
    ("5678987655 D", "1"),
])
def test_wrong_row_count_is_named(text, got):
    message = error_of(text)
    assert "9 rows" in message and ("got %s" % got) in message


@pytest.mark.parametrize("side", ["X", "d", "l", "DL", "1", "dark"])
def test_bad_side_to_move_is_named(side):
    message = error_of("5/6/7/8/9/8/7/6/5 " + side)
    assert repr(side) in message


def test_missing_side_to_move():
    message = error_of("5/6/7/8/9/8/7/6/5")
    assert "side" in message
    with pytest.raises(iago.InvalidPositionError):
        iago.Board("")


@pytest.mark.parametrize("field", ["pending", "MISS", "Free", "-", "0"])
def test_unknown_trailing_field_is_named(field):
    message = error_of(EMPTY + " " + field)
    assert repr(field) in message


def test_miss_and_free_exclude_each_other():
    message = error_of(EMPTY + " miss free")
    assert "miss" in message and "free" in message


def test_non_string_position_is_an_error():
    for value in (None, 5, b"5/6/7/8/9/8/7/6/5 D"):
        with pytest.raises(iago.InvalidPositionError):
            iago.Board().set_text(value)
    with pytest.raises(iago.InvalidPositionError):
        iago.Board(b"5/6/7/8/9/8/7/6/5 D")


def test_position_errors_are_iago_errors_and_value_errors():
    with pytest.raises(iago.IagoError):
        iago.Board("nonsense D")
    with pytest.raises(ValueError):
        iago.Board("nonsense D")


def test_a_bad_text_leaves_the_board_unchanged():
    b = iago.Board()
    b.play("E4")
    b.play("E6")
    text, stack = b.text(), b.move_stack
    for bad in ("5/6/7/8/4X4/8/7/6/5 D", "5/6/7/8/9/8/7/6 D", EMPTY + " pending",
                "5/6/7/8/9/8/7/6/5 X", "DDDDD/6/7/8/8/8/7/6/5 D"):
        with pytest.raises(iago.InvalidPositionError):
            b.set_text(bad)
        assert b.text() == text and b.move_stack == stack


# --- accepted forms -----------------------------------------------------------------------

def test_from_text_is_the_constructor():
    rules = iago.Rules.parse("loose")
    b = iago.Board.from_text("5/6/7/8/4D4/8/7/6/5 L", rules)
    assert b.text() == "5/6/7/8/4D4/8/7/6/5 L" and b.rules == rules
    assert str(b) == b.text()


def test_consecutive_digits_add_up():
    assert iago.Board("5/6/7/8/45/8/7/6/5 D").text() == EMPTY
    assert iago.Board("11111/6/7/8/9/8/7/6/5 D").text() == EMPTY
    assert "row E" in error_of("5/6/7/8/46/8/7/6/5 D")


def test_digits_and_dots_mix_in_a_row():
    b = iago.Board("1.1.1/6/7/8/4D..1./8/7/6/5 L")
    assert b.text() == "5/6/7/8/4D4/8/7/6/5 L"
    assert b.cell(iago.parse_cell("E5")) == iago.DARK


def test_every_row_holds_its_own_width():
    for row, low, high in ROWS:
        # A light disk on the row's last cell, everything else empty.
        rows = {r: str(h - lo + 1) for r, lo, h in ROWS}
        rows[row] = (str(high - low) if high > low else "") + "L"
        text = "/".join(rows[r] for r in "IHGFEDCBA") + " D"
        b = iago.Board(text)
        assert b.cell(iago.parse_cell(row + str(high))) == iago.LIGHT
        assert b.text() == text


# --- cell names ---------------------------------------------------------------------------

@pytest.mark.parametrize("name, cell", [("a1", 0), ("e5", 30), ("i9", 60), ("b6", 10),
                                        ("f2", 35), ("E5", 30), ("h4", 50)])
def test_parse_cell_accepts_lower_case(name, cell):
    assert iago.parse_cell(name) == cell
    assert iago.cell_name(cell) == name.upper()


def test_every_cell_name_round_trips():
    assert [iago.parse_cell(n) for n in NAMES] == list(range(61))
    assert [iago.parse_cell(n.lower()) for n in NAMES] == list(range(61))
    assert [iago.cell_name(c) for c in range(61)] == NAMES


@pytest.mark.parametrize("name", ["", "E", "5", "E10", "E0", "J1", "Z9", "A6", "B7", "F1",
                                  "G2", "H3", "I4", "I10", "5E", "EE", "E5x", "E-5", "@5"])
def test_invalid_cell_names_raise_invalid_cell_error(name):
    with pytest.raises(iago.InvalidCellError) as caught:
        iago.parse_cell(name)
    assert repr(name) in str(caught.value)
    assert isinstance(caught.value, iago.IagoError) and isinstance(caught.value, ValueError)


@pytest.mark.parametrize("value", [None, 30, 3.0, ["E5"]])
def test_parse_cell_rejects_non_strings(value):
    with pytest.raises(iago.InvalidCellError):
        iago.parse_cell(value)


@pytest.mark.parametrize("cell", [-1, 61, 255, "E5", None, 30.0])
def test_invalid_cell_indexes_raise_invalid_cell_error(cell):
    with pytest.raises(iago.InvalidCellError) as caught:
        iago.cell_name(cell)
    assert repr(cell) in str(caught.value)


def test_play_with_a_bad_cell_name():
    b = iago.Board()
    with pytest.raises(iago.InvalidCellError):
        b.play("J5")
    with pytest.raises(iago.InvalidCellError):
        b.play(61)
    assert b.text() == EMPTY


def test_illegal_move_error_names_the_move_and_lists_the_legal_ones():
    b = iago.Board("5/6/7/8/5LLD1/8/4LD1/6/1LLD1 D")
    with pytest.raises(iago.IllegalMoveError) as caught:
        b.play("d3")
    message = str(caught.value)
    assert "D3" in message and "A1 E5" in message
    with pytest.raises(iago.IllegalMoveError) as caught:
        b.play("A2")          # occupied
    assert "A2" in str(caught.value)
    with pytest.raises(iago.IllegalMoveError):
        iago.Board().play("E5")   # the centre without a flip


def test_unknown_rules_name_the_word():
    with pytest.raises(iago.InvalidRulesError) as caught:
        iago.Rules.parse("standard+turbo")
    assert "'turbo'" in str(caught.value)
    with pytest.raises(iago.InvalidRulesError):
        iago.Rules.parse("")

