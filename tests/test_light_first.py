"""Light first: a disk that will be played lights before the firmware plays it (docs/board.md,
"A disk lights the instant it lands"; issue of the board at a player's pace). The LED bytes
are read from the simulated chain at the moment the controller is handed the closing."""

import json

import pytest

from gameboard import palette
from host_sim.simboard import DEFAULT_MAP, SimBoard

DARK_DISK = palette.rgb(palette.STANDARD, palette.DARK)
LIGHT_DISK = palette.rgb(palette.STANDARD, palette.LIGHT)


@pytest.fixture
def board():
    with SimBoard(strict=True) as b:
        b.advance(1200)          # the light check
        b.received()
        yield b


def watch_switches(board):
    """Record, for every closing the game's controller is handed, the LED colour its hex
    already shows on the chain and how many moves the game had then."""
    seen = []
    ctl = board.app.controller
    switch = ctl.switch
    leds = board.app.leds

    def recorded(cell, closed, now, ambiguous=False):
        if closed:
            colour = board.circuit.led_colours()[cell]
            seen.append((ctl.name(cell), colour, ctl.game.ply()))
        return switch(cell, closed, now, ambiguous)

    ctl.switch = recorded
    return seen, leds


def emitted(leds, rgb):
    return tuple(leds.level(v) for v in rgb)


def test_a_legal_placement_is_lit_before_it_is_played(board):
    seen, leds = watch_switches(board)
    board.place("E4")
    assert seen == [("E4", emitted(leds, DARK_DISK), 0)]
    assert board.circuit.led_colours()[board.layout.parse_cell("E4")] == emitted(leds, DARK_DISK)
    assert board.app.controller.game.ply() == 1


def test_the_light_is_the_movers_colour_and_what_the_full_frame_shows(board):
    seen, leds = watch_switches(board)
    board.place("E4")
    board.place("E6")
    cell = board.layout.parse_cell("E6")
    assert seen[-1] == ("E6", emitted(leds, LIGHT_DISK), 1)
    board.advance(50)
    assert board.circuit.led_colours()[cell] == emitted(leds, LIGHT_DISK)


def test_an_illegal_placement_is_not_lit_as_a_disk(board):
    seen, leds = watch_switches(board)
    before = board.circuit.led_colours()[board.layout.parse_cell("E5")]
    board.place("E5")                       # not a legal first move: an error, never a disk
    name, colour, plies = seen[0]
    assert (name, plies) == ("E5", 0)
    assert colour == before and colour != emitted(leds, DARK_DISK)
    assert board.app.controller.game.ply() == 0


def test_a_disk_while_flips_are_pending_is_not_lit_first(board):
    seen, leds = watch_switches(board)
    for name in ("E4", "E6", "D5"):
        board.place(name)
    board.place("C4")                       # captures D5: D5 must be turned
    board.advance(600)
    plies = board.app.controller.game.ply()
    before = board.circuit.led_colours()[board.layout.parse_cell("F6")]
    board.place("F6")                       # early: it waits for the flip, not lit as played
    assert seen[-1] == ("F6", before, plies)


def test_under_the_current_cap_the_light_is_scaled_as_the_frame(board):
    leds = board.app.leds
    wire = bytearray(leds.wire)
    leds.scale = 2048                       # as if the last frame had been capped to half
    cell = board.layout.parse_cell("E4")
    out = leds.light(cell, palette.STANDARD, palette.DARK)
    order = board.boardmap.colour_order
    at = board.boardmap.led_of_cell[cell] * board.boardmap.bpp
    assert [out[at + order[c]] for c in range(3)] == [
        (leds.level(v) * 2048) >> 12 for v in DARK_DISK]
    assert out is leds.wire and out[:at] == wire[:at]      # nothing else changed


def test_a_disk_lights_at_its_first_contact_before_the_debounce_ends(board):
    """The debounce waits 10 ms of a steady switch before the game sees the disk; its light
    does not wait: it goes out at the first scan that sees the switch closed."""
    cell = board.layout.parse_cell("E4")
    board.place("E4", rest_ms=4)
    assert board.circuit.led_colours()[cell] == emitted(board.app.leds, DARK_DISK)
    assert board.app.controller.game.ply() == 0 and not board.app.controller.referee.present[cell]
    board.advance(400)
    assert board.app.controller.game.ply() == 1


def test_a_contact_that_comes_to_nothing_is_painted_over(board):
    """A bounce or a disk slid past: lit at contact, dark again within a frame, no move."""
    cell = board.layout.parse_cell("E4")
    before = board.circuit.led_colours()[cell]
    board.place("E4", rest_ms=4)
    assert board.circuit.led_colours()[cell] == emitted(board.app.leds, DARK_DISK)
    board.lift("E4", hold_ms=30)
    assert board.circuit.led_colours()[cell] == before
    assert board.app.controller.game.ply() == 0
    assert not [m for m in board.received() if m.get("event") in ("placed", "tentative")]


