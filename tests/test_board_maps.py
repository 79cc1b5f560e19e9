"""Two builds, one firmware: the default board map and a second board wired differently
(hardware/boards/serpentine.json: the LED chain in a serpentine by columns, RGB colour order,
the matrix on other pins with its columns in falling GPIO order, the crossings in chain order).
The simulated board plays on both; the LED bytes on the wire are decoded here from the JSON
alone, so a map the firmware misread would show."""

import copy
import json
from pathlib import Path

import pytest

import iago
from gameboard import palette
from gameboard.boardmap import BoardMapError, check, load
from host_sim.simboard import DEFAULT_MAP, SimBoard

SERPENTINE = DEFAULT_MAP.parent / "boards" / "serpentine.json"
MAPS = [pytest.param(DEFAULT_MAP, id="default"), pytest.param(SERPENTINE, id="serpentine")]
NAMES = [iago.cell_name(c) for c in range(iago.CELLS)]


def data_of(path):
    return json.loads(Path(path).read_text())


def wire_colours(board, data):
    """{hex: (r, g, b)} as the LED chain shows it, read from the bytes last sent on the map's
    LED pin with the map's LED positions and colour order."""
    wire = board.circuit.led_buffers[data["led_pin"]]
    order = data.get("colour_order", "GRB")
    assert len(wire) == iago.CELLS * len(order)
    colours = {}
    for name, entry in data["cells"].items():
        pixel = wire[entry["led"] * len(order):(entry["led"] + 1) * len(order)]
        colours[name] = tuple(pixel[order.index(ch)] for ch in "RGB")
    return colours


def frame_colours(board):
    """{hex: (r, g, b)}: the controller's frame through the firmware's gamma and brightness."""
    frame = board.app.controller.frame
    level = board.app.leds.level
    return {name: tuple(level(v) for v in frame[c * 3:c * 3 + 3]) for c, name in enumerate(NAMES)}


def shows(board, colour, index):
    assert board.app.leds.scale == 4096, "the current cap scaled the frame"
    return colour == tuple(board.app.leds.level(v) for v in palette.rgb(palette.STANDARD, index))


def test_the_second_map_is_really_different():
    a, b = data_of(DEFAULT_MAP), data_of(SERPENTINE)
    assert set(a["rows"] + a["cols"] + [a["led_pin"]]).isdisjoint([b["led_pin"]])
    assert a["rows"] != b["rows"] and a["cols"] != b["cols"]
    assert b["colour_order"] == "RGB" != a["colour_order"]
    same_led = [n for n in NAMES if a["cells"][n]["led"] == b["cells"][n]["led"]]
    same_crossing = [n for n in NAMES if (a["cells"][n]["row"], a["cells"][n]["col"]) ==
                     (b["cells"][n]["row"], b["cells"][n]["col"])]
    assert len(same_led) < 10 and len(same_crossing) < 10
    # A serpentine by columns: consecutive LEDs are neighbouring hexes.
    bmap = load(str(SERPENTINE))
    first = [iago.cell_name(bmap.cell_of_led[i]) for i in range(7)]
    assert first == ["A1", "B1", "C1", "D1", "E1", "F2", "E2"]
    for i in range(iago.CELLS - 1):
        a_cell, b_cell = bmap.cell_of_led[i], bmap.cell_of_led[i + 1]
        assert b_cell in [iago.hexgrid.neighbour(a_cell, d) for d in range(6)], i


@pytest.mark.parametrize("map_path", MAPS)
def test_every_switch_reads_as_its_own_hex(map_path):
    """Close each switch by its crossing in the JSON: the firmware sees exactly that hex."""
    data = data_of(map_path)
    with SimBoard(map_path=map_path) as board:
        board.advance(1200)
        for name in NAMES:
            entry = data["cells"][name]
            board.circuit.set_switch(entry["row"], entry["col"], True)
            board.advance(40)
            present = board.app.controller.referee.present
            assert [NAMES[c] for c in range(iago.CELLS) if present[c]] == [name]
            board.circuit.set_switch(entry["row"], entry["col"], False)
            board.advance(40)


