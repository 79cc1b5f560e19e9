"""The firmware, unmodified, on the simulated board: switches in, LED colours out."""

import json

import pytest

import iago
from gameboard import palette
from host_sim.simboard import DEFAULT_MAP, SimBoard

C = iago.parse_cell


@pytest.fixture
def board():
    with SimBoard() as b:
        b.advance(1200)          # light check done
        b.received()
        yield b


def lit(colour):
    return sum(colour) > 0


def shows(board, colour, palette_index, pal=palette.STANDARD):
    """The LED shows that palette colour, as the firmware's gamma and brightness make it."""
    leds = board.app.leds
    assert leds.scale == 4096, "the current cap scaled the frame"
    return colour == tuple(leds.level(v) for v in palette.rgb(pal, palette_index))


def corner_colours(board, cell, ms=1500, step=25):
    """The palette colours a hex shows over `ms`, by index (None for a colour not in it)."""
    leds = board.app.leds
    table = {tuple(leds.level(v) for v in palette.rgb(palette.STANDARD, k)): k
             for k in range(11)}
    return {table.get(c) for c in blink_colours(board, cell, ms, step)}


def blink_colours(board, cell, ms=1000, step=25):
    seen = []
    for _ in range(ms // step):
        board.advance(step)
        seen.append(board.led(cell))
    return seen


def test_start_up_light_check_then_the_turn_shows():
    with SimBoard() as b:
        b.advance(100)
        assert all(c[0] > 0 and c[1] == 0 for c in b.leds().values())   # red first
        b.advance(1200)
        events = [m["event"] for m in b.received() if "event" in m]
        assert events == ["startup"]
        assert palette.DARK in corner_colours(b, "E1")                  # corners: dark to move
        assert shows(b, b.led("A1"), palette.SETTING_ON)                 # settings hex: standard


def test_a_placed_disk_lights_within_25_ms(board):
    board.place("E4", rest_ms=0)
    board.advance(25)
    assert shows(board, board.led("E4"), palette.DARK)


def test_legal_moves_are_hinted_and_vanish_with_hints_off(board):
    assert shows(board, board.led("E4"), palette.HINT_DARK)
    assert not lit(board.led("E5"))                                     # the centre: not legal
    reply = board.command({"cmd": "settings", "settings": {"hints": False}})
    assert reply["ok"]
    board.advance(30)
    assert not lit(board.led("E4"))


def test_capture_blinks_until_the_flip_is_done(board):
    board.command({"cmd": "new_game", "rules": "loose"})
    for name in ("D4", "D5"):
        board.place(name)
    board.place("D6")
    colours = blink_colours(board, "D5")
    assert any(shows(board, c, palette.LIGHT) for c in colours)
    assert any(shows(board, c, palette.LIGHT_CAPTIVE) for c in colours)
    board.flip("D5")
    assert board.disks[C("D5")] == "l"
    colours = blink_colours(board, "D5", 4000, 100)
    # a captive shows its hidden colour's red steadily (docs/board.md)
    assert all(shows(board, c, palette.LIGHT_CAPTIVE) for c in colours)
    assert board.controller.referee.agrees()
    events = [m["event"] for m in board.received() if "event" in m]
    assert "flip_done" in events and "flips_done" in events


def test_illegal_placement_blinks_error_and_changes_nothing(board):
    board.place("E5")
    colours = blink_colours(board, "E5", 500)
    assert any(shows(board, c, palette.ERROR) for c in colours)
    assert any(not lit(c) for c in colours)
    assert board.controller.game.ply() == 0
    board.lift("E5")
    board.place("E4")
    assert board.controller.game.ply() == 1


def test_switch_bounce_gives_one_event_per_placement(board):
    board.bounce_ms = 6
    board.place("E4")
    board.flip("E4")
    events = [m["event"] for m in board.received() if "event" in m]
    assert events.count("placed") == 2 and events.count("lifted") == 1
    assert board.controller.game.ply() == 1


def test_crosstalk_never_plays_a_move(board):
    board.crosstalk = 1.0
    for name in ("E4", "E6", "D4", "F6"):
        board.place(name)
    assert board.controller.game.ply() == 4
    assert board.controller.referee.agrees()


def test_a_disk_slid_across_the_board_plays_only_where_it_rests(board):
    board.slide(["E2", "E3", "E4", "D4", "C3"])
    assert board.controller.game.move_stack == [C("C3")]
    log = board.received()
    # The hexes it passed were tentative placements, withdrawn: never a move for the host.
    assert [m["cell"] for m in log if m.get("event") == "move"] == ["C3"]
    assert not [m for m in log if m.get("event") == "take_back"]
    withdrawn = [m for m in log if m.get("event") == "withdrawn"]
    assert withdrawn and all(m["why"] == "slid" for m in withdrawn)


@pytest.mark.parametrize("runtime", ["micropython", "circuitpython"])
def test_a_disk_slid_into_place_is_played_where_it_rests_whatever_it_slid_over(runtime):
    """A magnet between two hexes closes the next switch before the last one opens. The disk
    withdrew its tentative placement on the hex it left, and the board took it for a disk put
    down early for the other side: it blinked red until lifted and put back."""
    with SimBoard(runtime=runtime) as board:
        board.advance(1200)
        board.place("D4")
        # Light's disk closes C3, 25 ms later D5, 5 ms later C3 opens; it rests on D5.
        board.slide(["C3", "D5"], step_ms=30, overlap_ms=5)
        state = board.command({"cmd": "state"})["state"]
        assert state["moves"] == ["D4", "D5"] and state["extra"] == []
        # Over C3, C4 and D5 to E6, each overlapping the next, at varied speeds.
        board.lift("D5", hold_ms=1600)                      # taken back
        board.advance(100)
        assert board.command({"cmd": "state"})["state"]["moves"] == ["D4"]
        board.slide(["C3", "C4", "D5", "E6"], step_ms=[30, 120, 15], overlap_ms=10)
        state = board.command({"cmd": "state"})["state"]
        assert state["moves"] == ["D4", "E6"] and state["extra"] == []
        moves = [m["cell"] for m in board.received() if m.get("event") == "move"]
        assert moves == ["D4", "D5", "E6"]                  # never a move on the way


@pytest.mark.parametrize("runtime", ["micropython", "circuitpython"])
def test_a_slide_ending_on_an_illegal_hex_plays_nothing(runtime):
    with SimBoard(runtime=runtime) as board:
        board.advance(1200)
        board.place("D4")
        board.slide(["C3", "C4", "D5", "E5"], step_ms=40, overlap_ms=20)  # the centre: no
        state = board.command({"cmd": "state"})["state"]
        assert state["moves"] == ["D4"] and state["extra"] == ["E5"]
        board.lift("E5")
        assert board.command({"cmd": "state"})["state"]["legal"]


@pytest.mark.parametrize("runtime", ["micropython", "circuitpython"])
def test_a_settings_hex_stepped_tells_the_host_which_setting_and_its_value(runtime):
    """Stepping a settings hex changed a setting silently: the host got the whole settings
    and had to guess which one the players meant."""
    with SimBoard(runtime=runtime) as board:
        board.advance(1200)
        board.received()
        steps = []
        for name in ("A3", "A1", "A2", "B1", "B6"):
            board.place(name, rest_ms=500)
            board.lift(name)
            steps += [m for m in board.received() if m.get("event") == "settings"]
        assert [(m["cell"], m["name"], m["value"]) for m in steps] == [
            ("A3", "hints", False), ("A1", "rules", "loose"),
            ("A2", "penalty", False),            # refused with loose rules: unchanged
            ("B1", "computer", "dark"), ("B6", "level", 4)]
        assert steps[-1]["settings"]["level"] == 4 and steps[1]["settings"]["rules"] == "loose"


@pytest.mark.parametrize("runtime", ["micropython", "circuitpython"])
def test_a_refused_placement_lights_the_legal_hexes_to_say_why(runtime):
    """docs/rules.md, "Which placements are legal", steps 1 and 2: a capture is forced (the
    largest), and the outer ring and the centre take a disk only where it captures or
    releases. A refused disk only blinked red: now the hexes the mover may take light up in
    its disk colour, brighter than the hint glow (hints on or off), while it lies there."""
    with SimBoard(runtime=runtime) as board:
        board.advance(1200)
        board.place("D4")
        board.place("D5")
        dark = tuple(board.app.leds.level(v) for v in palette.rgb(palette.STANDARD,
                                                                 palette.DARK))
        legal = board.command({"cmd": "state"})["state"]["legal"]
        assert legal == ["D6"]                          # capturing D5 is forced

        def bright():
            # Steadily: the turn corners flash the same colour, 0.1 s at a time.
            seen = []
            for _ in range(3):
                seen.append({n for n, rgb in board.leds().items() if rgb == dark and
                             C(n) not in board.disks})
                board.advance(400)
            return sorted(set.intersection(*seen))

        assert bright() == []
        board.place("C2", "D")                           # inner, free: refused
        assert bright() == ["D6"]
        assert any(shows(board, c, palette.ERROR) for c in blink_colours(board, "C2", 300))
        board.lift("C2")
        assert bright() == []
        board.command({"cmd": "settings", "settings": {"hints": False}})
        board.place("A3", "D")                           # the outer ring, no flip: refused
        assert bright() == ["D6"]
        board.lift("A3")
        assert bright() == []
        board.place("D6")                                # the forced capture
        assert board.controller.game.ply() == 3


def test_stuck_switch_is_reported_at_start_up_and_shown(tmp_path):
    with SimBoard(root=tmp_path) as b:
        b.stick("C5")
        b.advance(1300)
        startup = [m for m in b.received() if m.get("event") == "startup"][0]
        assert startup["unexpected"] == ["C5"]
        colours = blink_colours(b, "C5", 500)
        assert any(shows(b, c, palette.ERROR) for c in colours)
        assert b.controller.game.ply() == 0        # a stuck switch is never played
        b.stick("C5", False)                       # mended
        b.advance(100)
        b.place("C5")
        assert b.controller.game.move_stack == [C("C5")]


def test_power_cut_resumes_the_same_game_and_guides_fixes(tmp_path):
    with SimBoard(root=tmp_path) as b:
        b.advance(1200)
        b.command({"cmd": "new_game", "rules": "loose"})
        for name in ("D4", "D5", "D6"):
            b.place(name)
        b.power_cut()                  # the D5 flip is still pending
        b.lift("D4")                   # someone knocks a disk off while the power is out
        b.advance(500)
        b.power_on()
        b.advance(1300)
        msgs = b.received()
        assert [m for m in msgs if m.get("event") == "startup"][-1]["missing"] == ["D4"]
        assert b.controller.game.move_stack == [C("D4"), C("D5"), C("D6")]
        assert b.controller.flips_pending() == [C("D5")]
        assert any(shows(b, c, palette.DARK) for c in blink_colours(b, "D4", 500))
        b.put("D4", "D")
        b.flip("D5")
        assert b.controller.referee.agrees()


def test_a_corrupt_save_is_reported_and_set_aside(tmp_path):
    (tmp_path / "game.sav").write_text('2|iago|0012002|5/6/7/8/9/8/7/6/5 D|E4|||00000000\n')
    with SimBoard(root=tmp_path) as b:
        b.advance(1300)
        msgs = b.received()
        errors = [m for m in msgs if m.get("event") == "save_error"]
        assert errors and "game.bad" in errors[0]["error"]
        assert (tmp_path / "game.bad").exists()
        b.place("E4")
        assert b.controller.game.ply() == 1


def test_watchdog_restarts_a_hung_board_into_the_saved_game(tmp_path):
    with SimBoard(root=tmp_path) as b:
        b.advance(1200)
        b.place("E4")
        b.app.watchdog = None          # the loop stops feeding it ...
        from host_sim.fakes import machine
        machine.WDT(timeout=100)       # ... while a watchdog runs
        b.advance(500)
        assert b.restarts == 1
        b.advance(1300)
        assert b.controller.game.move_stack == [C("E4")]


def test_an_uncaught_exception_is_logged_and_the_board_restarts(tmp_path):
    with SimBoard(root=tmp_path, strict=False) as b:
        b.advance(1200)
        b.place("E4")

        def broken(now):
            raise RuntimeError("simulated firmware fault")
        b.controller.tick = broken
        b.advance(50)
        assert b.restarts == 1
        assert "simulated firmware fault" in (tmp_path / "error.log").read_text()
        b.advance(1300)
        assert b.controller.game.move_stack == [C("E4")]


def _rectangle_of_inner_cells(bmap):
    """Four inner, non-centre hexes wired at the corners of a matrix rectangle."""
    free = {c for c in iago.INNER_AREA if c != iago.CENTRE}
    cell_at = {bmap.crossing_of_cell[c]: c for c in range(61)}
    for r1 in range(bmap.lines):
        for r2 in range(r1 + 1, bmap.lines):
            for c1 in range(8):
                for c2 in range(c1 + 1, 8):
                    corners = [cell_at.get(r * 8 + c) for r, c in
                               ((r1, c1), (r1, c2), (r2, c1), (r2, c2))]
                    if all(c in free for c in corners):
                        return corners
    raise AssertionError("no rectangle of inner hexes in the map")


def test_ghost_press_without_diodes_is_never_played(tmp_path):
    """On a board built without diodes, three disks at the corners of a matrix rectangle make
    the fourth crossing read closed. With `"diodes": false` in its map, the firmware never
    plays a hex that could be such a ghost, and reports it."""
    data = json.loads(DEFAULT_MAP.read_text())
    data["diodes"] = False
    path = tmp_path / "board.json"
    path.write_text(json.dumps(data))
    with SimBoard(map_path=path, root=tmp_path / "flash", diodes=False) as b:
        b.advance(1200)
        b.command({"cmd": "new_game", "rules": "loose"})
        a, bb, c, ghost = _rectangle_of_inner_cells(b.boardmap)
        b.place(a)
        b.place(bb)
        b.place(c)                       # the ghost appears with this disk
        assert ghost not in b.controller.game.move_stack
        assert any(m.get("event") == "ghost" for m in b.received())
        b.advance(2000)
        assert ghost not in b.controller.game.move_stack
        # a flip put-back that brings the ghost back alone is not played either
        b.lift(c, 200)
        b.put(c, "D")
        b.advance(1000)
        assert ghost not in b.controller.game.move_stack


def test_the_same_sequence_with_diodes_plays_all_four_corners(tmp_path):
    with SimBoard(root=tmp_path) as b:
        b.advance(1200)
        b.command({"cmd": "new_game", "rules": "loose"})
        corners = _rectangle_of_inner_cells(b.boardmap)
        for cell in corners:
            b.place(cell)
        assert b.controller.game.move_stack == corners


def test_every_host_command_over_the_serial_port(board):
    assert board.command({"cmd": "ping", "id": 1})["id"] == 1
    version = board.command({"cmd": "version"})
    assert (version["protocol"], version["game"]) == (2, "iago")
    assert board.command({"cmd": "state"})["state"]["phase"] == "play"
    assert board.command({"cmd": "new_game", "rules": "simple"})["state"]["rules"] == "simple"
    assert board.command({"cmd": "settings", "settings": {"palette": 1}})["ok"]
    board.place("E4")
    assert board.command({"cmd": "take_back"})["state"]["moves"] == []
    assert board.command({"cmd": "claim"})["granted"] is False
    assert board.command({"cmd": "games"})["games"] == []
    assert not board.command({"cmd": "game", "game": 1})["ok"]
    assert not board.command("{broken")["ok"]


def test_buttons_take_back_and_claim(board):
    select, confirm = board.boardmap.buttons["select"], board.boardmap.buttons["confirm"]
    board.command({"cmd": "new_game", "rules": "standard+penalty"})
    for name in ("D4", "D5"):
        board.place(name)
    board.circuit.press(select)             # take back light's D5
    board.advance(60)
    board.circuit.press(select, False)
    board.advance(60)
    assert board.controller.game.move_stack == [C("D4")]
    board.lift("D5")
    board.place("D5")
    board.place("B2")                       # dark misses the capture on D6
    board.circuit.press(confirm)            # light claims
    board.advance(60)
    board.circuit.press(confirm, False)
    board.advance(60)
    assert board.controller.game.has_free_placement()
    board.circuit.press(confirm)            # a bounce shorter than 30 ms does nothing
    board.advance(10)
    board.circuit.press(confirm, False)
    board.advance(60)
    claims = [m for m in board.received() if m.get("event") == "claim"]
    assert [c["granted"] for c in claims] == [True]


def test_power_cut_between_two_flips_asks_only_for_the_flip_not_done(tmp_path):
    with SimBoard(root=tmp_path) as b:
        b.advance(1200)
        b.command({"cmd": "new_game", "rules": "loose"})
        for name in ("D3", "D4", "G5", "D5"):
            b.place(name)
        b.place("D6")                     # dark captures D4 and D5
        assert sorted(b.controller.flips_pending()) == [C("D4"), C("D5")]
        b.flip("D4")
        b.power_cut()
        b.power_on()
        b.advance(1300)
        assert b.controller.flips_pending() == [C("D5")]


def test_a_disk_placed_while_the_previous_one_settles_is_played_after_it(board):
    board.place("D4", rest_ms=100)      # light answers before dark's disk has settled
    board.place("D5")
    assert board.controller.game.move_stack == [C("D4"), C("D5")]


def test_self_test_from_the_host_link_and_from_select_held_at_power_on(tmp_path):
    with SimBoard(root=tmp_path) as b:
        b.advance(1200)
        assert b.command({"cmd": "selftest"})["ok"]
        b.advance(200)
        assert type(b.mode).__name__ == "SelfTest"
        b.circuit.press(b.boardmap.buttons["select"])
        b.power_cut()
        b.power_on()
        b.advance(200)
        assert type(b.mode).__name__ == "SelfTest"
        b.circuit.press(b.boardmap.buttons["select"], False)
        b.power_cut()
        b.power_on()                      # without the button: the game as usual
        b.advance(1300)
        assert type(b.mode).__name__ == "Controller"
        events = [m.get("event") for m in b.received()]
        assert events.count("selftest_start") == 2