def test_a_slide_lights_its_path_and_plays_only_where_it_rests(board):
    board.slide(["E5", "E4"], step_ms=40)
    board.advance(400)
    leds = board.app.leds
    colours = board.circuit.led_colours()
    assert colours[board.layout.parse_cell("E4")] == emitted(leds, DARK_DISK)
    assert colours[board.layout.parse_cell("E5")] != emitted(leds, DARK_DISK)
    assert [board.app.controller.name(c) for c in board.app.controller.game.move_stack] == ["E4"]


def test_without_diodes_a_contact_waits_for_its_debounce(tmp_path):
    """A matrix without diodes can show a ghost closing until it is debounced: no light at
    contact there, but still before the placement is played."""
    data = json.loads(DEFAULT_MAP.read_text())
    data["diodes"] = False
    path = tmp_path / "board.json"
    path.write_text(json.dumps(data))
    with SimBoard(map_path=path, root=tmp_path / "flash", diodes=False, strict=True) as b:
        b.advance(1200)
        cell = b.layout.parse_cell("E4")
        before = b.circuit.led_colours()[cell]
        b.place("E4", rest_ms=4)
        assert b.circuit.led_colours()[cell] == before
        b.advance(20)
        assert b.circuit.led_colours()[cell] == emitted(b.app.leds, DARK_DISK)


def test_the_computers_hex_is_never_dimmer_than_the_legal_move_glow(board):
    """The chosen hex blinked between the mover's colour and off: in its off half it was the
    darkest hex among the glowing legal moves around it."""
    board.command({"cmd": "suggest"})
    board.advance(1500)
    suggestion = [m for m in board.received() if m.get("event") == "suggestion"]
    assert suggestion
    cell = board.layout.parse_cell(suggestion[0]["cell"])
    leds = board.app.leds
    glow = sum(emitted(leds, palette.rgb(palette.STANDARD, palette.HINT_DARK)))
    seen = set()
    for _ in range(40):
        board.advance(25)
        seen.add(board.circuit.led_colours()[cell])
    assert emitted(leds, DARK_DISK) in seen and len(seen) == 2
    assert min(sum(c) for c in seen) >= glow


def test_the_stats_time_a_disk_from_its_first_contact_to_its_light(board):
    assert board.command({"cmd": "stats"})["ok"]            # starts the timing
    board.place("E4")
    stats = board.command({"cmd": "stats"})
    assert stats["closings_timed"] == 1
    # Lit at the scan that saw the contact: the LED wire's own time, well before the 10 ms
    # the debounce waits.
    assert 0 < stats["closing_to_frame_us"] < board.boardmap.debounce_ms * 1000


@pytest.mark.parametrize("phase", ["_switch_events", "tick", "refresh"])
def test_a_disk_put_down_during_a_long_phase_of_a_step_lights_before_the_step_ends(phase):
    """A step's long phases (a debounced placement handed to the referee, a placement settling,
    the frame) take 2-5 ms each on a Pico: a disk that lands meanwhile is seen by the scan
    that follows the phase and lit then, not after the rest of the step. Here the phase takes
    5 ms of the board's time, and the disk lands in the middle of it."""
    with SimBoard(strict=True) as board:
        board.advance(1200)
        app = board.app
        cell = board.layout.parse_cell("E4")
        landed = []
        slow = getattr(app, phase)

        def slow_phase(*args):
            result = slow(*args)
            if not landed:
                board.clock.advance(2.5)
                board.disks[cell] = "D"
                board._switch_changed(cell, True)
                landed.append(board.clock.us)
                board.clock.advance(2.5)
            return result

        setattr(app, phase, slow_phase)
        app.redraw = True                 # a frame in this step
        app.step()
        assert landed, "the phase ran in the step"
        assert board.circuit.led_colours()[cell] == emitted(app.leds, DARK_DISK)


def test_a_frame_a_poll_draws_is_not_drawn_again_by_its_step():
    """A poll that finds news draws it at once (after a long phase of the step); the step's own
    frame then comes only if something changed since, not because the poll's frame is newer
    than the step's start (ticks compared the wrong way round look 2**30 ms old)."""
    with SimBoard(strict=True) as board:
        board.advance(1200)
        app = board.app
        frames = []
        refresh = app.refresh
        app.refresh = lambda now: frames.append(now) or refresh(now)
        tick = app.tick

        def slow_tick(now):
            mode = tick(now)
            board.clock.advance(3)
            mode.dirty = True             # news for the poll to draw
            return mode

        app.tick = slow_tick
        app.step()
        assert len(frames) == 1, frames


def test_switches_that_chatter_without_end_cannot_hold_a_step():
    """Each poll scans twice at most: a step whose every scan finds news (a reed that never
    settles) still ends, and the watchdog is fed."""
    with SimBoard(strict=True) as board:
        board.advance(1200)
        app = board.app
        sense = app.sense
        scans = []

        def chattering(now):
            scans.append(now)
            if len(scans) > 50:
                raise AssertionError("the step never ends")
            sense(now)
            board.clock.advance(3)
            app.mode.dirty = True

        app.sense = chattering
        app.step()
        assert len(scans) <= 5
