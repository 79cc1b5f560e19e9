"""The board map: the default file passes, and every kind of mistake is caught and named."""

import copy
import json
from pathlib import Path

import pytest

import iago
from gameboard import boardmap
from gameboard.boardmap import NO_CELL, BoardMapError, check, load

DEFAULT_MAP = Path(__file__).resolve().parent.parent / "hardware" / "board.json"


@pytest.fixture(scope="module")
def default_data():
    return json.loads(DEFAULT_MAP.read_text())


def broken(data, change):
    data = copy.deepcopy(data)
    change(data)
    return data


def test_default_map_passes_with_its_tables():
    bmap = load(DEFAULT_MAP)
    assert bmap.name == "iago-board-rev2"
    assert bmap.row_pins == (8, 9, 10, 11, 12, 13, 14, 15, 16)
    assert bmap.col_pins == (0, 1, 2, 3, 4, 5, 6, 7)
    assert bmap.led_pin == 22
    assert bmap.buttons == {"select": 20, "confirm": 21}
    assert bmap.colour_order == (1, 0, 2) and bmap.bpp == 3
    assert (bmap.current_budget_ma, bmap.led_ma_per_channel, bmap.led_idle_ma,
            bmap.debounce_ms) == (500, 20, 1, 10)
    assert isinstance(bmap.cell_of_crossing, bytearray) and len(bmap.cell_of_crossing) == 72
    assert isinstance(bmap.led_of_cell, bytearray) and len(bmap.led_of_cell) == 61
    # Every cell at exactly one crossing, 11 crossings unused; LEDs a permutation.
    used = [c for c in bmap.cell_of_crossing if c != NO_CELL]
    assert sorted(used) == list(range(61))
    assert sorted(bmap.led_of_cell) == list(range(61))
    for cell in range(61):
        assert bmap.cell_of_crossing[bmap.crossing_of_cell[cell]] == cell
        assert bmap.cell_of_led[bmap.led_of_cell[cell]] == cell


def test_default_map_wires_rows_along_rows_and_columns_as_chevrons():
    """The default map is made for a PCB and for short hand-wired lines: row line r is board
    row r (A-I) and column line c the hexes c places from each row's right end, a chevron of
    neighbouring hexes; E1, the one ninth place, is on row line 6 (row G's line, which
    passes it on the way to the Pico) and column line 7, beside its neighbours D1, E2, F2."""
    bmap = load(DEFAULT_MAP)
    grid = iago.hexgrid
    lines = {}
    for cell in range(61):
        name = iago.cell_name(cell)
        crossing = bmap.crossing_of_cell[cell]
        row, col = crossing >> 3, crossing & 7
        lines.setdefault(col, []).append(cell)
        last = max(grid.NUMBER_OF[c] for c in range(61) if grid.ROW_OF[c] == grid.ROW_OF[cell])
        if name == "E1":
            assert (row, col) == (6, 7)
            continue
        assert row == grid.ROW_OF[cell], name
        assert col == last - grid.NUMBER_OF[cell], name
    for col, cells in lines.items():
        chevron = sorted((c for c in cells if iago.cell_name(c) != "E1"),
                         key=grid.ROW_OF.__getitem__)
        for a, b in zip(chevron, chevron[1:]):
            assert b in [grid.neighbour(a, d) for d in range(6)], (col, a, b)
    e1 = iago.parse_cell("E1")
    assert {iago.cell_name(grid.neighbour(e1, d)) for d in range(6)
            if grid.neighbour(e1, d) is not None} >= {"D1", "E2", "F2"}


def test_default_chain_runs_boustrophedon_through_the_rows(default_data):
    led = {name: entry["led"] for name, entry in default_data["cells"].items()}
    assert [led[n] for n in ("A1", "A5", "B6", "B1", "C1", "I9")] == [0, 4, 5, 10, 11, 60]
    # Consecutive LEDs are neighbouring hexes: the chain never jumps across the board.
    bmap = check(default_data)
    for i in range(60):
        a, b = bmap.cell_of_led[i], bmap.cell_of_led[i + 1]
        assert b in [iago.hexgrid.neighbour(a, d) for d in range(6)], (i, a, b)


def test_defaults_fill_optional_entries(default_data):
    data = broken(default_data, lambda d: [d.pop(k, None) for k in boardmap.DEFAULTS])
    bmap = check(data)
    assert bmap.buttons == {} and bmap.debounce_ms == 10 and bmap.colour_order == (1, 0, 2)
    assert bmap.diodes is True


def test_diodes_must_be_true_or_false(default_data):
    with pytest.raises(BoardMapError) as info:
        check(broken(default_data, _set(["diodes"], "no")))
    assert "diodes" in str(info.value)
    assert check(broken(default_data, _set(["diodes"], False))).diodes is False


def _set(path, value):
    def change(data):
        target = data
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
    return change


def _delete(path):
    def change(data):
        target = data
        for key in path[:-1]:
            target = target[key]
        del target[path[-1]]
    return change


def _steal(cell, field, donor):
    return lambda d: d["cells"][cell].__setitem__(field, d["cells"][donor][field])