@pytest.mark.parametrize("map_path", MAPS)
def test_a_short_game_with_a_capture_and_flips(map_path):
    data = data_of(map_path)
    with SimBoard(map_path=map_path) as board:
        board.advance(1200)
        assert board.command({"cmd": "version"})["board"] == data["name"]
        assert board.command({"cmd": "new_game", "rules": "loose"})["ok"]
        for name in ("D4", "D5", "D6"):          # D6 captures D5
            board.place(name)
        events = [m for m in board.received() if m.get("event") == "move"]
        assert events[-1]["captured"] == ["D5"]
        # The captive to turn alternates between its faces, on the right LED.
        seen = set()
        for _ in range(40):
            board.advance(25)
            wire = wire_colours(board, data)
            assert wire == frame_colours(board)
            seen.add(wire["D5"])
        assert any(shows(board, c, palette.LIGHT) for c in seen)
        assert any(shows(board, c, palette.LIGHT_CAPTIVE) for c in seen)
        board.flip("D5")
        flips = 1
        for _ in range(3):       # then moves that flip disks where there are such
            game = board.app.controller.game
            legal = sorted(game.legal_moves)
            flipping = [c for c in legal if any(game.flips(c))]
            board.place(iago.cell_name((flipping or legal)[0]))
            move = [m for m in board.received() if m.get("event") == "move"][-1]
            for cell in move["captured"] + move["released"]:
                board.flip(cell)
                flips += 1
        assert flips >= 2
        board.advance(500)
        game = board.app.controller.game
        assert game.ply() == 6 and board.app.controller.referee.agrees()
        # Every hex: the wire shows what the firmware composed, and the disks their faces.
        board.advance(100)
        wire = wire_colours(board, data)
        assert wire == frame_colours(board)
        faces = {iago.DARK: palette.DARK, iago.LIGHT: palette.LIGHT,
                 iago.DARK | iago.CAPTIVE: palette.DARK_CAPTIVE,
                 iago.LIGHT | iago.CAPTIVE: palette.LIGHT_CAPTIVE}
        for c, name in enumerate(NAMES):
            v = game.cell(c)
            if v and board.clock.ms % 4000 >= 300:      # not while captives show their colour
                assert shows(board, wire[name], faces[v]), name
        assert board.circuit.led_current_ma() <= data["current_budget_ma"]


# --- the map check, beyond tests/test_boardmap.py ----------------------------------------------

from test_boardmap import _delete, _set  # noqa: E402  (the same map edits)


BROKEN = [
    ("cells-not-object", _set(["cells"], []), ["cells must be an object"]),
    ("cell-not-object", _set(["cells", "A1"], 5), ["A1 must be"]),
    ("cell-missing-led", _delete(["cells", "G5", "led"]), ["G5 must be"]),
    ("cell-led-bool", _set(["cells", "G5", "led"], True), ["G5", "LED true"]),
    ("cell-row-float", _set(["cells", "G5", "row"], 1.0), ["G5", "row 1.0"]),
    ("rows-not-list", _set(["rows"], 2), ["rows must be a list"]),
    ("rows-empty", _set(["rows"], []), ["rows must be a list of 1-16"]),
    ("pin-twice-in-rows", lambda d: d["rows"].__setitem__(1, d["rows"][0]), ["rows[1]", "rows[0]"]),
    ("col-pin-is-a-row", lambda d: d["cols"].__setitem__(7, d["rows"][3]), ["cols[7]", "rows[3]"]),
    ("button-twice", lambda d: d["buttons"].__setitem__("confirm", d["buttons"]["select"]),
     ["buttons.select", "already used"]),
    ("buttons-not-object", _set(["buttons"], [20]), ["buttons must be an object"]),
    ("notes-number", _set(["notes"], 5), ["notes"]),
    ("name-number", _set(["name"], 5), ["name"]),
    ("budget-bool", _set(["current_budget_ma"], True), ["current_budget_ma", "true"]),
    ("rgbw-order-for-rgb-leds", _set(["colour_order"], "RGBW"), ["colour_order", "RGBW"]),
    ("rgb-order-for-rgbw-leds", _set(["led_type"], "SK6812-RGBW"), ["colour_order", "SK6812-RGBW"]),
    ("rows-too-few-for-the-crossings", lambda d: d.__setitem__("rows", d["rows"][:7]),
     ["row 7", "0-6"]),
    ("debounce-string", _set(["debounce_ms"], "10"), ["debounce_ms"]),
]


@pytest.mark.parametrize("map_path", MAPS)
def test_both_maps_pass_the_check(map_path):
    bmap = load(str(map_path))
    assert sorted(bmap.led_of_cell) == list(range(iago.CELLS))


@pytest.mark.parametrize("map_path", MAPS)
@pytest.mark.parametrize("change, words", [b[1:] for b in BROKEN], ids=[b[0] for b in BROKEN])
def test_a_broken_map_is_refused_naming_the_entry(map_path, change, words):
    data = copy.deepcopy(data_of(map_path))
    change(data)
    with pytest.raises(BoardMapError) as info:
        check(data)
    for word in words:
        assert word in str(info.value), str(info.value)


def test_the_simulated_board_refuses_a_broken_map(tmp_path):
    data = data_of(SERPENTINE)
    data["cells"]["E5"]["led"] = data["cells"]["E4"]["led"]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    with pytest.raises(BoardMapError, match="E4 and E5 both use LED"):
        SimBoard(map_path=bad)


def test_the_hex_layout_names_its_settings_hexes_and_corners_by_number():
    # Kept as cell numbers (parsing the names would intern them on a Pico): the hexes
    # docs/board.md names for the settings (A1-A5, B1, B6) and the six corners.
    from gameboard.layout import Layout
    from iago.hexgrid import cell_name
    layout = Layout("hex")
    assert [cell_name(c) for c in layout.setting_cells] == ["A1", "A2", "A3", "A4", "A5",
                                                            "B1", "B6"]
    assert [cell_name(c) for c in layout.corners] == ["A1", "A5", "E1", "E9", "I5", "I9"]