BROKEN = [
    # (id, change, words the message must contain)
    ("missing-cell", _delete(["cells", "E5"]), ["missing", "E5"]),
    ("unknown-cell", _set(["cells", "J1"], {"row": 7, "col": 7, "led": 0}), ["unknown cell", "J1"]),
    ("lower-case-cell", _set(["cells", "e5"], {"row": 7, "col": 7, "led": 0}), ["e5"]),
    ("duplicate-crossing", lambda d: (_steal("B2", "row", "A1")(d), _steal("B2", "col", "A1")(d)),
     ["A1", "B2", "row 0 and col 4"]),
    ("duplicate-led", _steal("I9", "led", "A1"), ["A1", "I9", "LED 0"]),
    ("led-out-of-range", _set(["cells", "C3", "led"], 61), ["C3", "LED 61", "out of range"]),
    ("led-negative", _set(["cells", "C3", "led"], -1), ["C3", "LED -1"]),
    ("row-out-of-range", _set(["cells", "D4", "row"], 9), ["D4", "row 9", "0-8"]),
    ("col-not-int", _set(["cells", "D4", "col"], "3"), ["D4", "col"]),
    ("cell-extra-field", _set(["cells", "D4", "colour"], 1), ["D4"]),
    ("duplicate-pin", _set(["cols", 0], 8), ["cols[0]", "GP8", "rows[0]"]),
    ("led-pin-on-a-row", _set(["led_pin"], 16), ["led_pin", "GP16", "rows[8]"]),
    ("button-on-a-col", _set(["buttons", "confirm"], 7), ["buttons.confirm", "cols[7]"]),
    ("pin-23", _set(["rows", 3], 23), ["rows[3]", "23", "not a usable Pico GPIO"]),
    ("pin-24", _set(["buttons", "select"], 24), ["buttons.select", "24"]),
    ("pin-25", _set(["cols", 5], 25), ["cols[5]", "25"]),
    ("pin-29", _set(["led_pin"], 29), ["led_pin", "29"]),
    ("pin-40", _set(["rows", 0], 40), ["rows[0]", "40"]),
    ("pin-negative", _set(["rows", 0], -1), ["rows[0]", "-1"]),
    ("pin-bool", _set(["led_pin"], True), ["led_pin", "true"]),
    ("seventeen-rows", _set(["rows"], list(range(17))), ["rows", "1-16"]),
    ("nine-cols", _set(["cols"], list(range(10, 19))), ["cols", "1-8"]),
    ("unknown-button", _set(["buttons", "start"], 18), ["buttons", "start"]),
    ("colour-order-letter", _set(["colour_order"], "GRX"), ["colour_order", "GRX"]),
    ("colour-order-twice", _set(["colour_order"], "GGB"), ["colour_order", "GGB"]),
    ("colour-order-length", _set(["colour_order"], "GRBW"), ["colour_order", "GRBW"]),
    ("led-type", _set(["led_type"], "APA102"), ["led_type", "APA102"]),
    ("budget-zero", _set(["current_budget_ma"], 0), ["current_budget_ma", "0"]),
    ("budget-negative", _set(["current_budget_ma"], -500), ["current_budget_ma", "-500"]),
    ("budget-below-idle", _set(["current_budget_ma"], 61), ["current_budget_ma", "idle"]),
    ("budget-float", _set(["current_budget_ma"], 500.5), ["current_budget_ma", "500.5"]),
    ("per-channel-zero", _set(["led_ma_per_channel"], 0), ["led_ma_per_channel"]),
    ("idle-negative", _set(["led_idle_ma"], -1), ["led_idle_ma"]),
    ("debounce-zero", _set(["debounce_ms"], 0), ["debounce_ms", "0"]),
    ("debounce-negative", _set(["debounce_ms"], -10), ["debounce_ms", "-10"]),
    ("debounce-huge", _set(["debounce_ms"], 5000), ["debounce_ms", "5000"]),
    ("unknown-entry", _set(["led_count"], 61), ["unknown entry", "led_count"]),
    ("missing-entry", _delete(["rows"]), ["missing entry", "rows"]),
    ("format", _set(["format"], 2), ["format 2"]),
    ("name", _set(["name"], ""), ["name"]),
]


@pytest.mark.parametrize("change, words", [b[1:] for b in BROKEN], ids=[b[0] for b in BROKEN])
def test_broken_map_is_rejected_naming_the_entry(default_data, change, words):
    with pytest.raises(BoardMapError) as info:
        check(broken(default_data, change))
    message = str(info.value)
    for word in words:
        assert word in message, message


def test_board_map_error_is_a_value_error():
    assert issubclass(BoardMapError, ValueError)
    with pytest.raises(ValueError, match="JSON object"):
        check([1, 2])


def test_other_colour_orders(default_data):
    for order, expected in (("RGB", (0, 1, 2)), ("BRG", (1, 2, 0)), ("GBR", (2, 0, 1))):
        bmap = check(broken(default_data, _set(["colour_order"], order)))
        assert bmap.colour_order == expected
        assert [order[o] for o in expected] == ["R", "G", "B"]
    bmap = check(broken(default_data, lambda d: d.update(led_type="SK6812-RGBW",
                                                         colour_order="GRBW")))
    assert bmap.bpp == 4 and bmap.colour_order == (1, 0, 2, 3)


def test_notes_are_allowed(default_data):
    assert check(broken(default_data, _set(["notes"], ["rev 1 prototype"]))).name


def test_load_reports_bad_json_and_missing_files(tmp_path):
    bad = tmp_path / "board.json"
    bad.write_text('{"format": 1,')
    with pytest.raises(BoardMapError, match="not valid JSON"):
        load(str(bad))
    with pytest.raises(OSError):
        load(str(tmp_path / "absent.json"))
